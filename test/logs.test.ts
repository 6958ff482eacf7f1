import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { makeLogger } from '../src/logger';
import { makeUser, startTestApp, TestApp } from './support/app';
import { ChildServer, startChildServer } from './support/child';
import { createTestDatabase, query } from './support/databases';
import { until } from './support/until';

/**
 * The log (docs/operations.md, "Logs"): pino JSON lines; one request line with the request id,
 * the caller, the route template, the status and the duration; probes at debug; credentials
 * redacted by configuration, in headers, body fields and wherever their shape shows.
 */
function capture() {
  const lines: Record<string, any>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, stream, text: () => lines.map((line) => JSON.stringify(line)).join('\n') };
}

let t: TestApp;
const log = capture();
beforeAll(async () => {
  t = await startTestApp({ LOG_LEVEL: 'debug' }, { logger: makeLogger('debug', log.stream) });
});
afterAll(async () => t?.close());

test('a request line: request id, caller, route template, status, duration; no credential anywhere, header or path', async () => {
  const user = await makeUser(t);
  const planted = 'ldk_pat_plantedInThePath0123456789abcdef';
  await t.call('GET', `/api/trajectories/${planted}`, { token: user.token, headers: { 'x-request-id': 'req-logs-1' } });
  await t.call('GET', '/api/me', { token: user.token, headers: { 'x-request-id': 'req-logs-2' } });

  const request = log.lines.find((line) => line.msg === 'request' && line.requestId === 'req-logs-2')!;
  expect(request).toMatchObject({
    level: 'info',
    method: 'GET',
    path: '/api/me',
    route: '/api/me',
    status: 200,
    caller: user.id,
    ms: expect.any(Number),
  });
  expect(Date.parse(request.time)).not.toBeNaN();
  const missing = log.lines.find((line) => line.msg === 'request' && line.requestId === 'req-logs-1')!;
  expect(missing).toMatchObject({ route: '/api/trajectories/:session_id', path: '/api/trajectories/ldk_[redacted]', status: 404 });
  // The headers line (debug) shows the header was there, redacted.
  const headers = log.lines.find((line) => line.msg === 'request headers' && line.requestId === 'req-logs-2')!;
  expect(headers.headers).toMatchObject({ authorization: '[redacted]', 'x-request-id': 'req-logs-2' });
  expect(log.text()).not.toContain(user.token);
  expect(log.text()).not.toContain(t.adminToken);
  expect(log.text()).not.toContain('plantedInThePath');
});

test('probes log at debug, everything else at info', async () => {
  await t.call('GET', '/healthz', { headers: { 'x-request-id': 'req-probe' } });
  expect(log.lines.find((line) => line.msg === 'request' && line.requestId === 'req-probe')).toMatchObject({
    level: 'debug',
    path: '/healthz',
  });
});

test('body fields named as credentials are redacted by configuration; the rest is kept', () => {
  const own = capture();
  const logger = makeLogger('info', own.stream);
  logger.warn('a body', {
    body: { password: 'hunter2hunter2', token: 'opaque-token-value', note: 'kept', nested: { refresh_token: 'r' } },
    headers: { authorization: 'Bearer x', cookie: 'labdesk_session=s' },
  });
  logger.info('a message naming ldk_a2a_abcdefghijkl_0123456789012345678901234567890123456789 in its text');
  logger.debug('below the level');
  expect(own.lines).toEqual([
    {
      level: 'warn',
      time: expect.any(String),
      msg: 'a body',
      body: { password: '[redacted]', token: '[redacted]', note: 'kept', nested: { refresh_token: '[redacted]' } },
      headers: { authorization: '[redacted]', cookie: '[redacted]' },
    },
    { level: 'info', time: expect.any(String), msg: 'a message naming ldk_[redacted] in its text' },
  ]);
});

