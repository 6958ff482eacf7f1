import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { until } from './until';

/** What the scripted server answers to one request. */
export type Step =
  /** `delayMs`: the answer waits that long first (a call that takes time, to observe what overlaps); `after`: until that settles. */
  | { kind: 'answer'; text: string; tokensIn: number; tokensOut: number; delayMs?: number; after?: Promise<unknown> }
  | { kind: 'status'; status: number; headers?: Record<string, string> }
  /** Never answers (the client's time-out must end the attempt). */
  | { kind: 'hang' }
  /** A 200 whose body is not a chat completion. */
  | { kind: 'malformed' }
  /** A streamed answer whose connection is cut after its first piece. */
  | { kind: 'cut'; text: string }
  /** A streamed answer that sends its first piece, then nothing more (only the client can end it). */
  | { kind: 'stall'; text: string }
  /** The model asks for tools (after `text`, if any); finish reason tool calls. `after`: not before that settles. */
  | { kind: 'tools'; calls: ScriptedToolCall[]; text?: string; tokensIn: number; tokensOut: number; after?: Promise<unknown> };

export interface ScriptedToolCall {
  id: string;
  name: string;
  /** An object is sent as JSON; a string is sent as the raw arguments text (to script malformed input). */
  input: Record<string, unknown> | string;
}

/** A tool the client offered, in either provider's format. */
export interface SeenTool {
  name: string;
  description?: string;
  schema: unknown;
}

/** A tool result the client sent back, in either provider's format. */
export interface SeenToolResult {
  id: string;
  content: string;
  isError: boolean;
}

export interface SeenRequest {
  path: string;
  authorization?: string;
  /** Anthropic's key header. */
  apiKey?: string;
  /** As sent: `content` is a string in OpenAI's format (and for plain Anthropic turns), a list of blocks otherwise. */
  body: {
    model: string;
    stream?: boolean;
    messages: { role: string; content: string; [member: string]: unknown }[];
    tools?: unknown[];
    [member: string]: unknown;
  };
  tools: SeenTool[];
  toolResults: SeenToolResult[];
  /** Set when the client closed the connection before the answer was complete (a cancelled call). */
  closedEarly: boolean;
}

/** Tools offered and tool results returned, whichever format the request used. */
function seenTools(body: any): Pick<SeenRequest, 'tools' | 'toolResults'> {
  const tools = (body.tools ?? []).map((t: any): SeenTool =>
    t.type === 'function'
      ? { name: t.function.name, description: t.function.description, schema: t.function.parameters }
      : { name: t.name, description: t.description, schema: t.input_schema },
  );
  const toolResults: SeenToolResult[] = [];
  for (const message of body.messages ?? []) {
    if (message.role === 'tool') toolResults.push({ id: message.tool_call_id, content: String(message.content), isError: false });
    if (Array.isArray(message.content)) {
      for (const block of message.content) {
        if (block.type !== 'tool_result') continue;
        const content =
          typeof block.content === 'string' ? block.content : (block.content ?? []).map((part: any) => part.text ?? '').join('');
        toolResults.push({ id: block.tool_use_id, content, isError: block.is_error === true });
      }
    }
  }
  return { tools, toolResults };
}

const sse = (event: string | undefined, data: unknown) => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
const argumentsOf = (call: ScriptedToolCall) => (typeof call.input === 'string' ? call.input : JSON.stringify(call.input));
/** Text in the pieces a streaming server sends: one word (with its space) at a time. */
const piecesOf = (text: string) => text.split(/(?<= )/).filter(Boolean);

/** After a stream's first piece is written: `cut` drops the connection, `stall` leaves it open and silent. */
const breakOff = (res: http.ServerResponse, how: 'cut' | 'stall') =>
  how === 'cut' ? () => setTimeout(() => res.socket?.destroy(), 50) : undefined;

