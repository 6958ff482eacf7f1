import type { EntityManager } from '@mikro-orm/postgresql';
import { makeUser, useTestApp } from './support/app';
import { startFakeLlm } from './support/fake-llm';
import { ChatTurn, CompletionRequest, createLanguageModel, ToolSpec } from '../src/llm/language-model';
import { meteredCompletion } from '../src/modules/usage/usage.service';

/**
 * Tool calls in the provider layer, and Anthropic's streaming, against the scripted model server
 * over real HTTP: the model asks for a tool, the call comes back parsed (one step, never run by
 * the SDK), and the follow-up carries the result in each provider's own format.
 */

let fake: Awaited<ReturnType<typeof startFakeLlm>>;
beforeAll(async () => {
  fake = await startFakeLlm(() => ({ kind: 'answer', text: 'unscripted', tokensIn: 1, tokensOut: 1 }));
});
afterAll(async () => fake?.close());
beforeEach(() => {
  fake.script.length = 0;
  fake.seen.length = 0;
});

const READ_RECORDS: ToolSpec = {
  name: 'read_records',
  description: 'Reads records of a session',
  inputSchema: {
    type: 'object',
    properties: { session_id: { type: 'string' }, limit: { type: 'integer', minimum: 1 } },
    required: ['session_id'],
    additionalProperties: false,
  },
};
const ask = (content: string): ChatTurn[] => [{ role: 'user', content }];
const request = (messages: ChatTurn[]): CompletionRequest => ({ system: 'Use the tools.', messages, tools: [READ_RECORDS] });

const PROVIDERS = [
  { provider: 'openai' as const, model: 'gpt-5', path: '/v1/chat/completions' },
  { provider: 'anthropic' as const, model: 'claude-haiku-4-5', path: '/v1/messages' },
];

