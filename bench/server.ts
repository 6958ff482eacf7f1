import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The admin token every benchmark server starts with. */
export const BENCH_ADMIN_TOKEN = 'ldk_pat_benchadminxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx';

export interface BenchServer {
  url: string;
  dataDir: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * `labdesk serve` from the build, in its own process (so the load generator does not share its
 * event loop), on a temp DATA_DIR; ready once `/readyz` answers. `BENCH_NODE_ARGS` passes flags
 * to node (e.g. `--cpu-prof`); `stdout` keeps the server's output (its log) readable on the child's `stdout`;
 * `main` runs another build's `src/cli/main.js` (a baseline to compare with); `nodeArgs` adds flags.
 */
export async function startBenchServer(port: number, env: Record<string, string> = {}, opts: { stdout?: boolean; main?: string; nodeArgs?: string[] } = {}): Promise<BenchServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-bench-'));
  const nodeArgs = [...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean), ...(opts.nodeArgs ?? [])];
  const child = spawn(process.execPath, [...nodeArgs, opts.main ?? path.resolve(__dirname, '..', 'src', 'cli', 'main.js'), 'serve'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn', BOOTSTRAP_ADMIN_TOKEN: BENCH_ADMIN_TOKEN, ...env },
    stdio: ['ignore', opts.stdout ? 'pipe' : 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (await fetch(`${url}/readyz`).then((r) => r.ok, () => false)) break;
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
