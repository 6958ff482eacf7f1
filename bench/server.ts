import { ChildProcess, fork, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';

/** The admin token every benchmark server starts with. */
export const BENCH_ADMIN_TOKEN = 'ldk_pat_benchadminxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx';

export interface BenchServer {
  url: string;
  dataDir: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Limits far above any load a bench makes: a bench token's thousands of requests a minute would
 * meet the defaults (429s make the figures meaningless), while the limiters still run, so their
 * cost stays in the figures.
 */
const UNREACHED_LIMITS = {
  RATE_LIMIT_TOKEN_PER_MINUTE: '1000000000',
  RATE_LIMIT_ADDRESS_PER_MINUTE: '1000000000',
  A2A_KEY_REQUESTS_PER_MINUTE: '1000000000',
  LLM_USER_REQUESTS_PER_MINUTE: '1000000000',
};

/**
 * `labdesk serve` from the build, in its own process (so the load generator does not share its
 * event loop), on a temp DATA_DIR; ready once `/readyz` answers. `BENCH_NODE_ARGS` passes flags
 * to node (e.g. `--cpu-prof`); `stdout` keeps the server's output (its log) readable on the child's `stdout`;
 * `main` runs another build's `src/cli/main.js` (a baseline to compare with); `nodeArgs` adds flags.
 */
export async function startBenchServer(
  port: number,
  env: Record<string, string> = {},
  opts: { stdout?: boolean; main?: string; nodeArgs?: string[] } = {},
): Promise<BenchServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-bench-'));
  const nodeArgs = [...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean), ...(opts.nodeArgs ?? [])];
  const child = spawn(process.execPath, [...nodeArgs, opts.main ?? path.resolve(__dirname, '..', 'src', 'cli', 'main.js'), 'serve'], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      BOOTSTRAP_ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
      ...UNREACHED_LIMITS,
      ...env,
    },
    stdio: ['ignore', opts.stdout ? 'pipe' : 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (
      await fetch(`${url}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    dataDir,
    process: child,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Where a bench's servers keep their data: with DATABASE_URL a scratch database created next to
 * it (dropped by `drop`), else a temp DATA_DIR for the embedded PostgreSQL. `env` is what every
 * server of the bench starts with, so that they work on the same data.
 */
export async function benchDatabase(label: string): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (!process.env.DATABASE_URL) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `labdesk-bench-${label}-`));
    return { env: { DATA_DIR: dataDir }, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  }
  const name = `labdesk_bench_${label.replace(/-/g, '_')}_${process.pid}`;
  const admin = new Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    drop: async () => {
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

/** A helper process of a bench (`fork` of a built script), ready once it sends its first IPC message (answered). */
export function forkReady<T = unknown>(
  script: string,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; ready: T; stop(): Promise<void> }> {
  const child = fork(script, [], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  };
  return new Promise((resolve, reject) => {
    child.once('message', (ready) => resolve({ child, ready: ready as T, stop }));
    child.once('exit', (code) => reject(new Error(`${path.basename(script)} exited (${code})`)));
  });
}

/**
 * A benchmark server that counts the SQL statements it sends (count-statements.ts, preloaded);
 * `statements()` reads the count so far, and `texts()` then the distinct SQL texts sent between
 * the two latest `statements()` calls.
 */
export async function startCountingServer(
  port: number,
  env: Record<string, string>,
  opts: { main?: string } = {},
): Promise<BenchServer & { statements(): Promise<number>; texts(): string[] }> {
  const textsFile = path.join(os.tmpdir(), `labdesk-bench-statements-${process.pid}-${port}.json`);
  const server = await startBenchServer(
    port,
    { ...env, COUNT_STATEMENTS_TEXTS: textsFile },
    { stdout: true, main: opts.main, nodeArgs: ['--require', path.join(__dirname, 'count-statements.js')] },
  );
  let latest = -1;
  server.process.stdout!.on('data', (chunk: Buffer) => {
    const counted = /statements (\d+)\n/.exec(chunk.toString('utf8'));
    if (counted) latest = Number(counted[1]);
  });
  const statements = async () => {
    latest = -1;
    server.process.kill('SIGUSR2');
    while (latest < 0) await new Promise((resolve) => setTimeout(resolve, 20));
    return latest;
  };
  // Written before the count is printed, so complete once `statements()` has answered.
  const texts = () => JSON.parse(fs.readFileSync(textsFile, 'utf8')) as string[];
  const stop = async () => {
    await server.stop();
    fs.rmSync(textsFile, { force: true });
  };
  return { ...server, stop, statements, texts };
}

/**
 * One JSON call with a bearer token, for a bench's setup.
 * @throws Error on any status but 2xx, with the answer's text
 */
export async function callJson(
  base: string,
  method: string,
  route: string,
  token: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Record<string, any>> {
  const response = await fetch(`${base}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
  return (response.status === 204 ? {} : await response.json()) as Record<string, any>;
}
