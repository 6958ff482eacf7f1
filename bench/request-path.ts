/**
 * The per-request cost of the shared request path (Express, auth, context, GraphQL execution of
 * a fixed operation, serialisation): authenticated `GET /api/me` and `GET /api/trajectories`
 * (a list of 5 sessions) against `labdesk serve` in its own process, next to a trivial Express
 * handler in a process of its own (the floor, bench/floor-server.ts). Rounds of a fixed number
 * of requests over keep-alive connections, the three targets alternating, so drift on a shared
 * machine hits them alike. Prints per target the median round's requests/s, p50/p99 latency and
 * the server's CPU time per request (read from /proc: the least noisy figure on a busy machine),
 * each also as a ratio to the floor; then the SQL statements each route costs (counted from
 * the driver in a separate, sequential pass). Figures only; nothing here asserts on time.
 *
 *   npm run bench:request-path                                   (embedded database in a temp dir)
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:request-path
 *   BENCH_REQUESTS=5000 BENCH_ROUNDS=5 BENCH_CONNECTIONS=16 npm run bench:request-path
 *   BENCH_NODE_ARGS=--cpu-prof BENCH_ONLY=me npm run bench:request-path   (profile one route)
 *   BENCH_BASELINE=/path/to/other/checkout/dist npm run bench:request-path
 *       (also runs that build's server on the same database, in the same alternating rounds: before/after)
 *
 * With DATABASE_URL a scratch database is created next to its database and dropped at the end.
 */
import path from 'node:path';
import { alternatingRounds, LoadTarget, median, printFigures } from './load';
import { BENCH_ADMIN_TOKEN, benchDatabase, callJson, BenchServer, forkReady, startBenchServer, startCountingServer } from './server';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 4000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const PORT = Number(process.env.BENCH_PORT ?? 18191);
const FLOOR_PORT = PORT + 1;
const BASELINE_PORT = PORT + 2;
const BASELINE = process.env.BENCH_BASELINE;
const BASE = `http://127.0.0.1:${PORT}`;
/** Only these targets (comma-separated: floor, me, lab, labs, trajectories, trajectory, credits), e.g. to profile one. */
const ONLY = process.env.BENCH_ONLY?.split(',');

const call = (method: string, route: string, token: string, body?: unknown, base = BASE) => callJson(base, method, route, token, body);

/**
 * SQL statements per request of each route, counted in a server of its own by the driver
 * (count-statements.ts), over sequential calls after a first one (which may write activity).
 */
async function countStatements(
  env: Record<string, string>,
  token: string,
  routes: string[],
  main?: string,
): Promise<Record<string, number>> {
  const server = await startCountingServer(PORT, env, { main });
  const counts: Record<string, number> = {};
  try {
    const CALLS = 20;
    for (const route of routes) {
      await call('GET', route, token, undefined, server.url);
      const before = await server.statements();
      for (let i = 0; i < CALLS; i++) await call('GET', route, token, undefined, server.url);
      counts[route] = ((await server.statements()) - before) / CALLS;
    }
  } finally {
    await server.stop();
  }
  return counts;
}

