import { freePort } from '../src/db/embedded';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeUser, useTestApp } from './support/app';
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

  test('on the server: users set-password-link and restore-admin are the way back for a suspended or password-less admin', async () => {
    const admin = await makeUser(t, { is_admin: true });
    await t.sql('update users set disabled = true where id = $1', [admin.id]);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-cli-users-'));
    const env = { DATABASE_URL: t.databaseUrl, DATA_DIR: dataDir, LOG_LEVEL: 'silent', PUBLIC_URL: t.url };
    try {
      const refused = await labdesk(['users', 'set-password-link', admin.email], env);
      expect(refused).toMatchObject({
        status: 2,
        stderr: `labdesk: ${admin.email} is suspended, so a link would not work; run labdesk users restore-admin ${admin.email} first\n`,
      });
      expect(await labdesk(['users', 'restore-admin', admin.email.toUpperCase()], env)).toMatchObject({
        status: 0,
        stdout: expect.stringContaining(`${admin.email} is an active administrator again`),
      });
      const issued = await labdesk(['users', 'set-password-link', admin.email], env);
      expect(issued.status).toBe(0);
      const token = new RegExp(`${t.url}/set-password#(ldk_pwl_[A-Za-z0-9_-]+)`).exec(issued.stdout)?.[1];
      expect(token).toBeDefined();
      expect((await t.call('POST', '/api/auth/password-link', { body: { token, new_password: 'back in through the cli' } })).status).toBe(
        200,
      );
      const signedIn = await t.call('POST', '/api/auth/login', { body: { email: admin.email, password: 'back in through the cli' } });
      expect(signedIn).toMatchObject({ status: 200, body: { user: { is_admin: true, disabled: false } } });
      expect(
        await t.sql("select count(*)::int as n from audit_events where subject_user_id = $1 and detail->>'via' = 'cli'", [admin.id]),
      ).toEqual([{ n: 2 }]);
      expect(await labdesk(['users', 'set-password-link', 'nobody@example.org'], env)).toMatchObject({
        status: 2,
        stderr: 'labdesk: no user has the email nobody@example.org\n',
      });
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