describe('a service in its own process, as a container runs it', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataDir: string;
  let served: ChildServer;
  /** Every line it wrote so far, stdout and stderr, each parsed (a line that is not JSON fails the test, naming it). */
  const lines = () =>
    [served.stdout(), served.stderr()]
      .flatMap((text) => text.split('\n'))
      .filter(Boolean)
      .map((line) => {
        try {
          return JSON.parse(line) as Record<string, any>;
        } catch {
          throw new Error(`not a JSON line: ${line}`);
        }
      });
  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-logs-'));
    // Preloaded into the service (NODE_OPTIONS=--require): on SIGUSR2 it leaks listeners the way the
    // operator's log showed, so Node raises its MaxListenersExceededWarning in the service's process.
    const preload = path.join(dataDir, 'max-listeners-on-signal.cjs');
    fs.writeFileSync(
      preload,
      `const { EventEmitter } = require('node:events');
process.on('SIGUSR2', () => {
  const emitter = new EventEmitter();
  for (let i = 0; i <= EventEmitter.defaultMaxListeners; i++) emitter.on('change', () => undefined);
});
`,
    );
    served = await startChildServer(
      {
        LOG_LEVEL: 'info',
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${preload}`,
      },
      { keepOutput: true },
    );
  });
  afterAll(async () => {
    await served?.kill();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('first start: only JSON lines; the admin token and the set-password link are in 0600 files the log names, in no line', async () => {
    const linkFile = path.join(dataDir, 'admin-password-link');
    await until('the set-password link announced', () => lines().some((line) => line.file === linkFile));
    const tokenFile = path.join(dataDir, 'admin-token');
    for (const file of [tokenFile, linkFile]) expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const token = fs.readFileSync(tokenFile, 'utf8').trim();
    const link = fs.readFileSync(linkFile, 'utf8').trim();
    expect(token).toMatch(/^ldk_pat_[A-Za-z0-9_-]+$/);
    expect(link).toMatch(new RegExp(`^${served.url}/set-password#ldk_pwl_[A-Za-z0-9_-]+$`));
    expect((await served.call('GET', '/api/me', { token })).body).toMatchObject({ email: 'admin@localhost', is_admin: true });

    const written = lines();
    expect(written.map((line) => line.msg)).toEqual(
      expect.arrayContaining([
        'labdesk listening',
        expect.stringContaining('admin account admin@localhost created'),
        expect.stringContaining('one-time link'),
      ]),
    );
    expect(written.find((line) => line.file === tokenFile)).toMatchObject({ level: 'info' });
    const all = served.stdout() + served.stderr();
    expect(all).not.toContain(token);
    expect(all).not.toContain(link.split('#')[1]);
    expect(all).not.toContain('ldk_pwl_');
  });

  test('a process warning (MaxListenersExceededWarning) is a JSON warn line, with where it was raised', async () => {
    served.process.kill('SIGUSR2');
    const warning = await until('the warning line', () => lines().find((line) => line.warning === 'MaxListenersExceededWarning'));
    expect(warning).toMatchObject({
      level: 'warn',
      msg: expect.stringContaining('MaxListenersExceededWarning: Possible EventEmitter memory leak detected'),
      stack: expect.stringContaining('max-listeners-on-signal.cjs'),
    });
    expect(served.stderr()).toBe('');
  });

  test("a pooled connection closed under the ORM: the query builder's 'Connection Error' is a JSON warn line", async () => {
    const token = fs.readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim();
    expect((await served.call('GET', '/api/me', { token })).status).toBe(200);
    // A pooled connection surely there and idle: /api/me may be answered from the credential
    // cache, and the pool closes connections idle for 30 s (a slow run has seen none to end).
    expect((await served.call('GET', '/readyz')).status).toBe(200);
    // Every connection of the service, pooled and idle, ends (as when PostgreSQL restarts or a proxy drops it).
    const name = new URL(database.url).pathname.slice(1);
    await query(database.url, 'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [
      name,
    ]);
    await until('an answer on a new connection', async () => (await served.call('GET', '/api/me', { token })).status === 200);
    // "…: Connection ended unexpectedly" (the operator's line) or PostgreSQL's reason, whichever the driver saw first.
    const closed = await until('the connection error line', () => lines().find((line) => /^Connection Error: /.test(line.msg)));
    expect(closed).toMatchObject({ level: 'warn', source: 'knex' });
    expect(() => lines()).not.toThrow(); // every line JSON, the job queue's own errors included
  });
});
