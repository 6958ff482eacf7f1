import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { SendMessageRequest, Task } from '@a2a-js/sdk';
import { TaskNotFoundError } from '@a2a-js/sdk/errors';
import { mountingOf } from '../src/modules/a2a/a2a.policy';
import { makeUser, startTestApp, TestApp } from './support/app';
import { a2aCli, createA2aKey, enableA2a, officialClient, rpc, rpcCall, rpcRaw } from './support/a2a';

const newDataDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-a2a-'));
const errorInfo = (reason: string) => [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'a2a-protocol.org' }];

/** A request over loopback with the `Host` (and other headers) given: what a page rebound to 127.0.0.1 sends. */
function requestAs(t: TestApp, host: string, method: string, path: string, opts: { headers?: Record<string, string>; body?: string } = {}) {
  const url = new URL(t.url);
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const headers = {
      host,
      'a2a-version': '1.0',
      ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...opts.headers,
    };
    const req = http.request({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** What the card and the endpoint answer while A2A is not enabled: as if they did not exist. */
const noSuchEndpoint = { status: 404, body: { detail: 'no such endpoint' } };

/** A key one character off (its last), whatever that character is: never the key itself. */
const wrongLast = (key: string) => `${key.slice(0, -1)}${key.endsWith('X') ? 'Y' : 'X'}`;

describe('A2A endpoint with keys', () => {
  let t: TestApp;
  let alice: { id: string; plaintext: string };
  let bob: { id: string; plaintext: string };

  beforeAll(async () => {
    t = await startTestApp();
    await enableA2a(t);
    alice = await createA2aKey(t, 'alice lab');
    bob = await createA2aKey(t, 'bob');
  }, 120_000);
  afterAll(async () => t?.close());

  test('the database keeps digests only (the SHA-256 of each secret); key list shows ids and labels, never a secret', async () => {
    const rows = await t.sql('select * from a2a_keys order by created_at, id');
    expect(rows.map((row) => [row.id, row.label])).toEqual([
      [alice.id, 'alice lab'],
      [bob.id, 'bob'],
    ]);
    for (const { id, plaintext } of [alice, bob]) {
      const secret = plaintext.split('_').at(-1)!;
      expect(rows.find((row) => row.id === id).secret_sha256).toBe(createHash('sha256').update(secret).digest('hex'));
      expect(JSON.stringify(rows)).not.toContain(secret);
      expect(JSON.stringify(rows)).not.toContain(plaintext);
    }
    const list = await a2aCli(t, ['key', 'list']);
    expect(list.stdout).toContain(`${alice.id}`);
    expect(list.stdout).toContain('alice lab');
    expect(list.stdout).not.toContain(alice.plaintext);
  });

  test('the agent card: anonymous, every A2A 1.0 required member, honest capabilities', async () => {
    const card = await t.call('GET', '/.well-known/agent-card.json');
    expect(card.status).toBe(200);
    expect(card.headers.get('content-type')).toMatch(/^application\/json/);
    expect(card.body).toEqual({
      name: expect.any(String),
      description: expect.any(String),
      version: expect.any(String),
      supportedInterfaces: [{ url: `${t.url}/a2a/v1`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
      capabilities: { streaming: true, pushNotifications: true },
      securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'bearer', description: expect.any(String) } } },
      securityRequirements: [{ schemes: { bearer: { list: [] } } }],
      defaultInputModes: expect.arrayContaining(['text/plain', 'application/json', 'text/csv', 'application/octet-stream']),
      defaultOutputModes: expect.arrayContaining(['text/plain', 'image/png', 'application/octet-stream']),
      skills: [
        { id: 'analysis', name: expect.any(String), description: expect.any(String), tags: expect.arrayContaining([expect.any(String)]) },
      ],
    });
  });

  test('the card is cacheable: Cache-Control, ETag, and 304 for a matching If-None-Match', async () => {
    const first = await t.call('GET', '/.well-known/agent-card.json');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    // Keys are required here, and stay required (revoking the last one locks the endpoint): the card may be kept.
    expect(first.headers.get('cache-control')).toBe('public, max-age=300');
    const again = await t.call('GET', '/.well-known/agent-card.json', { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    const stale = await t.call('GET', '/.well-known/agent-card.json', { headers: { 'If-None-Match': '"other"' } });
    expect(stale.status).toBe(200);
  });

  test('without a key, or with a wrong one, the answer is 401 with a JSON-RPC error body, before the body is read', async () => {
    for (const key of [undefined, 'ldk_a2a_nonexistent1_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', wrongLast(alice.plaintext)]) {
      const reply = await rpcRaw(t, key, '{not json');
      expect(reply.status).toBe(401);
      expect(reply.headers.get('www-authenticate')).toBe('Bearer');
      expect(reply.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.any(String) } });
    }
  });

  test('-32700 for a body that is not JSON, with id null', async () => {
    const reply = await rpcRaw(t, alice.plaintext, '{"jsonrpc": "2.0", "id": 1,');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: expect.stringContaining('Invalid JSON payload') },
    });
  });

  test('-32700 for a body that is not valid UTF-8 (nothing decoded to U+FFFD)', async () => {
    const url = new URL('/a2a/v1', t.url);
    const body = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"}}'),
    ]);
    const reply = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.plaintext}`, 'content-type': 'application/json', 'a2a-version': '1.0' },
      body,
    });
    expect(await reply.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringContaining('UTF-8') } });
  });

  test('-32600 for what is not one request object; the id is echoed when it is a valid id', async () => {
    const cases: [unknown, unknown][] = [
      [[rpcCall(1, 'GetTask', { id: 'x' })], null], // a batch
      [42, null],
      [{ jsonrpc: '2.0', id: true, method: 'GetTask' }, null],
      [{ jsonrpc: '2.0', method: 'GetTask' }, null], // no id
      [{ jsonrpc: '1.0', id: 5, method: 'GetTask' }, 5],
      [{ jsonrpc: '2.0', id: 'r1', method: 7 }, 'r1'],
      [{ jsonrpc: '2.0', id: 6, method: 'GetTask', params: [1] }, 6],
    ];
    for (const [body, id] of cases) {
      const reply = await rpc(t, alice.plaintext, body);
      expect({ body, status: reply.status, reply: reply.body }).toEqual({
        body,
        status: 200,
        reply: { jsonrpc: '2.0', id, error: { code: -32600, message: expect.any(String) } },
      });
    }
  });

  test('-32601 for an unknown method, v0.3 names included', async () => {
    for (const method of ['NoSuchMethod', 'message/send', 'tasks/get']) {
      const reply = await rpc(t, alice.plaintext, rpcCall(3, method, {}));
      expect(reply.body).toEqual({ jsonrpc: '2.0', id: 3, error: { code: -32601, message: expect.stringContaining(method) } });
    }
  });

  test('-32602 with google.rpc.BadRequest field violations; params in snake_case are read as camelCase', async () => {
    const missing = await rpc(t, alice.plaintext, rpcCall(4, 'GetTask', {}));
    expect(missing.body).toEqual({
      jsonrpc: '2.0',
      id: 4,
      error: {
        code: -32602,
        message: expect.any(String),
        data: [
          { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'id', description: expect.any(String) }] },
        ],
      },
    });
    // Types first (GraphQL's check of the params), then the rules of values whose types are right.
    const snake = await rpc(t, alice.plaintext, rpcCall(5, 'ListTasks', { page_size: 0, include_artifacts: 'yes' }));
    expect(snake.body.error.data[0].fieldViolations.map((v: { field: string }) => v.field)).toEqual(['includeArtifacts']);
    const snakeRange = await rpc(t, alice.plaintext, rpcCall(5, 'ListTasks', { page_size: 0, include_artifacts: true }));
    expect(snakeRange.body.error.data[0].fieldViolations.map((v: { field: string }) => v.field)).toEqual(['pageSize']);
    const history = await rpc(t, alice.plaintext, rpcCall(6, 'GetTask', { id: 'turn_x', history_length: -1 }));
    expect(history.body.error.data[0].fieldViolations).toEqual([{ field: 'historyLength', description: expect.any(String) }]);
    const emptyParts = await rpc(
      t,
      alice.plaintext,
      rpcCall(7, 'SendMessage', { message: { message_id: 'm1', role: 'ROLE_USER', parts: [] } }),
    );
    expect(emptyParts.body.error.data[0].fieldViolations).toEqual([{ field: 'message.parts', description: expect.any(String) }]);
    const fields = (reply: { body: { error: { data: { fieldViolations: { field: string }[] }[] } } }) =>
      reply.body.error.data[0].fieldViolations.map((v) => v.field);
    const send = (message: Record<string, unknown>, configuration?: Record<string, unknown>) =>
      rpc(t, alice.plaintext, rpcCall(8, 'SendMessage', { message, ...(configuration && { configuration }) }));
    expect(fields(await send({ messageId: 'm1', role: 'user', parts: [{ text: 'a', data: {} }] }))).toEqual(['message.role']);
    expect(fields(await send({ messageId: 'm1', role: 'ROLE_AGENT', parts: [{ text: 'a', data: {} }] }))).toEqual([
      'message.role',
      'message.parts.0',
    ]);
    const twoUrls = { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'a' }, { url: 'https://example.org/f' }] };
    expect(fields(await send(twoUrls, { history_length: -1, return_immediately: 'yes' }))).toEqual(['configuration.returnImmediately']);
    expect(fields(await send(twoUrls, { history_length: -1, return_immediately: true }))).toEqual([
      'message.parts.1.url',
      'configuration.historyLength',
    ]);
  });

  test('params nested deeper than 64 levels are -32602 naming the limit (a data part 5,000 deep was -32603, a stack overflow); nothing is stored', async () => {
    const tasks = async () => (await t.sql<{ n: number }>('select count(*)::int as n from a2a_tasks'))[0].n;
    const before = await tasks();
    /** Objects `levels` deep, as text: JSON.stringify itself would overflow on the deepest. */
    const nested = (levels: number) => `${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`;
    const send = (message: string, extra = '') =>
      rpcRaw(t, alice.plaintext, `{"jsonrpc":"2.0","id":21,"method":"SendMessage","params":{"message":${message}${extra}}}`);
    const withData = (levels: number) => `{"messageId":"m-deep","role":"ROLE_USER","parts":[{"data":${nested(levels)}}]}`;
    const tooDeep = (field: string) => ({
      jsonrpc: '2.0',
      id: 21,
      error: {
        code: -32602,
        message: `${field}: must not be nested deeper than 64 levels`,
        data: [
          {
            '@type': 'type.googleapis.com/google.rpc.BadRequest',
            fieldViolations: [{ field, description: 'must not be nested deeper than 64 levels' }],
          },
        ],
      },
    });
    for (const levels of [5000, 62]) expect((await send(withData(levels))).body).toEqual(tooDeep('message'));
    const metadata = `{"messageId":"m-deep","role":"ROLE_USER","parts":[{"text":"hi"}],"metadata":${nested(5000)}}`;
    expect((await send(metadata)).body).toEqual(tooDeep('message'));
    expect((await send(withData(3), `,"metadata":${nested(65)}`)).body).toEqual(tooDeep('metadata'));
    expect(await tasks()).toBe(before);
    // The message with its parts counts its own levels: a data part's value starts at the fourth.
    expect((await send(withData(61))).body.result.task.id).toEqual(expect.any(String));
  });

  test('an id JSON cannot carry exactly (beyond 2^53 - 1, or a fraction) is -32600 with id null, never echoed rounded', async () => {
    for (const id of ['12345678901234567890123', '9007199254740993', '-9007199254740992', '1.5', '1e400']) {
      const reply = await rpcRaw(t, alice.plaintext, `{"jsonrpc":"2.0","id":${id},"method":"GetExtendedAgentCard"}`);
      expect({ id, body: reply.body }).toEqual({
        id,
        body: { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('integer') } },
      });
    }
    const largest = await rpcRaw(t, alice.plaintext, '{"jsonrpc":"2.0","id":9007199254740991,"method":"GetExtendedAgentCard"}');
    expect(largest.text).toMatch(/^\{"jsonrpc":"2.0","id":9007199254740991,"error":\{"code":-32004/);
    // Integer params beyond their range are -32602, however large.
    for (const params of ['{"id":"turn_x","historyLength":12345678901234567890123}', '{"pageSize":12345678901234567890123}']) {
      const method = params.includes('pageSize') ? 'ListTasks' : 'GetTask';
      const reply = await rpcRaw(t, alice.plaintext, `{"jsonrpc":"2.0","id":2,"method":"${method}","params":${params}}`);
      expect(reply.body.error).toMatchObject({ code: -32602, message: expect.stringMatching(/must be an integer/) });
    }
    // A2A sets no cap on historyLength: any int32 is read (the answer is bounded by bytes), the next one is not.
    for (const historyLength of [1001, 5000, 2_147_483_647]) {
      expect((await rpc(t, alice.plaintext, rpcCall(3, 'GetTask', { id: 'turn_unknown', historyLength }))).body.error.code).toBe(-32001);
    }
    expect(
      (await rpc(t, alice.plaintext, rpcCall(4, 'GetTask', { id: 'turn_unknown', historyLength: 2_147_483_648 }))).body.error.code,
    ).toBe(-32602);
  });

  test('valid params reach the method: valid snake_case ListTasks is not refused as params', async () => {
    const reply = await rpc(
      t,
      alice.plaintext,
      rpcCall(9, 'ListTasks', { page_size: 5, context_id: 'ctx', status_timestamp_after: '2026-01-01T00:00:00Z' }),
    );
    expect(reply.body).toEqual({ jsonrpc: '2.0', id: 9, result: { tasks: [], nextPageToken: '', pageSize: 5, totalSize: 0 } });
  });

  test('the id comes back with its type: number stays number, string stays string', async () => {
    for (const id of [12, '12', 0, 'a-b']) {
      const reply = await rpc(t, alice.plaintext, rpcCall(id, 'GetExtendedAgentCard'));
      expect(reply.body).toEqual({
        jsonrpc: '2.0',
        id,
        error: { code: -32004, message: expect.any(String), data: errorInfo('UNSUPPORTED_OPERATION') },
      });
    }
  });

  test('capabilities the card does not declare answer the A2A errors for them', async () => {
    // Push configs are built (test/a2a-push.test.ts): an unknown task is -32001, not -32003.
    for (const method of [
      'CreateTaskPushNotificationConfig',
      'GetTaskPushNotificationConfig',
      'ListTaskPushNotificationConfigs',
      'DeleteTaskPushNotificationConfig',
    ]) {
      const reply = await rpc(t, alice.plaintext, rpcCall(1, method, { taskId: 't', id: 'p', url: 'https://example.org/hook' }));
      expect(reply.body.error).toEqual({ code: -32001, message: expect.any(String), data: errorInfo('TASK_NOT_FOUND') });
    }
    // Streaming is declared (test/a2a-stream.test.ts): an unknown task is -32001 before any stream.
    expect((await rpc(t, alice.plaintext, rpcCall(3, 'SubscribeToTask', { id: 't' }))).body.error).toEqual({
      code: -32001,
      message: expect.any(String),
      data: errorInfo('TASK_NOT_FOUND'),
    });
  });

  test('A2A-Version: 1.0, 1.0.x and none are served; another version is -32009 with VERSION_NOT_SUPPORTED, echoing the id', async () => {
    for (const version of ['1.0', '1.0.7', '']) {
      const reply = await rpc(t, alice.plaintext, rpcCall(1, 'GetExtendedAgentCard'), { 'A2A-Version': version });
      expect(reply.body.error.code).toBe(-32004);
    }
    for (const [version, id] of [
      ['2.0', 'abc-1'],
      ['0.3', 5],
      ['99.0', 'x'],
      ['1', 0],
    ] as const) {
      const reply = await rpc(t, alice.plaintext, rpcCall(id, 'GetExtendedAgentCard'), { 'A2A-Version': version });
      expect(reply.body).toEqual({
        jsonrpc: '2.0',
        id,
        error: { code: -32009, message: expect.any(String), data: errorInfo('VERSION_NOT_SUPPORTED') },
      });
    }
    // An id that cannot be echoed as sent: null, still -32009.
    const unreadable = await rpcRaw(
      t,
      alice.plaintext,
      JSON.stringify({ jsonrpc: '2.0', id: 1.5, method: 'GetTask', params: { id: 't' } }),
      { 'A2A-Version': '2.0' },
    );
    expect(unreadable.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32009, message: expect.any(String), data: errorInfo('VERSION_NOT_SUPPORTED') },
    });
    const query = await t.call('POST', '/a2a/v1', {
      token: alice.plaintext,
      query: { 'A2A-Version': '3.1' },
      body: rpcCall('q-7', 'GetExtendedAgentCard'),
    });
    expect(query.body).toMatchObject({ id: 'q-7', error: { code: -32009 } });
  });

  test('an A2A 0.3 method without A2A-Version (a 0.3 client) is -32009 naming the version served; with 1.0 it does not exist (-32601)', async () => {
    for (const method of ['message/send', 'tasks/get', 'tasks/pushNotificationConfig/set']) {
      const reply = await rpcRaw(t, alice.plaintext, JSON.stringify(rpcCall('v03', method, { id: 't' })), { 'A2A-Version': '' });
      expect(reply.body).toEqual({
        jsonrpc: '2.0',
        id: 'v03',
        error: { code: -32009, message: expect.stringContaining('A2A 1.0'), data: errorInfo('VERSION_NOT_SUPPORTED') },
      });
      const asOneZero = await rpc(t, alice.plaintext, rpcCall('v10', method, { id: 't' }), { 'A2A-Version': '1.0' });
      expect(asOneZero.body.error.code).toBe(-32601);
    }
  });

  test('a body that is not JSON by its Content-Type is -32005', async () => {
    const reply = await rpcRaw(t, alice.plaintext, JSON.stringify(rpcCall(1, 'GetExtendedAgentCard')), { 'content-type': 'text/plain' });
    expect(reply.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32005, message: expect.any(String), data: errorInfo('CONTENT_TYPE_NOT_SUPPORTED') },
    });
  });

  test('a body declared larger than the limit is refused at once (413, -32602) and the service keeps serving', async () => {
    const url = new URL('/a2a/v1', t.url);
    const reply = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request(
        url,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${alice.plaintext}`,
            'content-type': 'application/json',
            'content-length': String(200 * 1024 * 1024),
          },
        },
        (response) => {
          let body = '';
          response.on('data', (chunk) => (body += chunk));
          response.on('end', () => resolve({ status: response.statusCode!, body }));
        },
      );
      request.on('error', reject);
      request.write('{"jsonrpc":"2.0",');
    });
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.body)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32602, message: expect.any(String) } });
    expect((await rpc(t, alice.plaintext, rpcCall(1, 'GetExtendedAgentCard'))).body.error.code).toBe(-32004);
  });

  test('a revoked key is refused from the next request on; the other keys still work', async () => {
    expect((await rpc(t, bob.plaintext, rpcCall(1, 'GetExtendedAgentCard'))).status).toBe(200);
    expect(await a2aCli(t, ['key', 'revoke', bob.id])).toMatchObject({ status: 0 });
    const refused = await rpc(t, bob.plaintext, rpcCall(1, 'GetExtendedAgentCard'));
    expect(refused.status).toBe(401);
    expect((await rpc(t, alice.plaintext, rpcCall(1, 'GetExtendedAgentCard'))).status).toBe(200);
    const fresh = await createA2aKey(t, 'carol');
    expect((await rpc(t, fresh.plaintext, rpcCall(1, 'GetExtendedAgentCard'))).status).toBe(200);
    expect(await a2aCli(t, ['key', 'revoke', bob.id])).toMatchObject({ status: 2, stderr: expect.stringContaining('no active key') });
    const list = await a2aCli(t, ['key', 'list']);
    expect(list.stdout).toMatch(new RegExp(`^${bob.id} .* revoked .* bob$`, 'm'));
    // Four runs of the CLI (about 2 s each on an idle machine, several times that beside the browser suites).
  }, 90_000);

  test('the official client resolves the card, finds the JSON-RPC transport and gets typed A2A errors', async () => {
    const client = await officialClient(t, alice.plaintext);
    const card = await client.getAgentCard();
    expect(card.supportedInterfaces[0]).toMatchObject({ url: `${t.url}/a2a/v1`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' });
    const message = SendMessageRequest.fromJSON({ message: { messageId: 'm-client-1', role: 'ROLE_USER', parts: [{ text: 'hello' }] } });
    // No model on this server: the task is made, and fails saying so (test/a2a-tasks.test.ts has the model).
    const task = Task.toJSON((await client.sendMessage(message)) as Task) as { status: { state: string } };
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    await expect(client.getTask({ tenant: '', id: 'turn_unknown', historyLength: 2 })).rejects.toBeInstanceOf(TaskNotFoundError);
  });

  test('the official client with a wrong key: the 401 surfaces as an error, no result', async () => {
    const client = await officialClient(t, 'ldk_a2a_nonexistent1_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx');
    await expect(client.getTask({ tenant: '', id: 'turn_unknown' })).rejects.toThrow(/A2A key is not valid/);
  });

  test('a2a status prints every field', async () => {
    const status = await a2aCli(t, ['status']);
    expect(status.status).toBe(0);
    for (const field of [
      'enabled:',
      'owner:',
      'owner plan/tier:',
      'active keys:',
      'file parts:',
      'artifact inline limit:',
      'bind host:',
      'mounted:',
      'authentication required:',
    ]) {
      expect(status.stdout).toContain(field);
    }
    // The settings and keys are in the database now: no file is named.
    expect(status.stdout).not.toMatch(/config file:|key file:/);
    expect(status.stdout).toMatch(/^enabled: +true$/m);
    expect(status.stdout).toMatch(/^owner: +admin@localhost$/m);
    expect(status.stdout).toMatch(/active keys: +2/);
    expect(status.stdout).toMatch(/mounted: +yes/);
    expect(status.stdout).toMatch(/authentication required: +true/);
  });
});

