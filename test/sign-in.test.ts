import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { loadConfig } from '../src/config';
import { makeUser, replyOf, startTestApp, useTestApp, type TestApp } from './support/app';
import { startInbox } from './support/smtp';

/**
 * People sign in (issue 24): passwords (Argon2id), the `labdesk_session` cookie, sessions kept
 * hashed in PostgreSQL, one-time set-password links, and the cookie checked against forgery
 * (CSRF) on every verb and on the WebSocket upgrade. Real HTTP on loopback throughout.
 */

const t = useTestApp();
const PASSWORD = 'correct horse battery staple';

/** A user with a password, made through the admin API. */
async function personWithPassword(app: TestApp = t, password = PASSWORD) {
  const email = `p${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}@example.org`;
  const created = await app.call('POST', '/api/admin/users', { token: app.adminToken, body: { email, name: 'Ada Person', password } });
  expect(created.status).toBe(201);
  return { id: created.body.user_id as string, email };
}

/** POST /api/auth/login; answers the reply and the `labdesk_session=…` pair to send back. */
async function signIn(email: string, password: string, headers: Record<string, string> = {}, app: TestApp = t) {
  const reply = await app.call('POST', '/api/auth/login', { body: { email, password }, headers });
  const setCookie = reply.headers.get('set-cookie') ?? '';
  const cookie = /^(labdesk_session=[^;]*)/.exec(setCookie)?.[1];
  return { reply, setCookie, cookie: cookie ?? '' };
}

/** A request with a cookie (and the service's own Origin unless `origin` says otherwise). */
function withCookie(cookie: string, method: string, route: string, body?: unknown, origin: string | null = t.url) {
  return t.call(method, route, { body, headers: { cookie, ...(origin === null ? {} : { origin }) } });
}

