import { useFakeLlm } from './support/fake-llm';
import { useTestApp } from './support/app';
import { createA2aKey, enableA2a, expectProtoJson, rpc, rpcCall, userMessage } from './support/a2a';

/**
 * Items of the A2A 1.0 conformance checklist (docs/a2a-conformance.md) that the other A2A suites
 * do not already show, each named by its checklist id. Raw JSON-RPC over HTTP, so the wire itself
 * is what is checked (the official client's use is shown in the other suites).
 */
const { env } = useFakeLlm(() => ({ kind: 'answer', text: 'An answer.', tokensIn: 3, tokensOut: 2 }), {
  LLM_PROVIDER: 'openai',
  LLM_MODEL: 'gpt-5',
  LLM_API_KEY: 'sk-test',
});
const t = useTestApp(env);
let alice: string;
let bob: string;
// After useTestApp's own beforeAll (hooks run in the order they are declared): the app is running.
beforeAll(async () => {
  await enableA2a(t);
  alice = (await createA2aKey(t, 'alice')).plaintext;
  bob = (await createA2aKey(t, 'bob')).plaintext;
}, 60_000);

const taskCount = async () => Number((await t.sql<{ n: string }>('select count(*) as n from a2a_tasks'))[0].n);
const send = (key: string, message: Record<string, unknown>, configuration?: Record<string, unknown>, headers?: Record<string, string>) =>
  rpc(t, key, rpcCall(1, 'SendMessage', { message, ...(configuration ? { configuration } : {}) }), headers);

/** Every JSON-RPC error answered in this suite, for the envelope check at the end (C8). */
const errorsSeen: unknown[] = [];
const errorOf = (reply: { body: { error?: unknown } }) => {
  errorsSeen.push(reply.body.error);
  return reply.body.error as { code: number; message: string; data?: Record<string, unknown>[] };
};

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

test("B3: another key's task answers exactly as an unknown id does, for every task method (the message names the id asked)", async () => {
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
  expect(foreign[0]).toEqual({
    status: 200,
    error: JSON.stringify({
      code: -32001,
      message: 'task not found: <id>',
      data: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_FOUND', domain: 'a2a-protocol.org' }],
    }),
  });
  expect((await rpc(t, bob, rpcCall(1, 'ListTasks', {}))).body.result.tasks.map((task: { id: string }) => task.id)).not.toContain(mine.id);
});

test('D2, D6: an unsupported A2A-Version is -32009 and nothing is processed; a streaming method gets it as plain JSON, no stream', async () => {
  const before = await taskCount();
  for (const version of ['99.0', '0.5', '2.0']) {
    const reply = await send(alice, userMessage('from the future'), undefined, { 'A2A-Version': version });
    expect(errorOf(reply)).toMatchObject({ code: -32009, data: [expect.objectContaining({ reason: 'VERSION_NOT_SUPPORTED' })] });
    const streamed = await rpc(t, alice, rpcCall(1, 'SendStreamingMessage', { message: userMessage('streamed from the future') }), {
      'A2A-Version': version,
      accept: 'text/event-stream',
    });
    expect(streamed.headers.get('content-type')).toMatch(/^application\/json/);
    expect(errorOf(streamed)).toMatchObject({ code: -32009, data: [expect.objectContaining({ reason: 'VERSION_NOT_SUPPORTED' })] });
  }
  expect(await taskCount()).toBe(before);
});