describe.each(PROVIDERS)('$provider: tool calls', ({ provider, model, path }) => {
  const client = () => createLanguageModel({ provider, baseUrl: fake.baseUrl, apiKey: 'k', model, timeoutSeconds: 1, maxRetries: 2 });

  test('the tool offered travels with its schema; the call comes back parsed, with usage, not run', async () => {
    fake.script.push({
      kind: 'tools',
      calls: [{ id: 'call_1', name: 'read_records', input: { session_id: 's-1', limit: 5 } }],
      tokensIn: 30,
      tokensOut: 12,
    });
    const completion = await client().complete(request(ask('What is in s-1?')));
    expect(completion).toEqual({
      text: '',
      toolCalls: [{ id: 'call_1', name: 'read_records', input: { session_id: 's-1', limit: 5 } }],
      tokensIn: 30,
      tokensOut: 12,
      attempts: 1,
    });
    expect(fake.seen).toHaveLength(1);
    expect(fake.seen[0].path).toBe(path);
    expect(fake.seen[0].tools).toEqual([
      { name: 'read_records', description: 'Reads records of a session', schema: expect.objectContaining({ required: ['session_id'] }) },
    ]);
  });

  test('streamed: text pieces first, then the tool call whole, assembled from its pieces', async () => {
    fake.script.push({
      kind: 'tools',
      text: 'Let me look. ',
      calls: [{ id: 'call_2', name: 'read_records', input: { session_id: 's-2' } }],
      tokensIn: 8,
      tokensOut: 9,
    });
    const pieces: string[] = [];
    const completion = await client().stream(request(ask('Look?')), (piece) => pieces.push(piece));
    expect(fake.seen[0].body.stream).toBe(true);
    expect(pieces.join('')).toBe('Let me look. ');
    expect(completion).toEqual({
      text: 'Let me look. ',
      toolCalls: [{ id: 'call_2', name: 'read_records', input: { session_id: 's-2' } }],
      tokensIn: 8,
      tokensOut: 9,
      attempts: 1,
    });
  });

  test('the follow-up carries the assistant call and the results; the model then answers', async () => {
    fake.script.push({ kind: 'answer', text: 'Two records.', tokensIn: 50, tokensOut: 3 });
    const messages: ChatTurn[] = [
      ...ask('What is in s-1?'),
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'call_1', name: 'read_records', input: { session_id: 's-1' } },
          { id: 'call_9', name: 'read_records', input: { session_id: 'gone' } },
        ],
      },
      {
        role: 'tool',
        results: [
          { toolCallId: 'call_1', toolName: 'read_records', output: { records: ['a', 'b'] } },
          { toolCallId: 'call_9', toolName: 'read_records', output: 'no such session', isError: true },
        ],
      },
    ];
    expect(await client().complete(request(messages))).toEqual({
      text: 'Two records.',
      toolCalls: [],
      tokensIn: 50,
      tokensOut: 3,
      attempts: 1,
    });
    const sent = fake.seen[0];
    expect(sent.toolResults).toEqual([
      { id: 'call_1', content: JSON.stringify({ records: ['a', 'b'] }), isError: false },
      { id: 'call_9', content: 'no such session', isError: provider === 'anthropic' },
    ]);
    if (provider === 'openai') {
      expect(sent.body.messages.slice(2)).toEqual([
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'read_records', arguments: '{"session_id":"s-1"}' } },
            { id: 'call_9', type: 'function', function: { name: 'read_records', arguments: '{"session_id":"gone"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"records":["a","b"]}' },
        { role: 'tool', tool_call_id: 'call_9', content: 'no such session' },
      ]);
    } else {
      expect(sent.body.messages.slice(1)).toEqual([
        {
          role: 'assistant',
          content: [
            expect.objectContaining({ type: 'tool_use', id: 'call_1', name: 'read_records', input: { session_id: 's-1' } }),
            expect.objectContaining({ type: 'tool_use', id: 'call_9', name: 'read_records', input: { session_id: 'gone' } }),
          ],
        },
        {
          role: 'user',
          content: [
            expect.objectContaining({ type: 'tool_result', tool_use_id: 'call_1', content: '{"records":["a","b"]}' }),
            expect.objectContaining({ type: 'tool_result', tool_use_id: 'call_9', content: 'no such session', is_error: true }),
          ],
        },
      ]);
    }
  });

  test('input that breaks the schema, or a tool not offered: a call with an error to feed back, not a failure', async () => {
    fake.script.push({
      kind: 'tools',
      calls: [
        { id: 'call_a', name: 'read_records', input: { limit: 0 } },
        { id: 'call_b', name: 'delete_everything', input: { now: true } },
        { id: 'call_c', name: 'read_records', input: { session_id: 'ok' } },
      ],
      tokensIn: 4,
      tokensOut: 4,
    });
    const { toolCalls } = await client().complete(request(ask('Go')));
    expect(toolCalls).toEqual([
      {
        id: 'call_a',
        name: 'read_records',
        input: { limit: 0 },
        error: expect.stringMatching(/^input does not match the schema: input must have required property 'session_id'$/),
      },
      { id: 'call_b', name: 'delete_everything', input: { now: true }, error: 'no tool named so was offered' },
      { id: 'call_c', name: 'read_records', input: { session_id: 'ok' } },
    ]);
  });

  test('streamed input that is not JSON: a call with an error, its raw text kept', async () => {
    fake.script.push({
      kind: 'tools',
      calls: [{ id: 'call_x', name: 'read_records', input: '{"session_id": "s-' }],
      tokensIn: 2,
      tokensOut: 2,
    });
    const { toolCalls } = await client().stream(request(ask('Go')), () => undefined);
    expect(toolCalls).toEqual([{ id: 'call_x', name: 'read_records', input: '{"session_id": "s-', error: 'input is not valid JSON' }]);
  });

  test('a 429 with Retry-After before a streamed answer: retried after the wait', async () => {
    fake.script.push(
      { kind: 'status', status: 429, headers: { 'retry-after': '1' } },
      { kind: 'answer', text: 'after the wait', tokensIn: 3, tokensOut: 3 },
    );
    const pieces: string[] = [];
    const completion = await client().stream({ system: 's', messages: ask('Hi') }, (piece) => pieces.push(piece));
    expect(completion).toEqual({ text: 'after the wait', toolCalls: [], tokensIn: 3, tokensOut: 3, attempts: 2 });
    expect(pieces.join('')).toBe('after the wait');
    expect(fake.seen).toHaveLength(2);
  });
});

