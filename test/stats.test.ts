import { makeUser, startTestApp, TestApp, useTestApp } from './support/app';

/*
 * Activity recording, admin stats and segmentation (issue 13; docs/api/admin.md). Time is injected:
 * tests set `services.clock` and never wait on the wall clock.
 */

const t = useTestApp();

/** A fixed instant far from the wall clock, so rows written by other tests' real time never fall in a window. */
const BASE = Date.parse('2031-03-15T12:00:00.000Z');
const MIN = 60_000;
const DAY = 86_400_000;

function setClock(app: TestApp, at: number) {
  app.app.services.clock.now = () => new Date(at);
}

const activityRows = (userId: string) =>
  t.sql<{ day: string; last_seen_at: Date }>(
    `select to_char(day, 'YYYY-MM-DD') as day, last_seen_at from user_activity_days where user_id = $1 order by day`,
    [userId],
  );

describe('activity recording', () => {
  afterEach(() => setClock(t, Date.now()));

  test('an authenticated request records the caller once per minute; last_active_at reads it', async () => {
    const user = await makeUser(t);
    setClock(t, BASE);
    expect((await t.call('GET', '/api/me', { token: user.token })).status).toBe(200);
    expect(await activityRows(user.id)).toEqual([{ day: '2031-03-15', last_seen_at: new Date(BASE) }]);

    // Within the minute: no write (the row still shows the first request).
    setClock(t, BASE + 30_000);
    await t.call('GET', '/api/me', { token: user.token });
    expect((await activityRows(user.id))[0].last_seen_at).toEqual(new Date(BASE));

    // A minute later: the same day's row moves forward, and the user object shows it.
    setClock(t, BASE + MIN);
    await t.call('GET', '/api/me', { token: user.token });
    expect(await activityRows(user.id)).toEqual([{ day: '2031-03-15', last_seen_at: new Date(BASE + MIN) }]);
    const shown = await t.call('GET', `/api/admin/users/${user.id}`, { token: t.adminToken });
    expect(shown.body.last_active_at).toBe(new Date(BASE + MIN).toISOString());
  });

  test('a new UTC day is a new row even within the minute', async () => {
    const user = await makeUser(t);
    const beforeMidnight = Date.parse('2031-03-15T23:59:50.000Z');
    setClock(t, beforeMidnight);
    await t.call('GET', '/api/me', { token: user.token });
    setClock(t, beforeMidnight + 20_000);
    await t.call('GET', '/api/me', { token: user.token });
    expect((await activityRows(user.id)).map((r) => r.day)).toEqual(['2031-03-15', '2031-03-16']);
  });

  test('a clock that steps back never moves last_active_at backwards', async () => {
    const user = await makeUser(t);
    setClock(t, BASE + 10 * MIN);
    await t.call('GET', '/api/me', { token: user.token });
    setClock(t, BASE + 5 * MIN);
    await t.call('GET', '/api/me', { token: user.token });
    expect((await activityRows(user.id))[0].last_seen_at).toEqual(new Date(BASE + 10 * MIN));
    const shown = await t.call('GET', `/api/admin/users/${user.id}`, { token: t.adminToken });
    expect(shown.body.last_active_at).toBe(new Date(BASE + 10 * MIN).toISOString());
  });

  test('two instances on one database record a user in one row per day', async () => {
    const second = await startTestApp({}, { sameDatabaseAs: t });
    try {
      const user = await makeUser(t);
      setClock(t, BASE + 2 * DAY);
      setClock(second, BASE + 2 * DAY + 1_000);
      await Promise.all([t.call('GET', '/api/me', { token: user.token }), second.call('GET', '/api/me', { token: user.token })]);
      // Each instance wrote (its own rate limiter), the database kept one row with the later time.
      expect(await activityRows(user.id)).toEqual([{ day: '2031-03-17', last_seen_at: new Date(BASE + 2 * DAY + 1_000) }]);
    } finally {
      await second.close();
    }
  });

  test('anonymous and refused requests record nothing', async () => {
    const user = await makeUser(t);
    setClock(t, BASE);
    await t.call('GET', '/api/me', { token: `${user.token}x` });
    await t.call('GET', '/api/me');
    expect(await activityRows(user.id)).toEqual([]);
  });
});

