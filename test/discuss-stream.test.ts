import { createClient, Client } from 'graphql-ws';
import WebSocket from 'ws';
import { labOfTwo, makeUser, startTestApp, TestApp, TestUser, useTestApp } from './support/app';
import { useFakeLlm } from './support/fake-llm';
import { newSessionId, newUuid, sessionPath, trajectoryCalls } from './support/trajectories';

/**
 * Streamed discuss over real HTTP (server-sent events) and over graphql-ws, against the scripted
 * model server: the pieces arrive in order and make the answer, the turn and the ledger row are
 * those of the plain discuss, refusals are JSON before any event, and a caller who leaves (or
 * completes the subscription) cancels the model call.
 */

// A long time-out: only a cancellation can end a stalled call within a test.
const { env, fake } = useFakeLlm(
  () => ({ kind: 'answer', text: 'The run fitted marker-alpha and then stopped.', tokensIn: 900, tokensOut: 40 }),
  { LLM_PROVIDER: 'openai', LLM_MODEL: 'gpt-5', LLM_API_KEY: 'sk-test', LLM_TIMEOUT_SECONDS: '120', LLM_MAX_RETRIES: '2' },
);

const t = useTestApp(env);
const { append, setVisibility } = trajectoryCalls(t);
const clients: Client[] = [];
afterAll(async () => Promise.all(clients.map((client) => Promise.resolve(client.dispose()))));

let owner: TestUser;
let member: TestUser;
let session: string;
beforeAll(async () => {
  const two = await labOfTwo(t);
  ({ owner, member } = two);
  const lab = two.lab;
  session = newSessionId();
  expect(
    (
      await append(owner, session, null, [{ uuid: newUuid(), parentUuid: null, type: 'user', message: { content: 'Fit marker-alpha' } }], {
        lab_id: lab.id,
      })
    ).status,
  ).toBe(200);
  expect((await setVisibility(owner, session, { visibility: 'lab', lab_id: lab.id })).status).toBe(200);
});
beforeEach(() => {
  fake.script.length = 0;
  fake.seen.length = 0;
});

const ledger = () =>
  t.sql<{ user_id: string; feature: string; model: string; tokens_in: string; tokens_out: string; credits: string; outcome: string }>(
    `select user_id, feature, model, tokens_in, tokens_out, credits, outcome from usage_entries where source = 'model_call' order by id`,
  );
const turnsOf = (id: string) =>
  t.sql<{ id: string; viewer_id: string; question: string; answer: string }>(
    'select id, viewer_id, question, answer from discussion_turns where session_id = $1 order by created_at',
    [id],
  );