describe('A2A mounting table', () => {
  test('the rules as a table', () => {
    const base = { enabled: true, host: '127.0.0.1', activeKeys: 0, everKeyed: false, ownerTier: 'pro' as const };
    expect(mountingOf(base)).toMatchObject({ mounted: true, authRequired: false, warning: expect.any(String) });
    expect(mountingOf({ ...base, host: '::1' })).toMatchObject({ mounted: true, authRequired: false });
    expect(mountingOf({ ...base, activeKeys: 1 })).toEqual({ mounted: true, authRequired: true });
    expect(mountingOf({ ...base, host: '0.0.0.0', activeKeys: 1 })).toEqual({ mounted: true, authRequired: true });
    expect(mountingOf({ ...base, host: '0.0.0.0' })).toMatchObject({ mounted: false });
    expect(mountingOf({ ...base, host: '10.1.2.3' })).toMatchObject({ mounted: false });
    expect(mountingOf({ ...base, ownerTier: 'free', activeKeys: 1 })).toMatchObject({
      mounted: false,
      reason: expect.stringContaining('Pro'),
    });
    expect(mountingOf({ ...base, ownerTier: null, activeKeys: 1 })).toMatchObject({ mounted: false });
    expect(mountingOf({ ...base, enabled: false, activeKeys: 1 })).toMatchObject({ mounted: false });
    // Every key revoked: still keyed (every request refused), never open; beyond loopback, refused.
    expect(mountingOf({ ...base, everKeyed: true })).toMatchObject({
      mounted: true,
      authRequired: true,
      warning: expect.stringContaining('revoked'),
    });
    expect(mountingOf({ ...base, host: '0.0.0.0', everKeyed: true })).toMatchObject({ mounted: false });
  });

  test('not enabled: neither the card nor the endpoint exists', async () => {
    const t = await startTestApp();
    try {
      expect(await t.call('GET', '/.well-known/agent-card.json')).toMatchObject(noSuchEndpoint);
      expect(await rpc(t, undefined, rpcCall(1, 'GetExtendedAgentCard'))).toMatchObject(noSuchEndpoint);
    } finally {
      await t.close();
    }
  });

  test('labdesk a2a enable on a running service takes effect at once, and so does disable (keys are kept)', async () => {
    const t = await startTestApp();
    try {
      expect(await t.call('GET', '/.well-known/agent-card.json')).toMatchObject(noSuchEndpoint);
      expect(await rpc(t, undefined, rpcCall(1, 'GetExtendedAgentCard'))).toMatchObject(noSuchEndpoint);

      await enableA2a(t);
      const card = await t.call('GET', '/.well-known/agent-card.json');
      expect(card.status).toBe(200);
      expect(card.body.supportedInterfaces[0].url).toBe(`${t.url}/a2a/v1`);
      // Open (loopback, no keys): the bearer scheme is declared but not required, since none is
      // enforced; and no cache keeps this card past the first key, which changes it.
      expect(card.body.securitySchemes).toEqual({
        bearer: { httpAuthSecurityScheme: { scheme: 'bearer', description: expect.any(String) } },
      });
      expect(card.body).not.toHaveProperty('securityRequirements');
      expect(card.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
      const openEtag = card.headers.get('etag')!;
      expect((await t.call('GET', '/.well-known/agent-card.json', { headers: { 'If-None-Match': openEtag } })).status).toBe(304);
      const open = await rpc(t, undefined, rpcCall(1, 'GetExtendedAgentCard'));
      expect(open.status).toBe(200);
      expect(open.body.error.code).toBe(-32004);

      // A key made now is required from the next request on, and the card says so.
      const key = await createA2aKey(t, 'live');
      expect((await rpc(t, undefined, rpcCall(1, 'GetExtendedAgentCard'))).status).toBe(401);
      expect((await rpc(t, key.plaintext, rpcCall(1, 'GetExtendedAgentCard'))).status).toBe(200);
      // A cache revalidating the open card with its ETag is given the keyed one.
      const keyed = await t.call('GET', '/.well-known/agent-card.json', { headers: { 'If-None-Match': openEtag } });
      expect(keyed.status).toBe(200);
      expect(keyed.body).toMatchObject({
        securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'bearer' } } },
        securityRequirements: [{ schemes: { bearer: { list: [] } } }],
      });
      expect(keyed.headers.get('cache-control')).toBe('public, max-age=300');

      expect(await a2aCli(t, ['disable'])).toMatchObject({ status: 0 });
      expect(await t.call('GET', '/.well-known/agent-card.json')).toMatchObject(noSuchEndpoint);
      expect(await rpc(t, key.plaintext, rpcCall(1, 'GetExtendedAgentCard'))).toMatchObject(noSuchEndpoint);
      expect((await a2aCli(t, ['status'])).stdout).toMatch(/^enabled: +false$/m);

      await enableA2a(t);
      expect((await rpc(t, key.plaintext, rpcCall(1, 'GetExtendedAgentCard'))).status).toBe(200);
      expect((await t.call('GET', '/.well-known/agent-card.json')).status).toBe(200);
    } finally {
      await t.close();
    }
  }, 60_000);

  test('loopback, every key revoked: the endpoint stays keyed (401 without or with a revoked key), it does not open again', async () => {
    const t = await startTestApp();
    try {
      await enableA2a(t);
      const key = await createA2aKey(t, 'only');
      expect((await rpc(t, key.plaintext, rpcCall(1, 'GetExtendedAgentCard'))).status).toBe(200);
      expect(await a2aCli(t, ['key', 'revoke', key.id])).toMatchObject({ status: 0 });
      for (const presented of [undefined, key.plaintext]) {
        const refused = await rpc(t, presented, rpcCall(1, 'GetExtendedAgentCard'));
        expect({ presented, status: refused.status, body: refused.body }).toEqual({
          presented,
          status: 401,
          body: { jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.any(String) } },
        });
      }
      const status = await a2aCli(t, ['status']);
      expect(status.stdout).toMatch(/active keys: +0/);
      expect(status.stdout).toMatch(/mounted: +yes/);
      expect(status.stdout).toMatch(/authentication required: +true/);
    } finally {
      await t.close();
    }
  }, 60_000);

  test('loopback and no keys: open without authentication, to requests addressed to a loopback name only (DNS rebinding)', async () => {
    const t = await startTestApp();
    try {
      await enableA2a(t);
      const reply = await rpc(t, undefined, rpcCall(1, 'GetExtendedAgentCard'));
      expect(reply.status).toBe(200);
      expect(reply.body.error.code).toBe(-32004);
      const rebound = await requestAs(t, 'evil.example', 'POST', '/a2a/v1', { body: JSON.stringify(rpcCall(1, 'GetExtendedAgentCard')) });
      expect(rebound).toEqual({
        status: 403,
        body: { jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringContaining('localhost') } },
      });
    } finally {
      await t.close();
    }
  });

  test('loopback and no keys, even with PUBLIC_URL and a trusted proxy: a foreign Host is refused (403, -32000) whatever X-Forwarded-Host says', async () => {
    const t = await startTestApp({ PUBLIC_URL: 'https://labdesk.example.org', TRUST_PROXY: 'true' });
    try {
      await enableA2a(t);
      const port = new URL(t.url).port;
      const body = JSON.stringify(rpcCall(7, 'ListTasks', {}));
      for (const [host, headers] of [
        [`evil.example:${port}`, {}],
        ['evil.example', { 'x-forwarded-host': 'localhost' }],
        ['127.0.0.1.evil.example', {}],
      ] as [string, Record<string, string>][]) {
        const refused = await requestAs(t, host, 'POST', '/a2a/v1', { headers, body });
        expect({ host, ...refused }).toEqual({
          host,
          status: 403,
          body: { jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringContaining('localhost, 127.0.0.1 or [::1]') } },
        });
        const artifact = await requestAs(t, host, 'GET', '/a2a/v1/artifacts/turn_x/0', { headers });
        expect({ host, ...artifact }).toEqual({
          host,
          status: 403,
          body: { detail: expect.stringContaining('localhost, 127.0.0.1 or [::1]') },
        });
      }
      for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]) {
        const served = await requestAs(t, host, 'POST', '/a2a/v1', { body });
        expect({ host, ...served }).toEqual({
          host,
          status: 200,
          body: { jsonrpc: '2.0', id: 7, result: expect.objectContaining({ tasks: [] }) },
        });
      }
    } finally {
      await t.close();
    }
  });

  test('a non-loopback bind and no keys: every request refused (403, the reason given) until a key is made', async () => {
    const t = await startTestApp({ HOST: '0.0.0.0' });
    try {
      await enableA2a(t);
      const local = `http://127.0.0.1:${new URL(t.url).port}`;
      const card = await fetch(new URL('/.well-known/agent-card.json', local));
      expect(card.status).toBe(403);
      expect(await card.json()).toEqual({ detail: expect.stringContaining('listens beyond loopback') });
      const endpoint = await fetch(new URL('/a2a/v1', local), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
        body: JSON.stringify(rpcCall(1, 'GetExtendedAgentCard')),
      });
      expect(endpoint.status).toBe(403);
      expect(await endpoint.json()).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: expect.stringContaining('listens beyond loopback') },
      });
      const status = await a2aCli(t, ['status'], { HOST: '0.0.0.0' });
      expect(status.stdout).toMatch(/mounted: +no: .*listens beyond loopback/);

      // A key makes it answer at once, to keyed requests only.
      const key = await createA2aKey(t, 'remote');
      expect((await fetch(new URL('/.well-known/agent-card.json', local))).status).toBe(200);
      const keyless = await fetch(new URL('/a2a/v1', local), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
        body: JSON.stringify(rpcCall(1, 'GetExtendedAgentCard')),
      });
      expect(keyless.status).toBe(401);
      const keyed = await fetch(new URL('/a2a/v1', local), {
        method: 'POST',
        headers: { authorization: `Bearer ${key.plaintext}`, 'content-type': 'application/json', 'a2a-version': '1.0' },
        body: JSON.stringify(rpcCall(1, 'GetExtendedAgentCard')),
      });
      expect(keyed.status).toBe(200);
    } finally {
      await t.close();
    }
  });

  test('an owner below Pro: 403 on every request; a Pro owner named at run time: served at once; an owner whose tier drops afterwards: 403 on every request', async () => {
    const t = await startTestApp();
    try {
      const freeOwner = await makeUser(t, { plan_code: 'free' });
      const proOwner = await makeUser(t, { plan_code: 'pro' });
      const key = await createA2aKey(t, 'peer');

      await enableA2a(t, ['--owner', freeOwner.email]);
      const belowPro = await rpc(t, key.plaintext, rpcCall(1, 'GetExtendedAgentCard'));
      expect(belowPro.status).toBe(403);
      expect(belowPro.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringContaining('Pro') } });
      expect(await t.call('GET', '/.well-known/agent-card.json')).toMatchObject({
        status: 403,
        body: { detail: expect.stringContaining('Pro') },
      });
      expect((await a2aCli(t, ['status'])).stdout).toMatch(/mounted: +no: .*below Pro/);

      await enableA2a(t, ['--owner', proOwner.email.toUpperCase()]);
      expect(await t.sql('select owner_email from a2a_settings')).toEqual([{ owner_email: proOwner.email.toLowerCase() }]);
      expect((await rpc(t, key.plaintext, rpcCall(1, 'GetExtendedAgentCard'))).status).toBe(200);
      await t.sql('update users set plan_code = $1 where id = $2', ['free', proOwner.id]);
      const dropped = await rpc(t, key.plaintext, rpcCall(1, 'GetExtendedAgentCard'));
      expect(dropped.status).toBe(403);
      expect(dropped.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringContaining('Pro') } });
      expect((await t.call('GET', '/.well-known/agent-card.json')).status).toBe(403);
    } finally {
      await t.close();
    }
  }, 60_000);
});