describe('anthropic: streaming (SSE)', () => {
  const client = () =>
    createLanguageModel({
      provider: 'anthropic',
      baseUrl: fake.baseUrl,
      apiKey: 'sk-ant',
      model: 'claude-haiku-4-5',
      timeoutSeconds: 1,
      maxRetries: 2,
    });

  test('the answer arrives piece by piece over message_start … message_stop; usage from message_start and message_delta', async () => {
    fake.script.push({ kind: 'answer', text: 'Hello from the Messages stream', tokensIn: 21, tokensOut: 6 });
    const pieces: string[] = [];
    const completion = await client().stream({ system: 'Be brief.', messages: ask('Hello?') }, (piece) => pieces.push(piece));
    expect(fake.seen[0]).toEqual(expect.objectContaining({ path: '/v1/messages', apiKey: 'sk-ant' }));
    expect(fake.seen[0].body.stream).toBe(true);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe('Hello from the Messages stream');
    expect(completion).toEqual({ text: 'Hello from the Messages stream', toolCalls: [], tokensIn: 21, tokensOut: 6, attempts: 1 });
  });

  test('a stream cut after its first piece is not retried; a 500 on every attempt names the model', async () => {
    fake.script.push({ kind: 'cut', text: 'Half of it' });
    await expect(client().stream({ system: 's', messages: ask('Hi') }, () => undefined)).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: expect.stringMatching(
        /^anthropic model claude-haiku-4-5 failed: (the answer broke off|timed out) while streaming after 1 attempt$/,
      ),
    });
    expect(fake.seen).toHaveLength(1);
    for (let i = 0; i < 3; i++) fake.script.push({ kind: 'status', status: 500 });
    await expect(client().stream({ system: 's', messages: ask('Hi') }, () => undefined)).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: 'anthropic model claude-haiku-4-5 failed: HTTP 500 after 3 attempts',
    });
    expect(fake.seen).toHaveLength(4);
  });

  test('a malformed answer and a server that never answers: UNAVAILABLE naming the model', async () => {
    fake.script.push({ kind: 'malformed' });
    await expect(client().complete({ system: 's', messages: ask('Hi') })).rejects.toMatchObject({
      message: 'anthropic model claude-haiku-4-5 failed: malformed answer after 1 attempt',
    });
    for (let i = 0; i < 3; i++) fake.script.push({ kind: 'hang' });
    await expect(client().stream({ system: 's', messages: ask('Hi') }, () => undefined)).rejects.toMatchObject({
      message: 'anthropic model claude-haiku-4-5 failed: timed out after 3 attempts',
    });
  });
});

describe('meteredCompletion with tools: one call, one ledger row', () => {
  const t = useTestApp();
  const client = () =>
    createLanguageModel({ provider: 'openai', baseUrl: fake.baseUrl, apiKey: 'k', model: 'gpt-5', timeoutSeconds: 1, maxRetries: 1 });
  const rowsOf = (userId: string) =>
    t.sql<{ feature: string; model: string; tokens_in: string; tokens_out: string; outcome: string }>(
      `select feature, model, tokens_in, tokens_out, outcome from usage_entries where user_id = $1 and source = 'model_call' order by id`,
      [userId],
    );

  test('a step that asks for a tool: the calls reach `keep`, the row has the usage the server reported; a failed step is one error row', async () => {
    const user = await makeUser(t);
    const em = t.app.services.orm.em.fork() as EntityManager;
    const purpose = { userId: user.id, labId: null, sessionId: null, feature: 'agent' };
    fake.script.push({
      kind: 'tools',
      calls: [{ id: 'call_m', name: 'read_records', input: { session_id: 's-m' } }],
      tokensIn: 70,
      tokensOut: 15,
    });
    const calls = await meteredCompletion(
      em,
      client(),
      undefined,
      purpose,
      request(ask('Go')),
      async (_tx, completion) => completion.toolCalls,
    );
    expect(calls).toEqual([{ id: 'call_m', name: 'read_records', input: { session_id: 's-m' } }]);
    expect(await rowsOf(user.id)).toEqual([{ feature: 'agent', model: 'openai/gpt-5', tokens_in: '70', tokens_out: '15', outcome: 'ok' }]);
    fake.script.push({ kind: 'status', status: 500 }, { kind: 'status', status: 500 });
    await expect(meteredCompletion(em, client(), undefined, purpose, request(ask('Again')), async () => undefined)).rejects.toMatchObject({
      code: 'UNAVAILABLE',
    });
    expect((await rowsOf(user.id)).map((row) => row.outcome)).toEqual(['ok', 'error']);
  });

  test('a paid call whose result cannot be kept (a conflict, say) still leaves its row, and the error reaches the caller', async () => {
    const user = await makeUser(t);
    const em = t.app.services.orm.em.fork() as EntityManager;
    fake.script.push({ kind: 'answer', text: 'kept?', tokensIn: 40, tokensOut: 9 });
    const keep = async () => {
      throw new Error('the session moved meanwhile');
    };
    await expect(
      meteredCompletion(
        em,
        client(),
        undefined,
        { userId: user.id, labId: null, sessionId: null, feature: 'agent' },
        request(ask('Go')),
        keep,
      ),
    ).rejects.toThrow('the session moved meanwhile');
    expect(await rowsOf(user.id)).toEqual([{ feature: 'agent', model: 'openai/gpt-5', tokens_in: '40', tokens_out: '9', outcome: 'ok' }]);
  });
});
