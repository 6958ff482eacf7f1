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
 * Two reads also run against an anchor (bench/read-anchor-server.ts, targets `anchor-me` and
 * `anchor-lab`): the same routes written by hand on Express and `pg`, on the bench's own
 * database, sending the same SQL statements and answering the same JSON (checked once before
 * the rounds: the bench fails when the bodies differ). After the figures, labdesk's throughput
 * and CPU per request as multiples of the anchor's, per route.
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
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { startEmbeddedPostgres } from '../src/db/embedded';
import { alternatingRounds, Figures, LoadTarget, median, printFigures } from './load';
import { BENCH_ADMIN_TOKEN, benchDatabase, callJson, BenchServer, forkReady, startBenchServer, startCountingServer } from './server';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 4000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const PORT = Number(process.env.BENCH_PORT ?? 18191);
const FLOOR_PORT = PORT + 1;
const BASELINE_PORT = PORT + 2;
const ANCHOR_PORT = PORT + 3;
const BASELINE = process.env.BENCH_BASELINE;
const BASE = `http://127.0.0.1:${PORT}`;
/** Only these targets (comma-separated: floor, me, lab, labs, trajectories, trajectory, credits, anchor-me, anchor-lab), e.g. to profile one. */
const ONLY = process.env.BENCH_ONLY?.split(',');

const call = (method: string, route: string, token: string, body?: unknown, base = BASE) => callJson(base, method, route, token, body);

/** A server's statement counter: the statements sent so far, and the distinct SQL texts since its previous reading. */
type StatementCounter = () => Promise<{ statements: number; texts: string[] }>;

/** Per route: SQL statements per request, and the distinct texts (sorted) its requests sent. */
interface RouteStatements {
  perRequest: Record<string, number>;
  texts: Record<string, string[]>;
}

/** Each route's statements over sequential calls to `base` after a first one (which may write activity). */
async function countRoutes(base: string, token: string, routes: string[], counter: StatementCounter): Promise<RouteStatements> {
  const CALLS = 20;
  const counted: RouteStatements = { perRequest: {}, texts: {} };
  for (const route of routes) {
    await call('GET', route, token, undefined, base);
    const before = await counter();
    for (let i = 0; i < CALLS; i++) await call('GET', route, token, undefined, base);
    const after = await counter();
    counted.perRequest[route] = (after.statements - before.statements) / CALLS;
    counted.texts[route] = [...after.texts].sort();
  }
  return counted;
}

/** SQL statements of each route, counted in a server of its own by the driver (count-statements.ts). */
async function countStatements(env: Record<string, string>, token: string, routes: string[], main?: string): Promise<RouteStatements> {
  const server = await startCountingServer(PORT, env, { main });
  try {
    return await countRoutes(server.url, token, routes, async () => ({ statements: await server.statements(), texts: server.texts() }));
  } finally {
    await server.stop();
  }
}

/** The routes the anchor answers too: labdesk's target, the anchor's, and how the ratio table names the route. */
const ANCHORED = [
  { ours: 'me', anchor: 'anchor-me', label: 'GET /api/me' },
  { ours: 'lab', anchor: 'anchor-lab', label: 'GET /api/labs/{lab_id}' },
];

/**
 * Fetches `route` from the anchor, then from labdesk (in that order: a labdesk request that
 * writes the caller's activity answers the row as it was before), and compares the parsed JSON.
 * @throws Error when the status or the parsed bodies differ: the anchor would not be doing the same work
 */
