import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { StreamResponse } from '@a2a-js/sdk';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { startFakeLlm, Step, untilAsked } from './support/fake-llm';
import { makeUser, startTestApp, TestApp } from './support/app';
import { canUseA2aWebTools } from '../src/modules/a2a/a2a.policy';
import type { Viewer } from '../src/modules/auth/viewer';
import { a2aCli, callA2a, createA2aKey, enableA2a, officialClient, rpc, rpcCall, sendRequest, userMessage } from './support/a2a';
import { until } from './support/until';

type Wire = Record<string, any>;
/** A stream's events as wire JSON (the client's ts-proto objects back to ProtoJSON). */
async function collect(events: AsyncIterable<StreamResponse>, stopAt?: (event: Wire) => boolean): Promise<Wire[]> {
  const seen: Wire[] = [];
  for await (const event of events) {
    seen.push(StreamResponse.toJSON(event) as Wire);
    if (stopAt?.(seen.at(-1)!)) break;
  }
  return seen;
}

const stateOf = (event: Wire): string | undefined => (event.task ?? event.statusUpdate)?.status.state;

/** A streaming call read raw: the response, and its body as lines as they arrive. */
async function rawStream(t: TestApp, key: string, method: string, params: unknown, signal?: AbortSignal) {
  const response = await fetch(new URL('/a2a/v1', t.url), {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'text/event-stream', 'A2A-Version': '1.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'raw-1', method, params }),
    signal,
  });
  async function* lines() {
    const decoder = new TextDecoder();
    let buffered = '';
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffered += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffered.indexOf('\n')) >= 0) {
        yield buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
      }
    }
  }
  return { response, lines: lines() };
}

/** An answer the fake model gives only once released. */
function heldAnswer(text: string): { step: Step; release: () => void } {
  let release!: () => void;
  const after = new Promise<void>((resolve) => (release = resolve));
  return { step: { kind: 'answer', text, tokensIn: 3, tokensOut: 3, after }, release };
}

const gql = (t: TestApp, token: string | undefined, query: string, variables: Record<string, unknown> = {}) =>
  t.call('POST', '/graphql', { token, body: { query, variables } });
const codeOf = (reply: { body: { errors?: { extensions: { code: string } }[] } }) => reply.body.errors?.[0]?.extensions.code;

const fallback = (): Step => ({ kind: 'answer', text: 'fallback answer', tokensIn: 1, tokensOut: 1 });

