import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Task } from '@a2a-js/sdk';
import { TaskNotCancelableError, TaskNotFoundError } from '@a2a-js/sdk/errors';
import { startFakeLlm, SeenRequest, Step, untilAborted, untilAsked } from './support/fake-llm';
import { loadConfig } from '../src/config';
import { startTestApp, TestApp } from './support/app';
import { A2aClient, callA2a, createA2aKey, enableA2a, officialClient, sendRequest, userMessage } from './support/a2a';
import { until } from './support/until';

const fallback = (): Step => ({ kind: 'answer', text: 'fallback answer', tokensIn: 1, tokensOut: 1 });

describe('A2A tasks with a model', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-a2a-tasks-'));
  let fake: Awaited<ReturnType<typeof startFakeLlm>>;
  let t: TestApp;
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    fake = await startFakeLlm(fallback);
    t = await startTestApp(modelEnv());
    await enableA2a(t);
    alice = (await createA2aKey(t, 'alice')).plaintext;
    bob = (await createA2aKey(t, 'bob')).plaintext;
  }, 120_000);
  const modelEnv = () => ({
    DATA_DIR: dataDir,
    LLM_PROVIDER: 'openai',
    LLM_MODEL: 'gpt-5',
    LLM_API_KEY: 'sk-test',
    LLM_BASE_URL: fake.baseUrl,
    LLM_TIMEOUT_SECONDS: '30',
    LLM_MAX_RETRIES: '0',
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const ownerId = async () => {
    const [{ owner }] = await t.sql<{ owner: string }>('select owner_email as owner from a2a_settings');
    return (await t.sql<{ id: string }>('select id from users where email = $1', [owner.toLowerCase()]))[0].id;
  };

  // Not waitForState (raw GetTask): these tests read the task through the official client, as its typed Task.
  const clientWaitForState = (client: A2aClient, id: string, states: string[]): Promise<Task> =>
    until(
      `task ${id} to reach ${states.join(' or ')}`,
      async () => {
        const task = await client.getTask({ tenant: '', id, historyLength: 10 });
        return states.includes((Task.toJSON(task) as { status: { state: string } }).status.state) && task;
      },
      { intervalMs: 50 },
    );

  test('sendMessage (blocking): COMPLETED with the answer artifact and the history; one ledger row as the fake reported, paid by the owner', async () => {
    const client = await officialClient(t, alice);
    fake.script.push({ kind: 'answer', text: 'Forty-two.', tokensIn: 123, tokensOut: 45 });
    const before = fake.seen.length;
    const result = await client.sendMessage(sendRequest('What is the answer?'));
    const task = Task.toJSON(result as Task) as any;
    expect(task).toEqual({
      id: expect.stringMatching(/^turn_/),
      contextId: expect.any(String),
      status: { state: 'TASK_STATE_COMPLETED', timestamp: expect.stringMatching(/Z$/) },
      artifacts: [{ artifactId: `${task.id}-answer`, name: 'answer', parts: [{ text: 'Forty-two.' }] }],
      history: [
        expect.objectContaining({
          role: 'ROLE_USER',
          parts: [{ text: 'What is the answer?' }],
          taskId: task.id,
          contextId: task.contextId,
        }),
        expect.objectContaining({
          role: 'ROLE_AGENT',
          parts: [{ text: 'Forty-two.' }],
          taskId: task.id,
          contextId: task.contextId,
          messageId: expect.any(String),
        }),
      ],
    });
    const request = fake.seen[before];
    expect(request.body.messages.at(-1)).toEqual({ role: 'user', content: 'What is the answer?' });
    const system = request.body.messages.find((m) => m.role === 'system')!.content;
    expect(system).toMatch(/Never reveal other conversations or sessions, access keys/);
    const rows = await t.sql('select user_id, feature, model, tokens_in, tokens_out, outcome from usage_entries where feature = $1', [
      'a2a',
    ]);
    expect(rows).toEqual([
      { user_id: await ownerId(), feature: 'a2a', model: 'openai/gpt-5', tokens_in: '123', tokens_out: '45', outcome: 'ok' },
    ]);
  });

  test('returnImmediately: answered SUBMITTED or WORKING, then getTask shows it COMPLETED; a follow-up in the context carries the earlier turn', async () => {
    const client = await officialClient(t, alice);
    let release!: () => void;
    fake.script.push({
      kind: 'answer',
      text: 'First answer.',
      tokensIn: 5,
      tokensOut: 5,
      after: new Promise<void>((resolve) => (release = resolve)),
    });
    const started = Task.toJSON((await client.sendMessage(sendRequest('First question', {}, { returnImmediately: true }))) as Task) as any;
    expect(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING']).toContain(started.status.state);
    release();
    const done = Task.toJSON(await clientWaitForState(client, started.id, ['TASK_STATE_COMPLETED'])) as any;
    expect(done.artifacts[0].parts).toEqual([{ text: 'First answer.' }]);

    fake.script.push({ kind: 'answer', text: 'Second answer.', tokensIn: 5, tokensOut: 5 });
    const before = fake.seen.length;
    const second = Task.toJSON((await client.sendMessage(sendRequest('Second question', { contextId: started.contextId }))) as Task) as any;
    expect(second).toMatchObject({ contextId: started.contextId, status: { state: 'TASK_STATE_COMPLETED' } });
    expect(second.id).not.toBe(started.id);
    expect(fake.seen[before].body.messages.filter((m: SeenRequest['body']['messages'][number]) => m.role !== 'system')).toEqual([
      { role: 'user', content: 'First question' },
      { role: 'assistant', content: 'First answer.' },
      { role: 'user', content: 'Second question' },
    ]);
  });

  test('a message added to a task while its turn runs: the loop takes it in after the answer it was giving and answers again; only the last answer is kept', async () => {
    const client = await officialClient(t, alice);
    let release!: () => void;
    fake.script.push({
      kind: 'answer',
      text: 'Answer one.',
      tokensIn: 2,
      tokensOut: 2,
      after: new Promise<void>((resolve) => (release = resolve)),
    });
    fake.script.push({ kind: 'answer', text: 'Answer two.', tokensIn: 2, tokensOut: 2 });
    const before = fake.seen.length;
    const started = Task.toJSON((await client.sendMessage(sendRequest('Part one', {}, { returnImmediately: true }))) as Task) as any;
    await untilAsked(fake, before);
    const added = await callA2a(t, alice, 'SendMessage', {
      message: userMessage('Part two', { taskId: started.id }),
      configuration: { returnImmediately: true },
    });
    expect(added.body.result.task).toMatchObject({ id: started.id, contextId: started.contextId });
    const elsewhere = await callA2a(t, alice, 'SendMessage', {
      message: userMessage('Part three', { taskId: started.id, contextId: 'ctx_another' }),
    });
    expect(elsewhere.body.error).toMatchObject({ code: -32602, message: expect.stringContaining('contextId') });
    release();
    const done = Task.toJSON(await clientWaitForState(client, started.id, ['TASK_STATE_COMPLETED'])) as any;
    expect(done.history.map((m: any) => [m.role, m.parts[0].text])).toEqual([
      ['ROLE_USER', 'Part one'],
      ['ROLE_USER', 'Part two'],
      ['ROLE_AGENT', 'Answer two.'],
    ]);
    expect(done.artifacts).toEqual([expect.objectContaining({ artifactId: `${started.id}-answer`, parts: [{ text: 'Answer two.' }] })]);
    expect(fake.seen[before + 1].body.messages.filter((m) => m.role !== 'system').map((m) => m.content)).toEqual([
      'Part one',
      'Answer one.',
      'Part two',
    ]);
    const paid = await t.sql(`select outcome from usage_entries where feature = 'a2a' order by id desc limit 2`);
    expect(paid).toEqual([{ outcome: 'ok' }, { outcome: 'ok' }]);
  });

  test("listTasks: pages that cover every task once, filters, history and artifacts only on request; never another key's tasks", async () => {
    const client = await officialClient(t, bob);
    const ids: string[] = [];
    let contextId = '';
    for (let i = 0; i < 5; i++) {
      const task = Task.toJSON((await client.sendMessage(sendRequest(`q${i}`, contextId ? { contextId } : {}))) as Task) as any;
      contextId = task.contextId;
      ids.push(task.id);
    }
    const seen: string[] = [];
    const stamps: string[] = [];
    let pageToken = '';
    for (let page = 0; page < 5; page++) {
      const reply = await callA2a(t, bob, 'ListTasks', { pageSize: 2, ...(pageToken ? { pageToken } : {}) });
      expect(reply.body.result).toMatchObject({ pageSize: 2, totalSize: 5 });
      for (const task of reply.body.result.tasks) {
        expect(task).not.toHaveProperty('artifacts');
        expect(task).not.toHaveProperty('history');
        seen.push(task.id);
        stamps.push(task.status.timestamp);
      }
      pageToken = reply.body.result.nextPageToken;
      if (pageToken === '') break;
    }
    expect(stamps).toEqual([...stamps].sort().reverse()); // newest status first
    expect(seen.sort()).toEqual([...ids].sort());
    const filtered = await client.listTasks({
      tenant: '',
      contextId,
      status: 3,
      pageSize: 10,
      historyLength: 1,
      includeArtifacts: true,
    } as never);
    expect(filtered.totalSize).toBe(5);
    for (const task of filtered.tasks.map((one) => Task.toJSON(one) as any)) {
      expect(task.history).toHaveLength(1);
      expect(task.artifacts).toHaveLength(1);
    }
    expect((await callA2a(t, bob, 'ListTasks', { status: 'TASK_STATE_FAILED' })).body.result).toEqual({
      tasks: [],
      nextPageToken: '',
      pageSize: 50,
      totalSize: 0,
    });
    expect((await callA2a(t, bob, 'ListTasks', { statusTimestampAfter: '2999-01-01T00:00:00Z' })).body.result.totalSize).toBe(0);
    expect((await callA2a(t, bob, 'ListTasks', { pageToken: 'not-a-token' })).body.error.code).toBe(-32602);
    const alices = (await callA2a(t, alice, 'ListTasks', { pageSize: 100 })).body.result.tasks.map((task: { id: string }) => task.id);
    expect(alices.filter((id: string) => ids.includes(id))).toEqual([]);
  });

  test('cancelTask on a working task: CANCELED, the model call is aborted, and it stays CANCELED; cancel again: TaskNotCancelableError', async () => {
    const client = await officialClient(t, alice);
    fake.script.push({ kind: 'hang' });
    const before = fake.seen.length;
    const started = Task.toJSON((await client.sendMessage(sendRequest('Take forever', {}, { returnImmediately: true }))) as Task) as any;
    await clientWaitForState(client, started.id, ['TASK_STATE_WORKING']);
    await untilAsked(fake, before);
    const canceled = Task.toJSON(await client.cancelTask({ tenant: '', id: started.id } as never)) as any;
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    await untilAborted(fake, before);
    expect((Task.toJSON(await client.getTask({ tenant: '', id: started.id })) as any).status.state).toBe('TASK_STATE_CANCELED');
    await expect(client.cancelTask({ tenant: '', id: started.id } as never)).rejects.toBeInstanceOf(TaskNotCancelableError);
    const reply = await callA2a(t, alice, 'SendMessage', { message: userMessage('more', { taskId: started.id }) });
    expect(reply.body.error).toMatchObject({ code: -32004 });
  });

  test('in flight at once: eight messages to one working task all land, in distinct places; of eight cancels exactly one wins, the others are -32002', async () => {
    const client = await officialClient(t, alice);
    fake.script.push({ kind: 'hang' });
    const before = fake.seen.length;
    const started = Task.toJSON((await client.sendMessage(sendRequest('Start', {}, { returnImmediately: true }))) as Task) as any;
    await untilAsked(fake, before);
    const texts = Array.from({ length: 8 }, (_, i) => `more ${i}`);
    const sends = await Promise.all(
      texts.map((text) =>
        callA2a(t, alice, 'SendMessage', {
          message: userMessage(text, { taskId: started.id }),
          configuration: { returnImmediately: true },
        }),
      ),
    );
    expect(sends.map((reply) => reply.body.result?.task.id)).toEqual(texts.map(() => started.id));
    const cancels = await Promise.all(texts.map(() => callA2a(t, alice, 'CancelTask', { id: started.id })));
    expect(cancels.filter((reply) => reply.body.result?.status.state === 'TASK_STATE_CANCELED')).toHaveLength(1);
    expect(cancels.filter((reply) => reply.body.error?.code === -32002)).toHaveLength(7);
    const history = (await callA2a(t, alice, 'GetTask', { id: started.id })).body.result.history.map((m: any) => m.parts[0].text);
    expect(history[0]).toBe('Start');
    expect([...history.slice(1)].sort()).toEqual(texts);
    await untilAborted(fake, before);
  });

  test("getTask of an unknown task and of another key's task: TaskNotFoundError; neither can be canceled or messaged", async () => {
    const alices = await officialClient(t, alice);
    const task = Task.toJSON((await alices.sendMessage(sendRequest('mine'))) as Task) as any;
    const bobs = await officialClient(t, bob);
    await expect(bobs.getTask({ tenant: '', id: 'turn_unknown' })).rejects.toBeInstanceOf(TaskNotFoundError);
    await expect(bobs.getTask({ tenant: '', id: task.id })).rejects.toBeInstanceOf(TaskNotFoundError);
    await expect(bobs.cancelTask({ tenant: '', id: task.id } as never)).rejects.toBeInstanceOf(TaskNotFoundError);
    expect((await callA2a(t, bob, 'SendMessage', { message: userMessage('theirs', { taskId: task.id }) })).body.error.code).toBe(-32001);
  });

  test('a message to a terminal task: -32004; getTask honours historyLength', async () => {
    const client = await officialClient(t, alice);
    const task = Task.toJSON((await client.sendMessage(sendRequest('once'))) as Task) as any;
    const reply = await callA2a(t, alice, 'SendMessage', { message: userMessage('again', { taskId: task.id }) });
    expect(reply.body.error).toEqual({
      code: -32004,
      message: expect.stringContaining('TASK_STATE_COMPLETED'),
      data: [expect.objectContaining({ reason: 'UNSUPPORTED_OPERATION' })],
    });
    const one = await callA2a(t, alice, 'GetTask', { id: task.id, historyLength: 1 });
    expect(one.body.result.history).toEqual([expect.objectContaining({ role: 'ROLE_AGENT' })]);
    expect((await callA2a(t, alice, 'GetTask', { id: task.id, historyLength: 0 })).body.result).not.toHaveProperty('history');
  });

  test('provider 500: FAILED with the error in the status message; an error row in the ledger', async () => {
    const client = await officialClient(t, alice);
    fake.script.push({ kind: 'status', status: 500 });
    const task = Task.toJSON((await client.sendMessage(sendRequest('fail please'))) as Task) as any;
    expect(task.status).toEqual({
      state: 'TASK_STATE_FAILED',
      timestamp: expect.any(String),
      message: expect.objectContaining({ role: 'ROLE_AGENT', parts: [{ text: expect.stringMatching(/openai.*gpt-5/) }] }),
    });
    expect(task.artifacts ?? []).toEqual([]);
    const rows = await t.sql(`select outcome from usage_entries where feature = 'a2a' order by id desc limit 1`);
    expect(rows).toEqual([{ outcome: 'error' }]);
  });

  test('a second instance with A2A_WAIT_SECONDS=1: a blocking send to a hanging model answers the task unsettled; a cancel on the first instance aborts the turn wherever it runs', async () => {
    const second = await startTestApp({ ...modelEnv(), A2A_WAIT_SECONDS: '1' }, { sameDatabaseAs: t });
    try {
      fake.script.push({ kind: 'hang' });
      const before = fake.seen.length;
      const reply = await callA2a(second, alice, 'SendMessage', { message: userMessage('slow one') });
      const task = reply.body.result.task;
      expect(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING']).toContain(task.status.state);
      await untilAsked(fake, before);
      expect((await callA2a(t, alice, 'CancelTask', { id: task.id })).body.result.status.state).toBe('TASK_STATE_CANCELED');
      await untilAborted(fake, before);
      expect((await callA2a(second, alice, 'GetTask', { id: task.id })).body.result.status.state).toBe('TASK_STATE_CANCELED');
    } finally {
      await second.close();
    }
  }, 60_000);
});

test('A2A_WAIT_SECONDS: 60 by default, a positive integer up to 600', () => {
  expect(loadConfig({}).a2aWaitSeconds).toBe(60);
  expect(loadConfig({ A2A_WAIT_SECONDS: '5' }).a2aWaitSeconds).toBe(5);
  for (const wrong of ['0', '-1', 'x', '1.5'])
    expect(() => loadConfig({ A2A_WAIT_SECONDS: wrong })).toThrow('A2A_WAIT_SECONDS must be a positive integer');
  expect(() => loadConfig({ A2A_WAIT_SECONDS: '601' })).toThrow('A2A_WAIT_SECONDS must be at most 600');
});

describe('A2A tasks without a model', () => {
  test('the open loopback endpoint: a task FAILS with a clear message; ids are scoped to the local principal', async () => {
    const t = await startTestApp();
    try {
      await enableA2a(t);
      const reply = await t.call('POST', '/a2a/v1', {
        body: { jsonrpc: '2.0', id: 'x', method: 'SendMessage', params: { message: userMessage('hello') } },
      });
      expect(reply.body.result.task.status).toMatchObject({
        state: 'TASK_STATE_FAILED',
        message: { parts: [{ text: expect.stringContaining('no language model') }] },
      });
      const got = await t.call('POST', '/a2a/v1', {
        body: { jsonrpc: '2.0', id: 2, method: 'GetTask', params: { id: reply.body.result.task.id } },
      });
      expect(got.body.result.id).toBe(reply.body.result.task.id);
    } finally {
      await t.close();
    }
  }, 60_000);
});
