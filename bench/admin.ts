/**
 * Admin stats and segmentation at scale, and what activity recording costs the hot path.
 * Seeds 100,000 users, 1,000,000 activity rows (10 UTC days each over 90 days) and 1,000,000
 * ledger rows (30 days) with generate_series, then prints:
 *   - p50/p99 of GET /api/admin/stats and GET /api/admin/segmentation (sequential calls);
 *   - GET /api/me when the request writes activity (each user's first request of the minute)
 *     against the same users again within the minute (no write), and a steady mixed run.
 * Figures only; nothing here asserts on time.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:admin
 *   BENCH_USERS=20000 BENCH_CALLS=200 npm run bench:admin
 *
 * A scratch database is created next to DATABASE_URL's and dropped at the end.
 */
import { createHash, randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { Client } from 'pg';
import { insertTokens, seedAdminData } from './admin-seed.repository';
import { BENCH_ADMIN_TOKEN, startBenchServer } from './server';

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const ACTIVITY_DAYS = Number(process.env.BENCH_ACTIVITY_DAYS ?? 10);
const LEDGER_ROWS = Number(process.env.BENCH_LEDGER_ROWS ?? 1_000_000);
const CALLS = Number(process.env.BENCH_CALLS ?? 300);
const ME_USERS = Number(process.env.BENCH_ME_USERS ?? 2_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const PORT = Number(process.env.BENCH_PORT ?? 18183);
const BASE = `http://127.0.0.1:${PORT}`;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function timed(url: string, token: string): Promise<number> {
  const started = process.hrtime.bigint();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

async function latencies(label: string, url: string, token: string, calls: number) {
  for (let i = 0; i < 5; i++) await timed(url, token); // warm-up
  const times: number[] = [];
  for (let i = 0; i < calls; i++) times.push(await timed(url, token));
  times.sort((a, b) => a - b);
  process.stdout.write(
    `${label.padEnd(34)} p50 ${ms(percentile(times, 50))}  p99 ${ms(percentile(times, 99))}  max ${ms(times[times.length - 1])}  (${calls} calls)\n`,
  );
  return times;
}

/** `count` personal access tokens of the first bench users, inserted as mintToken stores them. */
async function tokensFor(client: Client, from: number, count: number): Promise<string[]> {
  const rows = Array.from({ length: count }, (_, i) => {
    const key = randomBytes(9).toString('base64url'); // 12 characters
    const token = `ldk_pat_${key}${randomBytes(24).toString('base64url')}`;
    return { id: `tok_${key}`, userId: `usr_bench_${from + i}`, hash: createHash('sha256').update(token).digest('hex'), token };
  });
  await insertTokens(client, rows);
  return rows.map((r) => r.token);
}

function run(tokens: string[]): Promise<autocannon.Result> {
  let next = 0;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `${BASE}/api/me`,
        connections: 8,
        duration: SECONDS,
        requests: [{ setupRequest: (request) => ({ ...request, headers: { authorization: `Bearer ${tokens[next++ % tokens.length]}` } }) }],
      },
      (error, result) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(result)),
    );
  });
}

