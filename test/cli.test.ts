import { spawn } from 'node:child_process';
import path from 'node:path';
import { freePort } from '../src/db/embedded';
import { useTestApp } from './support/app';

/** The `labdesk` command as a user runs it from the checkout (`npx labdesk` runs this file). */
const BIN = path.resolve(__dirname, '..', 'bin', 'labdesk.js');

const t = useTestApp();

/** Runs the CLI as a child process (asynchronously: the server under test lives in this process). */
function labdesk(args: string[], env: Record<string, string> = {}) {
  const base: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: '/nonexistent', ...env };
  for (const key of ['LABDESK_URL', 'LABDESK_TOKEN', 'PUBLIC_URL', 'PORT', 'HOST']) if (!(key in env)) delete base[key];
  const child = spawn(process.execPath, [BIN, ...args], { env: base });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
}

describe('labdesk CLI', () => {
  test('a group name with --help lists its commands (exit 0)', async () => {
    const help = await labdesk(['users', '--help']);
    expect(help).toMatchObject({ status: 0, stdout: expect.stringContaining('usage: labdesk users create --email EMAIL') });
  });

  test('an unreachable server is named with the reason', async () => {
    const port = await freePort();
    const run = await labdesk(['users', 'create', '--email', 'a@example.org', '--name', 'A', '--token', 'ldk_pat_x'], { LABDESK_URL: `http://127.0.0.1:${port}` });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(`labdesk: cannot reach http://127.0.0.1:${port}: connection refused (is the service running there?). Choose the server with --url or LABDESK_URL.\n`);
  });

  test('without --url or LABDESK_URL the server comes from PORT; the server’s complaint names the flag (--plan, not plan_code)', async () => {
    const port = new URL(t.url).port;
    const run = await labdesk(['users', 'create', '--email', 'cli@example.org', '--name', 'Cli', '--plan', 'gold', '--token', t.adminToken], { PORT: port });
    expect(run.status).toBe(2);
    expect(run.stderr).toBe('labdesk: could not create the user (422): --plan: must be one of free, pro, lab, enterprise\n');
    const created = await labdesk(['users', 'create', '--email', 'cli@example.org', '--name', 'Cli', '--plan', 'pro', '--token', t.adminToken], { LABDESK_URL: t.url });
    expect(created).toMatchObject({ status: 0, stdout: expect.stringMatching(/^created usr_\w+ <cli@example\.org>\n$/) });
  });
});
