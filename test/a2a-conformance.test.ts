import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useFakeLlm } from './support/fake-llm';
import { useTestApp } from './support/app';
import { createA2aKey, enableA2a, rpc, rpcCall, userMessage } from './support/a2a';

/**
 * Items of the A2A 1.0 conformance checklist (docs/a2a-conformance.md) that the other A2A suites
 * do not already show, each named by its checklist id. Raw JSON-RPC over HTTP, so the wire itself
 * is what is checked (the official client's use is shown in the other suites).
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-a2a-conformance-'));
const { env } = useFakeLlm(() => ({ kind: 'answer', text: 'An answer.', tokensIn: 3, tokensOut: 2 }), {
  DATA_DIR: dataDir,
  LLM_PROVIDER: 'openai',
  LLM_MODEL: 'gpt-5',
  LLM_API_KEY: 'sk-test',
});
let alice: string;
let bob: string;
beforeAll(async () => {
  await enableA2a(dataDir);
  alice = (await createA2aKey(dataDir, 'alice')).plaintext;
  bob = (await createA2aKey(dataDir, 'bob')).plaintext;
}, 60_000);
const t = useTestApp(env);

const taskCount = async () => Number((await t.sql<{ n: string }>('select count(*) as n from a2a_tasks'))[0].n);
const send = (key: string, message: Record<string, unknown>, configuration?: Record<string, unknown>, headers?: Record<string, string>) =>
  rpc(t, key, rpcCall(1, 'SendMessage', { message, ...(configuration ? { configuration } : {}) }), headers);

/** Every JSON-RPC error answered in this suite, for the envelope check at the end (C8). */
const errorsSeen: unknown[] = [];
const errorOf = (reply: { body: { error?: unknown } }) => {
  errorsSeen.push(reply.body.error);
  return reply.body.error as { code: number; message: string; data?: Record<string, unknown>[] };
};

/**
 * The wire rules every A2A object follows (checklist M1–M7): camelCase keys only, no nulls (unset
 * members are omitted), enums as `TASK_STATE_*`/`ROLE_*` strings, RFC 3339 UTC timestamps, no
 * v0.3 members. Values under `data` and `metadata` are the caller's own JSON and are not walked.
 */
function expectProtoJson(value: unknown, at = '$'): void {
  if (value === null) throw new Error(`${at} is null (an unset member is omitted)`);
  if (Array.isArray(value)) return value.forEach((item, index) => expectProtoJson(item, `${at}[${index}]`));
  if (typeof value !== 'object') return;
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    expect({ at: `${at}.${key}`, snake: /_/.test(key), v03: ['kind', 'final', 'mimeType', 'file'].includes(key) }).toEqual({ at: `${at}.${key}`, snake: false, v03: false });
    if (key === 'state') expect(item).toMatch(/^TASK_STATE_[A-Z_]+$/);
    if (key === 'role') expect(item).toMatch(/^ROLE_(USER|AGENT)$/);
    if (key === 'timestamp') expect(item).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    if (key !== 'data' && key !== 'metadata') expectProtoJson(item, `${at}.${key}`);
  }
}

test('E2, E3, E9, E15, M: a blocking send answers a settled task with a unique id, the given contextId echoed, agent messages as ROLE_AGENT; all of it ProtoJSON', async () => {
  const first = await send(alice, userMessage('one'));
  const second = await send(alice, userMessage('two', { contextId: 'my-own-context' }), { historyLength: 10 });
  for (const reply of [first, second]) {
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(reply.body.result)).toEqual(['task']);
    expectProtoJson(reply.body.result);
  }
  const [a, b] = [first.body.result.task, second.body.result.task];
  expect(a.id).not.toBe(b.id);
  expect(a.contextId).toMatch(/^ctx_/);
  expect(b.contextId).toBe('my-own-context');
  expect(b.status.state).toBe('TASK_STATE_COMPLETED');
  const agentTurn = b.history.find((message: { role: string }) => message.role === 'ROLE_AGENT');
  expect(agentTurn).toMatchObject({ messageId: expect.stringMatching(/.+/), contextId: 'my-own-context', taskId: b.id });
  const got = await rpc(t, alice, rpcCall(2, 'GetTask', { id: b.id }));
  expectProtoJson(got.body.result);
  const listed = await rpc(t, alice, rpcCall(3, 'ListTasks', { includeArtifacts: true, historyLength: 5 }));
  expectProtoJson(listed.body.result);
});

test('B1: a request with no key or a bad key is refused and leaves nothing behind', async () => {
  const before = await taskCount();
  for (const key of [undefined, 'ldk_a2a_nosuchkeyxx_0000000000000000000000000000000000000000']) {
    const reply = await send(key as string, userMessage('sneaky'));
    expect(reply.status).toBe(401);
    expect(reply.headers.get('www-authenticate')).toBe('Bearer');
    expect(reply.body).toEqual({ jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: expect.any(Number) }) });
  }
  expect(await taskCount()).toBe(before);
});