describe('A2A streaming', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-a2a-stream-'));
  let fake: Awaited<ReturnType<typeof startFakeLlm>>;
  let t: TestApp;
  let alice: string;
  let bob: string;
  // Both instances publish through Redis when the suite has one (CI does); without it the streams' backstop re-read still sees every change.
  const redis: Record<string, string> = process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {};
  const modelEnv = () => ({
    DATA_DIR: dataDir,
    LLM_PROVIDER: 'openai',
    LLM_MODEL: 'gpt-5',
    LLM_API_KEY: 'sk-test',
    LLM_BASE_URL: fake.baseUrl,
    LLM_TIMEOUT_SECONDS: '30',
    LLM_MAX_RETRIES: '0',
    ...redis,
  });

  beforeAll(async () => {
    fake = await startFakeLlm(fallback);
    t = await startTestApp(modelEnv());
    await enableA2a(t);
    alice = (await createA2aKey(t, 'alice')).plaintext;
    bob = (await createA2aKey(t, 'bob')).plaintext;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  /** Starts a task (not waiting) whose model call is under way and answers only once released. */
  async function workingTask(text: string) {
    const held = heldAnswer(text);
    fake.script.push(held.step);
    const before = fake.seen.length;
    const reply = await callA2a(t, alice, 'SendMessage', {
      message: userMessage(`please: ${text}`),
      configuration: { returnImmediately: true },
    });
    const task = reply.body.result.task as Wire;
    await untilAsked(fake, before);
    return { task, release: held.release };
  }

  test('the card declares streaming', async () => {
    expect((await t.call('GET', '/.well-known/agent-card.json')).body.capabilities).toEqual({ streaming: true, pushNotifications: true });
  });

  test('sendMessageStream: the task first, then its changes in order, the artifact before COMPLETED, and the stream ends; GetTask agrees', async () => {
    const client = await officialClient(t, alice);
    const held = heldAnswer('Streamed answer.');
    fake.script.push(held.step);
    const stream = client.sendMessageStream(sendRequest('Stream me'));
    const first = StreamResponse.toJSON((await stream.next()).value as StreamResponse) as Wire;
    expect(first.task).toMatchObject({ id: expect.stringMatching(/^turn_/), contextId: expect.any(String) });
    expect(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING']).toContain(first.task.status.state);
    held.release();
    const rest = await collect(stream);
    const id = first.task.id;
    const { contextId } = first.task;
    expect(rest.at(-1)).toEqual({
      statusUpdate: { taskId: id, contextId, status: { state: 'TASK_STATE_COMPLETED', timestamp: expect.stringMatching(/Z$/) } },
    });
    const artifacts = rest.filter((event) => event.artifactUpdate);
    expect(artifacts).toEqual([
      {
        artifactUpdate: {
          taskId: id,
          contextId,
          artifact: { artifactId: `${id}-answer`, name: 'answer', parts: [{ text: 'Streamed answer.' }] },
          lastChunk: true,
        },
      },
    ]);
    expect(rest.indexOf(artifacts[0])).toBe(rest.length - 2);
    for (const event of rest) expect(Object.keys(event)).toHaveLength(1);
    // Never the same change twice: every status event differs from the one before.
    const states = [first, ...rest].map(stateOf).filter(Boolean);
    expect(states.every((state, i) => i === 0 || state !== states[i - 1])).toBe(true);
    const got = await callA2a(t, alice, 'GetTask', { id });
    expect(got.body.result.status.state).toBe('TASK_STATE_COMPLETED');
    expect(got.body.result.artifacts).toEqual([artifacts[0].artifactUpdate.artifact]);
  });

  test('two subscribers of one task get identical sequences; closing a third leaves them streaming', async () => {
    const { task, release } = await workingTask('Shared answer.');
    const [one, two, three] = await Promise.all([officialClient(t, alice), officialClient(t, alice), officialClient(t, alice)]);
    const streamOne = one.resubscribeTask({ tenant: '', id: task.id });
    const streamTwo = two.resubscribeTask({ tenant: '', id: task.id });
    const streamThree = three.resubscribeTask({ tenant: '', id: task.id });
    const firstOne = StreamResponse.toJSON((await streamOne.next()).value as StreamResponse) as Wire;
    const firstTwo = StreamResponse.toJSON((await streamTwo.next()).value as StreamResponse) as Wire;
    expect((await streamThree.next()).done).toBe(false);
    await streamThree.return(undefined);
    expect(firstOne).toEqual(firstTwo);
    expect(firstOne.task.status.state).toBe('TASK_STATE_WORKING');
    release();
    const [restOne, restTwo] = await Promise.all([collect(streamOne), collect(streamTwo)]);
    expect(restOne).toEqual(restTwo);
    expect(restOne.map((event) => Object.keys(event)[0])).toEqual(['artifactUpdate', 'statusUpdate']);
    expect(stateOf(restOne.at(-1)!)).toBe('TASK_STATE_COMPLETED');
  });

  test('cancel during a stream: a CANCELED status update, then the stream ends', async () => {
    fake.script.push({ kind: 'hang' });
    const before = fake.seen.length;
    const started = (
      await callA2a(t, alice, 'SendMessage', { message: userMessage('never answered'), configuration: { returnImmediately: true } })
    ).body.result.task;
    await untilAsked(fake, before);
    const client = await officialClient(t, alice);
    const stream = client.resubscribeTask({ tenant: '', id: started.id });
    expect(stateOf(StreamResponse.toJSON((await stream.next()).value as StreamResponse) as Wire)).toBe('TASK_STATE_WORKING');
    expect((await callA2a(t, alice, 'CancelTask', { id: started.id })).body.result.status.state).toBe('TASK_STATE_CANCELED');
    const rest = await collect(stream);
    expect(rest).toEqual([
      {
        statusUpdate: {
          taskId: started.id,
          contextId: started.contextId,
          status: { state: 'TASK_STATE_CANCELED', timestamp: expect.any(String) },
        },
      },
    ]);
  });

  test('a change nobody published (a lost publication) still reaches the stream by its backstop re-read; INPUT_REQUIRED ends the stream, and a new SubscribeToTask waits for the next change', async () => {
    fake.script.push({ kind: 'hang' });
    const before = fake.seen.length;
    const started = (
      await callA2a(t, alice, 'SendMessage', { message: userMessage('ask me back'), configuration: { returnImmediately: true } })
    ).body.result.task;
    await untilAsked(fake, before);
    const client = await officialClient(t, alice);
    const stream = client.resubscribeTask({ tenant: '', id: started.id });
    expect(stateOf(StreamResponse.toJSON((await stream.next()).value as StreamResponse) as Wire)).toBe('TASK_STATE_WORKING');
    await t.sql(
      `update a2a_tasks set state = 'TASK_STATE_INPUT_REQUIRED', status_at = date_trunc('milliseconds', clock_timestamp()) where id = $1`,
      [started.id],
    );
    expect((await collect(stream)).map(stateOf)).toEqual(['TASK_STATE_INPUT_REQUIRED']);
    const again = client.resubscribeTask({ tenant: '', id: started.id });
    expect(stateOf(StreamResponse.toJSON((await again.next()).value as StreamResponse) as Wire)).toBe('TASK_STATE_INPUT_REQUIRED');
    await callA2a(t, alice, 'CancelTask', { id: started.id });
    expect((await collect(again)).map(stateOf)).toEqual(['TASK_STATE_CANCELED']);
  }, 30_000);

  test('a key revoked while its stream is open: the next wake-up ends the stream with one error event carrying a JSON-RPC -32000 error', async () => {
    const carol = (await createA2aKey(t, 'carol')).plaintext;
    const held = heldAnswer('too late for carol');
    fake.script.push(held.step);
    const before = fake.seen.length;
    const started = (
      await callA2a(t, carol, 'SendMessage', { message: userMessage('carol asks'), configuration: { returnImmediately: true } })
    ).body.result.task;
    await untilAsked(fake, before);
    const { response, lines } = await rawStream(t, carol, 'SubscribeToTask', { id: started.id });
    expect(response.status).toBe(200);
    expect((await lines.next()).value).toMatch(/^data: /);
    const keyId = /^ldk_a2a_([^_]+)_/.exec(carol)![1];
    expect(await a2aCli(t, ['key', 'revoke', keyId])).toMatchObject({ status: 0 });
    held.release();
    const rest: string[] = [];
    for await (const line of lines) if (line !== '' && line !== ': keepalive') rest.push(line);
    expect(rest[0]).toBe('event: error');
    expect(JSON.parse(rest[1].replace(/^data: /, ''))).toEqual({
      jsonrpc: '2.0',
      id: 'raw-1',
      error: { code: -32000, message: expect.stringContaining('revoked') },
    });
    expect(rest).toHaveLength(2);
  }, 30_000);

  test('a caller that disconnects mid-stream does not cancel the task: it completes (GetTask)', async () => {
    const held = heldAnswer('Finished without anyone listening.');
    fake.script.push(held.step);
    const leave = new AbortController();
    const { response, lines } = await rawStream(t, alice, 'SendStreamingMessage', { message: userMessage('then hang up') }, leave.signal);
    expect(response.status).toBe(200);
    const first = JSON.parse((await lines.next()).value!.replace(/^data: /, ''));
    const id = first.result.task.id;
    leave.abort();
    await lines.return(undefined).catch(() => undefined);
    held.release();
    const settled = await until(
      `task ${id} to leave SUBMITTED and WORKING`,
      async () => {
        const state: string = (await callA2a(t, alice, 'GetTask', { id })).body.result.status.state;
        return state !== 'TASK_STATE_SUBMITTED' && state !== 'TASK_STATE_WORKING' && state;
      },
      { intervalMs: 50 },
    );
    expect(settled).toBe('TASK_STATE_COMPLETED');
  });

  test("refused before the stream, as plain JSON-RPC errors: a terminal task -32004, unknown or another key's -32001, a bad version -32009, bad params -32602", async () => {
    const done = (await callA2a(t, alice, 'SendMessage', { message: userMessage('quick') })).body.result.task;
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    const cases: [string, string, unknown, Record<string, string>, number][] = [
      [alice, 'SubscribeToTask', { id: done.id }, {}, -32004],
      [alice, 'SendStreamingMessage', { message: userMessage('more', { taskId: done.id }) }, {}, -32004],
      [alice, 'SubscribeToTask', { id: 'turn_unknown' }, {}, -32001],
      [bob, 'SubscribeToTask', { id: done.id }, {}, -32001],
      [bob, 'SendStreamingMessage', { message: userMessage('theirs', { taskId: done.id }) }, {}, -32001],
      [alice, 'SubscribeToTask', { id: done.id }, { 'A2A-Version': '2.0' }, -32009],
      [alice, 'SubscribeToTask', {}, {}, -32602],
      [alice, 'SendStreamingMessage', { message: { role: 'ROLE_USER', parts: [] } }, {}, -32602],
    ];
    for (const [key, method, params, headers, code] of cases) {
      const reply = await rpc(t, key, rpcCall(7, method, params), { accept: 'text/event-stream', ...headers });
      expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
      expect(reply.body).toMatchObject({ jsonrpc: '2.0', error: { code } });
    }
    const history = (await callA2a(t, alice, 'GetTask', { id: done.id })).body.result.history;
    expect(history).toHaveLength(2); // the refused messages changed nothing
  });

  test('a second instance (A2A_KEEPALIVE_SECONDS=1) streams a task the first instance works on: keep-alive comments while idle, SSE headers, and the cancel made on the first instance', async () => {
    const second = await startTestApp({ ...modelEnv(), A2A_KEEPALIVE_SECONDS: '1' }, { sameDatabaseAs: t });
    try {
      fake.script.push({ kind: 'hang' });
      const before = fake.seen.length;
      const started = (
        await callA2a(t, alice, 'SendMessage', { message: userMessage('slow, elsewhere'), configuration: { returnImmediately: true } })
      ).body.result.task;
      await untilAsked(fake, before);
      const { response, lines } = await rawStream(second, alice, 'SubscribeToTask', { id: started.id });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('x-accel-buffering')).toBe('no');
      const first = (await lines.next()).value!;
      expect(JSON.parse(first.replace(/^data: /, ''))).toMatchObject({
        jsonrpc: '2.0',
        id: 'raw-1',
        result: { task: { id: started.id, status: { state: 'TASK_STATE_WORKING' } } },
      });
      let line: string | void;
      do line = (await lines.next()).value;
      while (line !== ': keepalive');
      expect((await callA2a(t, alice, 'CancelTask', { id: started.id })).body.result.status.state).toBe('TASK_STATE_CANCELED');
      const rest: string[] = [];
      for await (const more of lines) if (more.startsWith('data: ')) rest.push(more);
      expect(rest.map((data) => JSON.parse(data.slice(6)))).toEqual([
        {
          jsonrpc: '2.0',
          id: 'raw-1',
          result: {
            statusUpdate: {
              taskId: started.id,
              contextId: started.contextId,
              status: { state: 'TASK_STATE_CANCELED', timestamp: expect.any(String) },
            },
          },
        },
      ]);

      // And a whole stream through the second instance while the turn may run on either.
      const client = await officialClient(second, alice);
      const held = heldAnswer('Answered across instances.');
      fake.script.push(held.step);
      const stream = client.sendMessageStream(sendRequest('Across instances'));
      const opened = StreamResponse.toJSON((await stream.next()).value as StreamResponse) as Wire;
      held.release();
      const events = await collect(stream);
      expect(events.find((event) => event.artifactUpdate)?.artifactUpdate.artifact.parts).toEqual([{ text: 'Answered across instances.' }]);
      expect(events.at(-1)!.statusUpdate).toMatchObject({ taskId: opened.task.id, status: { state: 'TASK_STATE_COMPLETED' } });
    } finally {
      await second.close();
    }
  }, 60_000);
  test('one key holds at most 32 streams on an instance: the next is 429 with -32000 before any work, another key is not affected, and closing one frees a place', async () => {
    const { task, release } = await workingTask('held while many listen');
    const leave = new AbortController();
    const open = await Promise.all(Array.from({ length: 32 }, () => rawStream(t, alice, 'SubscribeToTask', { id: task.id }, leave.signal)));
    for (const stream of open) expect((await stream.lines.next()).value).toMatch(/^data: /);
    const refused = await rawStream(t, alice, 'SubscribeToTask', { id: task.id });
    expect(refused.response.status).toBe(429);
    expect(await refused.response.json()).toMatchObject({ jsonrpc: '2.0', id: 'raw-1', error: { code: -32000 } });
    const [{ count: before }] = await t.sql<{ count: string }>('select count(*) from a2a_tasks');
    const refusedSend = await rawStream(t, alice, 'SendStreamingMessage', { message: userMessage('one more') });
    expect(refusedSend.response.status).toBe(429);
    expect((await t.sql<{ count: string }>('select count(*) from a2a_tasks'))[0].count).toBe(before);
    const bobs = await rawStream(t, bob, 'SubscribeToTask', { id: 'turn_unknown' });
    expect(await bobs.response.json()).toMatchObject({ error: { code: -32001 } });
    leave.abort();
    await Promise.all(open.map((stream) => stream.lines.return(undefined).catch(() => undefined)));
    const one = new AbortController();
    const again = await until('a place for one more stream of the key', async () => {
      const stream = await rawStream(t, alice, 'SubscribeToTask', { id: task.id }, one.signal);
      return stream.response.status !== 429 && stream;
    });
    expect(again.response.status).toBe(200);
    one.abort();
    release();
  });

  test("web tools over /graphql: the A2A owner (the bootstrap admin by default) pages through every key's tasks and contexts and reads one task; a signed-in stranger is FORBIDDEN, anonymous UNAUTHENTICATED", async () => {
    await callA2a(t, bob, 'SendMessage', { message: userMessage('from bob') });
    const all = await t.sql<{ id: string }>('select id from a2a_tasks order by status_at desc, id desc');
    expect(all.length).toBeGreaterThan(3);
    const page =
      'query ($after: String, $contextId: String) { a2aTasks(first: 2, after: $after, contextId: $contextId) { nodes { id contextId status { state } artifacts { artifactId parts { text } } history { messageId } } pageInfo { hasNextPage endCursor } totalCount } }';
    const seen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const reply = await gql(t, t.adminToken, page, { after });
      const tasks = reply.body.data.a2aTasks;
      expect(tasks.totalCount).toBe(all.length);
      for (const node of tasks.nodes) {
        expect(node.history).toBeNull();
        expect(Array.isArray(node.artifacts)).toBe(true);
      }
      seen.push(...tasks.nodes.map((node: { id: string }) => node.id));
      if (!tasks.pageInfo.hasNextPage) break;
      after = tasks.pageInfo.endCursor;
    }
    expect(seen).toEqual(all.map((row) => row.id));
    const contexts = (
      await gql(t, t.adminToken, '{ a2aContexts(first: 100) { nodes { contextId principal taskCount lastActivityAt } totalCount } }')
    ).body.data.a2aContexts;
    expect(contexts.nodes.reduce((sum: number, node: { taskCount: number }) => sum + node.taskCount, 0)).toBe(all.length);
    const principals = (await t.sql<{ principal: string }>('select distinct principal from a2a_tasks')).map((row) => row.principal);
    expect(principals.length).toBeGreaterThan(1);
    expect([...new Set(contexts.nodes.map((node: { principal: string }) => node.principal))].sort()).toEqual(principals.sort());
    const one = (
      await gql(
        t,
        t.adminToken,
        'query ($id: ID!) { a2aTask(id: $id) { id history { messageId role parts { text } } status { state } } }',
        { id: all[0].id },
      )
    ).body.data.a2aTask;
    expect(one.id).toBe(all[0].id);
    expect(one.history.length).toBeGreaterThan(0);
    // The artifact download's descriptor: any task's for the web tools, through the same operation the download runs.
    const [answered] = await t.sql<{ taskId: string }>(
      `select task_id as "taskId" from a2a_artifacts where artifact_id like '%-answer' limit 1`,
    );
    const artifactFile = 'query ($taskId: ID!) { a2aArtifactFile(taskId: $taskId, index: 0) { filename mediaType size etag } }';
    expect((await gql(t, t.adminToken, artifactFile, answered)).body.data.a2aArtifactFile).toEqual({
      filename: `${answered.taskId}-answer.txt`,
      mediaType: 'text/plain; charset=utf-8',
      size: expect.any(Number),
      etag: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(codeOf(await gql(t, t.adminToken, 'query { a2aTask(id: "turn_unknown") { id } }'))).toBe('NOT_FOUND');
    expect(codeOf(await gql(t, t.adminToken, 'query { a2aTasks(after: "bm9wZQ") { totalCount } }'))).toBe('VALIDATION_FAILED');
    const stranger = await makeUser(t);
    for (const query of [
      '{ a2aTasks { totalCount } }',
      '{ a2aContexts { totalCount } }',
      `{ a2aTask(id: "${all[0].id}") { id } }`,
      `{ a2aArtifactFile(taskId: "${all[0].id}", index: 0) { size } }`,
    ]) {
      expect(codeOf(await gql(t, stranger.token, query))).toBe('FORBIDDEN');
      expect(codeOf(await gql(t, undefined, query))).toBe('UNAUTHENTICATED');
    }
  });

  test('no one acts as an A2A principal through /graphql: the protocol operations are FORBIDDEN there, even for the owner, and change nothing', async () => {
    const [{ count: before }] = await t.sql<{ count: string }>('select count(*) from a2a_messages');
    const task = (await t.sql<{ id: string }>('select id from a2a_tasks limit 1'))[0].id;
    const attempts = [
      ['mutation { a2aMessageSend(input: { message: { messageId: "m", role: ROLE_USER, parts: [{ text: "hi" }] } }) { task { id } } }', {}],
      [
        'mutation ($taskId: String) { a2aPushConfigCreate(input: { taskId: $taskId, url: "https://example.org/hook" }) { id } }',
        { taskId: task },
      ],
      ['query ($taskId: ID!) { a2aPushConfigList(taskId: $taskId) { nextPageToken } }', { taskId: task }],
      ['mutation ($id: ID!) { a2aTaskCancel(id: $id) { id } }', { id: task }],
      ['{ a2aTaskList(input: {}) { totalSize } }', {}],
    ] as const;
    for (const [query, variables] of attempts) expect(codeOf(await gql(t, t.adminToken, query, variables))).toBe('FORBIDDEN');
    const [{ count: after }] = await t.sql<{ count: string }>('select count(*) from a2a_messages');
    expect(after).toBe(before);
  });

  test("an owner named by a2a enable --owner (not an admin) subscribes over graphql-ws on another instance and sees a cancel made through A2A on the first; a stranger's subscription is FORBIDDEN", async () => {
    // Pro: the owner's tier gates the endpoint the cancel goes through.
    const owner = await makeUser(t, { plan_code: 'pro' });
    await enableA2a(t, ['--owner', owner.email]);
    const second = await startTestApp(modelEnv(), { sameDatabaseAs: t });
    const clients: ReturnType<typeof createClient>[] = [];
    const subscribe = (token: string, taskId: string) => {
      const client = createClient({
        url: `${second.url.replace('http', 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { authorization: `Bearer ${token}` },
        retryAttempts: 0,
      });
      clients.push(client);
      const events: Wire[] = [];
      const errors: unknown[] = [];
      const done = new Promise<void>((resolve) =>
        client.subscribe(
          {
            query:
              'subscription ($taskId: ID!) { a2aTaskEvents(taskId: $taskId) { task { id status { state } } statusUpdate { taskId status { state } } } }',
            variables: { taskId },
          },
          {
            next: (value) => (value.errors ? errors.push(...value.errors) : events.push((value.data as Wire).a2aTaskEvents)),
            error: (error) => (errors.push(error), resolve()),
            complete: resolve,
          },
        ),
      );
      return { events, errors, done };
    };
    try {
      expect(codeOf(await gql(second, owner.token, '{ a2aContexts { totalCount } }'))).toBeUndefined();
      const { task } = await workingTask('never mind');
      const watching = subscribe(owner.token, task.id);
      const refused = subscribe((await makeUser(t)).token, task.id);
      await refused.done;
      expect(JSON.stringify(refused.errors)).toContain('FORBIDDEN');
      await until("the owner's subscription to answer", () => watching.events.length > 0 || watching.errors.length > 0);
      expect((await callA2a(t, alice, 'CancelTask', { id: task.id })).body.result.status.state).toBe('TASK_STATE_CANCELED');
      await watching.done;
      expect(watching.errors).toEqual([]);
      expect(watching.events).toEqual([
        { task: { id: task.id, status: { state: 'TASK_STATE_WORKING' } }, statusUpdate: null },
        { task: null, statusUpdate: { taskId: task.id, status: { state: 'TASK_STATE_CANCELED' } } },
      ]);
    } finally {
      await Promise.all(clients.map((client) => Promise.resolve(client.dispose())));
      await second.close();
      await enableA2a(t, ['--owner', 'admin@localhost']);
    }
  }, 60_000);
});

test('who may use the A2A web tools: admins and the A2A owner (case-insensitive), never through a sandbox token', () => {
  const viewer = (email: string, isAdmin: boolean, leaseId?: number) =>
    ({ user: { email, isAdmin }, tokenId: 't', inActiveLab: false, ...(leaseId ? { leaseId } : {}) }) as unknown as Viewer;
  const table: [Viewer, string | null, boolean][] = [
    [viewer('owner@example.org', false), 'Owner@Example.org', true],
    [viewer('owner@example.org', false), null, false],
    [viewer('other@example.org', false), 'owner@example.org', false],
    [viewer('root@example.org', true), 'owner@example.org', true],
    [viewer('root@example.org', true), null, true],
    [viewer('owner@example.org', false, 7), 'owner@example.org', false],
    [viewer('root@example.org', true, 7), null, false],
  ];
  for (const [who, owner, allowed] of table)
    expect([who.user.email, owner, canUseA2aWebTools(who, owner)]).toEqual([who.user.email, owner, allowed]);
});