describe('GET /api/admin/stats', () => {
  /** Every test here measures at its own instant, days away from the others. */
  const AT = Date.parse('2033-06-20T10:00:00.000Z');
  afterEach(() => setClock(t, Date.now()));

  const stats = async (at: number) => {
    setClock(t, at);
    const reply = await t.call('GET', '/api/admin/stats', { token: t.adminToken });
    expect(reply.status).toBe(200);
    return reply.body;
  };
  const activeAt = async (app: TestApp, token: string, at: number) => {
    setClock(app, at);
    expect((await app.call('GET', '/api/me', { token })).status).toBe(200);
  };
  const ledger = (userId: string, at: number, tokensIn: number, tokensOut: number) =>
    t.sql(`insert into usage_entries (user_id, source, tokens_in, tokens_out, created_at) values ($1, 'model_call', $2, $3, $4)`, [
      userId,
      tokensIn,
      tokensOut,
      new Date(at),
    ]);

  test('admin only: anonymous 401, a user 403', async () => {
    const user = await makeUser(t);
    expect((await t.call('GET', '/api/admin/stats')).status).toBe(401);
    const refused = await t.call('GET', '/api/admin/stats', { token: user.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: expect.any(String) });
  });

  test('the documented shape (docs/api/admin.md)', async () => {
    const body = await stats(AT);
    expect(Object.keys(body).sort()).toEqual(['dau', 'generated_at', 'llm', 'mau', 'online_users', 'plans', 'registrations', 'wau']);
    expect(Object.keys(body.llm).sort()).toEqual(['last_1h', 'last_5m']);
    expect(Object.keys(body.llm.last_5m).sort()).toEqual(['calls', 'tokens_in', 'tokens_out', 'users']);
    expect(Object.keys(body.registrations).sort()).toEqual(['today', 'total']);
    expect(body.plans.map((p: { plan_code: string }) => p.plan_code)).toEqual(['free', 'pro', 'lab', 'enterprise']);
    expect(body.generated_at).toBe(new Date(AT).toISOString());
  });

  test('LLM windows and online users: 4 minutes ago counts in 5 m, 6 minutes ago only in 1 h', async () => {
    const at = AT + 2 * DAY;
    const [a, b, c] = [await makeUser(t), await makeUser(t), await makeUser(t)];
    await ledger(a.id, at - 4 * MIN, 100, 10);
    await ledger(a.id, at - 4 * MIN + 1_000, 1, 1);
    await ledger(b.id, at - 6 * MIN, 1000, 200);
    await ledger(c.id, at - 61 * MIN, 5, 5); // past the hour
    await ledger(c.id, at + MIN, 7, 7); // after `now`
    await activeAt(t, a.token, at - 4 * MIN);
    await activeAt(t, b.token, at - 6 * MIN);
    const body = await stats(at);
    expect(body.llm).toEqual({
      last_5m: { calls: 2, tokens_in: 101, tokens_out: 11, users: 1 },
      last_1h: { calls: 3, tokens_in: 1101, tokens_out: 211, users: 2 },
    });
    // a (4 minutes ago) and the admin asking now; not b (6 minutes ago).
    expect(body.online_users).toBe(2);
  });

  test('DAU/WAU/MAU over UTC days, a user active on two instances counted once, MAU per plan', async () => {
    const at = AT + 100 * DAY; // 10:00 UTC, more than 30 days after the other tests here
    const today = Math.floor(at / DAY) * DAY;
    const second = await startTestApp({}, { sameDatabaseAs: t });
    try {
      const [a, b, c, d, e, f] = await Promise.all(Array.from({ length: 6 }, () => makeUser(t)));
      expect((await t.call('PATCH', `/api/admin/users/${a.id}`, { token: t.adminToken, body: { plan_code: 'pro' } })).status).toBe(200);
      await activeAt(t, a.token, today); // 00:00 UTC today
      await activeAt(second, a.token, today + 5 * MIN); // same user on another instance
      await activeAt(t, b.token, today - 1); // 23:59:59.999 yesterday: WAU, not DAU
      await activeAt(t, c.token, today - 6 * DAY); // first day of the week
      await activeAt(t, d.token, today - 7 * DAY); // MAU only
      await activeAt(t, e.token, today - 29 * DAY); // first day of the month
      await activeAt(t, f.token, today - 30 * DAY); // outside every window
      const body = await stats(at);
      // + the admin, active now.
      expect({ dau: body.dau, wau: body.wau, mau: body.mau }).toEqual({ dau: 2, wau: 4, mau: 6 });
      expect(body.plans).toEqual([
        { plan_code: 'free', active_users: 4 },
        { plan_code: 'pro', active_users: 1 },
        { plan_code: 'lab', active_users: 0 },
        { plan_code: 'enterprise', active_users: 1 },
      ]);
    } finally {
      await second.close();
    }
  });

  test('registrations: the total, and today from 00:00 UTC', async () => {
    const at = AT + 200 * DAY;
    const today = Math.floor(at / DAY) * DAY;
    const [a, b] = [await makeUser(t), await makeUser(t)];
    await t.sql('update users set created_at = $2 where id = $1', [a.id, new Date(today)]);
    await t.sql('update users set created_at = $2 where id = $1', [b.id, new Date(today - 1)]);
    const [{ total }] = await t.sql<{ total: number }>('select count(*)::int as total from users');
    expect((await stats(at)).registrations).toEqual({ total, today: 1 });
  });

  test('GraphQL adminStats answers the same figures; a user gets 403 before validation', async () => {
    const user = await makeUser(t);
    setClock(t, AT);
    const query = '{ adminStats { onlineUsers dau llm { last1h { calls } } generatedAt } }';
    const asAdmin = await t.call('POST', '/graphql', { token: t.adminToken, body: { query } });
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body.data.adminStats.generatedAt).toBe(new Date(AT).toISOString());
    const asUser = await t.call('POST', '/graphql', { token: user.token, body: { query: '{ adminStats { noSuchField } }' } });
    expect(asUser.status).toBe(403);
  });
});

