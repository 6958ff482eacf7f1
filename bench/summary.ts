/**
 * What a model summary costs and how it scales: sessions of 1,000, 10,000 and 30,000 records
 * (about 600 characters each: user asks, assistant answers, tool calls and results) are
 * appended through the API, then each is summarised by a real job through the queue
 * (`POST …/summary/refresh`, then `GET …/summary` polled until ready), against the scripted
 * model server answering at once and reporting usage (a token per 4 characters of prompt). Prints
 * per size: model calls (chunks and combines), tokens in and out and credits as the usage ledger
 * has them, and wall time. Figures only; nothing here asserts on time.
 *
 *   npm run bench:summary                            (its own embedded PostgreSQL in a temp dir)
 *   DATABASE_URL=postgres://… npm run bench:summary
 *   BENCH_MODEL=some-unlisted-model npm run bench:summary   (8,192-token window: more, smaller chunks)
 *   BENCH_SIZES=1000,10000 npm run bench:summary
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../src/db/embedded';
import { startFakeLlm, SeenRequest } from '../test/support/fake-llm';
import { BENCH_ADMIN_TOKEN, startBenchServer } from './server';

/** gpt-5 is in the shipped catalog (a 400,000-token window, priced): credits are real figures. */
const MODEL = process.env.BENCH_MODEL ?? 'gpt-5';
const SIZES = (process.env.BENCH_SIZES ?? '1000,10000,30000').split(',').map(Number);
const PORT = Number(process.env.BENCH_PORT ?? 18183);
const BATCH = 500;

const promptChars = (request: SeenRequest) => request.body.messages.reduce((sum, m) => sum + m.content.length, 0);

/** Record `i` of a session: a user ask, an assistant answer with a tool call, or a tool result, in turn. */
function record(sessionId: string, i: number) {
  const uuid = `${sessionId}-${i}`;
  const parentUuid = i === 0 ? null : `${sessionId}-${i - 1}`;
  const prose = `step ${i}: ${'the fit of the model to the measured spectra improves as the window widens; '.repeat(6)}`;
  switch (i % 3) {
    case 0:
      return { uuid, parentUuid, type: 'user', message: { content: `Please continue. ${prose}` } };
    case 1:
      return {
        uuid,
        parentUuid,
        type: 'assistant',
        message: {
          content: [
            { type: 'text', text: prose },
            { type: 'tool_use', id: `tool-${i}`, name: 'python', input: { code: 'fit(data)' } },
          ],
        },
      };
    default:
      return {
        uuid,
        parentUuid,
        type: 'user',
        message: { content: [{ type: 'tool_result', tool_use_id: `tool-${i - 1}`, content: `chi2 = ${(i % 97) / 10}; ${prose}` }] },
      };
  }
}

async function main() {
  const fake = await startFakeLlm((request) => ({
    kind: 'answer',
    text: `Summary: ${'the agent fitted spectra and reported the residuals; '.repeat(8)}`,
    tokensIn: Math.ceil(promptChars(request) / 4),
    tokensOut: 110,
  }));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-bench-summary-'));
  const embedded = process.env.DATABASE_URL ? undefined : await startEmbeddedPostgres(tmp, { database: 'bench' });
  const databaseUrl = process.env.DATABASE_URL ?? embedded!.url;
  const server = await startBenchServer(PORT, {
    DATABASE_URL: databaseUrl,
    LLM_PROVIDER: 'openai',
    LLM_MODEL: MODEL,
    LLM_API_KEY: 'sk-bench',
    LLM_BASE_URL: fake.baseUrl,
  });
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  const call = async (method: string, route: string, token: string, body?: unknown) => {
    const response = await fetch(`${server.url}${route}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text.slice(0, 300)}`);
    return JSON.parse(text);
  };
  try {
    const run = Date.now().toString(36);
    const user = await call('POST', '/api/admin/users', BENCH_ADMIN_TOKEN, { email: `bench-${run}@bench.example`, name: 'Bench' });
    await call('PATCH', `/api/admin/users/${user.user_id}`, BENCH_ADMIN_TOKEN, { storage_quota_bytes: 1e12 });
    const token = (await call('POST', `/api/admin/users/${user.user_id}/tokens`, BENCH_ADMIN_TOKEN, { label: 'bench' })).token as string;

    process.stdout.write(`model ${MODEL} (scripted, answering at once; 1 token per 4 prompt characters reported)\n`);
    process.stdout.write('records   calls (chunks + combines)   tokens in   tokens out   credits   wall s (refresh → ready)\n');
    for (const size of SIZES) {
      const sessionId = `bench-${run}-${size}`;
      for (let start = 0; start < size; start += BATCH) {
        const records = Array.from({ length: Math.min(BATCH, size - start) }, (_, k) => record(sessionId, start + k));
        await call('PUT', `/api/trajectories/${sessionId}/append`, token, {
          base_uuid: start === 0 ? null : `${sessionId}-${start - 1}`,
          records,
        });
      }
      const seenBefore = fake.seen.length;
      const began = performance.now();
      await call('POST', `/api/trajectories/${sessionId}/summary/refresh`, token);
      let state: { status: string; error?: string };
      do {
        await new Promise((resolve) => setTimeout(resolve, 100));
        state = await call('GET', `/api/trajectories/${sessionId}/summary`, token);
      } while (state.status === 'pending');
      const seconds = (performance.now() - began) / 1000;
      if (state.status !== 'ready') throw new Error(`summary of ${size} records: ${state.status} ${state.error ?? ''}`);
      const calls = fake.seen.slice(seenBefore);
      const combines = calls.filter((request) => request.body.messages[0].content.includes('You combine summaries')).length;
      const [ledger] = (
        await db.query<{ rows: number; tokens_in: string; tokens_out: string; credits: string }>(
          `select count(*)::int as rows, coalesce(sum(tokens_in), 0) as tokens_in, coalesce(sum(tokens_out), 0) as tokens_out, coalesce(sum(credits), 0) as credits
             from usage_entries where session_id = $1 and feature = 'summary'`,
          [sessionId],
        )
      ).rows;
      process.stdout.write(
        `${String(size).padStart(7)}   ${`${ledger.rows} (${ledger.rows - combines} + ${combines})`.padEnd(27)} ${ledger.tokens_in.padStart(9)}   ${ledger.tokens_out.padStart(10)}   ${Number(ledger.credits).toFixed(4).padStart(7)}   ${seconds.toFixed(2).padStart(6)}\n`,
      );
    }
  } finally {
    await db.end();
    await server.stop();
    await fake.close();
    await embedded?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