describe('passwords and sign-in', () => {
  test('an admin creates a user with a password; it signs in and the cookie is HttpOnly, Lax, Path=/', async () => {
    const person = await personWithPassword();
    const { reply, setCookie, cookie } = await signIn(person.email.toUpperCase(), PASSWORD);
    expect(reply.status).toBe(200);
    expect(reply.body.user).toMatchObject({ user_id: person.id, email: person.email });
    expect(JSON.stringify(reply.body)).not.toMatch(/ldk_ses_|password/);
    expect(setCookie).toMatch(/^labdesk_session=ldk_ses_[A-Za-z0-9_-]{44}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/); // no Secure on http
    const me = await withCookie(cookie, 'GET', '/api/me');
    expect(me).toMatchObject({ status: 200, body: { user_id: person.id } });
    // Stored hashed: neither the password nor the cookie's value is in the database.
    const [row] = await t.sql(`select password_hash from users where id = $1`, [person.id]);
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const sessions = await t.sql(`select secret_hash from user_sessions where user_id = $1`, [person.id]);
    expect(sessions).toHaveLength(1);
    expect(sessions[0].secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(cookie).not.toContain(sessions[0].secret_hash);
  });

  test('a password of fewer than 12 or more than 1,024 characters is refused, and no user is made', async () => {
    for (const password of ['short', 'x'.repeat(1025)]) {
      const email = `short${Math.random().toString(36).slice(2)}@example.org`;
      const reply = await t.call('POST', '/api/admin/users', { token: t.adminToken, body: { email, name: 'N', password } });
      expect(reply.status).toBe(422);
      expect(reply.body.detail[0]).toMatchObject({ loc: ['body', 'password'], msg: 'must be 12 to 1024 characters long' });
      expect(await t.sql(`select 1 from users where email = $1`, [email])).toEqual([]);
    }
  });

  test('an unknown email and a wrong password get the same 401, and set no cookie', async () => {
    const person = await personWithPassword();
    const unknown = await signIn('nobody@example.org', PASSWORD);
    const wrong = await signIn(person.email, 'not the password at all');
    const noPassword = await signIn((await makeUser(t)).email, PASSWORD);
    for (const attempt of [unknown, wrong, noPassword]) {
      expect(attempt.reply.status).toBe(401);
      expect(attempt.reply.body).toEqual({ detail: 'wrong email or password' });
      expect(attempt.setCookie).toBe('');
    }
  });

  test('session fixation: a cookie set before sign-in is not adopted; sign-in makes a new session', async () => {
    const person = await personWithPassword();
    const planted = 'labdesk_session=ldk_ses_AAAAAAAAAAAA' + 'B'.repeat(32);
    const { reply, cookie } = await signIn(person.email, PASSWORD, { cookie: planted, origin: t.url });
    expect(reply.status).toBe(200);
    expect(cookie).not.toBe(planted);
    expect((await withCookie(planted, 'GET', '/api/me')).status).toBe(401);
    expect((await withCookie(cookie, 'GET', '/api/me')).status).toBe(200);
  });

  test('sign-out revokes the session server-side and clears the cookie', async () => {
    const person = await personWithPassword();
    const { cookie } = await signIn(person.email, PASSWORD);
    const out = await withCookie(cookie, 'POST', '/api/auth/logout');
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toBe('labdesk_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax');
    // The old value, replayed (a copy an attacker kept), no longer works.
    expect((await withCookie(cookie, 'GET', '/api/me')).status).toBe(401);
    const [row] = await t.sql(`select revoked_at from user_sessions where user_id = $1`, [person.id]);
    expect(row.revoked_at).not.toBeNull();
  });

  test("a suspended user's session stops working at the next request", async () => {
    const person = await personWithPassword();
    const { cookie } = await signIn(person.email, PASSWORD);
    expect((await withCookie(cookie, 'GET', '/api/me')).status).toBe(200);
    expect((await t.call('PATCH', `/api/admin/users/${person.id}`, { token: t.adminToken, body: { disabled: true } })).status).toBe(200);
    expect((await withCookie(cookie, 'GET', '/api/me')).status).toBe(401);
    expect((await signIn(person.email, PASSWORD)).reply.status).toBe(401);
  });

  test('a bearer token takes precedence over the cookie', async () => {
    const person = await personWithPassword();
    const other = await makeUser(t);
    const { cookie } = await signIn(person.email, PASSWORD);
    const me = await t.call('GET', '/api/me', { token: other.token, headers: { cookie } });
    expect(me.body.user_id).toBe(other.id);
  });

  test('sessions past their idle or absolute expiry end', async () => {
    const person = await personWithPassword();
    const idle = await signIn(person.email, PASSWORD);
    const old = await signIn(person.email, PASSWORD);
    await t.sql(`update user_sessions set last_seen_at = now() - interval '169 hours' where id = $1`, [sessionIdOf(idle.cookie)]);
    await t.sql(`update user_sessions set expires_at = now() - interval '1 second' where id = $1`, [sessionIdOf(old.cookie)]);
    expect((await withCookie(idle.cookie, 'GET', '/api/me')).status).toBe(401);
    expect((await withCookie(old.cookie, 'GET', '/api/me')).status).toBe(401);
  });
});

const sessionIdOf = (cookie: string) => `ses_${cookie.slice('labdesk_session=ldk_ses_'.length, 'labdesk_session=ldk_ses_'.length + 12)}`;

describe('your sessions and your password', () => {
  test('GET /api/me/sessions lists them, the current one marked; DELETE ends one', async () => {
    const person = await personWithPassword();
    const first = await signIn(person.email, PASSWORD, { 'user-agent': 'Firefox test' });
    const second = await signIn(person.email, PASSWORD, { 'user-agent': 'Chromium test' });
    const list = await withCookie(second.cookie, 'GET', '/api/me/sessions');
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(2);
    expect(list.body.items.map((s: any) => [s.user_agent, s.current, s.method])).toEqual([
      ['Chromium test', true, 'password'],
      ['Firefox test', false, 'password'],
    ]);
    expect(list.body.items[0]).toMatchObject({ session_id: sessionIdOf(second.cookie), address: '127.0.0.1' });
    const firstId = list.body.items[1].session_id;
    expect((await withCookie(second.cookie, 'DELETE', `/api/me/sessions/${firstId}`)).status).toBe(204);
    expect((await withCookie(first.cookie, 'GET', '/api/me')).status).toBe(401);
    expect((await withCookie(second.cookie, 'DELETE', `/api/me/sessions/${firstId}`)).status).toBe(404);
    // Another user's session is not theirs to end (and not revealed).
    const stranger = await makeUser(t);
    expect((await t.call('DELETE', `/api/me/sessions/${sessionIdOf(second.cookie)}`, { token: stranger.token })).status).toBe(404);
    expect((await withCookie(second.cookie, 'GET', '/api/me')).status).toBe(200);
  });

  test('PUT /api/me/password: set without the current one, then change with it; the other sessions end', async () => {
    const user = await makeUser(t);
    expect((await t.call('PUT', '/api/me/password', { token: user.token, body: { new_password: PASSWORD } })).status).toBe(204);
    const here = await signIn(user.email, PASSWORD);
    const elsewhere = await signIn(user.email, PASSWORD);
    const wrong = await withCookie(here.cookie, 'PUT', '/api/me/password', {
      current_password: 'wrong guess 123',
      new_password: 'another long password',
    });
    expect(wrong).toMatchObject({ status: 403, body: { detail: 'the current password is wrong' } });
    const missing = await withCookie(here.cookie, 'PUT', '/api/me/password', { new_password: 'another long password' });
    expect(missing.status).toBe(403);
    const short = await withCookie(here.cookie, 'PUT', '/api/me/password', { current_password: PASSWORD, new_password: 'short' });
    expect(short.status).toBe(422);
    const changed = await withCookie(here.cookie, 'PUT', '/api/me/password', {
      current_password: PASSWORD,
      new_password: 'another long password',
    });
    expect(changed.status).toBe(204);
    expect((await withCookie(here.cookie, 'GET', '/api/me')).status).toBe(200);
    expect((await withCookie(elsewhere.cookie, 'GET', '/api/me')).status).toBe(401);
    expect((await signIn(user.email, PASSWORD)).reply.status).toBe(401);
    expect((await signIn(user.email, 'another long password')).reply.status).toBe(200);
  });
});

describe('your own tokens and sessions (the account page)', () => {
  const gql = (cookie: string, query: string, variables: Record<string, unknown> = {}) =>
    withCookie(cookie, 'POST', '/graphql', { query, variables });

  test('a signed-in person creates a token (shown once), sees it listed with its last use, and revokes it', async () => {
    const person = await personWithPassword();
    const { cookie } = await signIn(person.email, PASSWORD);
    const created = await gql(cookie, 'mutation ($input: TokenCreateInput!) { myTokenCreate(input: $input) { tokenId token } }', {
      input: { label: 'laptop', expiresInDays: 30 },
    });
    const { tokenId, token } = created.body.data.myTokenCreate;
    expect(token).toMatch(/^ldk_pat_/);
    const list = async () =>
      (await gql(cookie, '{ myTokens { total items { tokenId label expiresAt revokedAt lastUsedAt } } }')).body.data.myTokens;
    const before = await list();
    expect(before.items).toEqual([{ tokenId, label: 'laptop', expiresAt: expect.any(String), revokedAt: null, lastUsedAt: null }]);
    expect(Date.parse(before.items[0].expiresAt) - Date.now()).toBeGreaterThan(29.9 * 86_400_000);
    expect(JSON.stringify(before)).not.toContain(token);
    // Used once: its last use is recorded.
    expect((await t.call('GET', '/api/me', { token })).body.user_id).toBe(person.id);
    expect(Date.parse((await list()).items[0].lastUsedAt)).toBeGreaterThan(Date.now() - 60_000);
    // Revoked: it stops working; another person's token is not found.
    const other = await makeUser(t);
    const [otherToken] = await t.sql(`select id from auth_tokens where user_id = $1`, [other.id]);
    const foreign = await gql(cookie, 'mutation ($id: ID!) { myTokenRevoke(tokenId: $id) }', { id: otherToken.id });
    expect(foreign.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await t.call('GET', '/api/me', { token: other.token })).status).toBe(200);
    expect((await gql(cookie, 'mutation ($id: ID!) { myTokenRevoke(tokenId: $id) }', { id: tokenId })).body.data.myTokenRevoke).toBe(true);
    expect((await t.call('GET', '/api/me', { token })).status).toBe(401);
    expect((await list()).items[0].revokedAt).not.toBeNull();
  });

  test('a label out of bounds or an expiry past ten years is refused, and nothing is made', async () => {
    const person = await personWithPassword();
    const { cookie } = await signIn(person.email, PASSWORD);
    for (const input of [
      { label: '' },
      { label: 'x'.repeat(101) },
      { label: 'ok', expiresInDays: 0 },
      { label: 'ok', expiresInDays: 3651 },
    ]) {
      const reply = await gql(cookie, 'mutation ($input: TokenCreateInput!) { myTokenCreate(input: $input) { tokenId } }', { input });
      expect(reply.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    }
    expect(await t.sql(`select id from auth_tokens where user_id = $1`, [person.id])).toEqual([]);
  });

  test('"Sign out all other sessions" ends every other session and keeps this one', async () => {
    const person = await personWithPassword();
    const others = [await signIn(person.email, PASSWORD), await signIn(person.email, PASSWORD)];
    const mine = await signIn(person.email, PASSWORD);
    expect((await gql(mine.cookie, 'mutation { revokeOtherSessions }')).body.data.revokeOtherSessions).toBe(true);
    for (const other of others) expect((await withCookie(other.cookie, 'GET', '/api/me')).status).toBe(401);
    expect((await withCookie(mine.cookie, 'GET', '/api/me')).status).toBe(200);
  });
});

describe('one-time set-password links', () => {
  test('an admin issues a link; it sets the password once, signs in, and ends the older sessions', async () => {
    const person = await personWithPassword();
    const before = await signIn(person.email, PASSWORD);
    const issued = await t.call('POST', `/api/admin/users/${person.id}/password-link`, { token: t.adminToken });
    expect(issued.status).toBe(201);
    expect(issued.body.url).toMatch(new RegExp(`^${t.url}/set-password#ldk_pwl_[A-Za-z0-9_-]{44}$`));
    expect(Date.parse(issued.body.expires_at) - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    const token = issued.body.url.split('#')[1];
    const used = await t.call('POST', '/api/auth/password-link', { body: { token, new_password: 'a brand new password' } });
    expect(used.status).toBe(200);
    expect(used.body.user.user_id).toBe(person.id);
    const cookie = /^(labdesk_session=[^;]*)/.exec(used.headers.get('set-cookie') ?? '')![1];
    expect((await withCookie(cookie, 'GET', '/api/me')).status).toBe(200);
    expect((await withCookie(before.cookie, 'GET', '/api/me')).status).toBe(401);
    expect((await signIn(person.email, 'a brand new password')).reply.status).toBe(200);
    // Used once: a second use (a replay) is refused and changes nothing.
    const again = await t.call('POST', '/api/auth/password-link', { body: { token, new_password: 'yet another password' } });
    expect(again.status).toBe(401);
    expect((await signIn(person.email, 'a brand new password')).reply.status).toBe(200);
  });

  test('an expired link is refused; an unknown user is 404; only admins issue links', async () => {
    const person = await personWithPassword();
    const issued = await t.call('POST', `/api/admin/users/${person.id}/password-link`, { token: t.adminToken });
    await t.sql(`update password_links set expires_at = now() - interval '1 second' where user_id = $1`, [person.id]);
    const token = issued.body.url.split('#')[1];
    expect((await t.call('POST', '/api/auth/password-link', { body: { token, new_password: 'a brand new password' } })).status).toBe(401);
    expect((await t.call('POST', '/api/admin/users/usr_nobody/password-link', { token: t.adminToken })).status).toBe(404);
    const user = await makeUser(t);
    expect((await t.call('POST', `/api/admin/users/${person.id}/password-link`, { token: user.token })).status).toBe(403);
    // A forged token of the right shape is refused too.
    const forged = token.slice(0, -4) + 'AAAA';
    expect(
      (await t.call('POST', '/api/auth/password-link', { body: { token: forged, new_password: 'a brand new password' } })).status,
    ).toBe(401);
  });
});

describe('set-password links do not outlive a password change (hardening III)', () => {
  const issueLink = async (userId: string) =>
    ((await t.call('POST', `/api/admin/users/${userId}/password-link`, { token: t.adminToken })).body.url as string).split('#')[1];
  const useLink = (token: string, password: string) =>
    t.call('POST', '/api/auth/password-link', { body: { token, new_password: password } });

  test('using one link spends the others: L2 no longer sets a password after L1 was used', async () => {
    const person = await personWithPassword();
    const [first, second] = [await issueLink(person.id), await issueLink(person.id)];
    expect((await useLink(first, 'the password of link one')).status).toBe(200);
    expect((await useLink(second, 'the password of link two')).status).toBe(401);
    expect((await signIn(person.email, 'the password of link one')).reply.status).toBe(200);
  });

  test('changing the password spends every outstanding link', async () => {
    const person = await personWithPassword();
    const link = await issueLink(person.id);
    const { cookie } = await signIn(person.email, PASSWORD);
    const changed = await withCookie(cookie, 'PUT', '/api/me/password', {
      current_password: PASSWORD,
      new_password: 'changed after the link',
    });
    expect(changed.status).toBe(204);
    expect((await useLink(link, 'an attacker’s password')).status).toBe(401);
    expect((await signIn(person.email, 'changed after the link')).reply.status).toBe(200);
  });
});

describe('cookie tossing (hardening III)', () => {
  test('a request carrying two session cookies is refused, whichever comes first', async () => {
    const victim = await personWithPassword();
    const attacker = await personWithPassword();
    const mine = (await signIn(victim.email, PASSWORD)).cookie;
    const planted = (await signIn(attacker.email, PASSWORD)).cookie;
    for (const cookie of [`${planted}; ${mine}`, `${mine}; ${planted}`]) {
      const reply = await withCookie(cookie, 'POST', '/graphql', { query: '{ me { userId } }' });
      expect({ status: reply.status, message: reply.body.errors?.[0]?.message }).toEqual({
        status: 403,
        message: expect.stringContaining('cookie was sent twice'),
      });
      expect((await withCookie(cookie, 'GET', '/api/me')).status).toBe(403);
    }
    expect((await withCookie(mine, 'GET', '/api/me')).body.user_id).toBe(victim.id);
  });

  test('on https the cookie is __Host-labdesk_session (Secure, Path=/), and a plain labdesk_session is not read', async () => {
    const https = await startTestApp({ PUBLIC_URL: 'https://labdesk.example' });
    try {
      const person = await personWithPassword(https);
      const reply = await https.call('POST', '/api/auth/login', { body: { email: person.email, password: PASSWORD } });
      const setCookie = reply.headers.get('set-cookie') ?? '';
      expect(setCookie).toMatch(/^__Host-labdesk_session=ldk_ses_[A-Za-z0-9_-]{44}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax; Secure$/);
      const value = /^__Host-labdesk_session=([^;]*)/.exec(setCookie)![1];
      expect((await https.call('GET', '/api/me', { headers: { cookie: `__Host-labdesk_session=${value}` } })).status).toBe(200);
      expect((await https.call('GET', '/api/me', { headers: { cookie: `labdesk_session=${value}` } })).status).toBe(401);
    } finally {
      await https.close();
    }
  });
});

describe('the sign-in page goes on to a path of this site only (hardening III)', () => {
  test.each([
    ['%2F%09%2Fevil.example%2Ftab', '/'],
    ['%2F%0A%2Fevil.example', '/'],
    ['%2F%0D%2Fevil.example', '/'],
    ['%2F%2Fevil.example', '/'],
    ['%2F%5Cevil.example', '/'],
    ['https%3A%2F%2Fevil.example', '/'],
    ['%2Flabs%2Flab_1%3Ftab%3Dmembers', '/labs/lab_1?tab=members'],
    ['%2Fa%22%3E%3Cscript%3E', '/a&#34;&#62;&#60;script&#62;'],
  ])('?next=%s → %s', async (next, expected) => {
    const page = await t.call('GET', `/login?next=${next}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<meta name="labdesk-next" content="${expected}">`);
  });
});

describe('CSRF: a cookie-authenticated change must come from this origin', () => {
  const EVIL = 'https://evil.example';

  test('POST, PUT, PATCH and DELETE with the cookie from another origin (or none) are 403 and change nothing', async () => {
    const person = await personWithPassword();
    const { cookie } = await signIn(person.email, PASSWORD);
    const other = await signIn(person.email, PASSWORD);
    const lab = await t.call('POST', '/api/labs', { token: (await makeUser(t, { plan_code: 'pro' })).token, body: { name: 'CSRF lab' } });
    const attempts: [string, string, unknown][] = [
      ['POST', '/api/labs', { name: 'forged lab' }],
      ['PUT', '/api/me/password', { new_password: 'forged password 123' }],
      ['PATCH', `/api/labs/${lab.body.lab_id}/members/${person.id}`, { status: 'active' }],
      ['DELETE', `/api/me/sessions/${sessionIdOf(other.cookie)}`, undefined],
    ];
    for (const [method, route, body] of attempts) {
      for (const origin of [EVIL, null]) {
        const reply = await withCookie(cookie, method, route, body, origin);
        expect({ method, origin, status: reply.status }).toEqual({ method, origin, status: 403 });
        expect(reply.body.detail).toMatch(/session cookie/);
      }
    }
    // A Referer from another origin counts as that origin.
    expect((await t.call('POST', '/api/labs', { body: { name: 'x' }, headers: { cookie, referer: `${EVIL}/page` } })).status).toBe(403);
    expect(await t.sql(`select 1 from labs where name = 'forged lab'`)).toEqual([]);
    expect((await signIn(person.email, PASSWORD)).reply.status).toBe(200); // the password did not change
    expect((await withCookie(other.cookie, 'GET', '/api/me')).status).toBe(200); // nor was the session ended
    // The same requests from this origin go through.
    expect((await withCookie(other.cookie, 'DELETE', `/api/me/sessions/${sessionIdOf(cookie)}`)).status).toBe(204);
  });

  test('a GraphQL mutation with the cookie from another origin is refused; a bearer token from anywhere is not', async () => {
    const person = await personWithPassword();
    const { cookie } = await signIn(person.email, PASSWORD);
    const mutation = { query: 'mutation { setPassword(input: { currentPassword: "x", newPassword: "forged password 123" }) }' };
    const forged = await t.call('POST', '/graphql', { body: mutation, headers: { cookie, origin: EVIL } });
    expect(forged.status).toBe(403);
    expect(forged.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const user = await makeUser(t);
    const bearer = await t.call('POST', '/api/labs', {
      token: user.token,
      body: { name: 'bearer lab' },
      headers: { origin: EVIL, cookie },
    });
    expect(bearer.status).not.toBe(403);
  });

  test('a sign-in from another origin is refused (login CSRF); one without an Origin (a script) is not', async () => {
    const person = await personWithPassword();
    expect((await signIn(person.email, PASSWORD, { origin: EVIL })).reply.status).toBe(403);
    expect((await signIn(person.email, PASSWORD)).reply.status).toBe(200);
    expect((await signIn(person.email, PASSWORD, { origin: t.url })).reply.status).toBe(200);
  });

  test('the WebSocket upgrade with the cookie from another origin is 403; from this origin the cookie signs it in', async () => {
    const person = await personWithPassword();
    const { cookie } = await signIn(person.email, PASSWORD);
    const wsUrl = `${t.url.replace('http', 'ws')}/graphql`;
    const refused = await new Promise<number>((resolve) => {
      const socket = new WebSocket(wsUrl, 'graphql-transport-ws', { headers: { cookie, origin: EVIL } });
      socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      socket.on('open', () => resolve(101));
    });
    expect(refused).toBe(403);

    class SameOriginSocket extends WebSocket {
      constructor(address: string, protocols?: string | string[]) {
        super(address, protocols, { headers: { cookie, origin: t.url } });
      }
    }
    const client = createClient({ url: wsUrl, webSocketImpl: SameOriginSocket, retryAttempts: 0 });
    try {
      const email = await new Promise<string>((resolve, reject) =>
        client.subscribe<{ me: { email: string } }>(
          { query: '{ me { email } }' },
          { next: (value) => resolve(value.data?.me.email ?? JSON.stringify(value.errors)), error: reject, complete: () => undefined },
        ),
      );
      expect(email).toBe(person.email);
    } finally {
      await client.dispose();
    }
  });
});

describe('the cookie works where a token does', () => {
  test('GraphQL over HTTP: authLogin sets the cookie; me { sessions }, revokeSession and authLogout', async () => {
    const person = await personWithPassword();
    const login = await t.call('POST', '/graphql', {
      body: {
        query: 'mutation ($i: SignInInput!) { authLogin(input: $i) { user { id email } } }',
        variables: { i: { email: person.email, password: PASSWORD } },
      },
      headers: { origin: t.url },
    });
    expect(login.body.data.authLogin.user).toEqual({ id: person.id, email: person.email });
    const cookie = /^(labdesk_session=[^;]*)/.exec(login.headers.get('set-cookie') ?? '')![1];
    const me = await withCookie(cookie, 'POST', '/graphql', { query: '{ me { email sessions { id current method } } }' });
    expect(me.body.data.me).toEqual({ email: person.email, sessions: [{ id: sessionIdOf(cookie), current: true, method: 'password' }] });
    // Another user's sessions are not listed through their node, not even to an administrator.
    const stranger = await t.call('POST', '/graphql', {
      token: t.adminToken,
      body: { query: 'query ($u: ID!) { adminUser(id: $u) { email sessions { id } } }', variables: { u: person.id } },
    });
    expect(stranger.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const out = await withCookie(cookie, 'POST', '/graphql', { query: 'mutation { authLogout }' });
    expect(out.body).toEqual({ data: { authLogout: null } });
    expect(out.headers.get('set-cookie')).toMatch(/^labdesk_session=; Path=\/; Max-Age=0/);
    expect((await withCookie(cookie, 'GET', '/api/me')).status).toBe(401);
  });

  test('GraphQL: an admin asks for a password link; a person sets a password; me { hasPassword } tells, to oneself only', async () => {
    const user = await makeUser(t);
    const hasPassword = async (token: string) =>
      (await t.call('POST', '/graphql', { token, body: { query: '{ me { hasPassword } }' } })).body.data.me.hasPassword;
    expect(await hasPassword(user.token)).toBe(false);
    const link = await t.call('POST', '/graphql', {
      token: t.adminToken,
      body: { query: 'mutation ($u: ID!) { passwordLink(userId: $u) { url expiresAt } }', variables: { u: user.id } },
    });
    expect(link.body.data.passwordLink.url).toMatch(/\/set-password#ldk_pwl_/);
    const set = await t.call('POST', '/graphql', {
      token: user.token,
      body: { query: 'mutation { setPassword(input: { newPassword: "a graphql password" }) }' },
    });
    expect(set.body).toEqual({ data: { setPassword: null } });
    expect((await signIn(user.email, 'a graphql password')).reply.status).toBe(200);
    expect(await hasPassword(user.token)).toBe(true);
    const asked = await t.call('POST', '/graphql', {
      token: t.adminToken,
      body: { query: 'query ($u: ID!) { adminUser(id: $u) { hasPassword } }', variables: { u: user.id } },
    });
    expect(asked.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  test('server-sent events and the schema download accept the cookie', async () => {
    const person = await personWithPassword();
    const { cookie } = await signIn(person.email, PASSWORD);
    // The discussion stream of a session that does not exist: 404 for a signed-in caller, 401 without.
    const signedOut = await t.call('POST', '/api/trajectories/nope/discuss/stream', {
      body: { question: 'hi' },
      headers: { origin: t.url },
    });
    expect(signedOut.status).toBe(401);
    const signedIn = await withCookie(cookie, 'POST', '/api/trajectories/nope/discuss/stream', { question: 'hi' });
    expect(signedIn.status).toBe(404);
    const sdl = await replyOf(await fetch(`${t.url}/graphql/schema.graphql`, { headers: { cookie } }));
    expect(sdl.status).toBe(200);
    expect(sdl.text).toContain('type Query');
  });
});

describe('rate limits on sign-in', () => {
  test('after 10 wrong passwords an email waits (429 with Retry-After), even with the right one', async () => {
    const person = await personWithPassword();
    for (let i = 0; i < 10; i++) expect((await signIn(person.email, `wrong password ${i}`)).reply.status).toBe(401);
    const limited = await signIn(person.email, PASSWORD);
    expect(limited.reply.status).toBe(429);
    expect(Number(limited.reply.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another email from the same address is not held up by it.
    const other = await personWithPassword();
    expect((await signIn(other.email, PASSWORD)).reply.status).toBe(200);
  });

  test('40 concurrent sign-ins for one email check at most 10 passwords (each is counted before it is checked)', async () => {
    const person = await personWithPassword();
    const replies = await Promise.all(Array.from({ length: 40 }, (_, i) => signIn(person.email, `wrong password ${i}`)));
    const statuses = replies.map(({ reply }) => reply.status);
    expect({ checked: statuses.filter((s) => s === 401).length, waiting: statuses.filter((s) => s === 429).length }).toEqual({
      checked: 10,
      waiting: 30,
    });
  });

  test('per address: RATE_LIMIT_AUTH_PER_MINUTE sign-ins a minute', async () => {
    const limited = await startTestApp({ RATE_LIMIT_AUTH_PER_MINUTE: '3' });
    try {
      const person = await personWithPassword(limited);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await signIn(person.email, PASSWORD, {}, limited)).reply.status);
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('with SMTP_URL, the link is mailed too', () => {
  test('the user gets a plain mail with the link, which works; an SMTP server that is down leaves the link in the answer', async () => {
    const smtp = await startInbox();
    const { port, mails: inbox } = smtp;
    const mailing = await startTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}`, SMTP_FROM: 'labdesk <noreply@lab.example>' });
    try {
      const user = await makeUser(mailing, { name: 'Mai Ling' });
      const issued = await mailing.call('POST', `/api/admin/users/${user.id}/password-link`, { token: mailing.adminToken });
      expect(issued.status).toBe(201);
      expect(issued.body.mailed).toBe(true);
      expect(inbox).toHaveLength(1);
      expect(inbox[0].to).toEqual([user.email]);
      expect(inbox[0].raw).toMatch(/^From: labdesk <noreply@lab\.example>/m);
      expect(inbox[0].raw).toMatch(/^Subject: Set your labdesk password/m);
      expect(inbox[0].raw).toContain('Hello Mai Ling,');
      // The link, as mailed (quoted-printable may fold it), is the one answered, and it works.
      const mailedText = inbox[0].raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      expect(mailedText).toContain(issued.body.url);
      const token = issued.body.url.split('#')[1];
      expect(
        (await mailing.call('POST', '/api/auth/password-link', { body: { token, new_password: 'mailed and set password' } })).status,
      ).toBe(200);
    } finally {
      await mailing.close();
      await smtp.close();
    }
    // Now nothing listens on that port: the link is still issued, and says it was not mailed.
    const unmailed = await startTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    try {
      const user = await makeUser(unmailed);
      const issued = await unmailed.call('POST', `/api/admin/users/${user.id}/password-link`, { token: unmailed.adminToken });
      expect(issued.status).toBe(201);
      expect(issued.body).toMatchObject({ url: expect.stringContaining('#ldk_pwl_'), mailed: false });
    } finally {
      await unmailed.close();
    }
  });

  test('SMTP_URL must be an smtp:// or smtps:// URL, and the error does not repeat it', () => {
    expect(() => loadConfig({ SMTP_URL: 'http://user:s3cret@mail.example' })).toThrow(/SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/);
    expect(() => loadConfig({ SMTP_URL: 'http://user:s3cret@mail.example' })).not.toThrow(/s3cret/);
    expect(loadConfig({ SMTP_URL: 'smtps://user:pw@mail.example:465' }).mail).toEqual({
      url: 'smtps://user:pw@mail.example:465',
      from: 'labdesk <noreply@localhost>',
    });
  });
});