/**
 * Writes an Anthropic Messages stream: message_start (input usage), content blocks (text, then
 * tool_use with its input as JSON deltas), message_delta (stop reason, output usage), message_stop.
 * `after`: the stream breaks off after its first text piece.
 */
function writeAnthropicStream(
  res: http.ServerResponse,
  model: string,
  id: string,
  step: { text?: string; calls?: ScriptedToolCall[]; tokensIn: number; tokensOut: number },
  after?: 'cut' | 'stall',
) {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(
    sse('message_start', {
      type: 'message_start',
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: step.tokensIn, output_tokens: 1 },
      },
    }),
  );
  let index = 0;
  if (step.text) {
    res.write(sse('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }));
    for (const piece of piecesOf(step.text)) {
      const written = sse('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
      if (after) return void res.write(written, breakOff(res, after));
      res.write(written);
    }
    res.write(sse('content_block_stop', { type: 'content_block_stop', index }));
    index++;
  }
  for (const call of step.calls ?? []) {
    res.write(
      sse('content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
      }),
    );
    const json = argumentsOf(call);
    // The input arrives in two partial pieces, as a real server splits it.
    const half = Math.floor(json.length / 2);
    for (const part of [json.slice(0, half), json.slice(half)])
      res.write(
        sse('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: part } }),
      );
    res.write(sse('content_block_stop', { type: 'content_block_stop', index }));
    index++;
  }
  res.write(
    sse('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: step.calls?.length ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: step.tokensOut },
    }),
  );
  res.end(sse('message_stop', { type: 'message_stop' }));
}

/**
 * A scripted model server on loopback: `/v1/chat/completions` answers as an OpenAI-compatible
 * server, `/v1/messages` as Anthropic's Messages API, each as JSON or as SSE when the request
 * asks to stream, with usage, and with tool calls when the step says so. Each request takes the
 * next step of the script; with none left it answers with `fallback(request)`. It records every
 * request it received, with the tools offered and the tool results sent back.
 */
export async function startFakeLlm(fallback: (request: SeenRequest) => Step) {
  const script: Step[] = [];
  const seen: SeenRequest[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const respond = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const anthropic = req.url === '/v1/messages';
    if (req.method !== 'POST' || (req.url !== '/v1/chat/completions' && !anthropic)) {
      res.writeHead(404).end();
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const request: SeenRequest = {
      path: req.url ?? '',
      authorization: req.headers.authorization,
      apiKey: req.headers['x-api-key'] as string | undefined,
      body,
      ...seenTools(body),
      closedEarly: false,
    };
    res.once('close', () => {
      if (!res.writableFinished) request.closedEarly = true;
    });
    seen.push(request);
    const step = script.shift() ?? fallback(request);
    if (step.kind === 'hang') return;
    if (step.kind === 'answer' && step.delayMs) await new Promise((resolve) => setTimeout(resolve, step.delayMs));
    if ((step.kind === 'answer' || step.kind === 'tools') && step.after) await step.after;
    if (step.kind === 'malformed') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"choices": "not a list"');
      return;
    }
    if (step.kind === 'cut' || step.kind === 'stall') {
      if (anthropic)
        return writeAnthropicStream(
          res,
          request.body.model,
          `msg_${seen.length}`,
          { text: step.text, tokensIn: 0, tokensOut: 0 },
          step.kind,
        );
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = {
        id: `chatcmpl-${step.kind}`,
        created: 1_700_000_000,
        model: request.body.model,
        object: 'chat.completion.chunk',
        choices: [{ index: 0, delta: { role: 'assistant', content: step.text }, finish_reason: null }],
      };
      return void res.write(sse(undefined, chunk), breakOff(res, step.kind));
    }
    if (step.kind === 'status') {
      res
        .writeHead(step.status, { 'content-type': 'application/json', ...step.headers })
        .end(JSON.stringify({ error: { message: `scripted ${step.status}` } }));
      return;
    }
    const calls = step.kind === 'tools' ? step.calls : [];
    const text = step.text ?? '';
    if (anthropic) {
      if (request.body.stream)
        return writeAnthropicStream(res, request.body.model, `msg_${seen.length}`, {
          text,
          calls,
          tokensIn: step.tokensIn,
          tokensOut: step.tokensOut,
        });
      // The Messages API's answer (non-streamed): content blocks and its own usage names.
      const content = [
        ...(text || !calls.length ? [{ type: 'text', text }] : []),
        ...calls.map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: call.input })),
      ];
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: `msg_${seen.length}`,
          type: 'message',
          role: 'assistant',
          model: request.body.model,
          content,
          stop_reason: calls.length ? 'tool_use' : 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: step.tokensIn, output_tokens: step.tokensOut },
        }),
      );
      return;
    }
    const usage = { prompt_tokens: step.tokensIn, completion_tokens: step.tokensOut, total_tokens: step.tokensIn + step.tokensOut };
    const base = { id: `chatcmpl-${seen.length}`, created: 1_700_000_000, model: request.body.model };
    const finish = calls.length ? 'tool_calls' : 'stop';
    if (request.body.stream) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta: object, finish_reason: string | null = null, extra = {}) =>
        sse(undefined, { ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason }], ...extra });
      for (const word of piecesOf(text)) res.write(chunk({ role: 'assistant', content: word }));
      calls.forEach((call, index) => {
        // The first chunk names the call; its arguments follow in two pieces.
        const json = argumentsOf(call);
        const half = Math.floor(json.length / 2);
        res.write(
          chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: json.slice(0, half) } }] }),
        );
        res.write(chunk({ tool_calls: [{ index, function: { arguments: json.slice(half) } }] }));
      });
      res.write(chunk({}, finish, { usage }));
      res.end('data: [DONE]\n\n');
      return;
    }
    const toolCalls = calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: argumentsOf(call) } }));
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        ...base,
        object: 'chat.completion',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: calls.length ? text || null : text,
              ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
            },
            finish_reason: finish,
          },
        ],
        usage,
      }),
    );
  };
  const server = http.createServer((req, res) => void respond(req, res));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    script,
    seen,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type FakeLlm = Awaited<ReturnType<typeof startFakeLlm>>;

