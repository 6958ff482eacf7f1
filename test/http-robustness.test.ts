import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { newSessionId, newUuid, sessionPath } from './support/trajectories';
import { makeUser, startTestApp, TestUser, useTestApp } from './support/app';

/**
 * Requests that used to answer 500 (issue 10, finding 7): each now gets a clear 4xx with the
 * documented body, and changes nothing.
 */

const t = useTestApp();

let user: TestUser;
beforeAll(async () => {
  user = await makeUser(t);
});

/** A request sent as raw bytes (fetch would normalize the path and the encoding headers). */
function rawRequest(method: string, path: string, opts: { headers?: Record<string, string>; body?: Buffer } = {}) {
  const url = new URL(t.url);
  return new Promise<{ status: number; body: any; text: string }>((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: { ...opts.headers, ...(opts.body ? { 'content-length': String(opts.body.length) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode!, body, text });
        });
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

const auth = () => ({ authorization: `Bearer ${user.token}` });
const sessionCount = async () => (await t.sql<{ n: number }>('select count(*)::int as n from trajectories'))[0].n;

describe('bad percent-encoding in a path → 400 {detail}', () => {
  for (const path of [
    '/admin/api/public/app/core/download/1.0.0/%ff',
    '/api/trajectories/%ff',
    '/blobs/sha256/%ff',
    '/api/labs/%E0%A4%A',
    '/api/trajectories/%ff/meta',
  ]) {
    test(path, async () => {
      const reply = await rawRequest('GET', path, { headers: auth() });
      expect({ status: reply.status, body: reply.body }).toEqual({
        status: 400,
        body: { detail: expect.stringMatching(/percent-encoding|path/) },
      });
    });
  }
});

describe('bodies the server cannot read', () => {
  const appendPath = () => sessionPath(newSessionId(), '/append');
  const body = (records: unknown[]) => Buffer.from(JSON.stringify({ base_uuid: null, records }));

  test('Content-Encoding: gzip on a body that is not gzip → 400 {detail}; nothing stored', async () => {
    const before = await sessionCount();
    const reply = await rawRequest('PUT', appendPath(), {
      headers: { ...auth(), 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: body([{ uuid: newUuid(), type: 'user' }]),
    });
    expect({ status: reply.status, body: reply.body }).toEqual({ status: 400, body: { detail: expect.any(String) } });
    expect(await sessionCount()).toBe(before);
    const graphql = await rawRequest('POST', '/graphql', {
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: Buffer.from('{"query":"{ __typename }"}'),
    });
    expect(graphql.status).toBe(400);
  });

  test('a real gzip body is read; an unknown encoding → 415', async () => {
    const id = newSessionId();
    const ok = await rawRequest('PUT', sessionPath(id, '/append'), {
      headers: { ...auth(), 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(body([{ uuid: newUuid(), type: 'user' }])),
    });
    expect(ok).toMatchObject({ status: 200, body: { count: 1 } });
    const unknown = await rawRequest('PUT', appendPath(), {
      headers: { ...auth(), 'content-type': 'application/json', 'content-encoding': 'zstd-nope' },
      body: body([]),
    });
    expect({ status: unknown.status, body: unknown.body }).toEqual({ status: 415, body: { detail: expect.any(String) } });
  });

  test('a JSON body declared charset=utf-16le → 415 {detail}', async () => {
    const reply = await rawRequest('PUT', appendPath(), {
      headers: { ...auth(), 'content-type': 'application/json; charset=utf-16le' },
      body: Buffer.from(JSON.stringify({ base_uuid: null, records: [] }), 'utf16le'),
    });
    expect({ status: reply.status, body: reply.body }).toEqual({ status: 415, body: { detail: expect.any(String) } });
    const graphql = await rawRequest('POST', '/graphql', {
      headers: { 'content-type': 'application/json; charset=utf-16le' },
      body: Buffer.from('{"query":"{ __typename }"}', 'utf16le'),
    });
    expect(graphql.status).toBe(415);
  });

  test('a UTF-8 body starting with a byte-order mark is read, and records are still stored byte for byte', async () => {
    const id = newSessionId();
    const record = `{"uuid":"${newUuid()}",  "type":"user"}`;
    const text = `\uFEFF{"base_uuid":null,"records":[${record}]}`;
    const reply = await rawRequest('PUT', sessionPath(id, '/append'), {
      headers: { ...auth(), 'content-type': 'application/json' },
      body: Buffer.from(text, 'utf8'),
    });
    expect(reply).toMatchObject({ status: 200, body: { count: 1 } });
    expect((await t.sql<{ raw: string }>('select raw from trajectory_records where session_id = $1', [id]))[0].raw).toBe(record);
    const lab = await rawRequest('POST', '/api/labs', {
      headers: { ...auth(), 'content-type': 'application/json' },
      body: Buffer.from('\uFEFF{"name":"BOM lab"}', 'utf8'),
    });
    expect(lab).toMatchObject({ status: 200, body: { name: 'BOM lab' } });
  });

  test('a JSON body that is not valid UTF-8 → 400 {detail}, also gzip-encoded and at /graphql; nothing stored (it used to be read with U+FFFD in place)', async () => {
    const labs = async () => (await t.sql<{ n: number }>('select count(*)::int as n from labs'))[0].n;
    const [sessionsBefore, labsBefore] = [await sessionCount(), await labs()];
    // A lone continuation byte, an overlong '/', a UTF-16 surrogate, a truncated sequence.
    for (const bad of [[0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe0, 0xa4]].map((bytes) => Buffer.from(bytes))) {
      const name = Buffer.concat([Buffer.from('{"name":"a'), bad, Buffer.from('b"}')]);
      for (const [headers, body] of [
        [{}, name],
        [{ 'content-encoding': 'gzip' }, gzipSync(name)],
      ] as const) {
        const lab = await rawRequest('POST', '/api/labs', { headers: { ...auth(), 'content-type': 'application/json', ...headers }, body });
        expect({ status: lab.status, body: lab.body }).toEqual({ status: 400, body: { detail: 'the body is not valid UTF-8' } });
      }
      const record = Buffer.concat([
        Buffer.from(`{"base_uuid":null,"records":[{"uuid":"${newUuid()}","type":"user","text":"a`),
        bad,
        Buffer.from('b"}]}'),
      ]);
      const append = await rawRequest('PUT', sessionPath(newSessionId(), '/append'), {
        headers: { ...auth(), 'content-type': 'application/json' },
        body: record,
      });
      expect({ status: append.status, body: append.body }).toEqual({ status: 400, body: { detail: 'the body is not valid UTF-8' } });
      const graphql = await rawRequest('POST', '/graphql', {
        headers: { ...auth(), 'content-type': 'application/json' },
        body: Buffer.concat([Buffer.from('{"query":"{ __typename }","x":"'), bad, Buffer.from('"}')]),
      });
      expect({ status: graphql.status, body: graphql.body }).toEqual({ status: 400, body: { detail: 'the body is not valid UTF-8' } });
    }
    expect([await sessionCount(), await labs()]).toEqual([sessionsBefore, labsBefore]);
    // Valid UTF-8 beyond ASCII is read as it is.
    const ok = await rawRequest('POST', '/api/labs', {
      headers: { ...auth(), 'content-type': 'application/json' },
      body: Buffer.from('{"name":"Ωmega 💥"}', 'utf8'),
    });
    expect(ok).toMatchObject({ status: 200, body: { name: 'Ωmega 💥' } });
  });

  test('a record nested 100,000 levels deep → 422 at append and at cover-write, naming the record; nothing stored', async () => {
    const before = await sessionCount();
    const deep = `{"uuid":"${newUuid()}","type":"user","x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    for (const [method, tail, prefix] of [
      ['PUT', '/append', '{"base_uuid":null,"records":['],
      ['PUT', '/full', '{"records":['],
    ]) {
      const reply = await rawRequest(method, sessionPath(newSessionId(), tail), {
        headers: { ...auth(), 'content-type': 'application/json' },
        body: Buffer.from(`${prefix}${deep}]}`),
      });
      expect({ status: reply.status, body: reply.body }).toEqual({
        status: 422,
        body: { detail: [expect.objectContaining({ loc: ['body', 'records', 0], msg: expect.stringMatching(/nested deeper than 100/) })] },
      });
    }
    // Elsewhere a deep body is a 422 or 400 too, never a 500.
    const lab = await rawRequest('POST', '/api/labs', {
      headers: { ...auth(), 'content-type': 'application/json' },
      body: Buffer.from(`{"name":${'['.repeat(100_000)}${']'.repeat(100_000)}}`),
    });
    expect([400, 422]).toContain(lab.status);
    const graphql = await rawRequest('POST', '/graphql', {
      headers: { ...auth(), 'content-type': 'application/json' },
      body: Buffer.from(`{"query":"{ __typename }","variables":{"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`),
    });
    expect(graphql.status).toBeLessThan(500);
    expect(await sessionCount()).toBe(before);
  });
});

test('an integer beyond 2^53 - 1 (which JSON.parse would round) → 422 with the documented body, never a rounded echo', async () => {
  const huge = '12345678901234567890123';
  const listed = await rawRequest('GET', `/api/trajectories?limit=${huge}`, { headers: auth() });
  expect({ status: listed.status, body: listed.body }).toEqual({
    status: 422,
    body: { detail: [{ loc: ['query', 'limit'], msg: 'must be an integer', type: 'type_error' }] },
  });
  const lab = await rawRequest('POST', '/api/labs', {
    headers: { ...auth(), 'content-type': 'application/json' },
    body: Buffer.from(`{"name":"Big","seat_quota":${huge}}`),
  });
  expect(lab.status).toBe(422);
  expect(lab.text).not.toContain('e+22');
  const quota = await rawRequest('PATCH', `/api/admin/users/${user.id}`, {
    headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
    body: Buffer.from(`{"storage_quota_bytes":${huge}}`),
  });
  expect({ status: quota.status, body: quota.body }).toEqual({
    status: 422,
    body: { detail: [expect.objectContaining({ loc: ['body', 'storage_quota_bytes'] })] },
  });
});

describe('DNS rebinding: on a loopback bind without PUBLIC_URL, only requests addressed to a loopback name are answered', () => {
  const port = () => new URL(t.url).port;
  const FOREIGN = ['evil.example', 'evil.example:8080', '127.0.0.1.evil.example', 'localhost.evil.example', '[::2]', '10.0.0.1', '0.0.0.0'];

  test('a foreign Host → 403 in each endpoint’s error body; nothing runs', async () => {
    const labs = async () => (await t.sql<{ n: number }>('select count(*)::int as n from labs'))[0].n;
    const before = await labs();
    for (const host of FOREIGN) {
      const json = { ...auth(), host, 'content-type': 'application/json' };
      const rest = await rawRequest('POST', '/api/labs', { headers: json, body: Buffer.from('{"name":"Rebound"}') });
      expect({ host, status: rest.status, body: rest.body }).toEqual({
        host,
        status: 403,
        body: { detail: expect.stringContaining('loopback') },
      });
      expect((await rawRequest('GET', '/healthz', { headers: { host } })).status).toBe(403);
      const graphql = await rawRequest('POST', '/graphql', { headers: json, body: Buffer.from('{"query":"{ __typename }"}') });
      expect({ host, status: graphql.status, body: graphql.body }).toEqual({
        host,
        status: 403,
        body: {
          errors: [
            expect.objectContaining({ message: expect.stringContaining('loopback'), extensions: { code: 'FORBIDDEN', status: 403 } }),
          ],
        },
      });
    }
    expect(await labs()).toBe(before);
  });

  test('localhost, 127.x.x.x and [::1] are answered, with any port and in any case', async () => {
    for (const host of [`localhost:${port()}`, 'LocalHost', `127.0.0.1:${port()}`, '127.1.2.3:9', `[::1]:${port()}`, '[::1]']) {
      const reply = await rawRequest('GET', '/api/labs', { headers: { ...auth(), host } });
      expect({ host, status: reply.status }).toEqual({ host, status: 200 });
    }
  });

  test('the GraphQL WebSocket refuses the upgrade (403) for a foreign Host', async () => {
    const upgrade = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const url = new URL(t.url);
        const headers = {
          host,
          connection: 'Upgrade',
          upgrade: 'websocket',
          'sec-websocket-version': '13',
          'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
          'sec-websocket-protocol': 'graphql-transport-ws',
        };
        const req = http.request({ host: url.hostname, port: url.port, path: '/graphql', headers });
        req.on('upgrade', (res, socket) => {
          socket.destroy();
          resolve(res.statusCode!);
        });
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        req.end();
      });
    expect(await upgrade('evil.example')).toBe(403);
    expect(await upgrade(`localhost:${port()}`)).toBe(101);
  });

  test('behind a trusted proxy (TRUST_PROXY=true) X-Forwarded-Host does not widen it; with PUBLIC_URL any Host is answered', async () => {
    for (const env of [{ TRUST_PROXY: 'true' }, { PUBLIC_URL: 'https://labdesk.example.org' }] as Record<string, string>[]) {
      const other = await startTestApp(env);
      try {
        const url = new URL(other.url);
        const reply = await new Promise<number>((resolve, reject) => {
          const headers = { host: 'labdesk.example.org', 'x-forwarded-host': 'localhost', 'x-forwarded-proto': 'http' };
          http
            .get({ host: url.hostname, port: url.port, path: '/healthz', headers }, (res) => resolve(res.resume().statusCode!))
            .on('error', reject);
        });
        expect({ env, status: reply }).toEqual({ env, status: env.PUBLIC_URL ? 200 : 403 });
      } finally {
        await other.close();
      }
    }
  });
});

describe('request log', () => {
  test('each request is logged with the path the client sent (GraphQL as /graphql, never /), without its query string', async () => {
    const lines: Record<string, unknown>[] = [];
    const record = (msg: string, fields?: Record<string, unknown>) => void lines.push({ msg, ...fields });
    const logged = await startTestApp({}, { logger: { debug: record, info: record, warn: record, error: record } });
    try {
      await logged.call('POST', '/graphql', { body: { query: '{ __typename }' } });
      await logged.call('GET', '/api/trajectories', { token: logged.adminToken, query: { limit: 5 } });
      const requests = lines.filter((line) => line.msg === 'request').map(({ method, path, status }) => ({ method, path, status }));
      expect(requests).toEqual([
        { method: 'POST', path: '/graphql', status: 200 },
        { method: 'GET', path: '/api/trajectories', status: 200 },
      ]);
    } finally {
      await logged.close();
    }
  });
});
