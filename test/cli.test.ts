import { freePort } from '../src/db/embedded';
import { useTestApp } from './support/app';
import { runLabdesk } from './support/cli';

const t = useTestApp();

const labdesk = runLabdesk;

describe('labdesk CLI', () => {
  test('a group name with --help lists its commands (exit 0)', async () => {
    const help = await labdesk(['users', '--help']);
    expect(help).toMatchObject({ status: 0, stdout: expect.stringContaining('usage: labdesk users create --email EMAIL') });
  });

  test('a misspelled flag is refused (exit 2), never ignored; a flag without its value too', async () => {
    expect(await labdesk(['users', 'create', '--email', 'a@example.org', '--nmae', 'A'])).toMatchObject({
      status: 2,
      stderr: 'labdesk: unknown flag --nmae; see labdesk <command> --help\n',
    });
    expect(await labdesk(['backup', '--out'])).toMatchObject({ status: 2, stderr: "labdesk: Option '--out <value>' argument missing\n" });
  });

  test('an unreachable server is named with the reason', async () => {
    const port = await freePort();
    const run = await labdesk(['users', 'create', '--email', 'a@example.org', '--name', 'A', '--token', 'ldk_pat_x'], {
      LABDESK_URL: `http://127.0.0.1:${port}`,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      `labdesk: cannot reach http://127.0.0.1:${port}: connection refused (is the service running there?). Choose the server with --url or LABDESK_URL.\n`,
    );
  });

  test('without --url or LABDESK_URL the server comes from PORT; the server’s complaint names the flag (--plan, not plan_code)', async () => {
    const port = new URL(t.url).port;
    const run = await labdesk(
      ['users', 'create', '--email', 'cli@example.org', '--name', 'Cli', '--plan', 'gold', '--token', t.adminToken],
      { PORT: port },
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toBe('labdesk: could not create the user (422): --plan: must be one of free, pro, lab, enterprise\n');
    const created = await labdesk(
      ['users', 'create', '--email', 'cli@example.org', '--name', 'Cli', '--plan', 'pro', '--token', t.adminToken],
      { LABDESK_URL: t.url },
    );
    expect(created).toMatchObject({ status: 0, stdout: expect.stringMatching(/^created usr_\w+ <cli@example\.org>\n$/) });
  });
});
