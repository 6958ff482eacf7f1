import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '../../src/db/embedded';
import { CallOptions, httpCaller, NO_MODEL_LIMITS, NO_RATE_LIMITS, Reply } from './app';

export interface ChildServer {
  url: string;
  process: ChildProcess;
  call: <T = any>(method: string, route: string, opts?: CallOptions) => Promise<Reply<T>>;
  /** The last 2,000 characters it wrote to stderr (all of it with `keepOutput`). */
  stderr(): string;
  /** Everything it wrote to stdout, with `keepOutput`; empty otherwise. */
  stdout(): string;
  /** SIGKILL: the process stops at once, running nothing of its shutdown. */
  kill(): Promise<void>;
}

/**
 * A `labdesk serve` in its own process (from dist/, which `npm test` builds, or from the
 * `bin/labdesk.js` of another `tree`, as `uid`/`gid` if given), ready when its `/readyz`
 * answers: for what an in-process app cannot show, such as an instance killed mid-work.
 */
export async function startChildServer(
  env: Record<string, string>,
  opts: { tree?: string; uid?: number; gid?: number; keepOutput?: boolean } = {},
): Promise<ChildServer> {
  const cli = opts.tree ? path.join(opts.tree, 'bin', 'labdesk.js') : path.resolve(__dirname, '..', '..', 'dist', 'src', 'cli', 'main.js');
  if (!fs.existsSync(cli)) throw new Error('dist/ is missing: run the tests with npm test (it builds first)');
  const port = await freePort();
  const child = spawn(process.execPath, [cli, 'serve'], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...NO_MODEL_LIMITS, ...NO_RATE_LIMITS, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', opts.keepOutput ? 'pipe' : 'ignore', 'pipe'],
    cwd: opts.tree,
    uid: opts.uid,
    gid: opts.gid,
  });
  let stderr = '';
  let stdout = '';
  child.stderr!.on(
    'data',
    (chunk: Buffer) => (stderr = opts.keepOutput ? stderr + chunk.toString() : (stderr + chunk.toString()).slice(-2000)),
  );
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));

  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const server: ChildServer = {
    url,
    process: child,
    stderr: () => stderr,
    stdout: () => stdout,
    call: httpCaller(url),
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`labdesk serve exited with ${child.exitCode} before it was ready:\n${stderr}`);
    if (
      await fetch(`${url}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return server;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await server.kill();
  throw new Error('labdesk serve was not ready within 30 s');
}
