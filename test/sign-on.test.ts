import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../src/config';
import { SIGN_ON_REFUSALS } from '../src/modules/auth/oidc.service';
import { localPath } from '../src/web';
import { startTestApp, type TestApp } from './support/app';
import { freePort, signInAtProvider, signOnSettings, startProvider, type TestProvider } from './support/oidc';

/**
 * Single sign-on (issue 24, point 5) against a real OpenID provider (`oidc-provider` in its own
 * process, test/support/oidc-provider.mjs): the authorization code flow with PKCE, state and
 * nonce, through real HTTP on loopback. Two instances on one database: one open to new accounts
 * from example.test, one closed to them.
 */

let provider: TestProvider;
let open: TestApp;
let closed: TestApp;

beforeAll(async () => {
  const [openPort, closedPort] = [await freePort(), await freePort()];
  provider = await startProvider([openPort, closedPort].map((port) => `http://127.0.0.1:${port}/auth/oidc/callback`));
  open = await startTestApp({
    PORT: String(openPort),
    ...signOnSettings(provider, { OIDC_ALLOW_SIGNUP: 'true', OIDC_ALLOWED_DOMAINS: 'example.test, Lab.example.org' }),
  });
  closed = await startTestApp({ PORT: String(closedPort), ...signOnSettings(provider) }, { sameDatabaseAs: open });
}, 60_000);

afterAll(async () => {
  await closed?.close();
  await open?.close();
  await provider?.close();
});

/** A GET to the service that does not follow redirects. */
const visit = (app: TestApp, route: string, cookie?: string) =>
  fetch(new URL(route, app.url), { redirect: 'manual', headers: cookie ? { cookie } : {} });

const cookiePair = (response: Response, name: string) =>
  response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .find((pair) => pair.startsWith(`${name}=`));

/** Starts a sign-on at the service: the provider's URL and the pending sign-on's cookie. */
async function startSignOn(app: TestApp, next?: string) {
  const response = await visit(app, `/auth/oidc/login${next ? `?next=${encodeURIComponent(next)}` : ''}`);
  expect(response.status).toBe(302);
  return { authorizationUrl: response.headers.get('location')!, pending: cookiePair(response, 'labdesk_oidc')!, response };
}

/** A whole sign-on as `login`: the callback's answer, the session cookie it set (if any), and where it sends the browser. */
async function signOnAs(app: TestApp, login: string, next?: string) {
  const { authorizationUrl, pending } = await startSignOn(app, next);
  const callbackUrl = await signInAtProvider(authorizationUrl, `${app.url}/auth/oidc/callback`, login);
  const answer = await visit(app, callbackUrl, pending);
  return { answer, location: answer.headers.get('location'), session: cookiePair(answer, 'labdesk_session'), callbackUrl, pending };
}