async function sameAnswer(route: string, token: string, anchorBase: string): Promise<string> {
  const get = async (base: string) => {
    const response = await fetch(`${base}${route}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: response.status, text: await response.text() };
  };
  const anchor = await get(anchorBase);
  const ours = await get(BASE);
  if (anchor.status !== 200 || ours.status !== 200 || !isDeepStrictEqual(JSON.parse(anchor.text), JSON.parse(ours.text)))
    throw new Error(
      `GET ${route}: the anchor's answer differs from labdesk's; its figures would mean nothing\n` +
        `  labdesk ${ours.status} ${ours.text}\n  anchor  ${anchor.status} ${anchor.text}`,
    );
  return `same JSON (${ours.text.length} bytes, ${anchor.text === ours.text ? 'byte for byte' : 'members in another order'})`;
}

/** The anchor's statement counter (its answer to the IPC message `'statements'`). */
function anchorStatements(child: ChildProcess): ReturnType<StatementCounter> {
  return new Promise((resolve) => {
    const answered = (message: unknown) => {
      if (typeof message !== 'object' || message === null || !('statements' in message)) return;
      child.off('message', answered);
      resolve(message as { statements: number; texts: string[] });
    };
    child.on('message', answered);
    child.send('statements');
  });
}

/** Per anchored route: labdesk's throughput and CPU per request as multiples of the anchor's. */
function printAnchorRatios(figures: Map<string, Figures>): void {
  const rows = ANCHORED.flatMap(({ ours, anchor, label }) => {
    const [o, a] = [figures.get(ours), figures.get(anchor)];
    return o && a ? [`  ${label}: ${(o.rps / a.rps).toFixed(2)}× throughput, ${(o.cpu / a.cpu).toFixed(2)}× CPU of the anchor`] : [];
  });
  if (rows.length)
    process.stdout.write(
      `\nlabdesk ÷ anchor (throughput: higher is better; server CPU per request: lower is better)\n${rows.join('\n')}\n`,
    );
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
  let anchor: Awaited<ReturnType<typeof forkReady>> | undefined;
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
    // The anchor reads the bench's labdesk database: the embedded one is joined, never stopped from here.
    const databaseUrl = env.DATABASE_URL ?? (await startEmbeddedPostgres(env.DATA_DIR, { joinRunning: true })).url;
    anchor = await forkReady(path.join(__dirname, 'read-anchor-server.js'), { PORT: String(ANCHOR_PORT), DATABASE_URL: databaseUrl });
    const anchorBase = `http://127.0.0.1:${ANCHOR_PORT}`;
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
    const anchored = ANCHORED.map(({ ours, anchor: name, label }) => ({ name, label, route: reads.find(([read]) => read === ours)![1] }));
    for (const { label, route } of anchored)
      process.stdout.write(`anchor check, ${label}: ${await sameAnswer(route, token, anchorBase)}\n`);
    const all: LoadTarget[] = [
      { name: 'floor', url: `http://127.0.0.1:${FLOOR_PORT}/floor`, headers: {}, pid: floor.child.pid! },
      ...reads.map(([name, route]) => ({ name, url: `${BASE}${route}`, headers, pid: server!.process.pid! })),
      ...anchored.map(({ name, route }) => ({ name, url: `${anchorBase}${route}`, headers, pid: anchor!.child.pid! })),
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
    printAnchorRatios(figures);
    const counting = process.env.BENCH_COUNT_STATEMENTS !== '0';
    // Counted while labdesk's server runs: an embedded database stops with it.
    const anchorCounted = counting
      ? await countRoutes(
          anchorBase,
          token,
          anchored.map(({ route }) => route),
          () => anchorStatements(anchor!.child),
        )
      : undefined;
    await server.stop();
    server = undefined;
    await baseline?.stop();
    baseline = undefined;
    if (anchorCounted) {
      const routes = reads.map(([, route]) => route);
      const show = ({ perRequest }: RouteStatements) =>
        Object.entries(perRequest)
          .map(([route, n]) => `${route} ${n}`)
          .join(', ');
      const ours = await countStatements(env, token, routes);
      process.stdout.write(`\nSQL statements per request: ${show(ours)}\n`);
      process.stdout.write(`SQL statements per request@anchor: ${show(anchorCounted)}\n`);
      // The anchor must send labdesk's statements, not merely as many: each text labdesk sends is
      // one the anchor sends. labdesk may send fewer (its credential cache answers the token lookup).
      for (const { label, route } of anchored) {
        const theirs = anchorCounted.texts[route];
        if (!ours.texts[route].every((text) => theirs.includes(text)))
          throw new Error(
            `${label}: labdesk sends SQL the anchor does not\n  labdesk ${JSON.stringify(ours.texts[route])}\n  anchor  ${JSON.stringify(theirs)}`,
          );
        process.stdout.write(
          `anchor check, ${label}: each of labdesk’s SQL texts (${ours.texts[route].length} distinct) is one of the anchor’s (${theirs.length})\n`,
        );
      }
      if (BASELINE)
        process.stdout.write(
          `SQL statements per request@baseline: ${show(await countStatements(env, token, routes, path.resolve(BASELINE, 'src', 'cli', 'main.js')))}\n`,
        );
    }
  } finally {
    await anchor?.stop();
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