describe('A2A settings files from before the database', () => {
  test('DATA_DIR/a2a.json and a2a-keys.json are imported at start: the old key is accepted, the files renamed *.imported', async () => {
    const dataDir = newDataDir();
    const id = 'abcdefgh1234';
    const secret = 'S3cretS3cretS3cretS3cretS3cretS3cretAbCd';
    expect(secret).toMatch(/^[A-Za-z0-9]{40}$/);
    const digest = createHash('sha256').update(secret).digest('hex');
    fs.writeFileSync(path.join(dataDir, 'a2a.json'), JSON.stringify({ enabled: true, owner: 'admin@localhost' }));
    fs.writeFileSync(
      path.join(dataDir, 'a2a-keys.json'),
      JSON.stringify({ keys: [{ id, label: 'old', createdAt: '2026-01-01T00:00:00.000Z', secretSha256: digest }] }),
    );
    const t = await startTestApp({ DATA_DIR: dataDir });
    try {
      const key = `ldk_a2a_${id}_${secret}`;
      const reply = await rpc(t, key, rpcCall(1, 'GetExtendedAgentCard'));
      expect(reply.status).toBe(200);
      expect(reply.body.error.code).toBe(-32004);
      expect((await rpc(t, undefined, rpcCall(1, 'GetExtendedAgentCard'))).status).toBe(401);
      expect(await t.sql('select enabled, owner_email from a2a_settings')).toEqual([{ enabled: true, owner_email: 'admin@localhost' }]);
      expect(await t.sql('select id, label, secret_sha256, created_at, revoked_at from a2a_keys')).toEqual([
        { id, label: 'old', secret_sha256: digest, created_at: new Date('2026-01-01T00:00:00.000Z'), revoked_at: null },
      ]);
      expect(
        fs
          .readdirSync(dataDir)
          .filter((name) => name.startsWith('a2a'))
          .sort(),
      ).toEqual(['a2a-keys.json.imported', 'a2a.json.imported']);
      expect((await a2aCli(t, ['key', 'list'])).stdout).toMatch(new RegExp(`^${id} +2026-01-01T00:00:00.000Z +active +old$`, 'm'));
    } finally {
      await t.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  test('an a2a.json that is not valid stops the start (it is not read as disabled), and is left in place', async () => {
    const t = await startTestApp();
    const dataDir = newDataDir();
    try {
      fs.writeFileSync(path.join(dataDir, 'a2a.json'), '{"enabled": "yes"');
      await expect(startTestApp({ DATA_DIR: dataDir }, { sameDatabaseAs: t })).rejects.toThrow(/a2a\.json is not valid/);
      expect(fs.readdirSync(dataDir)).toContain('a2a.json');
      expect(await t.sql('select * from a2a_settings')).toEqual([]);
    } finally {
      await t.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
