import { spawn } from 'node:child_process';
import path from 'node:path';

/** The `labdesk` command as an operator runs it (compiled on first use by bin/labdesk.js). */
const BIN = path.resolve(__dirname, '..', '..', 'bin', 'labdesk.js');

/**
 * Runs the CLI as a child process (asynchronously: a server under test may live in this process),
 * with none of this process's server settings unless `env` gives them.
 */
export function runLabdesk(args: string[], env: Record<string, string> = {}) {
  const base: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: '/nonexistent', ...env };
  for (const key of ['LABDESK_URL', 'LABDESK_TOKEN', 'PUBLIC_URL', 'PORT', 'HOST']) if (!(key in env)) delete base[key];
  const child = spawn(process.execPath, [BIN, ...args], { env: base });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (status) => resolve({ status, stdout, stderr })),
  );
}

/** The CLI on one data directory, its logs silenced (`env` adds or overrides settings). */
export const runLabdeskIn = (dataDir: string, args: string[], env: Record<string, string> = {}) =>
  runLabdesk(args, { DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env });
