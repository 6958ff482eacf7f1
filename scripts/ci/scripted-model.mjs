// The language model of the compose stack in CI (deploy/compose.ci.yaml): an OpenAI-compatible
// chat server that answers every turn "Scripted answer to: <the last user text>" after
// MODEL_DELAY_MS (so a turn is in flight long enough to be interrupted), and records each call by
// user text with the caller's address and time, so a check can tell a turn's one model call from
// a repeated one, and a repeat after its caller was killed (a takeover) from any other.
//   POST /v1/chat/completions   the answer (streamed when asked)
//   GET  /calls                 {"<user text>": [{"from": address, "at": epoch ms}, ...], ...}
import http from 'node:http';

const delayMs = Number(process.env.MODEL_DELAY_MS ?? 400);
const calls = new Map();

const textOf = (content) => (typeof content === 'string' ? content : (content ?? []).map((part) => part.text ?? '').join(''));

http
  .createServer(async (req, res) => {
    if (req.method === 'GET' && req.url === '/calls') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(Object.fromEntries(calls)));
      return;
    }
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return void res.writeHead(404).end();
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw);
    const asked = textOf(body.messages.filter((message) => message.role === 'user').at(-1)?.content);
    calls.set(asked, [...(calls.get(asked) ?? []), { from: req.socket.remoteAddress?.replace(/^::ffff:/, ''), at: Date.now() }]);
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    const text = `Scripted answer to: ${asked}`;
    const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
    const base = { id: `chatcmpl-${calls.size}`, created: Math.floor(Date.now() / 1000), model: body.model };
    if (body.stream) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta, finish_reason = null, extra = {}) =>
        `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason }], ...extra })}\n\n`;
      res.write(chunk({ role: 'assistant', content: text }));
      res.write(chunk({}, 'stop', { usage }));
      res.end('data: [DONE]\n\n');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        ...base,
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
        usage,
      }),
    );
  })
  .listen(Number(process.env.PORT ?? 8090), '0.0.0.0');