async function main() {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl)
    throw new Error('bench:admin seeds through SQL: set DATABASE_URL to a PostgreSQL server (a scratch database is made there)');
  const name = `labdesk_bench_admin_${process.pid}`;
  const adminUrl = new URL(baseUrl);
  const admin = new Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  const dbUrl = new URL(baseUrl);
  dbUrl.pathname = `/${name}`;
  const server = await startBenchServer(PORT, { DATABASE_URL: dbUrl.toString() });
  const client = new Client({ connectionString: dbUrl.toString() });
  await client.connect();
  try {
    let started = Date.now();
    await seedAdminData(client, USERS, ACTIVITY_DAYS, LEDGER_ROWS);
    const [{ activity, ledger }] = (
      await client.query(
        `select (select count(*) from user_activity_days)::int as activity, (select count(*) from usage_entries)::int as ledger`,
      )
    ).rows;
    process.stdout.write(
      `seeded ${USERS} users, ${activity} activity rows, ${ledger} ledger rows in ${((Date.now() - started) / 1000).toFixed(1)} s\n\n`,
    );

    const stats = await (await fetch(`${BASE}/api/admin/stats`, { headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}` } })).json();
    process.stdout.write(`stats: ${JSON.stringify(stats)}\n`);
    const seg = (await (
      await fetch(`${BASE}/api/admin/segmentation?limit=5`, { headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}` } })
    ).json()) as Record<string, unknown>;
    process.stdout.write(
      `segmentation: users ${String(seg.users)}, paid ${String(seg.paid)}, granted ${String(seg.granted)}, ${(seg.by_institution as unknown[]).length} institutions, ${(seg.unresolved as unknown[]).length} unresolved\n\n`,
    );

    await latencies('GET /api/admin/stats', `${BASE}/api/admin/stats`, BENCH_ADMIN_TOKEN, CALLS);
    await latencies('GET /api/admin/segmentation', `${BASE}/api/admin/segmentation`, BENCH_ADMIN_TOKEN, CALLS);
    await latencies('GET /api/admin/segmentation?limit=200', `${BASE}/api/admin/segmentation?limit=200`, BENCH_ADMIN_TOKEN, CALLS);

    // GET /api/me: sequential, one request per user. First pass: each request is the user's
    // first of the minute (it writes); second pass, same users at once: the limiter skips the write.
    started = Date.now();
    const meTokens = await tokensFor(client, 1, ME_USERS);
    const writing: number[] = [];
    const skipping: number[] = [];
    for (const token of meTokens.slice(0, 50)) await timed(`${BASE}/api/me`, token); // warm-up (these users then skip)
    for (const token of meTokens.slice(50)) writing.push(await timed(`${BASE}/api/me`, token));
    for (const token of meTokens.slice(50)) skipping.push(await timed(`${BASE}/api/me`, token));
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    writing.sort((a, b) => a - b);
    skipping.sort((a, b) => a - b);
    process.stdout.write(
      `\nGET /api/me, ${writing.length} users, one request each (${((Date.now() - started) / 1000).toFixed(1)} s):\n` +
        `  writes activity   mean ${ms(mean(writing))}  p50 ${ms(percentile(writing, 50))}  p99 ${ms(percentile(writing, 99))}\n` +
        `  skips the write   mean ${ms(mean(skipping))}  p50 ${ms(percentile(skipping, 50))}  p99 ${ms(percentile(skipping, 99))}\n` +
        `  one write costs   ${ms(mean(writing) - mean(skipping))} (+${(((mean(writing) - mean(skipping)) / mean(skipping)) * 100).toFixed(1)} % on that request)\n`,
    );

    // Throughput, 8 connections over 200 users, in interleaved rounds (drift on a shared machine
    // hits both alike): fresh users, whose first request of the minute writes (200 writes in the
    // run), then the same users again within the minute (no write).
    const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
    const withWrites: autocannon.Result[] = [];
    const without: autocannon.Result[] = [];
    for (let i = 0; i < rounds; i++) {
      const loadTokens = await tokensFor(client, ME_USERS + 1 + i * 200, 200);
      withWrites.push(await run(loadTokens));
      without.push(await run(loadTokens));
    }
    const rate = (runs: autocannon.Result[]) => runs.reduce((sum, r) => sum + r.requests.average, 0) / runs.length;
    const requests = withWrites.reduce((sum, r) => sum + r.requests.total, 0) / rounds;
    const throughputCost = (rate(without) - rate(withWrites)) / rate(without);
    const writeShare = 200 / requests;
    process.stdout.write(
      `\nGET /api/me under load (8 connections, ${rounds} rounds of ${SECONDS} s, 200 users per round):\n` +
        `  first requests of the minute   ${rate(withWrites).toFixed(0)} req/s (${(writeShare * 100).toFixed(2)} % of requests wrote)\n` +
        `  same users, same minute        ${rate(without).toFixed(0)} req/s (no writes)\n` +
        `  throughput cost                ${(throughputCost * 100).toFixed(1)} % at that write share\n` +
        `  steady state: each user writes once a minute, so over a minute these users' requests write\n` +
        `  ${((200 / (rate(without) * 60)) * 100).toFixed(3)} % of the time: about ${(throughputCost * (SECONDS / 60) * 100).toFixed(2)} % of throughput\n`,
    );
  } finally {
    await client.end();
    await server.stop();
    if (process.env.BENCH_KEEP_DATABASE !== '1') await admin.query(`drop database if exists "${name}" with (force)`);
    else process.stdout.write(`kept database ${name}\n`);
    await admin.end();
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
