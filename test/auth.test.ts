import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createTestDatabase, query } from './support/databases';
import { makeUser, TestUser, useTestApp } from './support/app';

const t = useTestApp();

const sql = <T = any>(text: string, params: unknown[] = []) => t.sql<T>(text, params);

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The stored row of a presented token, found by its hash. */
const tokenRow = async (token: string) =>
  (
    await sql<{ id: string; kind: string; family_id: string | null; revoked_at: Date | null; used_at: Date | null }>(
      'select id, kind, family_id, revoked_at, used_at from auth_tokens where secret_hash = $1',
      [sha256(token)],
    )
  )[0];

const me = (token: string) => t.call('GET', '/api/me', { token });

const expect401 = (reply: { status: number; headers: Headers; body: any }) => {
  expect(reply.status).toBe(401);
  expect(reply.headers.get('www-authenticate')).toBe('Bearer');
  expect(typeof reply.body.detail).toBe('string');
};

interface Pair {
  access_token: string;
  refresh_token: string;
}

/** A whole device-flow login of `user`; returns the approved poll's token pair. */
async function login(user: TestUser): Promise<Pair> {
  const started = await t.call('POST', '/api/auth/cli/start');
  expect(started.status).toBe(200);
  const approved = await t.call('POST', '/api/auth/cli/approve', { token: user.token, body: { user_code: started.body.user_code } });
  expect(approved.status).toBe(200);
  const polled = await t.call('POST', '/api/auth/cli/poll', { body: { device_code: started.body.device_code } });
  expect(polled).toMatchObject({ status: 200, body: { status: 'approved' } });
  return polled.body;
}

describe('personal access tokens', () => {
  test('minted by an admin, work on /api/me, and are stored hashed', async () => {
    const created = await t.call('POST', '/api/admin/users', {
      token: t.adminToken,
      body: { email: 'pat.owner@example.org', name: 'Pat Owner' },
    });
    expect(created.status).toBe(201);
    const userId = created.body.user_id as string;

    const minted = await t.call('POST', `/api/admin/users/${userId}/tokens`, { token: t.adminToken, body: { label: 'laptop' } });
    expect(minted.status).toBe(201);
    expect(Object.keys(minted.body).sort()).toEqual(['token', 'token_id']);
    expect(minted.body.token).toMatch(/^ldk_pat_[A-Za-z0-9_-]+$/);
    expect(minted.body.token_id).toEqual(expect.any(String));

    const seen = await me(minted.body.token);
    expect(seen).toMatchObject({ status: 200, body: { user_id: userId, email: 'pat.owner@example.org', is_admin: false } });

    const rows = await sql('select * from auth_tokens where user_id = $1', [userId]);
    expect(rows).toHaveLength(1);
    const dump = JSON.stringify(rows);
    const token = minted.body.token as string;
    expect(dump).not.toContain(token);
    // Not even the secret part (after the prefix and the 12-character lookup key).
    expect(dump).not.toContain(token.slice('ldk_pat_'.length + 12));
    expect(rows[0]).toMatchObject({ kind: 'pat', label: 'laptop', revoked_at: null });
    expect(rows[0].id).toBe(minted.body.token_id);
  });

  test('a revoked token is refused on the very next request; revoking an unknown token is 404', async () => {
    const user = await makeUser(t);
    const second = await t.call('POST', `/api/admin/users/${user.id}/tokens`, { token: t.adminToken, body: { label: 'second' } });
    expect(second.status).toBe(201);
    expect((await me(second.body.token)).status).toBe(200);

    const revoked = await t.call('DELETE', `/api/admin/users/${user.id}/tokens/${second.body.token_id}`, { token: t.adminToken });
    expect(revoked.status).toBe(204);
    expect(revoked.text).toBe('');
    expect401(await me(second.body.token));
    // The user's other token is untouched.
    expect((await me(user.token)).status).toBe(200);
    const [row] = await sql('select revoked_at from auth_tokens where id = $1', [second.body.token_id]);
    expect(row.revoked_at).toBeInstanceOf(Date);

    const unknown = await t.call('DELETE', `/api/admin/users/${user.id}/tokens/tok_doesnotexist0`, { token: t.adminToken });
    expect(unknown.status).toBe(404);
    expect(typeof unknown.body.detail).toBe('string');
    // Another user's token id under this user is unknown too.
    const other = await makeUser(t);
    const otherRow = await tokenRow(other.token);
    expect((await t.call('DELETE', `/api/admin/users/${user.id}/tokens/${otherRow.id}`, { token: t.adminToken })).status).toBe(404);
    expect((await me(other.token)).status).toBe(200);
  });
});

