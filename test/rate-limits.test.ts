import { randomBytes } from 'node:crypto';
import { loadConfig } from '../src/config';
import { makeUser, startTestApp, TestApp, TestUser } from './support/app';
import { createTestDatabase } from './support/databases';

/**
 * The general request limits and CORS (docs/operations.md, "Rate limits and CORS"): per token and
 * per address, shared by instances through Redis, stricter on sign-in and code endpoints, 429 with
 * Retry-After and RateLimit headers in each path's error shape; no cross-origin access by default.
 */
const REDIS_URL = process.env.REDIS_URL;
/** A client address no other test run sends, so counters left in Redis by an earlier run cannot count. */
const freshAddress = () => `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0] % 250)}`;

async function statuses(t: TestApp, count: number, request: (i: number) => Promise<{ status: number }>, parallel = 50) {
  const seen: number[] = [];
  for (let start = 0; start < count; start += parallel) {
    const batch = await Promise.all(Array.from({ length: Math.min(parallel, count - start) }, (_, i) => request(start + i)));
    seen.push(...batch.map((reply) => reply.status));
  }
  return {
    ok: seen.filter((s) => s === 200).length,
    limited: seen.filter((s) => s === 429).length,
    other: seen.filter((s) => s !== 200 && s !== 429),
  };
}

(REDIS_URL ? describe : describe.skip)('two instances on Redis', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let one: TestApp;
  let two: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  const env = {
    REDIS_URL: REDIS_URL!,
    TRUST_PROXY: 'true',
    RATE_LIMIT_TOKEN_PER_MINUTE: '50',
    RATE_LIMIT_ADDRESS_PER_MINUTE: '0',
    RATE_LIMIT_AUTH_PER_MINUTE: '5',
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    const shared = {
      databaseUrl: database.url,
      adminToken: `ldk_pat_testadmin${process.pid}xratelimitsxxxxxxxxxxxxxxxxxxxxxxxxxx`,
    } as TestApp;
    one = await startTestApp(env, { sameDatabaseAs: shared });
    two = await startTestApp(env, { sameDatabaseAs: shared });
    [alice, bob] = await Promise.all([makeUser(one), makeUser(one)]);
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await database?.drop();
  });

  test("one token's limit is counted over both instances: 60 requests, 30 to each, 50 served and 10 refused", async () => {
    const result = await statuses(one, 60, (i) => (i % 2 ? one : two).call('GET', '/api/me', { token: alice.token }), 10);
    expect(result).toEqual({ ok: 50, limited: 10, other: [] });
    const refused = await two.call('GET', '/api/me', { token: alice.token });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      detail: expect.stringMatching(/^too many requests from this token \(50 a minute\); try again in \d+ s$/),
    });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('ratelimit-limit')).toBe('50');
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('ratelimit-policy')).toBe('50;w=60');
    // Another token is its own count.
    const other = await one.call('GET', '/api/me', { token: bob.token });
    expect(other.status).toBe(200);
    expect(other.headers.get('ratelimit-remaining')).toBe('49');
  });

  test('refused in the shape of the path: GraphQL errors with RATE_LIMITED; nothing runs', async () => {
    const carol = await makeUser(one);
    for (let i = 0; i < 50; i++) expect((await one.call('GET', '/api/me', { token: carol.token })).status).toBe(200);
    const graphql = await two.call('POST', '/graphql', {
      token: carol.token,
      body: { query: 'mutation { labCreate(input: {name: "Never"}) { id } }' },
    });
    expect(graphql.status).toBe(429);
    expect(graphql.body.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED' });
    expect(await one.sql(`select count(*)::int as n from labs where name = 'Never'`)).toEqual([{ n: 0 }]);
  });

  test('sign-in endpoints are stricter, per address: the 6th CLI login start in a minute from one address is refused', async () => {
    const address = freshAddress();
    const start = (t: TestApp) =>
      t.call('POST', '/api/auth/cli/start', { headers: { 'x-forwarded-for': `203.0.113.9, ${address}` }, body: {} });
    const result = await statuses(one, 6, (i) => start(i % 2 ? one : two), 1);
    expect(result).toEqual({ ok: 5, limited: 1, other: [] });
    // The first hop is the client's to invent; the proxy's (the last) decides.
    expect((await start(one)).status).toBe(429);
    expect(
      (await one.call('POST', '/api/auth/cli/start', { headers: { 'x-forwarded-for': `${address}, ${freshAddress()}` }, body: {} })).status,
    ).toBe(200);
  });
});

describe('defaults, in memory (no REDIS_URL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      REDIS_URL: '',
      RATE_LIMIT_TOKEN_PER_MINUTE: '1200',
      RATE_LIMIT_ADDRESS_PER_MINUTE: '2400',
      RATE_LIMIT_AUTH_PER_MINUTE: '30',
    });
  });
  afterAll(async () => t?.close());

  test("one token's 2,000 requests in a few seconds meet the default limit: 1,200 served, 800 refused", async () => {
    const user = await makeUser(t);
    const result = await statuses(t, 2000, () => t.call('GET', '/api/me', { token: user.token }));
    expect(result).toEqual({ ok: 1200, limited: 800, other: [] });
  }, 60_000);

  test('probes are never limited', async () => {
    expect((await t.call('GET', '/healthz')).headers.get('ratelimit-limit')).toBeNull();
  });

  test('CORS: no cross-origin access by default, preflight or request', async () => {
    const preflight = await fetch(`${t.url}/api/me`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://tools.example.org',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const request = await fetch(`${t.url}/healthz`, { headers: { origin: 'https://tools.example.org' } });
    expect(request.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('CORS with an allowed origin', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ CORS_ALLOWED_ORIGINS: 'https://tools.example.org, http://localhost:5173' });
  });
  afterAll(async () => t?.close());

  test('that origin may call with a bearer token; any other gets no CORS headers', async () => {
    const preflight = await fetch(`${t.url}/api/me`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://tools.example.org',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://tools.example.org');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
    const me = await fetch(`${t.url}/api/me`, { headers: { origin: 'http://localhost:5173', authorization: `Bearer ${t.adminToken}` } });
    expect(me.status).toBe(200);
    expect(me.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(me.headers.get('vary')).toMatch(/Origin/);
    const stranger = await fetch(`${t.url}/api/me`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example.com', 'access-control-request-method': 'GET' },
    });
    expect(stranger.headers.get('access-control-allow-origin')).toBeNull();
  });

  test('a setting that is not a list of origins stops the start, naming the value', () => {
    expect(() => loadConfig({ CORS_ALLOWED_ORIGINS: 'https://tools.example.org/' })).toThrow(
      'CORS_ALLOWED_ORIGINS: "https://tools.example.org/" is not an origin',
    );
    expect(() => loadConfig({ CORS_ALLOWED_ORIGINS: '*' })).toThrow('is not an origin');
  });
});
