import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Task } from '@a2a-js/sdk';
import { TaskNotFoundError } from '@a2a-js/sdk/errors';
import type { HostLookup } from '../src/net/outbound';
import { retryDelaySeconds, verdictOf } from '../src/modules/a2a/a2a-push.policy';
import { deleteFinishedDeliveries } from '../src/modules/a2a/a2a-push.repository';
import { FINISHED_DELIVERY_KEEP_DAYS } from '../src/modules/a2a/a2a-push.service';
import { sqlOf } from '../src/db/sql';
import { SeenRequest, startFakeLlm, Step } from './support/fake-llm';
import { makeUser, startTestApp, TestApp } from './support/app';
import { callA2a, createA2aKey, enableA2a, expectProtoJson, officialClient, sendRequest, userMessage } from './support/a2a';
import { until } from './support/until';

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

/** A webhook receiver on loopback: records every request; `answers[path]` scripts its statuses in turn (then 200). */
async function startReceiver() {
  const received: Received[] = [];
  const answers: Record<string, { status: number; headers?: Record<string, string> }[]> = {};
  const receive = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    received.push({ path: req.url ?? '', headers: req.headers, body: text ? JSON.parse(text) : undefined });
    const answer = answers[req.url ?? '']?.shift() ?? { status: 200 };
    res.writeHead(answer.status, answer.headers).end();
  };
  const server = http.createServer((req, res) => void receive(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: (p: string) => `${base}${p}`,
    received,
    answers,
    at: (p: string) => received.filter((r) => r.path === p),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A webhook receiver on loopback whose `/slow/…` requests are held open (answered 200 on
 * `release`, or after `holdMs` so that a scheduler that never gets past them still ends); any
 * other path answers at once. Each arrival notes how many slow requests were open and how many
 * answered at that moment: what came while the slow ones were still held.
 */
async function startHoldingReceiver(holdMs = 8000) {
  const arrivals: { path: string; open: number; answered: number }[] = [];
  const state = { open: 0, maxOpen: 0, answered: 0, released: false };
  const held = new Set<() => void>();
  const receive = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    await req.toArray(); // the body is read, as a receiver does
    const route = req.url ?? '';
    arrivals.push({ path: route, open: state.open, answered: state.answered });
    if (!route.startsWith('/slow/')) return void res.writeHead(200).end();
    state.open++;
    state.maxOpen = Math.max(state.maxOpen, state.open);
    if (!state.released) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, holdMs);
        held.add(() => (clearTimeout(timer), resolve()));
      });
    }
    state.open--;
    state.answered++;
    res.writeHead(200).end();
  };
  const server = http.createServer((req, res) => void receive(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const release = () => {
    state.released = true;
    for (const answer of held) answer();
    held.clear();
  };
  return {
    url: (p: string) => `${base}${p}`,
    arrivals,
    state,
    release,
    close: () => {
      release();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Turns held open until released, by the text of their message. */
const gates = new Map<string, Promise<void>>();

/** The model by message: held by a gate, a 500 for "fail please", else an answer quoting the message. */
function modelAnswer(request: SeenRequest): Step {
  const text = String(request.body.messages.at(-1)?.content);
  if (text === 'fail please') return { kind: 'status', status: 500 };
  const gate = gates.get(text);
  if (gate) return { kind: 'answer', text: 'late answer', tokensIn: 1, tokensOut: 1, after: gate };
  return { kind: 'answer', text: `Answer: ${text}`, tokensIn: 1, tokensOut: 1 };
}

let gateCount = 0;

/**
 * `from`'s A2A settings and keys copied into `to`'s database (each test app has a database of its
 * own): the same keys are accepted by both, as they were when both read one data directory's files.
 */
async function copyA2aSettings(from: TestApp, to: TestApp) {
  for (const row of await from.sql('select enabled, owner_email from a2a_settings')) {
    await to.sql('insert into a2a_settings (enabled, owner_email) values ($1, $2)', [row.enabled, row.owner_email]);
  }
  for (const key of await from.sql('select id, label, secret_sha256, created_at, revoked_at from a2a_keys')) {
    await to.sql('insert into a2a_keys (id, label, secret_sha256, created_at, revoked_at) values ($1, $2, $3, $4, $5)', [
      key.id,
      key.label,
      key.secret_sha256,
      key.created_at,
      key.revoked_at,
    ]);
  }
}

describe('A2A push notifications', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-a2a-push-'));
  let fake: Awaited<ReturnType<typeof startFakeLlm>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  /** A2A_PUSH_ALLOW_PRIVATE on: receivers on loopback are allowed (metadata still refused). */
  let t: TestApp;
  /** The default policy (private addresses refused), on its own database. */
  let strict: TestApp;
  let alice: string;
  let bob: string;
  /** Keys of their own for the fairness tests: one with many slow webhooks, the others with one notification each. */
  let carol: string;
  let dave: string;
  let erin: string;
  const modelEnv = () => ({
    DATA_DIR: dataDir,
    LLM_PROVIDER: 'openai',
    LLM_MODEL: 'gpt-5',
    LLM_API_KEY: 'sk-test',
    LLM_BASE_URL: fake.baseUrl,
    LLM_TIMEOUT_SECONDS: '30',
    LLM_MAX_RETRIES: '0',
  });

  beforeAll(async () => {
    fake = await startFakeLlm(modelAnswer);
    receiver = await startReceiver();
    t = await startTestApp({ ...modelEnv(), A2A_PUSH_ALLOW_PRIVATE: 'true' });
    await enableA2a(t);
    alice = (await createA2aKey(t, 'alice')).plaintext;
    bob = (await createA2aKey(t, 'bob')).plaintext;
    carol = (await createA2aKey(t, 'carol')).plaintext;
    dave = (await createA2aKey(t, 'dave')).plaintext;
    erin = (await createA2aKey(t, 'erin')).plaintext;
    strict = await startTestApp(modelEnv());
    await copyA2aSettings(t, strict);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await strict?.close();
    await receiver?.close();
    await fake?.close();
  });

  /** A task of `key` that stays WORKING until `release` (its model call waits for it); `pushUrl` registered by SendMessage. */
  async function runningTask(app: TestApp, key: string, pushUrl?: string) {
    let release!: () => void;
    const text = `work on this ${++gateCount}`;
    gates.set(text, new Promise<void>((resolve) => (release = resolve)));
    const sent = await callA2a(app, key, 'SendMessage', {
      message: userMessage(text),
      configuration: { returnImmediately: true, ...(pushUrl ? { taskPushNotificationConfig: { url: pushUrl } } : {}) },
    });
    expect(sent.body.result.task.id).toMatch(/^turn_/);
    return { id: sent.body.result.task.id as string, release, text };
  }

  /** A task of `key` on `app`, CANCELED (before its answer could complete it). */
  async function canceledTask(app: TestApp, key: string, pushUrl?: string) {
    const { id, release } = await runningTask(app, key, pushUrl);
    expect((await callA2a(app, key, 'CancelTask', { id })).body.result.status.state).toBe('TASK_STATE_CANCELED');
    release();
    return id;
  }

  test('create, get, list and delete with the official client; the token is echoed, credentials never; both are sealed at rest', async () => {
    const client = await officialClient(t, alice);
    const task = Task.toJSON((await client.sendMessage(sendRequest('hello'))) as Task) as any;
    const created = await client.createTaskPushNotificationConfig({
      tenant: '',
      id: '',
      taskId: task.id,
      url: receiver.url('/roundtrip'),
      token: 'tok-round-1',
      authentication: { scheme: 'Bearer', credentials: 'cred-round-secret' },
    });
    expect(created).toMatchObject({
      id: expect.stringMatching(/^pnc_/),
      taskId: task.id,
      url: receiver.url('/roundtrip'),
      token: 'tok-round-1',
      authentication: { scheme: 'Bearer', credentials: '' },
    });
    const got = await client.getTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: created.id });
    expect(got).toEqual(created);
    const listed = await client.listTaskPushNotificationConfig({ tenant: '', taskId: task.id, pageSize: 0, pageToken: '' });
    expect(listed).toEqual({ configs: [created], nextPageToken: '' });

    const [stored] = await t.sql('select url, token_sealed, auth_scheme, auth_credentials_sealed from a2a_push_configs where id = $1', [
      created.id,
    ]);
    expect(stored.url).toBe(receiver.url('/roundtrip'));
    expect(stored.auth_scheme).toBe('Bearer');
    expect(JSON.stringify(stored)).not.toMatch(/tok-round-1|cred-round-secret/);

    await client.deleteTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: created.id });
    // Idempotent: deleting it again answers the same (result null).
    const again = await callA2a(t, alice, 'DeleteTaskPushNotificationConfig', { taskId: task.id, id: created.id });
    expect(again.body).toEqual({ jsonrpc: '2.0', id: 1, result: null });
    await expect(client.getTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: created.id })).rejects.toBeInstanceOf(
      TaskNotFoundError,
    );
    expect((await client.listTaskPushNotificationConfig({ tenant: '', taskId: task.id, pageSize: 0, pageToken: '' })).configs).toEqual([]);
  });

  test('a client-chosen id is kept and upserts (snake_case params too); list pages by id', async () => {
    const taskId = await canceledTask(t, alice);
    const first = await callA2a(t, alice, 'CreateTaskPushNotificationConfig', {
      task_id: taskId,
      id: 'my-hook',
      url: receiver.url('/upsert-a'),
    });
    expect(first.body.result).toEqual({ id: 'my-hook', taskId, url: receiver.url('/upsert-a') });
    const second = await callA2a(t, alice, 'CreateTaskPushNotificationConfig', {
      taskId,
      id: 'my-hook',
      url: receiver.url('/upsert-b'),
      token: 'tok-b',
    });
    expect(second.body.result).toEqual({ id: 'my-hook', taskId, url: receiver.url('/upsert-b'), token: 'tok-b' });
    await callA2a(t, alice, 'CreateTaskPushNotificationConfig', { taskId, id: 'other-hook', url: receiver.url('/upsert-c') });
    const page1 = await callA2a(t, alice, 'ListTaskPushNotificationConfigs', { task_id: taskId, page_size: 1 });
    expect(page1.body.result.configs.map((c: any) => c.id)).toEqual(['my-hook']);
    expect(page1.body.result.configs[0].url).toBe(receiver.url('/upsert-b'));
    const page2 = await callA2a(t, alice, 'ListTaskPushNotificationConfigs', {
      taskId,
      pageSize: 1,
      pageToken: page1.body.result.nextPageToken,
    });
    expect(page2.body.result).toEqual({ configs: [expect.objectContaining({ id: 'other-hook' })], nextPageToken: '' });
  });

  test("another key's task is -32001 for all four methods, exactly like an unknown task, and nothing changes", async () => {
    const taskId = await canceledTask(t, alice);
    await callA2a(t, alice, 'CreateTaskPushNotificationConfig', { taskId, id: 'alices', url: receiver.url('/alices') });
    const bobClient = await officialClient(t, bob);
    await expect(
      bobClient.createTaskPushNotificationConfig({
        tenant: '',
        id: '',
        taskId,
        url: receiver.url('/bobs'),
        token: '',
        authentication: undefined,
      }),
    ).rejects.toBeInstanceOf(TaskNotFoundError);
    await expect(bobClient.getTaskPushNotificationConfig({ tenant: '', taskId, id: 'alices' })).rejects.toBeInstanceOf(TaskNotFoundError);
    await expect(bobClient.listTaskPushNotificationConfig({ tenant: '', taskId, pageSize: 0, pageToken: '' })).rejects.toBeInstanceOf(
      TaskNotFoundError,
    );
    await expect(bobClient.deleteTaskPushNotificationConfig({ tenant: '', taskId, id: 'alices' })).rejects.toBeInstanceOf(
      TaskNotFoundError,
    );
    const foreign = await callA2a(t, bob, 'GetTaskPushNotificationConfig', { taskId, id: 'alices' });
    const unknown = await callA2a(t, bob, 'GetTaskPushNotificationConfig', { taskId: 'turn_unknown', id: 'alices' });
    // The message names the id asked (`task not found: <task_id>`): alike but for that id.
    expect(JSON.stringify(foreign.body.error).replaceAll(taskId, '<id>')).toEqual(
      JSON.stringify(unknown.body.error).replaceAll('turn_unknown', '<id>'),
    );
    expect(foreign.body.error.code).toBe(-32001);
    const unknownConfig = await callA2a(t, alice, 'GetTaskPushNotificationConfig', { taskId, id: 'nope' });
    expect(unknownConfig.body.error.code).toBe(-32001);
    expect(await t.sql('select id from a2a_push_configs where task_id = $1 order by id', [taskId])).toEqual([{ id: 'alices' }]);
  });

  test('bad params are -32602 with the field, and store nothing: line breaks in token and credentials, a bad scheme, no url, too many configs', async () => {
    const taskId = await canceledTask(t, alice);
    const cases: [Record<string, unknown>, string][] = [
      [{ url: receiver.url('/x'), token: 'a\r\nX-Injected: 1' }, 'token'],
      [{ url: receiver.url('/x'), authentication: { scheme: 'Bearer', credentials: 'abc\ndef' } }, 'authentication.credentials'],
      [{ url: receiver.url('/x'), authentication: { scheme: 'Bearer x' } }, 'authentication.scheme'],
      [{ url: receiver.url('/x'), token: 'x'.repeat(1025) }, 'token'],
      [{ url: receiver.url('/x'), id: 'has space' }, 'id'],
      [{}, 'url'],
    ];
    for (const [params, field] of cases) {
      const reply = await callA2a(t, alice, 'CreateTaskPushNotificationConfig', { taskId, ...params });
      expect(reply.body.error).toMatchObject({
        code: -32602,
        data: [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [expect.objectContaining({ field })] }],
      });
    }
    expect(await t.sql('select id from a2a_push_configs where task_id = $1', [taskId])).toEqual([]);
    for (let i = 0; i < 10; i++)
      expect(
        (await callA2a(t, alice, 'CreateTaskPushNotificationConfig', { taskId, id: `n${i}`, url: receiver.url('/many') })).body.result,
      ).toBeDefined();
    const eleventh = await callA2a(t, alice, 'CreateTaskPushNotificationConfig', { taskId, id: 'n10', url: receiver.url('/many') });
    expect(eleventh.body.error).toMatchObject({ code: -32602, message: expect.stringContaining('10 push notification configs') });
    // Replacing one of the ten is not an eleventh.
    expect(
      (await callA2a(t, alice, 'CreateTaskPushNotificationConfig', { taskId, id: 'n3', url: receiver.url('/many') })).body.result,
    ).toBeDefined();
    expect((await t.sql('select count(*)::int as n from a2a_push_configs where task_id = $1', [taskId]))[0].n).toBe(10);
  });

  test('registration refuses URL tricks (-32602 on url) with the default policy, and stores nothing', async () => {
    const names: Record<string, string[]> = {
      'internal.example': ['10.1.2.3'],
      'mixed.example': ['93.184.216.34', '192.168.0.7'],
      'meta.example': ['169.254.169.254'],
    };
    const lookup: HostLookup = async (host) =>
      (names[host] ?? ['93.184.216.34']).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    strict.app.services.outboundLookup = lookup;
    // Running (never released): the accepted control config below is never delivered to its public address.
    const { id: taskId } = await runningTask(strict, alice);
    const tricks = [
      'http://2130706433/hook', // decimal IPv4
      'http://017700000001/hook', // octal
      'http://0x7f000001/hook', // hex
      'http://0x7f.1/hook',
      'http://0/hook',
      'http://127.1/hook',
      'http://%31%32%37.0.0.1/hook',
      'http://localhost:9999/hook',
      'http://[::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://[::ffff:7f00:1]/hook',
      'http://[64:ff9b::7f00:1]/hook', // NAT64 of 127.0.0.1
      'http://[64:ff9b::a00:1]/hook', // NAT64 of 10.0.0.1
      'http://[2002:7f00:1::]/hook', // 6to4 of 127.0.0.1
      'http://[2002:a9fe:a9fe::]/hook', // 6to4 of 169.254.169.254
      'http://[fe80::1]/hook',
      'http://[fc00::1]/hook',
      'http://[::]/hook',
      'http://169.254.1.1/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00:ec2::254]/hook',
      'http://100.64.0.1/hook', // CGNAT
      'http://10.0.0.1/hook',
      'http://172.16.0.1/hook',
      'http://192.168.1.1/hook',
      'http://internal.example/hook', // a name resolving to a private address
      'http://mixed.example/hook', // one public and one private address
      'http://meta.example/hook',
      'file:///etc/passwd',
      'ftp://example.org/hook',
      'https://user:pass@example.org/hook',
      'not a url',
    ];
    for (const url of tricks) {
      const reply = await callA2a(strict, alice, 'CreateTaskPushNotificationConfig', { taskId, url });
      expect({ url, error: reply.body.error }).toEqual({
        url,
        error: {
          code: -32602,
          message: expect.any(String),
          data: [
            { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'url', description: expect.any(String) }] },
          ],
        },
      });
    }
    // The same refusal through SendMessage: no task is made.
    const before = (await callA2a(strict, alice, 'ListTasks', {})).body.result.totalSize;
    const viaSend = await callA2a(strict, alice, 'SendMessage', {
      message: userMessage('hi'),
      configuration: { returnImmediately: true, taskPushNotificationConfig: { url: 'http://[::ffff:7f00:1]/hook' } },
    });
    expect(viaSend.body.error.data[0].fieldViolations[0].field).toBe('configuration.taskPushNotificationConfig.url');
    expect((await callA2a(strict, alice, 'ListTasks', {})).body.result.totalSize).toBe(before);
    expect(await strict.sql('select count(*)::int as n from a2a_push_configs')).toEqual([{ n: 0 }]);
    // The control: a public name is accepted by the same policy.
    expect(
      (await callA2a(strict, alice, 'CreateTaskPushNotificationConfig', { taskId, url: 'https://hooks.example.org/a2a' })).body.result,
    ).toMatchObject({ url: 'https://hooks.example.org/a2a' });
  });

  test('with A2A_PUSH_ALLOW_PRIVATE on, loopback is allowed but metadata addresses stay refused', async () => {
    const taskId = await canceledTask(t, alice);
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00:ec2::254]/',
      'http://[::ffff:169.254.169.254]/',
      'http://100.100.100.200/',
    ]) {
      const reply = await callA2a(t, alice, 'CreateTaskPushNotificationConfig', { taskId, url });
      expect({ url, code: reply.body.error?.code, field: reply.body.error?.data[0].fieldViolations[0].field }).toEqual({
        url,
        code: -32602,
        field: 'url',
      });
    }
    expect(
      (await callA2a(t, alice, 'CreateTaskPushNotificationConfig', { taskId, url: receiver.url('/loopback-ok') })).body.result,
    ).toBeDefined();
  });

  test('COMPLETED is pushed (SendMessage registration): token header, Authorization, application/a2a+json, one StreamResponse with the task', async () => {
    const client = await officialClient(t, alice);
    const request = sendRequest(
      'push me',
      {},
      {
        taskPushNotificationConfig: {
          url: receiver.url('/completed'),
          token: 'tok-completed',
          authentication: { scheme: 'Bearer', credentials: 'cred-completed' },
        },
      },
    );
    const task = Task.toJSON((await client.sendMessage(request)) as Task) as any;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    const [push] = await until('a push to /completed', () => receiver.at('/completed').length > 0 && receiver.at('/completed'));
    expect(push.headers['content-type']).toBe('application/a2a+json');
    expect(push.headers['x-a2a-notification-token']).toBe('tok-completed');
    expect(push.headers.authorization).toBe('Bearer cred-completed');
    expect(push.body).toEqual({
      task: {
        id: task.id,
        contextId: task.contextId,
        status: { state: 'TASK_STATE_COMPLETED', timestamp: task.status.timestamp },
        artifacts: [{ artifactId: `${task.id}-answer`, name: 'answer', parts: [{ text: 'Answer: push me' }] }],
      },
    });
    expectProtoJson(push.body);
    const [config] = (await client.listTaskPushNotificationConfig({ tenant: '', taskId: task.id, pageSize: 0, pageToken: '' })).configs;
    expect(config).toMatchObject({ id: expect.stringMatching(/^pnc_/), url: receiver.url('/completed'), token: 'tok-completed' });
    await until(
      'the delivery to be recorded as delivered',
      async () => (await t.sql(`select outcome from a2a_push_deliveries where task_id = $1`, [task.id]))[0]?.outcome === 'delivered',
    );
  });

  test('a FAILED turn (the model answers 500) is pushed with the failure in the status message', async () => {
    const sent = await callA2a(t, alice, 'SendMessage', {
      message: userMessage('fail please'),
      configuration: { taskPushNotificationConfig: { url: receiver.url('/failed'), token: 'tok-failed' } },
    });
    expect(sent.body.result.task.status.state).toBe('TASK_STATE_FAILED');
    const [push] = await until('a push to /failed', () => receiver.at('/failed').length > 0 && receiver.at('/failed'));
    expect(push.headers['x-a2a-notification-token']).toBe('tok-failed');
    expect(push.headers.authorization).toBeUndefined();
    expect(push.body.task).toMatchObject({
      id: sent.body.result.task.id,
      status: { state: 'TASK_STATE_FAILED', message: { role: 'ROLE_AGENT', parts: [{ text: expect.stringContaining('500') }] } },
    });
    expect(push.body.task.history).toBeUndefined();
    expectProtoJson(push.body);
  });

  test('a config created on a task already terminal gets one delivery of its state', async () => {
    const taskId = await canceledTask(t, alice);
    await callA2a(t, alice, 'CreateTaskPushNotificationConfig', { taskId, url: receiver.url('/late-config') });
    const [push] = await until('a push to /late-config', () => receiver.at('/late-config').length > 0 && receiver.at('/late-config'));
    expect(push.body.task).toMatchObject({ id: taskId, status: { state: 'TASK_STATE_CANCELED' } });
  });

  test('a cancel is pushed to the config registered before it (the CANCELED task); a receiver answering 500 is retried and then delivered', async () => {
    receiver.answers['/flaky'] = [{ status: 500 }];
    const taskId = await canceledTask(t, alice, receiver.url('/flaky'));
    await until('2 pushes to /flaky', () => receiver.at('/flaky').length >= 2);
    const [first, second] = receiver.at('/flaky');
    expect(first.body.task).toMatchObject({ id: taskId, status: { state: 'TASK_STATE_CANCELED' } });
    expectProtoJson(first.body);
    expect(second.body).toEqual(first.body);
    const [row] = await until('the delivery to settle', async () => {
      const rows = await t.sql(`select outcome, attempts, last_error from a2a_push_deliveries where task_id = $1`, [taskId]);
      return rows[0]?.outcome && rows;
    });
    expect(row).toEqual({ outcome: 'delivered', attempts: 2, last_error: null });
  });

  test('a state change made by any code is pushed (the trigger), INPUT_REQUIRED included, in order for one receiver even across a retry', async () => {
    receiver.answers['/ordered'] = [{ status: 503 }];
    const { id: taskId, release, text } = await runningTask(t, alice, receiver.url('/ordered'));
    // The model was asked: the turn has moved the task to WORKING and waits for its answer.
    await until('the model to be asked', () => fake.seen.some((request) => request.body.messages.at(-1)?.content === text));
    await t.sql(`update a2a_tasks set state = 'TASK_STATE_INPUT_REQUIRED' where id = $1`, [taskId]);
    await t.sql(`update a2a_tasks set state = 'TASK_STATE_COMPLETED' where id = $1`, [taskId]);
    release();
    await until('3 pushes to /ordered', () => receiver.at('/ordered').length >= 3);
    expect(receiver.at('/ordered').map((r) => r.body.task.status.state)).toEqual([
      'TASK_STATE_INPUT_REQUIRED',
      'TASK_STATE_INPUT_REQUIRED',
      'TASK_STATE_COMPLETED',
    ]);
    expect(receiver.at('/ordered').map((r) => r.body.task.id)).toEqual([taskId, taskId, taskId]);
  });

  test('a redirect is not followed: the delivery fails and the Location is never requested', async () => {
    receiver.answers['/redirect'] = [{ status: 302, headers: { location: receiver.url('/redirected') } }];
    const taskId = await canceledTask(t, alice, receiver.url('/redirect'));
    const [row] = await until('the delivery to settle', async () => {
      const rows = await t.sql(`select outcome, attempts, last_error from a2a_push_deliveries where task_id = $1`, [taskId]);
      return rows[0]?.outcome && rows;
    });
    expect(row).toEqual({ outcome: 'failed', attempts: 1, last_error: expect.stringContaining('redirect') });
    expect(receiver.at('/redirect')).toHaveLength(1);
    expect(receiver.at('/redirected')).toHaveLength(0);
  });

  test('a deleted config gets no POST: the task completes after the delete, a second config is the witness', async () => {
    const { id: taskId, release } = await runningTask(t, alice);
    await callA2a(t, alice, 'CreateTaskPushNotificationConfig', { taskId, id: 'deleted', url: receiver.url('/deleted') });
    await callA2a(t, alice, 'CreateTaskPushNotificationConfig', { taskId, id: 'witness', url: receiver.url('/witness') });
    await callA2a(t, alice, 'DeleteTaskPushNotificationConfig', { taskId, id: 'deleted' });
    release();
    await until('a push to /witness', () => receiver.at('/witness').length > 0);
    await until(
      'the delivery to be recorded as delivered',
      async () => (await t.sql(`select outcome from a2a_push_deliveries where task_id = $1`, [taskId]))[0]?.outcome === 'delivered',
    );
    expect(receiver.at('/deleted')).toHaveLength(0);
    expect(await t.sql(`select config_id from a2a_push_deliveries where task_id = $1`, [taskId])).toEqual([{ config_id: 'witness' }]);
  });

  test('a host that resolves to a private address at delivery time (DNS rebinding) is refused; nothing is sent', async () => {
    // The first answer (the check at registration) is public, every later one private.
    let asked = 0;
    strict.app.services.outboundLookup = async (host) => [
      { address: host === 'rebind.example' && ++asked > 1 ? '10.0.0.5' : '93.184.216.34', family: 4 },
    ];
    const { id: taskId, release } = await runningTask(strict, alice);
    const created = await callA2a(strict, alice, 'CreateTaskPushNotificationConfig', { taskId, url: 'http://rebind.example/hook' });
    expect(created.body.result).toBeDefined();
    expect(asked).toBe(1);
    await callA2a(strict, alice, 'CancelTask', { id: taskId });
    release();
    const [row] = await until('the delivery to settle', async () => {
      const rows = await strict.sql(`select outcome, attempts, last_error from a2a_push_deliveries where task_id = $1`, [taskId]);
      return rows[0]?.outcome && rows;
    });
    expect(row).toEqual({ outcome: 'failed', attempts: 1, last_error: 'rebind.example resolves to 10.0.0.5, a private address' });
  });

  test('a host that does not resolve at registration is accepted (split DNS, a resolver down); delivery retries until it resolves', async () => {
    let asked = 0;
    const previous = t.app.services.outboundLookup;
    // Registration and the first delivery find no address; the retry finds the receiver's.
    t.app.services.outboundLookup = async (host) => {
      if (host !== 'late.example') return previous ? previous(host) : [{ address: '127.0.0.1', family: 4 }];
      if (++asked <= 2) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      return [{ address: '127.0.0.1', family: 4 }];
    };
    try {
      const url = receiver.url('/late').replace('127.0.0.1', 'late.example');
      const { id: taskId, release } = await runningTask(t, alice);
      const created = await callA2a(t, alice, 'CreateTaskPushNotificationConfig', { taskId, url });
      expect(created.body.result).toMatchObject({ url });
      await callA2a(t, alice, 'CancelTask', { id: taskId });
      release();
      const [row] = await until('the delivery to arrive', async () => {
        const rows = await t.sql(`select outcome, attempts, last_error from a2a_push_deliveries where task_id = $1`, [taskId]);
        return rows[0]?.outcome && rows;
      });
      expect(row).toEqual({ outcome: 'delivered', attempts: 2, last_error: null });
      expect(receiver.at('/late').map((r) => r.body.task.status.state)).toEqual(['TASK_STATE_CANCELED']);
      expect(asked).toBe(3);
    } finally {
      t.app.services.outboundLookup = previous;
    }
  });

  test("GraphQL a2aTaskPushConfigs: the A2A owner sees a task's configs without token or credentials; another account gets NOT_FOUND", async () => {
    const taskId = await canceledTask(t, alice);
    await callA2a(t, alice, 'CreateTaskPushNotificationConfig', {
      taskId,
      id: 'gql',
      url: receiver.url('/gql'),
      token: 'tok-gql-secret',
      authentication: { scheme: 'Basic', credentials: 'cred-gql-secret' },
    });
    const [{ owner }] = await t.sql<{ owner: string }>('select owner_email as owner from a2a_settings');
    const [{ id: ownerId }] = await t.sql<{ id: string }>('select id from users where email = $1', [owner.toLowerCase()]);
    const minted = await t.call('POST', `/api/admin/users/${ownerId}/tokens`, { token: t.adminToken, body: { label: 'web tools' } });
    const query = {
      query: 'query($taskId: String!) { a2aTaskPushConfigs(taskId: $taskId) { id taskId url hasToken authScheme } }',
      variables: { taskId },
    };
    const seen = await t.call('POST', '/graphql', { token: minted.body.token, body: query });
    expect(seen.body).toEqual({
      data: { a2aTaskPushConfigs: [{ id: 'gql', taskId, url: receiver.url('/gql'), hasToken: true, authScheme: 'Basic' }] },
    });
    expect(seen.text).not.toMatch(/tok-gql-secret|cred-gql-secret/);
    const stranger = await makeUser(t);
    const refused = await t.call('POST', '/graphql', { token: stranger.token, body: query });
    expect(refused.body.data).toBeNull();
    expect(refused.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const anonymous = await t.call('POST', '/graphql', { body: query });
    expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  test('finished deliveries older than the keeping time are removed; recent and pending ones stay', async () => {
    const taskId = await canceledTask(t, alice);
    await callA2a(t, alice, 'CreateTaskPushNotificationConfig', { taskId, id: 'kept', url: receiver.url('/kept') });
    await until(
      'the delivery of the canceled state to finish',
      async () => (await t.sql(`select outcome from a2a_push_deliveries where task_id = $1`, [taskId]))[0]?.outcome,
    );
    const insert = (finishedDaysAgo: number | null) =>
      t.sql(
        `insert into a2a_push_deliveries (task_id, config_id, state, status_at, outcome, finished_at, next_attempt_at)
         values ($1, 'kept', 'TASK_STATE_CANCELED', now(), $2, $3, now() + interval '1 day') returning id`,
        [
          taskId,
          finishedDaysAgo === null ? null : 'delivered',
          finishedDaysAgo === null ? null : new Date(Date.now() - finishedDaysAgo * 86_400_000),
        ],
      );
    const [old] = await insert(FINISHED_DELIVERY_KEEP_DAYS + 1);
    const [recent] = await insert(FINISHED_DELIVERY_KEEP_DAYS - 1);
    const [pending] = await insert(null);
    const removed = await deleteFinishedDeliveries(sqlOf(t.app.services.orm.em.fork()), FINISHED_DELIVERY_KEEP_DAYS);
    expect(removed).toBeGreaterThanOrEqual(1);
    const left = (
      await t.sql<{ id: string }>(`select id from a2a_push_deliveries where id = any($1::bigint[])`, [[old.id, recent.id, pending.id]])
    ).map((row) => row.id);
    expect(left.sort()).toEqual([recent.id, pending.id].sort());
  });

  test('two instances on one database deliver each notification exactly once', async () => {
    const second = await startTestApp({ ...modelEnv(), A2A_PUSH_ALLOW_PRIVATE: 'true' }, { sameDatabaseAs: t });
    try {
      const ids = await Promise.all(
        Array.from({ length: 8 }, (_, i) => canceledTask(i % 2 ? second : t, alice, receiver.url(`/twice/${i}`))),
      );
      await until('every task to be delivered', async () => {
        const rows = await t.sql(`select count(*)::int as n from a2a_push_deliveries where task_id = any($1) and outcome = 'delivered'`, [
          ids,
        ]);
        return rows[0].n === ids.length;
      });
      // No delivery claimed any more: nothing is in flight that could still POST.
      await until(
        'no delivery claimed',
        async () =>
          (await t.sql(`select count(*)::int as n from a2a_push_deliveries where task_id = any($1) and claim is not null`, [ids]))[0].n ===
          0,
      );
      for (let i = 0; i < ids.length; i++) expect({ i, posts: receiver.at(`/twice/${i}`).length }).toEqual({ i, posts: 1 });
    } finally {
      await second.close();
    }
  });

  /** Tasks of `key` on `apps` in turn, each registering one of `pushUrls`: all made first, then canceled together, so their deliveries come due at about the same time. */
  async function canceledTogether(apps: TestApp[], key: string, pushUrls: string[]) {
    const tasks = [];
    for (const [i, url] of pushUrls.entries())
      tasks.push({ app: apps[i % apps.length], ...(await runningTask(apps[i % apps.length], key, url)) });
    await Promise.all(
      tasks.map(async ({ app, id }) =>
        expect((await callA2a(app, key, 'CancelTask', { id })).body.result.status.state).toBe('TASK_STATE_CANCELED'),
      ),
    );
    for (const task of tasks) task.release();
    return tasks.map((task) => task.id);
  }

  const deliveredCount = async (app: TestApp, taskIds: string[]) =>
    (await app.sql(`select count(*)::int as n from a2a_push_deliveries where task_id = any($1) and outcome = 'delivered'`, [taskIds]))[0]
      .n as number;

  test("one key's slow webhooks take at most A2A_PUSH_CONCURRENCY_PER_KEY (default 4) slots: another key's notification arrives while they are held open", async () => {
    const slow = await startHoldingReceiver();
    try {
      const slowTasks = await canceledTogether(
        [t],
        carol,
        Array.from({ length: 8 }, (_, i) => slow.url(`/slow/${i}`)),
      );
      await until('4 slow deliveries to be held open', () => slow.state.open >= 4);
      await canceledTask(t, dave, slow.url('/quick'));
      const quick = await until("the other key's notification", () => slow.arrivals.find((arrival) => arrival.path === '/quick'));
      // It came while the 4 slow POSTs begun were still held, none of them answered, no fifth begun.
      expect(quick).toEqual({ path: '/quick', open: 4, answered: 0 });
      slow.release();
      await until('every slow delivery to be delivered', async () => (await deliveredCount(t, slowTasks)) === 8);
      expect(slow.state.maxOpen).toBe(4);
      expect(
        slow.arrivals
          .map((arrival) => arrival.path)
          .filter((path) => path.startsWith('/slow/'))
          .sort(),
      ).toEqual(Array.from({ length: 8 }, (_, i) => `/slow/${i}`));
    } finally {
      await slow.close();
    }
  }, 60_000);

  test('the per-key limit is counted in the database: it holds over two instances (A2A_PUSH_CONCURRENCY_PER_KEY=2)', async () => {
    const env = { ...modelEnv(), A2A_PUSH_ALLOW_PRIVATE: 'true', A2A_PUSH_CONCURRENCY_PER_KEY: '2' };
    const one = await startTestApp(env);
    await copyA2aSettings(t, one);
    const two = await startTestApp(env, { sameDatabaseAs: one });
    const slow = await startHoldingReceiver();
    try {
      const slowTasks = await canceledTogether(
        [one, two],
        erin,
        Array.from({ length: 6 }, (_, i) => slow.url(`/slow/${i}`)),
      );
      await until('2 slow deliveries to be held open', () => slow.state.open >= 2);
      // Other keys' notifications, one made on each instance, come one after the other while the
      // first key's two are held: each instance had time to claim, neither took a third of them.
      await canceledTask(one, dave, slow.url('/quick/one'));
      await until('the first quick notification', () => slow.arrivals.some((arrival) => arrival.path === '/quick/one'));
      await canceledTask(two, carol, slow.url('/quick/two'));
      await until('the second quick notification', () => slow.arrivals.some((arrival) => arrival.path === '/quick/two'));
      expect(slow.arrivals.filter((arrival) => arrival.path.startsWith('/quick/'))).toEqual([
        { path: '/quick/one', open: 2, answered: 0 },
        { path: '/quick/two', open: 2, answered: 0 },
      ]);
      slow.release();
      await until('every slow delivery to be delivered', async () => (await deliveredCount(one, slowTasks)) === 6);
      expect(slow.state.maxOpen).toBe(2);
      expect(
        slow.arrivals
          .map((arrival) => arrival.path)
          .filter((path) => path.startsWith('/slow/'))
          .sort(),
      ).toEqual(Array.from({ length: 6 }, (_, i) => `/slow/${i}`));
    } finally {
      await slow.close();
      await two.close();
      await one.close();
    }
  }, 90_000);

  test('a URL with CR, LF or any other control character is refused (-32602 on url), nothing stored; the outbound agent registry (the same guard) refuses it too', async () => {
    const taskId = await canceledTask(t, alice);
    const urls = [
      receiver.url('/crlf\r\nX-Injected: 1'),
      receiver.url('/lf\nsplit'),
      receiver.url('/cr\r'),
      receiver.url('/tab\tx'),
      receiver.url('/nul\0'),
      receiver.url('/del\x7f'),
      receiver.url('/c1\x85'),
      `\x01${receiver.url('/leading')}`,
      `${receiver.url('/trailing')}\r\n`,
      receiver.url('/host').replace('127.0.0.1', '127.0\n.0.1'),
    ];
    for (const url of urls) {
      const reply = await callA2a(t, alice, 'CreateTaskPushNotificationConfig', { taskId, url });
      expect({ url, error: reply.body.error }).toEqual({
        url,
        error: {
          code: -32602,
          message: expect.any(String),
          data: [
            {
              '@type': 'type.googleapis.com/google.rpc.BadRequest',
              // NUL is refused with every string the service reads, before the URL is looked at.
              fieldViolations: [{ field: 'url', description: expect.stringMatching(url.includes('\0') ? /NUL/ : /control characters/) }],
            },
          ],
        },
      });
    }
    expect(await t.sql('select url from a2a_push_configs where task_id = $1', [taskId])).toEqual([]);
    // Through SendMessage: the whole call is refused and no task is made.
    const before = (await callA2a(t, alice, 'ListTasks', {})).body.result.totalSize;
    const viaSend = await callA2a(t, alice, 'SendMessage', {
      message: userMessage('hi'),
      configuration: { returnImmediately: true, taskPushNotificationConfig: { url: receiver.url('/send\r\nX-Injected: 1') } },
    });
    expect(viaSend.body.error).toMatchObject({
      code: -32602,
      data: [{ fieldViolations: [{ field: 'configuration.taskPushNotificationConfig.url' }] }],
    });
    expect((await callA2a(t, alice, 'ListTasks', {})).body.result.totalSize).toBe(before);
    // The outbound agent registry checks its URLs with the same guard (src/net/outbound.ts).
    const admin = await makeUser(t, { is_admin: true });
    const registered = await t.call('POST', '/api/a2a/agents', {
      token: admin.token,
      body: { id: 'crlf', name: 'CRLF', url: receiver.url('/agent\r\nX-Injected: 1'), allow_private: true },
    });
    expect(registered.status).toBe(422);
    expect(registered.body.detail).toEqual([
      { loc: ['body', 'url'], msg: expect.stringContaining('control characters'), type: 'outbound_url' },
    ]);
    expect(await t.sql('select id from a2a_agents where user_id = $1', [admin.id])).toEqual([]);
    // The control: the same URLs without the control characters are accepted.
    expect(
      (await callA2a(t, alice, 'CreateTaskPushNotificationConfig', { taskId, url: receiver.url('/crlfX-Injected: 1') })).body.result,
    ).toBeDefined();
  });
});

describe('A2A push policy', () => {
  test.each([
    [{ status: 200 }, 1, 'delivered'],
    [{ status: 204 }, 10, 'delivered'],
    [{ status: 500 }, 1, 'retry'],
    [{ status: 503 }, 9, 'retry'],
    [{ status: 500 }, 10, 'failed'],
    [{ status: 408 }, 1, 'retry'],
    [{ status: 429 }, 1, 'retry'],
    [{ status: 401 }, 1, 'failed'],
    [{ status: 410 }, 1, 'failed'],
    [{ status: 302 }, 1, 'retry'],
    [{ unreachable: true as const }, 1, 'retry'],
    [{ unreachable: true as const }, 10, 'failed'],
    [{ refused: true as const }, 1, 'failed'],
  ])('%o at attempt %i: %s', (outcome, attempts, verdict) => {
    expect(verdictOf(outcome, attempts)).toBe(verdict);
  });

  test('retries wait 2 s, then twice as long each time, at most 10 minutes', () => {
    expect(Array.from({ length: 11 }, (_, i) => retryDelaySeconds(i + 1))).toEqual([2, 4, 8, 16, 32, 64, 128, 256, 512, 600, 600]);
  });
});