async function main() {
  // Two servers cannot share one embedded database.
  if (BASELINE && !process.env.DATABASE_URL) throw new Error('BENCH_BASELINE needs DATABASE_URL');
  // Both servers (load, then statement counts) work on the same data.
  const database = await benchDatabase('request-path');
  const { env } = database;
  let server: BenchServer | undefined;
  let floor: Awaited<ReturnType<typeof forkReady>> | undefined;
  let baseline: BenchServer | undefined;
  try {
    server = await startBenchServer(PORT, env);
    const user = await call('POST', '/api/admin/users', BENCH_ADMIN_TOKEN, { email: 'bench@bench.example', name: 'Bench' });
    const token = (await call('POST', `/api/admin/users/${user.user_id}/tokens`, BENCH_ADMIN_TOKEN, { label: 'bench' })).token as string;
    for (let i = 0; i < 5; i++) {
      const records = [{ uuid: `bench-${i}-0`, parentUuid: null, type: 'user', message: { content: 'hello' } }];
      await call('PUT', `/api/trajectories/bench-${i}/full`, token, { records });
    }
    // The bench user owns a lab with two more members (one active, one pending).
    const lab = (await call('POST', '/api/labs', token, { name: 'Bench Lab' })) as { lab_id: string; invitation_code: string };
    for (const name of ['Member', 'Applicant']) {
      const other = await call('POST', '/api/admin/users', BENCH_ADMIN_TOKEN, { email: `${name.toLowerCase()}@bench.example`, name });
      const otherToken = (await call('POST', `/api/admin/users/${other.user_id}/tokens`, BENCH_ADMIN_TOKEN, { label: 'bench' })).token;
      await call('POST', '/api/labs/join', otherToken as string, { code: lab.invitation_code });
      if (name === 'Member') await call('PATCH', `/api/labs/${lab.lab_id}/members/${other.user_id}`, token, { status: 'active' });
    }
    floor = await forkReady(path.join(__dirname, 'floor-server.js'), { PORT: String(FLOOR_PORT) });
    if (BASELINE) baseline = await startBenchServer(BASELINE_PORT, env, { main: path.resolve(BASELINE, 'src', 'cli', 'main.js') });
    const headers = { authorization: `Bearer ${token}` };
    const reads: [name: string, route: string][] = [
      ['me', '/api/me'],
      ['lab', `/api/labs/${lab.lab_id}`],
      ['labs', '/api/labs'],
      ['trajectories', '/api/trajectories'],
      ['trajectory', '/api/trajectories/bench-0/meta'],
      ['credits', '/api/compute/credits'],
    ];
    for (const [, route] of reads) await call('GET', route, token); // each answers 200 (callJson throws otherwise)
    const all: LoadTarget[] = [
      { name: 'floor', url: `http://127.0.0.1:${FLOOR_PORT}/floor`, headers: {}, pid: floor.child.pid! },
      ...reads.map(([name, route]) => ({ name, url: `${BASE}${route}`, headers, pid: server!.process.pid! })),
    ];
    if (baseline) {
      const base = `http://127.0.0.1:${BASELINE_PORT}`;
      all.push(
        ...reads.map(([name, route]) => ({ name: `${name}@baseline`, url: `${base}${route}`, headers, pid: baseline!.process.pid! })),
      );
    }
    const targets = all.filter((target) => !ONLY || ONLY.includes(target.name.split('@')[0]));
    const listed = (await call('GET', '/api/trajectories', token)) as { items: unknown[] };
    if (listed.items.length !== 5) throw new Error(`expected 5 sessions, got ${listed.items.length}`);

    const figures = await alternatingRounds(targets, {
      requests: REQUESTS,
      rounds: ROUNDS,
      connections: CONNECTIONS,
      warmUp: Math.min(REQUESTS, 2000),
    });
    process.stdout.write(`\nmedian round per target; (×) is the ratio to the floor\n`);
    printFigures(figures, targets.some((target) => target.name === 'floor') ? 'floor' : undefined);
    const floorRps = figures.get('floor')?.rps;
    const ours = reads.map(([name]) => figures.get(name)?.rps).filter((rps): rps is number => rps !== undefined);
    if (floorRps && ours.length) {
      const ratios = ours.map((rps) => rps / floorRps);
      process.stdout.write(
        `\nauthenticated reads: lowest ${Math.min(...ratios).toFixed(2)}× the floor (goal ≥ 0.40), median ${median(ratios).toFixed(2)}× (goal ≥ 0.30)\n`,
      );
    }
    await server.stop();
    server = undefined;
    await baseline?.stop();
    baseline = undefined;
    if (process.env.BENCH_COUNT_STATEMENTS !== '0') {
      const routes = reads.map(([, route]) => route);
      const show = (counts: Record<string, number>) =>
        Object.entries(counts)
          .map(([route, n]) => `${route} ${n}`)
          .join(', ');
      process.stdout.write(`\nSQL statements per request: ${show(await countStatements(env, token, routes))}\n`);
      if (BASELINE)
        process.stdout.write(
          `SQL statements per request@baseline: ${show(await countStatements(env, token, routes, path.resolve(BASELINE, 'src', 'cli', 'main.js')))}\n`,
        );
    }
  } finally {
    await floor?.stop();
    await server?.stop();
    await baseline?.stop();
    await database.drop();
  }
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