test('C12: an A2A-Extensions header naming unknown extensions is ignored, never a 5xx', async () => {
  const reply = await send(alice, userMessage('with extensions'), undefined, {
    'A2A-Extensions': 'https://example.com/ext/v1,https://example.com/ext/v2',
  });
  expect(reply.status).toBe(200);
  expect(reply.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
});

test('E10: a part whose media type the card does not list is -32005 and makes no task; a listed file type is accepted', async () => {
  const before = await taskCount();
  const refused = await send(alice, { ...userMessage('x'), parts: [{ raw: 'dGNr', mediaType: 'application/x-unsupported-tck-type' }] });
  expect(errorOf(refused)).toMatchObject({
    code: -32005,
    message: expect.stringContaining('application/x-unsupported-tck-type'),
    data: [expect.objectContaining({ reason: 'CONTENT_TYPE_NOT_SUPPORTED' })],
  });
  expect(await taskCount()).toBe(before);
  const card = (await t.call('GET', '/.well-known/agent-card.json')).body;
  expect(card.defaultInputModes).toContain('text/csv');
  const accepted = await send(alice, {
    ...userMessage('a table'),
    parts: [
      { text: 'see the table' },
      { raw: Buffer.from('a,b\n1,2\n').toString('base64'), filename: 't.csv', mediaType: 'text/csv; charset=utf-8' },
    ],
  });
  expect(accepted.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
});

test('C6, F4, G4: invalid params are -32602 with field violations', async () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['GetTask', {}, 'id'],
    ['GetTask', { id: 'turn_x', historyLength: -1 }, 'historyLength'],
    ['ListTasks', { historyLength: -1 }, 'historyLength'],
    ['ListTasks', { pageSize: 0 }, 'pageSize'],
    ['ListTasks', { pageSize: 101 }, 'pageSize'],
    ['ListTasks', { pageSize: -1 }, 'pageSize'],
    ['ListTasks', { status: 'TASK_STATE_RUNNING' }, 'status'],
    ['SendMessage', {}, 'message'],
    ['SendMessage', { message: { ...userMessage('x'), parts: [] } }, 'message.parts'],
    ['SendMessage', { message: { ...userMessage('x'), role: 'user' } }, 'message.role'],
    ['SendMessage', { message: { ...userMessage('x'), role: 'ROLE_UNSPECIFIED' } }, 'message.role'],
    ['SendMessage', { message: { role: 'ROLE_USER', parts: [{ text: 'x' }] } }, 'message.messageId'],
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

test("A2, A3, A4: the card's required strings are non-empty, its required arrays have members, its interface URL is absolute", async () => {
  const card = (await t.call('GET', '/.well-known/agent-card.json')).body;
  for (const name of ['name', 'description', 'version'])
    expect({ name, value: card[name] }).toEqual({ name, value: expect.stringMatching(/\S/) });
  for (const name of ['supportedInterfaces', 'defaultInputModes', 'defaultOutputModes', 'skills'])
    expect({ name, length: card[name].length > 0 }).toEqual({ name, length: true });
  for (const face of card.supportedInterfaces) expect(new URL(face.url).protocol).toMatch(/^https?:$/);
  for (const skill of card.skills) {
    for (const name of ['id', 'name', 'description']) expect(skill[name]).toMatch(/\S/);
    expect(skill.tags.length).toBeGreaterThan(0);
  }
});

test('C10, C14: unknown members anywhere in params and an empty tenant are accepted and change nothing', async () => {
  const params = {
    tenant: '',
    fromTheFuture: 1,
    message: { ...userMessage('tolerant'), fromTheFuture: { nested: true }, extensions: [] },
    configuration: { acceptedOutputModes: ['text/plain'], fromTheFuture: 'yes' },
    metadata: { caller: 'note' },
  };
  const sent = await rpc(t, alice, rpcCall(1, 'SendMessage', params));
  expect(sent.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
  const got = await rpc(t, alice, rpcCall(2, 'GetTask', { id: sent.body.result.task.id, tenant: '', fromTheFuture: 1 }));
  expect(got.body.result.id).toBe(sent.body.result.task.id);
  expect((await rpc(t, alice, rpcCall(3, 'ListTasks', { tenant: '', fromTheFuture: 1 }))).body.result.tasks.length).toBeGreaterThan(0);
});

test('E11, F3: configuration.historyLength 0 leaves the history key out of the SendMessage result; 1 keeps the most recent message', async () => {
  const none = await send(alice, userMessage('no history please'), { historyLength: 0 });
  expect(none.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
  expect(none.body.result.task).not.toHaveProperty('history');
  const one = await send(alice, userMessage('one message please'), { historyLength: 1 });
  expect(one.body.result.task.history).toEqual([expect.objectContaining({ role: 'ROLE_AGENT', parts: [{ text: 'An answer.' }] })]);
});

test('H2, C9: cancelling a COMPLETED task is -32002 with reason TASK_NOT_CANCELABLE, and the task stays COMPLETED', async () => {
  const done = (await send(alice, userMessage('finished quickly'))).body.result.task;
  expect(done.status.state).toBe('TASK_STATE_COMPLETED');
  const refused = await rpc(t, alice, rpcCall(1, 'CancelTask', { id: done.id }));
  expect(errorOf(refused)).toEqual({
    code: -32002,
    message: expect.any(String),
    data: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_CANCELABLE', domain: 'a2a-protocol.org' }],
  });
  expect((await rpc(t, alice, rpcCall(2, 'GetTask', { id: done.id }))).body.result.status.state).toBe('TASK_STATE_COMPLETED');
});

test('G1, G5, G6: every ListTasks page has its four members; contextId restricts the set; artifacts only with includeArtifacts: true', async () => {
  const contextId = 'ctx-list-g';
  for (const text of ['first', 'second']) await send(bob, userMessage(text, { contextId }));
  await send(bob, userMessage('elsewhere'));
  const pages: Record<string, any>[] = [];
  let pageToken: string | undefined;
  do {
    const page = (await rpc(t, bob, rpcCall(1, 'ListTasks', { contextId, pageSize: 1, ...(pageToken ? { pageToken } : {}) }))).body.result;
    expect(Object.keys(page).sort()).toEqual(['nextPageToken', 'pageSize', 'tasks', 'totalSize']);
    expect(typeof page.nextPageToken).toBe('string');
    pages.push(page);
    pageToken = page.nextPageToken;
  } while (pageToken !== '' && pages.length < 5);
  expect(pages.map((page) => [page.tasks.length, page.pageSize, page.totalSize])).toEqual([
    [1, 1, 2],
    [1, 1, 2],
  ]);
  expect(pages.flatMap((page) => page.tasks.map((task: { contextId: string }) => task.contextId))).toEqual([contextId, contextId]);
  for (const includeArtifacts of [undefined, false]) {
    const listed = (
      await rpc(t, bob, rpcCall(2, 'ListTasks', { contextId, ...(includeArtifacts === undefined ? {} : { includeArtifacts }) }))
    ).body.result;
    for (const task of listed.tasks) expect(task).not.toHaveProperty('artifacts');
  }
  const withArtifacts = (await rpc(t, bob, rpcCall(3, 'ListTasks', { contextId, includeArtifacts: true }))).body.result;
  expect(withArtifacts.tasks.map((task: { artifacts: unknown[] }) => task.artifacts.length)).toEqual([1, 1]);
  expect((await rpc(t, bob, rpcCall(4, 'ListTasks', {}))).body.result.totalSize).toBe(3);
});

test("I1, I2, I3, C2, M: every SSE data line of SendStreamingMessage is a JSON-RPC response with the request's numeric id and one ProtoJSON StreamResponse member; the task first, its own ids on every update, the end after the terminal state", async () => {
  const response = await fetch(new URL('/a2a/v1', t.url), {
    method: 'POST',
    headers: { authorization: `Bearer ${alice}`, 'content-type': 'application/json', accept: 'text/event-stream', 'A2A-Version': '1.0' },
    body: JSON.stringify(rpcCall(41, 'SendStreamingMessage', { message: userMessage('stream it raw') })),
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const lines = (await response.text()).split('\n').filter((line) => line !== '' && !line.startsWith(':'));
  expect(lines.every((line) => line.startsWith('data: '))).toBe(true);
  const events = lines.map((line) => JSON.parse(line.slice('data: '.length)));
  for (const event of events) {
    expect(event).toEqual({ jsonrpc: '2.0', id: 41, result: expect.any(Object) });
    expect(Object.keys(event.result)).toEqual([expect.stringMatching(/^(task|message|statusUpdate|artifactUpdate)$/)]);
    expectProtoJson(event.result);
  }
  const [first, ...updates] = events.map((event) => event.result);
  expect(Object.keys(first)).toEqual(['task']);
  for (const update of updates) expect(Object.values(update)[0]).toMatchObject({ taskId: first.task.id, contextId: first.task.contextId });
  const last = events.at(-1).result;
  expect((last.statusUpdate ?? last.task).status.state).toBe('TASK_STATE_COMPLETED');
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
