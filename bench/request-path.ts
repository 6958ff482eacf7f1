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
import { ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { Pool } from 'undici';
import { BENCH_ADMIN_TOKEN, BenchServer, startBenchServer } from './server';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 4000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const PORT = Number(process.env.BENCH_PORT ?? 18191);
const FLOOR_PORT = PORT + 1;
const BASELINE_PORT = PORT + 2;
const BASELINE = process.env.BENCH_BASELINE;
const BASE = `http://127.0.0.1:${PORT}`;
/** Only these targets (comma-separated: floor, me, trajectories), e.g. to profile one. */
const ONLY = process.env.BENCH_ONLY?.split(',');

/** CPU seconds a process has used so far (utime + stime, in clock ticks of 100 Hz). */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function call(method: string, route: string, token: string, body?: unknown, base = BASE) {
  const response = await fetch(`${base}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
  return (response.status === 204 ? {} : await response.json()) as Record<string, any>;
}

interface Target {
  name: string;
  url: string;
  headers: Record<string, string>;
  pid: number;
}

interface Round {
  rps: number;
  p50: number;
  p99: number;
  cpuMsPerRequest: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/**
 * `amount` GETs of the target over CONNECTIONS keep-alive connections, each sending its next
 * request when the previous answer is read (undici's Pool; autocannon ends rounds on whole seconds).
 */
async function round(target: Target, amount: number): Promise<Round> {
  const url = new URL(target.url);
  const pool = new Pool(url.origin, { connections: CONNECTIONS, pipelining: 1 });
  const latencies: number[] = [];
  let started = 0;
  const worker = async () => {
    while (started < amount) {
      started++;
      const began = performance.now();
      const { statusCode, body } = await pool.request({ method: 'GET', path: url.pathname, headers: target.headers });
      await body.dump();
      if (statusCode !== 200) throw new Error(`${target.name}: answered ${statusCode}; figures would be meaningless`);
      latencies.push(performance.now() - began);
    }
  };
  const cpuBefore = cpuSeconds(target.pid);
  const began = performance.now();
  try {
    await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  } finally {
    await pool.close();
  }
  const seconds = (performance.now() - began) / 1000;
  const cpu = cpuSeconds(target.pid) - cpuBefore;
  latencies.sort((a, b) => a - b);
  return { rps: amount / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), cpuMsPerRequest: (cpu * 1000) / amount };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function startFloor(): Promise<ChildProcess> {
  const child = fork(path.join(__dirname, 'floor-server.js'), [], { env: { ...process.env, PORT: String(FLOOR_PORT) }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`the floor server exited (${code})`)));
  });
}

/**
 * SQL statements per request of each route, counted in a server of its own by the driver
 * (count-statements.ts), over sequential calls after a first one (which may write activity).
 */
async function countStatements(env: Record<string, string>, token: string, routes: string[], main?: string): Promise<Record<string, number>> {
  const server = await startBenchServer(PORT, env, { stdout: true, main, nodeArgs: ['--require', path.join(__dirname, 'count-statements.js')] });
  let latest = -1;
  server.process.stdout!.on('data', (chunk: Buffer) => {
    const counted = /statements (\d+)\n/.exec(chunk.toString('utf8'));
    if (counted) latest = Number(counted[1]);
  });
  const read = async () => {
    latest = -1;
    server.process.kill('SIGUSR2');
    while (latest < 0) await new Promise((resolve) => setTimeout(resolve, 20));
    return latest;
  };
  const counts: Record<string, number> = {};
  try {
    const CALLS = 20;
    for (const route of routes) {
      await call('GET', route, token, undefined, server.url);
      const before = await read();
      for (let i = 0; i < CALLS; i++) await call('GET', route, token, undefined, server.url);
      counts[route] = ((await read()) - before) / CALLS;
    }
  } finally {
    await server.stop();
  }
  return counts;
}

async function main() {
  // Two servers cannot share one embedded database.
  if (BASELINE && !process.env.DATABASE_URL) throw new Error('BENCH_BASELINE needs DATABASE_URL');
  let scratch: { admin: Client; name: string } | undefined;
  // Both servers (load, then statement counts) work on the same data.
  let env: Record<string, string>;
  if (process.env.DATABASE_URL) {
    const name = `labdesk_bench_request_path_${process.pid}`;
    const admin = new Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    scratch = { admin, name };
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${name}`;
    env = { DATABASE_URL: url.toString() };
  } else {
    env = { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-bench-request-path-')) };
  }
  let server: BenchServer | undefined;
  let floor: ChildProcess | undefined;
  let baseline: BenchServer | undefined;
  try {
    server = await startBenchServer(PORT, env);
    const user = await call('POST', '/api/admin/users', BENCH_ADMIN_TOKEN, { email: 'bench@bench.example', name: 'Bench' });
    const token = (await call('POST', `/api/admin/users/${user.user_id}/tokens`, BENCH_ADMIN_TOKEN, { label: 'bench' })).token as string;
    for (let i = 0; i < 5; i++) {
      const records = [{ uuid: `bench-${i}-0`, parentUuid: null, type: 'user', message: { content: 'hello' } }];
      await call('PUT', `/api/trajectories/bench-${i}/full`, token, { records });
    }
    floor = await startFloor();
    if (BASELINE) baseline = await startBenchServer(BASELINE_PORT, env, { main: path.resolve(BASELINE, 'src', 'cli', 'main.js') });
    const headers = { authorization: `Bearer ${token}` };
    const all: Target[] = [
      { name: 'floor', url: `http://127.0.0.1:${FLOOR_PORT}/floor`, headers: {}, pid: floor.pid! },
      { name: 'me', url: `${BASE}/api/me`, headers, pid: server.process.pid! },
      { name: 'trajectories', url: `${BASE}/api/trajectories`, headers, pid: server.process.pid! },
    ];
    if (baseline) {
      const base = `http://127.0.0.1:${BASELINE_PORT}`;
      all.push({ name: 'me@baseline', url: `${base}/api/me`, headers, pid: baseline.process.pid! }, { name: 'trajectories@baseline', url: `${base}/api/trajectories`, headers, pid: baseline.process.pid! });
    }
    const targets = all.filter((target) => !ONLY || ONLY.includes(target.name.split('@')[0]));
    const listed = (await call('GET', '/api/trajectories', token)) as { items: unknown[] };
    if (listed.items.length !== 5) throw new Error(`expected 5 sessions, got ${listed.items.length}`);

    process.stdout.write(`warming up…\n`);
    for (const target of targets) await round(target, Math.min(REQUESTS, 2000));
    process.stdout.write(`${ROUNDS} alternating rounds of ${REQUESTS} requests per target, ${CONNECTIONS} keep-alive connections…\n`);
    const rounds = new Map<string, Round[]>(targets.map((target) => [target.name, []]));
    for (let i = 0; i < ROUNDS; i++) {
      // Each round starts with a different target, so none always runs first after a pause.
      for (let j = 0; j < targets.length; j++) {
        const target = targets[(i + j) % targets.length];
        rounds.get(target.name)!.push(await round(target, REQUESTS));
      }
    }

    const summary = new Map([...rounds].map(([name, rs]) => [name, { rps: median(rs.map((r) => r.rps)), p50: median(rs.map((r) => r.p50)), p99: median(rs.map((r) => r.p99)), cpu: median(rs.map((r) => r.cpuMsPerRequest)) }]));
    const floorFigures = summary.get('floor');
    const ratio = (value: number, base: number | undefined) => (base ? ` (${(value / base).toFixed(2)}×)` : '');
    process.stdout.write(`\nmedian round per target; (×) is the ratio to the floor\n`);
    for (const [name, s] of summary) {
      process.stdout.write(
        `${name.padEnd(22)} ${s.rps.toFixed(0).padStart(6)} req/s${ratio(s.rps, floorFigures?.rps).padEnd(9)}` +
          `  p50 ${s.p50.toFixed(1).padStart(5)} ms  p99 ${s.p99.toFixed(1).padStart(5)} ms${ratio(s.p99, floorFigures?.p99).padEnd(9)}` +
          `  server CPU ${s.cpu.toFixed(3)} ms/request${ratio(s.cpu, floorFigures?.cpu)}\n`,
      );
    }
    await server.stop();
    server = undefined;
    await baseline?.stop();
    baseline = undefined;
    if (process.env.BENCH_COUNT_STATEMENTS !== '0') {
      const routes = ['/api/me', '/api/trajectories'];
      const show = (counts: Record<string, number>) => Object.entries(counts).map(([route, n]) => `${route} ${n}`).join(', ');
      process.stdout.write(`\nSQL statements per request: ${show(await countStatements(env, token, routes))}\n`);
      if (BASELINE) process.stdout.write(`SQL statements per request@baseline: ${show(await countStatements(env, token, routes, path.resolve(BASELINE, 'src', 'cli', 'main.js')))}\n`);
    }
  } finally {
    if (floor && floor.exitCode === null) {
      floor.kill('SIGTERM');
      await new Promise((resolve) => floor!.once('exit', resolve));
    }
    await server?.stop();
    await baseline?.stop();
    if (!scratch && env.DATA_DIR) fs.rmSync(env.DATA_DIR, { recursive: true, force: true });
    if (scratch) {
      await scratch.admin.query(`drop database if exists "${scratch.name}" with (force)`);
      await scratch.admin.end();
    }
  }
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