describe('bad credentials are 401 with WWW-Authenticate: Bearer', () => {
  test('garbage, Basic, unknown, altered, disabled', async () => {
    const user = await makeUser(t);
    expect((await me(user.token)).status).toBe(200);

    const replies = {
      garbageBearer: await me('garbage'),
      garbageHeader: await t.call('GET', '/api/me', { headers: { authorization: 'garbage' } }),
      basic: await t.call('GET', '/api/me', { headers: { authorization: 'Basic x' } }),
      unknownPat: await me(`ldk_pat_${'a'.repeat(12)}${'B'.repeat(32)}`),
      noCredential: await t.call('GET', '/api/me'),
    };
    for (const [name, reply] of Object.entries(replies)) {
      expect({ name, status: reply.status, header: reply.headers.get('www-authenticate') }).toEqual({
        name,
        status: 401,
        header: 'Bearer',
      });
    }

    const last = user.token.at(-1)!;
    const altered = `${user.token.slice(0, -1)}${last === 'A' ? 'B' : 'A'}`;
    expect(altered).not.toBe(user.token);
    expect(altered.length).toBe(user.token.length);
    expect401(await me(altered));
    // One character of the middle of the secret.
    const middle = user.token.length - 10;
    const alteredMiddle = `${user.token.slice(0, middle)}${user.token[middle] === 'x' ? 'y' : 'x'}${user.token.slice(middle + 1)}`;
    expect401(await me(alteredMiddle));
    expect((await me(user.token)).status).toBe(200);

    const disabled = await t.call('PATCH', `/api/admin/users/${user.id}`, { token: t.adminToken, body: { disabled: true } });
    expect(disabled).toMatchObject({ status: 200, body: { disabled: true } });
    expect401(await me(user.token));
  });
});