const unique = (name: string) => `${name}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const usersWithEmail = async (email: string) => (await open.sql(`select count(*)::int as n from users where email = $1`, [email]))[0].n;

describe('signing on', () => {
  test('the way out: authorization code with PKCE (S256), state and nonce, the pending sign-on in a sealed HttpOnly cookie', async () => {
    const { authorizationUrl, response } = await startSignOn(open, '/device');
    const url = new URL(authorizationUrl);
    expect(url.origin).toBe(provider.issuer);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: 'labdesk',
      response_type: 'code',
      redirect_uri: `${open.url}/auth/oidc/callback`,
      scope: 'openid email profile',
      code_challenge_method: 'S256',
    });
    for (const name of ['state', 'nonce', 'code_challenge']) expect(url.searchParams.get(name)).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    const [cookie] = response.headers.getSetCookie();
    expect(cookie).toMatch(/^labdesk_oidc=[A-Za-z0-9_.-]+; Path=\/auth\/oidc; Max-Age=600; HttpOnly; SameSite=Lax$/);
    // Sealed: neither the verifier nor the state can be read from it.
    expect(cookie).not.toContain(url.searchParams.get('state'));
    expect(cookie).not.toContain('/device');
  });

  test('a first sign-on makes the account (sign-up open, domain allowed), and the cookie is a session like any other', async () => {
    const login = unique('ada');
    const { answer, location, session } = await signOnAs(open, login, '/device');
    expect(answer.status).toBe(302);
    expect(location).toBe('/device');
    expect(answer.headers.getSetCookie().join('\n')).toMatch(/labdesk_oidc=; Path=\/auth\/oidc; Max-Age=0/);
    expect(session).toMatch(/^labdesk_session=ldk_ses_/);
    const me = await open.call('GET', '/api/me', { headers: { cookie: session! } });
    expect(me).toMatchObject({ status: 200, body: { email: `${login}@example.test`, name: `Person ${login}` } });
    const sessions = await open.call('GET', '/api/me/sessions', { headers: { cookie: session! } });
    expect(sessions.body.items).toEqual(expect.arrayContaining([expect.objectContaining({ method: 'oidc', current: true })]));
    const [identity] = await open.sql(`select issuer, subject, user_id, email from oidc_identities where subject = $1`, [login]);
    expect(identity).toEqual({ issuer: provider.issuer, subject: login, user_id: me.body.user_id, email: `${login}@example.test` });

    // The next sign-on finds the same person by the provider's subject; on to / by default.
    const again = await signOnAs(open, login);
    expect(again.location).toBe('/');
    expect((await open.call('GET', '/api/me', { headers: { cookie: again.session! } })).body.user_id).toBe(me.body.user_id);
    expect(again.session).not.toBe(session); // a new session each time
    expect(await usersWithEmail(`${login}@example.test`)).toBe(1);
  });

  test('an account an administrator made is found by its verified email and linked, also where sign-up is closed', async () => {
    const email = `${unique('grace')}@elsewhere.org`;
    const created = await open.call('POST', '/api/admin/users', { token: open.adminToken, body: { email, name: 'Grace Hopper' } });
    expect(created.status).toBe(201);
    const { location, session } = await signOnAs(closed, email);
    expect(location).toBe('/');
    const me = await closed.call('GET', '/api/me', { headers: { cookie: session! } });
    expect(me.body).toMatchObject({ user_id: created.body.user_id, name: 'Grace Hopper' });
    expect(await usersWithEmail(email)).toBe(1);
  });

  test('an email the provider has not verified makes no account and matches none', async () => {
    const login = unique('unverified.dave');
    const email = `${login}@example.test`;
    const first = await signOnAs(open, login);
    expect(first).toMatchObject({ location: '/login?sso=unverified_email', session: undefined });
    expect(await usersWithEmail(email)).toBe(0);
    // Nor does it take over an account that has that email.
    await open.call('POST', '/api/admin/users', { token: open.adminToken, body: { email, name: 'Dave' } });
    expect((await signOnAs(open, login)).location).toBe('/login?sso=unverified_email');
    expect((await open.sql(`select count(*)::int as n from oidc_identities where subject = $1`, [login]))[0].n).toBe(0);
  });

  test('new accounts only from the allowed domains, and only where sign-up is open', async () => {
    const outsider = `${unique('erin')}@elsewhere.org`;
    expect(await signOnAs(open, outsider)).toMatchObject({ location: '/login?sso=domain', session: undefined });
    expect(await usersWithEmail(outsider)).toBe(0);
    // The list is matched whatever the case it was written in.
    const labMember = `${unique('lab')}@lab.example.org`;
    expect((await signOnAs(open, labMember)).location).toBe('/');

    const newcomer = unique('newcomer');
    expect(await signOnAs(closed, newcomer)).toMatchObject({ location: '/login?sso=no_account', session: undefined });
    expect(await usersWithEmail(`${newcomer}@example.test`)).toBe(0);
  });

  test("a suspended user's sign-on is refused; an account linked to another subject is not taken over by email", async () => {
    const login = unique('frank');
    const first = await signOnAs(open, login);
    const me = await open.call('GET', '/api/me', { headers: { cookie: first.session! } });
    // Another person at the provider with Frank's email gets nothing.
    const impostor = await signOnAs(open, `other=${login}@example.test`);
    expect(impostor).toMatchObject({ location: '/login?sso=linked_elsewhere', session: undefined });

    await open.call('PATCH', `/api/admin/users/${me.body.user_id}`, { token: open.adminToken, body: { disabled: true } });
    expect(await signOnAs(open, login)).toMatchObject({ location: '/login?sso=suspended', session: undefined });
    expect((await open.call('GET', '/api/me', { headers: { cookie: first.session! } })).status).toBe(401);
  });
});

describe("an attacker's tries", () => {
  test('cookie tossing: a callback carrying two sign-on cookies (one planted by another page of the host) is refused, whichever comes first', async () => {
    const login = unique('toss');
    const attackers = await startSignOn(open);
    const callbackUrl = await signInAtProvider(attackers.authorizationUrl, `${open.url}/auth/oidc/callback`, login);
    const victims = await startSignOn(open);
    for (const cookie of [`${attackers.pending}; ${victims.pending}`, `${victims.pending}; ${attackers.pending}`]) {
      const answer = await visit(open, callbackUrl, cookie);
      expect(answer.status).toBe(403);
      expect(cookiePair(answer, 'labdesk_session')).toBeUndefined();
    }
    expect(await usersWithEmail(`${login}@example.test`)).toBe(0);
  });

  test("a callback with another sign-on's state, or none, is refused before the code is redeemed", async () => {
    const login = unique('gina');
    const victim = await startSignOn(open);
    const callbackUrl = await signInAtProvider(victim.authorizationUrl, `${open.url}/auth/oidc/callback`, login);
    const attackers = await startSignOn(open);
    for (const cookie of [attackers.pending, undefined, 'labdesk_oidc=forged.value.here']) {
      const answer = await visit(open, callbackUrl, cookie);
      expect(answer.headers.get('location')).toBe('/login?sso=state');
      expect(cookiePair(answer, 'labdesk_session')).toBeUndefined();
    }
    const state = new URL(callbackUrl).searchParams.get('state')!;
    const edited = callbackUrl.replace(`state=${state}`, `state=${state.slice(0, -2)}xx`);
    expect((await visit(open, edited, victim.pending)).headers.get('location')).toBe('/login?sso=state');
    expect(await usersWithEmail(`${login}@example.test`)).toBe(0);
    // The refusals never reached the provider: the code still works for the browser that asked for it.
    const answer = await visit(open, callbackUrl, victim.pending);
    expect(answer.headers.get('location')).toBe('/');
  });

  test('a sign-on left at the provider longer than 10 minutes is refused on return', async () => {
    const { authorizationUrl, pending } = await startSignOn(open);
    const callbackUrl = await signInAtProvider(authorizationUrl, `${open.url}/auth/oidc/callback`, unique('kim'));
    const { clock } = open.app.services;
    clock.now = () => new Date(Date.now() + 601_000);
    try {
      expect((await visit(open, callbackUrl, pending)).headers.get('location')).toBe('/login?sso=state');
    } finally {
      clock.now = () => new Date();
    }
  });

  test('a replayed code is refused by the provider, and no session comes of it', async () => {
    const { callbackUrl, pending, session } = await signOnAs(open, unique('hal'));
    expect(session).toBeDefined();
    const replay = await visit(open, callbackUrl, pending);
    expect(replay.headers.get('location')).toBe('/login?sso=failed');
    expect(cookiePair(replay, 'labdesk_session')).toBeUndefined();
  });

  test('the provider saying no (access_denied) is shown as such', async () => {
    const { pending, authorizationUrl } = await startSignOn(open);
    const state = new URL(authorizationUrl).searchParams.get('state');
    const answer = await visit(open, `/auth/oidc/callback?error=access_denied&state=${state}`, pending);
    expect(answer.headers.get('location')).toBe('/login?sso=denied');
  });

  test('next is a path of this site only', async () => {
    for (const next of ['//evil.example/x', '/\\evil.example', 'https://evil.example/', 'javascript:alert(1)', '/a\nb'])
      expect(localPath(next)).toBe('/');
    expect(localPath('/labs/lab_1?tab=members')).toBe('/labs/lab_1?tab=members');
    const { location } = await signOnAs(open, unique('ivy'), '//evil.example/');
    expect(location).toBe('/');
  });

  test('the sign-on routes answer GET only', async () => {
    const reply = await open.call('POST', '/auth/oidc/login', { headers: { origin: open.url } });
    expect(reply.status).toBe(405);
  });
});

describe('configuration and the sign-in page', () => {
  test('with single sign-on the sign-in page shows "Sign in with SSO"; without, it is hidden and the routes are not there', async () => {
    const withSso = await (await visit(open, '/login')).text();
    expect(withSso).toContain('<a id="sso-link" class="button" href="/auth/oidc/login">Sign in with SSO</a>');
    const plain = await startTestApp({}, { sameDatabaseAs: open });
    try {
      expect(await (await visit(plain, '/login')).text()).toContain('href="/auth/oidc/login" hidden>');
      expect((await visit(plain, '/auth/oidc/login')).status).toBe(404);
    } finally {
      await plain.close();
    }
  });

  test('a provider that cannot be reached sends the person back to /login with the reason, and is tried again', async () => {
    const port = await freePort();
    const down = await startTestApp(
      { OIDC_ISSUER: `http://127.0.0.1:${port}`, OIDC_CLIENT_ID: 'labdesk', OIDC_CLIENT_SECRET: 'x' },
      { sameDatabaseAs: open },
    );
    try {
      for (let i = 0; i < 2; i++) expect((await visit(down, '/auth/oidc/login')).headers.get('location')).toBe('/login?sso=unavailable');
    } finally {
      await down.close();
    }
  });

  test('settings: all three or none, https but on loopback, domains checked; the secret is never echoed', () => {
    const base = { DATA_DIR: '/tmp/labdesk-oidc-config' };
    expect(() => loadConfig({ ...base, OIDC_ISSUER: 'https://id.example.org' })).toThrow(
      /OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET; OIDC_CLIENT_ID, OIDC_CLIENT_SECRET missing/,
    );
    const full = { ...base, OIDC_CLIENT_ID: 'c', OIDC_CLIENT_SECRET: 'very-secret-value' };
    expect(() => loadConfig({ ...full, OIDC_ISSUER: 'http://id.example.org' })).toThrow(/OIDC_ISSUER must be an https URL/);
    expect(() => loadConfig({ ...full, OIDC_ISSUER: 'https://id.example.org', OIDC_ALLOWED_DOMAINS: 'example.org, not a domain' })).toThrow(
      /"not a domain" is not a domain/,
    );
    const longSecret = 'S3cr3t'.repeat(400);
    expect(() => loadConfig({ ...full, OIDC_ISSUER: 'https://id.example.org', OIDC_CLIENT_SECRET: longSecret })).toThrow(
      /OIDC_CLIENT_SECRET.*too long/,
    );
    expect(() => loadConfig({ ...full, OIDC_ISSUER: 'https://id.example.org', OIDC_CLIENT_SECRET: longSecret })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('S3cr3t') }),
    );
    expect(loadConfig({ ...full, OIDC_ISSUER: 'http://localhost:8080/realms/lab' }).oidc).toEqual({
      issuer: 'http://localhost:8080/realms/lab',
      clientId: 'c',
      clientSecret: 'very-secret-value',
      allowSignup: false,
      allowedDomains: [],
    });
  });

  test('the sign-in page has words for every reason a sign-on comes back', () => {
    const script = fs.readFileSync(path.resolve(__dirname, '..', 'web', 'login.js'), 'utf8');
    for (const reason of SIGN_ON_REFUSALS) expect(script).toMatch(new RegExp(`\\b${reason}: '`));
  });
});
