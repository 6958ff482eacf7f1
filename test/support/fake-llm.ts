import http from 'node:http';
import type { AddressInfo } from 'node:net';

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
  | { kind: 'cut'; text: string };

export interface SeenRequest {
  path: string;
  authorization?: string;
  /** Anthropic's key header. */
  apiKey?: string;
  body: { model: string; stream?: boolean; messages: { role: string; content: string }[] };
}

/**
 * A scripted OpenAI-compatible server on loopback (`/v1/chat/completions`, JSON or SSE
 * answers with usage; `/v1/messages` answers as Anthropic's Messages API, JSON only): each request takes the next step of the script; with none left it
 * answers with `fallback(request)`. It records every request it received.
 */
export async function startFakeLlm(fallback: (request: SeenRequest) => Step) {
  const script: Step[] = [];
  const seen: SeenRequest[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const anthropic = req.url === '/v1/messages';
    if (req.method !== 'POST' || (req.url !== '/v1/chat/completions' && !anthropic)) {
      res.writeHead(404).end();
      return;
    }
    const request: SeenRequest = { path: req.url ?? '', authorization: req.headers.authorization, apiKey: req.headers['x-api-key'] as string | undefined, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
    seen.push(request);
    const step = script.shift() ?? fallback(request);
    if (step.kind === 'hang') return;
    if (step.kind === 'answer' && step.delayMs) await new Promise((resolve) => setTimeout(resolve, step.delayMs));
    if (step.kind === 'answer' && step.after) await step.after;
    if (step.kind === 'malformed') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"choices": "not a list"');
      return;
    }
    if (step.kind === 'cut') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = { id: 'chatcmpl-cut', created: 1_700_000_000, model: request.body.model, object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: step.text }, finish_reason: null }] };
      res.write(`data: ${JSON.stringify(chunk)}\n\n`, () => setTimeout(() => res.socket?.destroy(), 50));
      return;
    }
    if (step.kind === 'status') {
      res.writeHead(step.status, { 'content-type': 'application/json', ...step.headers }).end(JSON.stringify({ error: { message: `scripted ${step.status}` } }));
      return;
    }
    if (anthropic) {
      // The Messages API's answer (non-streamed): content blocks and its own usage names.
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({ id: `msg_${seen.length}`, type: 'message', role: 'assistant', model: request.body.model, content: [{ type: 'text', text: step.text }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: step.tokensIn, output_tokens: step.tokensOut } }),
      );
      return;
    }
    const usage = { prompt_tokens: step.tokensIn, completion_tokens: step.tokensOut, total_tokens: step.tokensIn + step.tokensOut };
    const base = { id: `chatcmpl-${seen.length}`, created: 1_700_000_000, model: request.body.model };
    if (request.body.stream) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const words = step.text.split(/(?<= )/);
      for (const word of words) res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: word }, finish_reason: null }] })}\n\n`);
      res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage })}\n\n`);
      res.end('data: [DONE]\n\n');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({ ...base, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: step.text }, finish_reason: 'stop' }], usage }),
    );
  });
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