describe('device flow (CLI login)', () => {
  test('start → pending → approve → approved once, tokens act as the approving user', async () => {
    const user = await makeUser(t);
    const started = await t.call('POST', '/api/auth/cli/start');
    expect(started.status).toBe(200);
    expect(Object.keys(started.body).sort()).toEqual(['device_code', 'expires_in', 'interval', 'user_code', 'verification_url']);
    expect(started.body).toMatchObject({
      device_code: expect.any(String),
      user_code: expect.stringMatching(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/),
      verification_url: expect.any(String),
      interval: expect.any(Number),
      expires_in: expect.any(Number),
    });
    expect(started.body.interval).toBeGreaterThan(0);
    expect(started.body.expires_in).toBeGreaterThan(0);
    const { device_code: deviceCode, user_code: userCode } = started.body as { device_code: string; user_code: string };

    const pending = await t.call('POST', '/api/auth/cli/poll', { body: { device_code: deviceCode } });
    expect(pending).toMatchObject({ status: 200, body: { status: 'pending' } });

    // Approval needs a signed-in user.
    expect401(await t.call('POST', '/api/auth/cli/approve', { body: { user_code: userCode } }));
    // Unknown user code.
    const unknown = await t.call('POST', '/api/auth/cli/approve', {
      token: user.token,
      body: { user_code: 'ZZZZ-ZZZZ' === userCode ? 'YYYY-YYYY' : 'ZZZZ-ZZZZ' },
    });
    expect(unknown.status).toBe(404);
    expect((await t.call('POST', '/api/auth/cli/poll', { body: { device_code: deviceCode } })).body.status).toBe('pending');

    // Lower case, no dash.
    const approved = await t.call('POST', '/api/auth/cli/approve', {
      token: user.token,
      body: { user_code: userCode.replace('-', '').toLowerCase() },
    });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ user_code: userCode, status: 'approved' });

    const polled = await t.call('POST', '/api/auth/cli/poll', { body: { device_code: deviceCode } });
    expect(polled.status).toBe(200);
    expect(polled.body).toEqual({
      status: 'approved',
      access_token: expect.stringMatching(/^ldk_at_/),
      refresh_token: expect.stringMatching(/^ldk_rt_/),
      token_type: 'bearer',
      expires_in: 900,
    });

    const seen = await me(polled.body.access_token);
    expect(seen).toMatchObject({ status: 200, body: { user_id: user.id } });
    // The refresh token is not a bearer credential.
    expect401(await me(polled.body.refresh_token));

    // Tokens are handed out once.
    expect((await t.call('POST', '/api/auth/cli/poll', { body: { device_code: deviceCode } })).status).toBe(404);
    // The login tokens are stored hashed too.
    const dump = JSON.stringify(await sql('select * from auth_tokens where user_id = $1', [user.id]));
    expect(dump).not.toContain(polled.body.access_token);
    expect(dump).not.toContain(polled.body.refresh_token);
  });

  test('a poll before approval answers exactly {"status": "pending"} (docs/api/authentication.md)', async () => {
    const started = await t.call('POST', '/api/auth/cli/start');
    const pending = await t.call('POST', '/api/auth/cli/poll', { body: { device_code: started.body.device_code } });
    expect(pending.status).toBe(200);
    expect(pending.body).toEqual({ status: 'pending' });
  });

  test('an unknown device code is 404 on poll', async () => {
    expect((await t.call('POST', '/api/auth/cli/poll', { body: { device_code: 'ldk_dc_nothing' } })).status).toBe(404);
  });

  test('an expired device code is 404 on poll and on approve', async () => {
    const user = await makeUser(t);
    const started = await t.call('POST', '/api/auth/cli/start');
    await sql(`update device_logins set expires_at = now() - interval '1 second' where user_code = $1`, [started.body.user_code]);
    expect((await t.call('POST', '/api/auth/cli/poll', { body: { device_code: started.body.device_code } })).status).toBe(404);
    expect((await t.call('POST', '/api/auth/cli/approve', { token: user.token, body: { user_code: started.body.user_code } })).status).toBe(
      404,
    );
  });

  test('verification_url is the approval page on the host the CLI used (no PUBLIC_URL)', async () => {
    const started = await t.call('POST', '/api/auth/cli/start');
    expect(started.body.verification_url).toBe(`${t.url}/device`);
    const page = await fetch(`${started.body.verification_url}?code=${started.body.user_code}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  test('a signed-in user denies a login: its poll answers 403 {detail: "login denied"} until it expires, and nobody can approve it', async () => {
    const user = await makeUser(t);
    const started = await t.call('POST', '/api/auth/cli/start');
    const { device_code: deviceCode, user_code: userCode } = started.body as { device_code: string; user_code: string };

    expect401(await t.call('POST', '/api/auth/cli/deny', { body: { user_code: userCode } }));
    const unknown = await t.call('POST', '/api/auth/cli/deny', {
      token: user.token,
      body: { user_code: userCode === 'ZZZZ-ZZZZ' ? 'YYYY-YYYY' : 'ZZZZ-ZZZZ' },
    });
    expect({ status: unknown.status, body: unknown.body }).toEqual({ status: 404, body: { detail: 'login request not found' } });
    const bad = await t.call('POST', '/api/auth/cli/deny', { token: user.token, body: { user_code: '' } });
    expect(bad.status).toBe(422);
    expect((await t.call('POST', '/api/auth/cli/poll', { body: { device_code: deviceCode } })).body).toEqual({ status: 'pending' });

    const denied = await t.call('POST', '/api/auth/cli/deny', { token: user.token, body: { user_code: userCode.toLowerCase() } });
    expect({ status: denied.status, body: denied.body }).toEqual({ status: 200, body: { user_code: userCode, status: 'denied' } });
    expect(await sql('select status, user_id from device_logins where user_code = $1', [userCode])).toEqual([
      { status: 'denied', user_id: user.id },
    ]);

    for (let i = 0; i < 2; i++) {
      const polled = await t.call('POST', '/api/auth/cli/poll', { body: { device_code: deviceCode } });
      expect({ status: polled.status, body: polled.body }).toEqual({ status: 403, body: { detail: 'login denied' } });
    }
    // Decided once: approving or denying again finds no pending login.
    expect((await t.call('POST', '/api/auth/cli/approve', { token: user.token, body: { user_code: userCode } })).status).toBe(404);
    expect((await t.call('POST', '/api/auth/cli/deny', { token: user.token, body: { user_code: userCode } })).status).toBe(404);
    expect(
      await sql('select 1 from auth_tokens where family_id = (select id from device_logins where user_code = $1)', [userCode]),
    ).toHaveLength(0);

    // Once expired, a denied code is as unknown as any other.
    await sql(`update device_logins set expires_at = now() - interval '1 second' where user_code = $1`, [userCode]);
    expect((await t.call('POST', '/api/auth/cli/poll', { body: { device_code: deviceCode } })).status).toBe(404);
  });

  test('an approved login cannot be denied afterwards (404), and its poll still hands out the tokens', async () => {
    const user = await makeUser(t);
    const started = await t.call('POST', '/api/auth/cli/start');
    expect((await t.call('POST', '/api/auth/cli/approve', { token: user.token, body: { user_code: started.body.user_code } })).status).toBe(
      200,
    );
    expect((await t.call('POST', '/api/auth/cli/deny', { token: user.token, body: { user_code: started.body.user_code } })).status).toBe(
      404,
    );
    expect((await t.call('POST', '/api/auth/cli/poll', { body: { device_code: started.body.device_code } })).body.status).toBe('approved');
  });

  test('GraphQL: authCliDeny, then authCliPoll fails with FORBIDDEN', async () => {
    const user = await makeUser(t);
    const started = await t.call('POST', '/graphql', { body: { query: 'mutation { authCliStart { deviceCode userCode } }' } });
    const { deviceCode, userCode } = started.body.data.authCliStart;
    const denied = await t.call('POST', '/graphql', {
      token: user.token,
      body: { query: 'mutation ($c: String!) { authCliDeny(input: { userCode: $c }) { userCode status } }', variables: { c: userCode } },
    });
    expect(denied.body).toEqual({ data: { authCliDeny: { userCode, status: 'denied' } } });
    const polled = await t.call('POST', '/graphql', {
      body: { query: 'mutation ($d: String!) { authCliPoll(input: { deviceCode: $d }) { status } }', variables: { d: deviceCode } },
    });
    expect(polled.body.errors).toEqual([
      expect.objectContaining({ message: 'login denied', extensions: { code: 'FORBIDDEN', status: 403 } }),
    ]);
  });

  test('an approved but expired device code is 404 on poll', async () => {
    const user = await makeUser(t);
    const started = await t.call('POST', '/api/auth/cli/start');
    expect((await t.call('POST', '/api/auth/cli/approve', { token: user.token, body: { user_code: started.body.user_code } })).status).toBe(
      200,
    );
    await sql(`update device_logins set expires_at = now() - interval '1 second' where user_code = $1`, [started.body.user_code]);
    expect((await t.call('POST', '/api/auth/cli/poll', { body: { device_code: started.body.device_code } })).status).toBe(404);
  });
});

describe('refresh tokens', () => {
  test('a refresh gives a new pair; reusing the old refresh token later revokes the whole login', async () => {
    const user = await makeUser(t);
    const first = await login(user);

    const refreshed = await t.call('POST', '/api/auth/refresh', { body: { refresh_token: first.refresh_token } });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toEqual({
      access_token: expect.stringMatching(/^ldk_at_/),
      refresh_token: expect.stringMatching(/^ldk_rt_/),
      token_type: 'bearer',
      expires_in: 900,
    });
    const second = refreshed.body as Pair;
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(await me(second.access_token)).toMatchObject({ status: 200, body: { user_id: user.id } });

    // The old token again within seconds is a client race: refused, and the new pair survives.
    expect401(await t.call('POST', '/api/auth/refresh', { body: { refresh_token: first.refresh_token } }));
    expect(await me(second.access_token)).toMatchObject({ status: 200 });

    // Later, it means the old token leaked: refused, and the whole family is revoked.
    await sql(`update auth_tokens set used_at = now() - interval '1 minute' where used_at is not null and user_id = $1`, [user.id]);
    expect401(await t.call('POST', '/api/auth/refresh', { body: { refresh_token: first.refresh_token } }));
    expect401(await me(second.access_token));
    expect401(await me(first.access_token));
    expect401(await t.call('POST', '/api/auth/refresh', { body: { refresh_token: second.refresh_token } }));

    // Another login of the same user is not affected.
    const other = await login(user);
    expect((await me(other.access_token)).status).toBe(200);
    expect((await t.call('POST', '/api/auth/refresh', { body: { refresh_token: other.refresh_token } })).status).toBe(200);
  });

  test('an access token or a personal token sent as a refresh token is 401', async () => {
    const user = await makeUser(t);
    const pair = await login(user);
    expect401(await t.call('POST', '/api/auth/refresh', { body: { refresh_token: pair.access_token } }));
    expect401(await t.call('POST', '/api/auth/refresh', { body: { refresh_token: user.token } }));
    expect401(await t.call('POST', '/api/auth/refresh', { body: { refresh_token: 'garbage' } }));
    // The pair still works.
    expect((await me(pair.access_token)).status).toBe(200);
    expect((await t.call('POST', '/api/auth/refresh', { body: { refresh_token: pair.refresh_token } })).status).toBe(200);
  });

  test('10 concurrent refreshes with the same token: exactly one succeeds', async () => {
    const user = await makeUser(t);
    const pair = await login(user);
    const replies = await Promise.all(
      Array.from({ length: 10 }, () => t.call('POST', '/api/auth/refresh', { body: { refresh_token: pair.refresh_token } })),
    );
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 401)).toHaveLength(9);
  });

  test('an expired refresh token is 401', async () => {
    const user = await makeUser(t);
    const pair = await login(user);
    const row = await tokenRow(pair.refresh_token);
    await sql(`update auth_tokens set expires_at = now() - interval '1 second' where id = $1`, [row.id]);
    expect401(await t.call('POST', '/api/auth/refresh', { body: { refresh_token: pair.refresh_token } }));
  });
});

test('an access token expired in the database is 401', async () => {
  const user = await makeUser(t);
  const pair = await login(user);
  expect((await me(pair.access_token)).status).toBe(200);
  const row = await tokenRow(pair.access_token);
  expect(row.kind).toBe('access');
  await sql(`update auth_tokens set expires_at = now() - interval '1 second' where id = $1`, [row.id]);
  expect401(await me(pair.access_token));
});

describe('bootstrap admin', () => {
  test('with BOOTSTRAP_ADMIN_TOKEN the admin exists and that token is an admin', async () => {
    const seen = await me(t.adminToken);
    expect(seen).toMatchObject({ status: 200, body: { is_admin: true, email: 'admin@localhost' } });
    expect(await sql('select id from users where is_admin')).toHaveLength(1);
  });

  test('without it, the first start writes DATA_DIR/admin-token (0600); a second start changes nothing', async () => {
    const database = await createTestDatabase();
    const dirs = [fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-boot-')), fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-boot-'))];
    const config = (dataDir: string) => loadConfig({ PORT: '0', LOG_LEVEL: 'silent', DATA_DIR: dataDir, DATABASE_URL: database.url });
    // The first start writes nothing on the console at LOG_LEVEL=silent; anything it did is checked below.
    const quiet = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      const file = path.join(dirs[0], 'admin-token');
      const first = await startApp(config(dirs[0]));
      let token: string;
      let mtime: number;
      try {
        expect(fs.existsSync(file)).toBe(true);
        expect(fs.statSync(file).mode & 0o777).toBe(0o600);
        token = fs.readFileSync(file, 'utf8').trim();
        expect(token).toMatch(/^ldk_pat_[A-Za-z0-9_-]+$/);
        mtime = fs.statSync(file).mtimeMs;
        const reply = await fetch(new URL('/api/me', first.url), { headers: { authorization: `Bearer ${token}` } });
        expect(reply.status).toBe(200);
        expect(await reply.json()).toMatchObject({ is_admin: true, email: 'admin@localhost' });
        const dump = JSON.stringify(await query(database.url, 'select * from auth_tokens'));
        expect(dump).not.toContain(token);
        // With the token, a one-time link that sets the admin's password for the console, in its own file.
        const linkFile = path.join(dirs[0], 'admin-password-link');
        expect(fs.statSync(linkFile).mode & 0o777).toBe(0o600);
        const link = new RegExp(`^${first.url}/set-password#(ldk_pwl_[A-Za-z0-9_-]+)$`).exec(fs.readFileSync(linkFile, 'utf8').trim())?.[1];
        expect(link).toBeDefined();
        // Neither is written on the console, whatever the log level.
        const printed = quiet.mock.calls.map(([chunk]) => String(chunk)).join('');
        expect(printed).not.toContain(token);
        expect(printed).not.toContain(link);
        const set = await fetch(new URL('/api/auth/password-link', first.url), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ token: link, new_password: 'the first admin password' }),
        });
        expect(set.status).toBe(200);
        const signIn = await fetch(new URL('/api/auth/login', first.url), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'admin@localhost', password: 'the first admin password' }),
        });
        expect(signIn.status).toBe(200);
      } finally {
        await first.close();
      }

      // Same data directory, same database: nothing is written again.
      const second = await startApp(config(dirs[0]));
      try {
        expect(second.bootstrapToken).toBeUndefined();
        expect(fs.readFileSync(file, 'utf8').trim()).toBe(token);
        expect(fs.statSync(file).mtimeMs).toBe(mtime);
        const reply = await fetch(new URL('/api/me', second.url), { headers: { authorization: `Bearer ${token}` } });
        expect(reply.status).toBe(200);
      } finally {
        await second.close();
      }
      // Another data directory on the same database: no second admin, no file.
      const third = await startApp(config(dirs[1]));
      await third.close();
      expect(fs.existsSync(path.join(dirs[1], 'admin-token'))).toBe(false);

      expect(await query(database.url, 'select id from users where is_admin')).toHaveLength(1);
      expect(await query(database.url, 'select id from users')).toHaveLength(1);
      expect(await query(database.url, 'select id from auth_tokens')).toHaveLength(1);
    } finally {
      quiet.mockRestore();
      await database.drop();
      for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

test('revoking one token of a CLI login ends the whole login', async () => {
  const user = await makeUser(t);
  const pair = await login(user);
  const [{ id: accessId }] = await sql<{ id: string }>(`select id from auth_tokens where secret_hash = $1`, [sha256(pair.access_token)]);
  expect((await t.call('DELETE', `/api/admin/users/${user.id}/tokens/${accessId}`, { token: t.adminToken })).status).toBe(204);
  expect((await me(pair.access_token)).status).toBe(401);
  expect((await t.call('POST', '/api/auth/refresh', { body: { refresh_token: pair.refresh_token } })).status).toBe(401);
  expect((await me(user.token)).status).toBe(200); // the personal token is another credential
});
