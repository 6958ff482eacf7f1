import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import type { Logger } from '../../logger';

/** The built CLI (from the sources, e.g. under jest, the build next to them). */
const CLI = __dirname.includes(`${path.sep}dist${path.sep}`)
  ? path.resolve(__dirname, '..', '..', 'cli', 'main.js')
  : path.resolve(__dirname, '..', '..', '..', 'dist', 'src', 'cli', 'main.js');

/**
 * What a sandbox inherits of the service's environment: enough to run a program and read text
 * and times as the operator set them. Everything else stays out: the service's settings and
 * secrets (`DATABASE_URL`, `RELEASE_TOKEN`, S3 and model keys, the bootstrap admin token, and
 * whatever a deployment adds), which the sandbox's work must never read. `NODE_OPTIONS` is left
 * out too: the service's runtime flags (`--inspect`, `--require`, a heap sized for the service)
 * are not the sandbox's.
 */
export const SANDBOX_ENV_NAMES = ['PATH', 'HOME', 'USER', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR'] as const;

/** The environment of a local sandbox: the allowlisted variables the service has, and its claim token. */
export function sandboxEnvironment(serviceEnv: Record<string, string | undefined>, claimToken: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of SANDBOX_ENV_NAMES) {
    const value = serviceEnv[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, LABDESK_CLAIM_TOKEN: claimToken };
}

/**
 * The `local` compute provider (not the agent's code jail: that is `CodeJail`): the service
 * starts a lease's sandbox, `labdesk sandbox run`, itself as a child process.
 * The claim token goes in the environment, not the command line (which other users can read).
 */
export class LocalComputeProvider {
  private readonly children = new Set<ChildProcess>();
  /** The service's own URL, known once it listens. */
  serverUrl = '';

  constructor(
    private readonly heartbeatSeconds: number,
    private readonly logger: Logger,
  ) {}

  launch(leaseId: number, claimToken: string): void {
    const cli = CLI;
    const child = spawn(
      process.execPath,
      [cli, 'sandbox', 'run', '--server', this.serverUrl, '--interval', String(this.heartbeatSeconds)],
      {
        env: sandboxEnvironment(process.env, claimToken),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    this.children.add(child);
    const log = (stream: NodeJS.ReadableStream) =>
      stream.on('data', (chunk: Buffer) => {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) this.logger.info('sandbox', { leaseId, line });
      });
    log(child.stdout);
    log(child.stderr);
    child.on('exit', (code) => {
      this.children.delete(child);
      this.logger.info('sandbox exited', { leaseId, code });
    });
  }

  /** Stops every sandbox this process started (service shutdown). */
  async close(): Promise<void> {
    await Promise.all(
      [...this.children].map(
        (child) =>
          new Promise<void>((resolve) => {
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
  }
}
