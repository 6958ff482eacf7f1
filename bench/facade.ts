/**
 * The cost of the REST facade: the same read (`GET /api/labs/{lab_id}`) through the facade and
 * straight through `/graphql`, against one server process, in one run. Prints requests/s and
 * latency percentiles for both and their ratio. Figures only; nothing here asserts on time.
 *
 *   npm run bench:facade            (embedded database in a temp dir)
 *   DATABASE_URL=postgres://… npm run bench:facade
 *   BENCH_SECONDS=20 BENCH_CONNECTIONS=20 npm run bench:facade
 */
import autocannon from 'autocannon';
import { print } from 'graphql';
import { LabDocument } from '../facade/generated/operations';
import { BENCH_ADMIN_TOKEN, benchDatabase, startBenchServer } from './server';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const PORT = Number(process.env.BENCH_PORT ?? 18181);
const BASE = `http://127.0.0.1:${PORT}`;

async function call(method: string, route: string, token: string, body?: unknown) {
  const response = await fetch(`${BASE}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<Record<string, any>>;
}

/** Several runs as one: mean throughput, and the median run's latency percentiles. */
function combine(runs: autocannon.Result[]): autocannon.Result {
  const byThroughput = [...runs].sort((a, b) => a.requests.average - b.requests.average);
  const median = byThroughput[Math.floor(runs.length / 2)];
  const average = runs.reduce((sum, r) => sum + r.requests.average, 0) / runs.length;
  return {
    ...median,
    requests: { ...median.requests, average },
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
  };
}

function run(title: string, opts: Partial<autocannon.Options>): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon({ url: BASE, connections: CONNECTIONS, duration: SECONDS, title, ...opts }, (error, result) =>
      error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(result),
    );
  });
}

async function main() {
  // A scratch database beside DATABASE_URL's (or the embedded one): a second run starts clean.
  const database = await benchDatabase('facade');
  const server = await startBenchServer(PORT, database.env);
  try {
    // A lab with a few members, read by its owner: the members list exercises the loaders.
    const owner = await call('POST', '/api/admin/users', BENCH_ADMIN_TOKEN, { email: 'owner@bench.example', name: 'Owner' });
    const ownerToken = (await call('POST', `/api/admin/users/${owner.user_id}/tokens`, BENCH_ADMIN_TOKEN, { label: 'bench' })).token;
    const lab = await call('POST', '/api/labs', ownerToken, { name: 'Bench Lab' });
    for (let i = 0; i < 5; i++) {
      const user = await call('POST', '/api/admin/users', BENCH_ADMIN_TOKEN, { email: `m${i}@bench.example`, name: `Member ${i}` });
      const token = (await call('POST', `/api/admin/users/${user.user_id}/tokens`, BENCH_ADMIN_TOKEN, { label: 'bench' })).token;
      await call('POST', '/api/labs/join', token, { code: lab.invitation_code });
      await call('PATCH', `/api/labs/${lab.lab_id}/members/${user.user_id}`, ownerToken, { status: 'active' });
    }
    const headers = { authorization: `Bearer ${ownerToken}`, 'content-type': 'application/json' };
    const facade = { method: 'GET' as const, url: `${BASE}/api/labs/${lab.lab_id}`, headers };
    const graphql = {
      method: 'POST' as const,
      url: `${BASE}/graphql`,
      headers,
      body: JSON.stringify({ query: print(LabDocument), variables: { labId: lab.lab_id } }),
    };

    // Same answer both ways, or the comparison means nothing.
    const viaFacade = await call('GET', `/api/labs/${lab.lab_id}`, ownerToken);
    const viaGraphql = (await (await fetch(`${BASE}/graphql`, { method: 'POST', headers, body: graphql.body })).json()) as {
      data: { lab: unknown };
    };
    if (JSON.stringify(viaFacade) !== JSON.stringify(viaGraphql.data.lab)) throw new Error('facade and /graphql disagree');

    process.stdout.write(`warming up (3 s each)…\n`);
    await run('warmup facade', { ...facade, duration: 3 });
    await run('warmup graphql', { ...graphql, duration: 3 });
    // Interleaved rounds, so drift on a shared machine hits both sides alike.
    const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
    process.stdout.write(`measuring ${rounds} interleaved rounds of ${SECONDS} s each, ${CONNECTIONS} connections…\n`);
    const facadeRuns: autocannon.Result[] = [];
    const graphqlRuns: autocannon.Result[] = [];
    for (let i = 0; i < rounds; i++) {
      facadeRuns.push(await run('facade', facade));
      graphqlRuns.push(await run('graphql', graphql));
    }
    const f = combine(facadeRuns);
    const g = combine(graphqlRuns);

    if (f.errors + f.non2xx + g.errors + g.non2xx > 0) throw new Error('requests failed during the run; figures would be meaningless');
    const row = (name: string, r: autocannon.Result) =>
      `${name.padEnd(22)} ${r.requests.average.toFixed(0).padStart(8)} req/s   p50 ${String(r.latency.p50).padStart(4)} ms   p99 ${String(r.latency.p99).padStart(4)} ms   errors ${r.errors + r.non2xx}`;
    process.stdout.write(`\nGET /api/labs/{lab_id}: facade vs /graphql (same query, same server)\n`);
    process.stdout.write(`${row('REST facade', f)}\n${row('GraphQL /graphql', g)}\n`);
    const ratio = f.requests.average / g.requests.average;
    process.stdout.write(
      `facade / graphql throughput: ${ratio.toFixed(3)} (facade overhead ${((1 - ratio) * 100).toFixed(1)} %; goal ≤ 10 %)\n`,
    );
  } finally {
    await server.stop();
    await database.drop();
  }
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
