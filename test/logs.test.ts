import { Writable } from 'node:stream';
import { makeLogger } from '../src/logger';
import { makeUser, startTestApp, TestApp } from './support/app';

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