/** Waits (bounded, see `until`) until the fake has had more than `asked` requests: a model call is under way. */
export const untilAsked = (fake: Pick<FakeLlm, 'seen'>, asked: number, seconds?: number) =>
  until(
    () => `the model to be asked (still ${fake.seen.length} requests, ${asked} before)`,
    () => fake.seen.length > asked,
    { seconds },
  );

/** Waits (bounded, see `until`) until the caller closed request `index` before its answer was written: the call was aborted. */
export const untilAborted = (fake: Pick<FakeLlm, 'seen'>, index: number) =>
  until(`model request ${index} to be aborted`, () => fake.seen[index]?.closedEarly);

/**
 * A suite's scripted model: started before its apps and closed after them. `env` (the given
 * settings plus `LLM_BASE_URL` once started) is what `useTestApp` takes; `fake` reads the
 * running server's script and requests.
 */
export function useFakeLlm(
  fallback: (request: SeenRequest) => Step,
  settings: Record<string, string>,
): { env: Record<string, string>; fake: FakeLlm } {
  const env = { ...settings };
  let server: FakeLlm | undefined;
  beforeAll(async () => {
    server = await startFakeLlm(fallback);
    env.LLM_BASE_URL = server.baseUrl;
  });
  afterAll(async () => server?.close());
  const running = () => {
    if (!server) throw new Error('the fake model starts in beforeAll');
    return server;
  };
  const fake: FakeLlm = {
    get baseUrl() {
      return running().baseUrl;
    },
    get script() {
      return running().script;
    },
    get seen() {
      return running().seen;
    },
    close: () => running().close(),
  };
  return { env, fake };
}