describe('GET /api/admin/segmentation', () => {
  afterEach(() => setClock(t, Date.now()));
  let serial = 0;

  /** A user of `domain` created by the admin, then given a plan (PATCH, as an admin would). */
  async function member(domain: string, fields: { email?: string; institution?: string; plan?: Record<string, unknown> } = {}) {
    const email = fields.email ?? `seg${++serial}x${Math.random().toString(36).slice(2, 8)}@example.org`;
    const created = await t.call('POST', '/api/admin/users', {
      token: t.adminToken,
      body: { email, name: 'Seg', domain, institution: fields.institution },
    });
    expect(created.status).toBe(201);
    if (fields.plan)
      expect((await t.call('PATCH', `/api/admin/users/${created.body.user_id}`, { token: t.adminToken, body: fields.plan })).status).toBe(
        200,
      );
    return created.body;
  }
  const segmentation = (query: Record<string, string | number>) => t.call('GET', '/api/admin/segmentation', { token: t.adminToken, query });

  test('admin only; limit 1-200 (0 and 201 are 422); the documented shape for the default domain', async () => {
    const user = await makeUser(t);
    expect((await t.call('GET', '/api/admin/segmentation')).status).toBe(401);
    expect((await t.call('GET', '/api/admin/segmentation', { token: user.token })).status).toBe(403);
    for (const limit of [0, 201]) {
      const refused = await segmentation({ limit });
      expect(refused.status).toBe(422);
      expect(refused.body.detail).toEqual([expect.objectContaining({ loc: ['query', 'limit'] })]);
    }
    expect((await segmentation({ domain: 'x'.repeat(101) })).status).toBe(422);
    const reply = await segmentation({});
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).sort()).toEqual([
      'by_institution',
      'by_tier',
      'by_type',
      'domain',
      'granted',
      'paid',
      'unresolved',
      'users',
    ]);
    expect(reply.body.domain).toBe('omics');
    expect(reply.body.users).toBeGreaterThan(0);
    expect((await segmentation({ limit: 200 })).status).toBe(200);
  });

  test('paid counts unexpired paid plans only; promo, trial and admin grants are granted, never paid; unknown institutions are unresolved', async () => {
    const domain = 'seg-counting';
    const now = Date.parse('2034-01-10T00:00:00.000Z');
    setClock(t, now);
    await member(domain, { institution: 'MIT', plan: { plan_code: 'pro', plan_source: 'paid' } });
    await member(domain, {
      email: `p${Date.now()}@mit.edu`,
      plan: { plan_code: 'lab', plan_source: 'paid', plan_expires_at: '2034-02-01T00:00:00Z' },
    });
    await member(domain, { institution: 'Univ. of Oxford', plan: { plan_code: 'pro', plan_source: 'promo' } });
    await member(domain, { institution: 'the university of oxford', plan: { plan_code: 'enterprise', plan_source: 'admin' } });
    await member(domain, { email: `t${Date.now()}@bio.stanford.edu`, plan: { plan_code: 'pro', plan_source: 'trial' } });
    await member(domain, {
      institution: 'Universität Zürich',
      plan: { plan_code: 'pro', plan_source: 'paid', plan_expires_at: '2034-01-09T00:00:00Z' },
    }); // expired
    await member(domain, { institution: 'UNIVERSITAT ZURICH', plan: { plan_code: 'pro', plan_source: 'paid', disabled: true } }); // disabled
    await member(domain, { institution: 'Acme Bio Labs', plan: { plan_code: 'pro', plan_source: 'paid' } });
    await member(domain, { institution: ' acme bio labs ' });
    await member(domain, { institution: 'Zeta Institute' });
    await member('seg-elsewhere', { institution: 'Elsewhere Unknown', plan: { plan_code: 'pro', plan_source: 'paid' } });

    const reply = await segmentation({ domain });
    expect(reply.status).toBe(200);
    const body = reply.body;
    expect({ users: body.users, paid: body.paid, granted: body.granted }).toEqual({ users: 10, paid: 3, granted: 3 });
    expect(body.by_tier).toEqual([
      { tier: 'r1', users: 7, paid: 2, granted: 3 },
      { tier: 'unresolved', users: 3, paid: 1, granted: 0 },
    ]);
    expect(body.by_type).toEqual([
      { type: 'university', users: 7, paid: 2, granted: 3 },
      { type: 'unresolved', users: 3, paid: 1, granted: 0 },
    ]);
    expect(body.by_institution).toEqual([
      { name: 'Massachusetts Institute of Technology', users: 2, paid: 2, granted: 0 },
      { name: 'University of Oxford', users: 2, paid: 0, granted: 2 },
      { name: 'University of Zurich', users: 2, paid: 0, granted: 0 },
      { name: 'Stanford University', users: 1, paid: 0, granted: 1 },
    ]);
    expect(body.unresolved).toEqual([
      { institution: 'Acme Bio Labs', users: 2 },
      { institution: 'Zeta Institute', users: 1 },
    ]);

    const limited = await segmentation({ domain, limit: 1 });
    expect(limited.body.by_institution).toEqual([body.by_institution[0]]);
    expect(limited.body.unresolved).toEqual([body.unresolved[0]]);
  });

  test('GraphQL adminSegmentation: the same figures; a user is refused before validation', async () => {
    const user = await makeUser(t);
    setClock(t, Date.parse('2034-01-10T00:00:00.000Z')); // as above: one paid plan has expired by then
    const query = '{ adminSegmentation(domain: "seg-counting", limit: 5) { users paid granted unresolved { institution users } } }';
    const asAdmin = await t.call('POST', '/graphql', { token: t.adminToken, body: { query } });
    expect(asAdmin.body.data.adminSegmentation).toMatchObject({ users: 10, paid: 3, granted: 3 });
    expect((await t.call('POST', '/graphql', { token: user.token, body: { query: '{ adminSegmentation { nope } }' } })).status).toBe(403);
    const zero = await t.call('POST', '/graphql', { token: t.adminToken, body: { query: '{ adminSegmentation(limit: 0) { users } }' } });
    expect(zero.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
  });
});