async function until<T>(read: () => Promise<T>, ready: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const value = await read();
    if (ready(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return read();
}

interface SseEvent {
  event: string;
  data: any;
}

/** Parses a `text/event-stream` body into its events. */
function eventsOf(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim())
    .map((block) => {
      const lines = block.split('\n');
      return {
        event: lines.find((l) => l.startsWith('event: '))!.slice(7),
        data: JSON.parse(lines.find((l) => l.startsWith('data: '))!.slice(6)),
      };
    });
}

const streamRequest = (who: TestUser, id: string, body: unknown, signal?: AbortSignal) =>
  fetch(new URL(sessionPath(id, '/discuss/stream'), t.url), {
    method: 'POST',
    headers: { authorization: `Bearer ${who.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  });

describe('POST …/discuss/stream (server-sent events)', () => {
  test("a viewer's question: the deltas arrive in order and make the answer, done carries the turn id; the turn is kept and one ledger row matches the server's usage", async () => {
    const before = (await ledger()).length;
    const response = await streamRequest(member, session, { question: 'What was fitted?' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const events = eventsOf(await response.text());
    const deltas = events.filter((e) => e.event === 'delta');
    expect(deltas.length).toBeGreaterThan(1);
    expect(events.at(-1)).toEqual({
      event: 'done',
      data: { answer: 'The run fitted marker-alpha and then stopped.', turn_id: expect.stringMatching(/^dis_/) },
    });
    expect(events.slice(0, -1).every((e) => e.event === 'delta')).toBe(true);
    expect(deltas.map((e) => e.data.text).join('')).toBe('The run fitted marker-alpha and then stopped.');
    expect(fake.seen).toHaveLength(1);
    expect(fake.seen[0].body.stream).toBe(true);
    expect((await ledger()).slice(before)).toEqual([
      {
        user_id: member.id,
        feature: 'discuss',
        model: 'openai/gpt-5',
        tokens_in: '900',
        tokens_out: '40',
        credits: '0.001525',
        outcome: 'ok',
      },
    ]);
    expect((await turnsOf(session)).at(-1)).toEqual({
      id: events.at(-1)!.data.turn_id,
      viewer_id: member.id,
      question: 'What was fitted?',
      answer: 'The run fitted marker-alpha and then stopped.',
    });
  });

  test("the owner's streamed question is answered and charged but not kept as a turn", async () => {
    const kept = (await turnsOf(session)).length;
    const before = (await ledger()).length;
    const events = eventsOf(
      await (await streamRequest(owner, session, { question: 'Mine?', history: [{ question: 'Before?', answer: 'Yes.' }] })).text(),
    );
    expect(events.at(-1)?.event).toBe('done');
    expect((await turnsOf(session)).length).toBe(kept);
    expect((await ledger()).slice(before)).toEqual([expect.objectContaining({ user_id: owner.id, outcome: 'ok', tokens_in: '900' })]);
    expect(fake.seen[0].body.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
  });

  test('an outsider gets 404 JSON and the model is not called; a bad question is 422 JSON', async () => {
    const outsider = await makeUser(t);
    const hidden = await streamRequest(outsider, session, { question: 'Peek?' });
    expect(hidden.status).toBe(404);
    expect(hidden.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await hidden.json()).toEqual({ detail: expect.any(String) });
    const bad = await streamRequest(member, session, { question: '' });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as any).detail[0].loc).toEqual(['body', 'question']);
    expect(fake.seen).toHaveLength(0);
  });

  test('the model failing before its first piece (500 on every attempt): 503 JSON naming the model, an error row, no turn', async () => {
    for (let i = 0; i < 3; i++) fake.script.push({ kind: 'status', status: 500 });
    const turns = (await turnsOf(session)).length;
    const before = (await ledger()).length;
    const response = await streamRequest(member, session, { question: 'Down?' });
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ detail: 'openai model gpt-5 failed: HTTP 500 after 3 attempts' });
    expect(fake.seen).toHaveLength(3);
    expect((await ledger()).slice(before)).toEqual([expect.objectContaining({ user_id: member.id, outcome: 'error', tokens_in: '0' })]);
    expect((await turnsOf(session)).length).toBe(turns);
  });

  test('the model failing after the stream started: the pieces so far, then an error event naming the model; an error row, no turn', async () => {
    fake.script.push({ kind: 'cut', text: 'Half of ' });
    const turns = (await turnsOf(session)).length;
    const before = (await ledger()).length;
    const response = await streamRequest(member, session, { question: 'Cut?' });
    expect(response.status).toBe(200);
    const events = eventsOf(await response.text());
    expect(events).toEqual([
      { event: 'delta', data: { text: 'Half of ' } },
      {
        event: 'error',
        data: {
          detail: expect.stringMatching(/^openai model gpt-5 failed: (the answer broke off|timed out) while streaming after 1 attempt$/),
        },
      },
    ]);
    expect((await ledger()).slice(before)).toEqual([expect.objectContaining({ user_id: member.id, outcome: 'error', tokens_in: '0' })]);
    expect((await turnsOf(session)).length).toBe(turns);
    expect(fake.seen).toHaveLength(1);
  });

  test('a client that disconnects mid-stream stops the model call: the connection to the model closes, no retry, the ledger row says error', async () => {
    fake.script.push({ kind: 'stall', text: 'Thinking about ' });
    const before = (await ledger()).length;
    const leaving = new AbortController();
    const response = await streamRequest(member, session, { question: 'Slow?' }, leaving.signal);
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(eventsOf(first)[0]).toEqual({ event: 'delta', data: { text: 'Thinking about ' } });
    leaving.abort();
    const rows = await until(ledger, (all) => all.length > before);
    expect(rows.slice(before)).toEqual([expect.objectContaining({ user_id: member.id, feature: 'discuss', outcome: 'error' })]);
    expect(await until(async () => fake.seen[0].closedEarly, Boolean)).toBe(true);
    expect(fake.seen).toHaveLength(1);
  });

  test('a client that leaves before the first piece stops the model call too', async () => {
    fake.script.push({ kind: 'hang' });
    const before = (await ledger()).length;
    const leaving = new AbortController();
    const request = streamRequest(member, session, { question: 'Anyone there?' }, leaving.signal).catch((error: Error) => error.name);
    await until(async () => fake.seen.length, Boolean);
    leaving.abort();
    expect(await request).toBe('AbortError');
    const rows = await until(ledger, (all) => all.length > before);
    expect(rows.slice(before)).toEqual([expect.objectContaining({ user_id: member.id, outcome: 'error' })]);
    expect(await until(async () => fake.seen[0].closedEarly, Boolean)).toBe(true);
    expect(fake.seen).toHaveLength(1);
  });
});

describe('the subscription trajectoryDiscussStream (graphql-ws)', () => {
  const SUBSCRIPTION =
    'subscription ($sessionId: ID!, $input: DiscussInput!) { trajectoryDiscussStream(sessionId: $sessionId, input: $input) { delta done { answer turnId } } }';

  function subscribe(who: TestUser, variables: Record<string, unknown>) {
    const client = createClient({
      url: `${t.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${who.token}` },
      retryAttempts: 0,
    });
    clients.push(client);
    const events: any[] = [];
    const errors: any[] = [];
    let completed = false;
    const stop = client.subscribe(
      { query: SUBSCRIPTION, variables },
      {
        next: (value) => (value.errors ? errors.push(...value.errors) : events.push((value.data as any).trajectoryDiscussStream)),
        error: (error) => errors.push(error),
        complete: () => (completed = true),
      },
    );
    return { client, events, errors, stop, done: () => until(async () => completed || errors.length > 0, Boolean) };
  }

  test('the same answer as over REST: deltas, then done with the turn id; the turn and the ledger row are kept', async () => {
    const before = (await ledger()).length;
    const stream = subscribe(member, { sessionId: session, input: { question: 'Over the socket?' } });
    await stream.done();
    expect(stream.errors).toEqual([]);
    const done = stream.events.at(-1);
    expect(done).toEqual({
      delta: null,
      done: { answer: 'The run fitted marker-alpha and then stopped.', turnId: expect.stringMatching(/^dis_/) },
    });
    expect(
      stream.events
        .slice(0, -1)
        .map((e) => e.delta)
        .join(''),
    ).toBe(done.done.answer);
    expect((await turnsOf(session)).at(-1)).toEqual(expect.objectContaining({ id: done.done.turnId, viewer_id: member.id }));
    expect((await ledger()).slice(before)).toEqual([expect.objectContaining({ user_id: member.id, outcome: 'ok', tokens_out: '40' })]);
  });

  test('an outsider is refused with NOT_FOUND and the model is not called', async () => {
    const stream = subscribe(await makeUser(t), { sessionId: session, input: { question: 'Peek?' } });
    await stream.done();
    expect(stream.errors.map((e) => e.extensions?.code)).toEqual(['NOT_FOUND']);
    expect(fake.seen).toHaveLength(0);
  });

  test('a model failure arrives as a GraphQL error naming the model, then the subscription completes', async () => {
    fake.script.push({ kind: 'cut', text: 'Half ' });
    const stream = subscribe(member, { sessionId: session, input: { question: 'Cut?' } });
    await stream.done();
    expect(stream.events).toEqual([{ delta: 'Half ', done: null }]);
    expect(stream.errors).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(/^openai model gpt-5 failed: /),
        extensions: expect.objectContaining({ code: 'UNAVAILABLE' }),
      }),
    ]);
  });

  test('completing the subscription mid-answer cancels the model call; the ledger row says error', async () => {
    fake.script.push({ kind: 'stall', text: 'Hmm ' });
    const before = (await ledger()).length;
    const stream = subscribe(member, { sessionId: session, input: { question: 'Slow?' } });
    await until(async () => stream.events.length, Boolean);
    expect(stream.events).toEqual([{ delta: 'Hmm ', done: null }]);
    stream.stop();
    const rows = await until(ledger, (all) => all.length > before);
    expect(rows.slice(before)).toEqual([expect.objectContaining({ user_id: member.id, outcome: 'error' })]);
    expect(await until(async () => fake.seen[0].closedEarly, Boolean)).toBe(true);
    expect(fake.seen).toHaveLength(1);
  });
});

describe('the subscription, its socket closed mid-answer', () => {
  test('closing the socket cancels the model call too; the ledger row says error', async () => {
    fake.script.push({ kind: 'stall', text: 'Well ' });
    const before = (await ledger()).length;
    const client = createClient({
      url: `${t.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${member.token}` },
      retryAttempts: 0,
    });
    const events: unknown[] = [];
    client.subscribe(
      {
        query: 'subscription ($s: ID!) { trajectoryDiscussStream(sessionId: $s, input: {question: "Closing?"}) { delta } }',
        variables: { s: session },
      },
      { next: (value) => events.push(value.data), error: () => undefined, complete: () => undefined },
    );
    await until(async () => events.length, Boolean);
    await client.dispose();
    const rows = await until(ledger, (all) => all.length > before);
    expect(rows.slice(before)).toEqual([expect.objectContaining({ user_id: member.id, outcome: 'error' })]);
    expect(await until(async () => fake.seen[0].closedEarly, Boolean)).toBe(true);
  });
});

describe('with Anthropic as the provider', () => {
  let claude: TestApp;
  beforeAll(async () => {
    claude = await startTestApp({
      LLM_PROVIDER: 'anthropic',
      LLM_MODEL: 'claude-haiku-4-5',
      LLM_API_KEY: 'sk-ant-test',
      LLM_BASE_URL: fake.baseUrl,
      LLM_TIMEOUT_SECONDS: '5',
    });
  });
  afterAll(async () => claude?.close());

  test('the answer streams from the Messages API; the ledger row has its usage at catalog prices', async () => {
    const user = await makeUser(claude);
    const id = newSessionId();
    expect(
      (
        await claude.call('PUT', sessionPath(id, '/append'), {
          token: user.token,
          body: { base_uuid: null, records: [{ uuid: newUuid(), type: 'user', message: { content: 'marker-claude' } }] },
        })
      ).status,
    ).toBe(200);
    fake.script.push({ kind: 'answer', text: 'It asked about marker-claude.', tokensIn: 2000, tokensOut: 100 });
    const response = await fetch(new URL(sessionPath(id, '/discuss/stream'), claude.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ question: 'What?' }),
    });
    expect(response.status).toBe(200);
    const events = eventsOf(await response.text());
    expect(
      events
        .filter((e) => e.event === 'delta')
        .map((e) => e.data.text)
        .join(''),
    ).toBe('It asked about marker-claude.');
    expect(events.at(-1)).toEqual({
      event: 'done',
      data: { answer: 'It asked about marker-claude.', turn_id: expect.stringMatching(/^dis_/) },
    });
    expect(fake.seen[0]).toEqual(expect.objectContaining({ path: '/v1/messages', apiKey: 'sk-ant-test' }));
    expect(fake.seen[0].body.stream).toBe(true);
    // 1 and 5 credits per million tokens in and out.
    expect(
      await claude.sql(`select model, tokens_in, tokens_out, credits, outcome from usage_entries where source = 'model_call'`),
    ).toEqual([{ model: 'anthropic/claude-haiku-4-5', tokens_in: '2000', tokens_out: '100', credits: '0.002500', outcome: 'ok' }]);
  });
});

describe('without a provider', () => {
  let bare: TestApp;
  beforeAll(async () => {
    bare = await startTestApp();
  });
  afterAll(async () => bare?.close());

  test('the streamed question is 503 JSON before any event', async () => {
    const user = await makeUser(bare);
    const id = newSessionId();
    expect(
      (
        await bare.call('PUT', sessionPath(id, '/append'), {
          token: user.token,
          body: { base_uuid: null, records: [{ uuid: newUuid(), type: 'user' }] },
        })
      ).status,
    ).toBe(200);
    const reply = await bare.call('POST', sessionPath(id, '/discuss/stream'), { token: user.token, body: { question: 'Anyone?' } });
    expect(reply.status).toBe(503);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(reply.body).toEqual({ detail: 'discussion is unavailable: no language model is configured (LLM_PROVIDER is unset)' });
  });
});
