/**
 * The model at the edge for bench:a2a: the scripted fake model server (test/support/fake-llm.ts)
 * in a process of its own, answering every request at once with a short text and its usage, and
 * keeping no record of the requests (a bench sends tens of thousands). Sends its base URL when listening.
 */
import { startFakeLlm } from '../test/support/fake-llm';

async function main() {
  const fake = await startFakeLlm(() => ({ kind: 'answer', text: 'the answer', tokensIn: 20, tokensOut: 3 }));
  setInterval(() => (fake.seen.length = 0), 1000).unref();
  process.on('SIGTERM', () => void fake.close().then(() => process.exit(0)));
  process.send?.({ baseUrl: fake.baseUrl });
}

void main();
