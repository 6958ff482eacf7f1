import { makeUser, startTestApp, TestApp, useTestApp } from './support/app';

/*
 * Activity recording, admin stats and segmentation (issue 13, contracts §8). Time is injected:
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
  t.sql<{ day: string; last_seen_at: Date }>(`select to_char(day, 'YYYY-MM-DD') as day, last_seen_at from user_activity_days where user_id = $1 order by day`, [userId]);

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