test('B3: another key\'s task answers exactly as an unknown id does, for every task method (the message names the id asked)', async () => {
  const mine = (await send(alice, userMessage('private'))).body.result.task;
  const unknown = 'turn_doesnotexist0000000000';
  const asked = async (key: string, id: string) => {
    const replies = [
      await rpc(t, key, rpcCall(1, 'GetTask', { id })),
      await rpc(t, key, rpcCall(1, 'CancelTask', { id })),
      await send(key, userMessage('more', { taskId: id })),
    ];
    return replies.map((reply) => ({ status: reply.status, error: JSON.stringify(errorOf(reply)).replaceAll(id, '<id>') }));
  };
  const foreign = await asked(bob, mine.id);
  expect(foreign).toEqual(await asked(bob, unknown));
  expect(foreign[0]).toEqual({ status: 200, error: JSON.stringify({ code: -32001, message: 'task not found: <id>', data: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_FOUND', domain: 'a2a-protocol.org' }] }) });
  expect((await rpc(t, bob, rpcCall(1, 'ListTasks', {}))).body.result.tasks.map((task: { id: string }) => task.id)).not.toContain(mine.id);
});

test('D2: an unsupported A2A-Version is -32009 and nothing is processed', async () => {
  const before = await taskCount();
  for (const version of ['99.0', '0.5', '2.0']) {
    const reply = await send(alice, userMessage('from the future'), undefined, { 'A2A-Version': version });
    expect(errorOf(reply)).toMatchObject({ code: -32009, data: [expect.objectContaining({ reason: 'VERSION_NOT_SUPPORTED' })] });
  }
  expect(await taskCount()).toBe(before);
});

test('C12: an A2A-Extensions header naming unknown extensions is ignored, never a 5xx', async () => {
  const reply = await send(alice, userMessage('with extensions'), undefined, { 'A2A-Extensions': 'https://example.com/ext/v1,https://example.com/ext/v2' });
  expect(reply.status).toBe(200);
  expect(reply.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
});

test('E10: a part whose media type the card does not list is -32005 and makes no task; a listed file type is accepted', async () => {
  const before = await taskCount();
  const refused = await send(alice, { ...userMessage('x'), parts: [{ raw: 'dGNr', mediaType: 'application/x-unsupported-tck-type' }] });
  expect(errorOf(refused)).toMatchObject({ code: -32005, message: expect.stringContaining('application/x-unsupported-tck-type'), data: [expect.objectContaining({ reason: 'CONTENT_TYPE_NOT_SUPPORTED' })] });
  expect(await taskCount()).toBe(before);
  const card = (await t.call('GET', '/.well-known/agent-card.json')).body;
  expect(card.defaultInputModes).toContain('text/csv');
  const accepted = await send(alice, { ...userMessage('a table'), parts: [{ text: 'see the table' }, { raw: Buffer.from('a,b\n1,2\n').toString('base64'), filename: 't.csv', mediaType: 'text/csv; charset=utf-8' }] });
  expect(accepted.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
});

test('C6, F4, G4: invalid params are -32602 with field violations', async () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['GetTask', {}, 'id'],
    ['GetTask', { id: 'turn_x', historyLength: -1 }, 'historyLength'],
    ['ListTasks', { pageSize: 0 }, 'pageSize'],
    ['ListTasks', { pageSize: 101 }, 'pageSize'],
    ['ListTasks', { pageSize: -1 }, 'pageSize'],
    ['ListTasks', { status: 'TASK_STATE_RUNNING' }, 'status'],
    ['SendMessage', {}, 'message'],
    ['SendMessage', { message: { ...userMessage('x'), parts: [] } }, 'message.parts'],
    ['SendMessage', { message: { ...userMessage('x'), role: 'user' } }, 'message.role'],
    ['SendMessage', { message: { ...userMessage('x'), parts: [{ text: 'a', data: {} }] } }, 'message.parts.0'],
    ['SendMessage', { message: { ...userMessage('x'), parts: [{ raw: 'not base64!' }] } }, 'message.parts.0.raw'],
  ];
  for (const [method, params, field] of cases) {
    const error = errorOf(await rpc(t, alice, rpcCall(1, method, params)));
    expect({ method, field, code: error.code, fields: error.data?.[0]?.fieldViolations }).toEqual({
      method,
      field,
      code: -32602,
      fields: expect.arrayContaining([expect.objectContaining({ field })]),
    });
  }
});

test('C8: every error seen has an integer code, a string message and, at most, data whose elements all carry @type', () => {
  expect(errorsSeen.length).toBeGreaterThan(10);
  for (const error of errorsSeen as Record<string, unknown>[]) {
    expect(Object.keys(error).every((key) => ['code', 'message', 'data'].includes(key))).toBe(true);
    expect(Number.isInteger(error.code)).toBe(true);
    expect(typeof error.message).toBe('string');
    if (error.data !== undefined) for (const item of error.data as Record<string, unknown>[]) expect(typeof item['@type']).toBe('string');
  }
});
