import { CredentialCache } from '../src/modules/auth/credential-cache';
import type { StoredToken } from '../src/modules/auth/token.repository';
import { makeLab, makeUser, startTestApp, TestApp, TestUser, addMember } from './support/app';
import { until } from './support/until';

/**
 * The credential cache (docs/api/authentication.md "Credential cache"): two instances on one
 * database, each keeping the tokens it checked; a change made through either, or by SQL from
 * outside, reaches the other within a second (the database's notice), and the writer's own next
 * request at once.
 */
let one: TestApp;
let two: TestApp;
beforeAll(async () => {
  one = await startTestApp();
  two = await startTestApp({}, { sameDatabaseAs: one });
});
afterAll(async () => {
  await two?.close();
  await one?.close();
});

const me = (app: TestApp, user: TestUser) => app.call('GET', '/api/me', { token: user.token });
/** `user`'s token answered from `app`'s memory: it was kept there. */
const kept = (app: TestApp, user: TestUser) => app.app.services.credentials.has(`tok_${user.token.slice(8, 20)}`);
/** Waits (at most a second) until `app` answers `user`'s /api/me as `check` wants. */
const withinASecond = (what: string, app: TestApp, user: TestUser, check: (reply: Awaited<ReturnType<typeof me>>) => boolean) =>
  until(what, async () => check(await me(app, user)), { seconds: 1, intervalMs: 10 });

async function servedFromMemoryOnBoth(user: TestUser) {
  for (const app of [one, two]) {
    await until('the instance to listen for notices', async () => {
      expect((await me(app, user)).status).toBe(200);
      return kept(app, user);
    });
  }
}

test('a token revoked on one instance is refused by the other within a second, and by the first at once', async () => {
  const user = await makeUser(one);
  await servedFromMemoryOnBoth(user);
  const tokenId = `tok_${user.token.slice(8, 20)}`;
  expect((await one.call('DELETE', `/api/admin/users/${user.id}/tokens/${tokenId}`, { token: one.adminToken })).status).toBe(204);
  expect((await me(one, user)).status).toBe(401);
  await withinASecond('instance two to refuse the revoked token', two, user, (reply) => reply.status === 401);
});

test('disabling a user, changing their name by SQL, and a membership reach the other instance within a second', async () => {
  const user = await makeUser(one);
  await servedFromMemoryOnBoth(user);
  // A write from outside the service (psql, a script): the database announces it all the same.
  await one.sql(`update users set name = 'Renamed Outside' where id = $1`, [user.id]);
  await withinASecond('instance two to show the new name', two, user, (reply) => reply.body.name === 'Renamed Outside');
  await withinASecond('instance one to show the new name', one, user, (reply) => reply.body.name === 'Renamed Outside');

  const lab = await makeLab(two);
  await servedFromMemoryOnBoth(user);
  await addMember(two, lab, user);
  expect((await me(two, user)).body.effective_tier).toBe('lab');
  await withinASecond('instance one to show the lab tier', one, user, (reply) => reply.body.effective_tier === 'lab');

  await servedFromMemoryOnBoth(user);
  expect((await two.call('PATCH', `/api/admin/users/${user.id}`, { token: two.adminToken, body: { disabled: true } })).status).toBe(200);
  expect((await me(two, user)).status).toBe(401);
  await withinASecond('instance one to refuse the disabled user', one, user, (reply) => reply.status === 401);
});

test('while the listening connection is down nothing is kept, and a revocation meanwhile is still seen', async () => {
  const user = await makeUser(one);
  await servedFromMemoryOnBoth(user);
  await one.sql(
    `select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'labdesk notices' and datname = current_database()`,
  );
  // Both instances lost their listener: each dropped what it kept and reads the database until it listens again.
  const other = await makeUser(one);
  expect((await me(two, other)).status).toBe(200);
  const tokenId = `tok_${user.token.slice(8, 20)}`;
  expect((await one.call('DELETE', `/api/admin/users/${user.id}/tokens/${tokenId}`, { token: one.adminToken })).status).toBe(204);
  expect((await me(two, user)).status).toBe(401);
  // Listening again: tokens are kept again.
  await servedFromMemoryOnBoth(other);
});

describe('CredentialCache', () => {
  const stored = (id: string, userId: string): StoredToken =>
    ({
      id,
      kind: 'pat',
      secretHash: '',
      familyId: null,
      leaseId: null,
      expiresAt: null,
      revokedAt: null,
      usedAt: null,
      user: { id: userId },
      userInActiveLab: false,
    }) as unknown as StoredToken;

  test('keeps nothing before it listens; a lookup overtaken by a notice is answered but not kept', async () => {
    const cache = new CredentialCache();
    let reads = 0;
    const read = (userId: string) => async () => (reads++, stored('tok_a', userId));
    await cache.lookup('tok_a', read('usr_1'));
    expect(cache.has('tok_a')).toBe(false);
    cache.resumed();
    await cache.lookup('tok_a', async () => {
      cache.changed('usr_1'); // the row changed while it was being read
      return stored('tok_a', 'usr_1');
    });
    expect(cache.has('tok_a')).toBe(false);
    await cache.lookup('tok_a', read('usr_1'));
    expect(cache.has('tok_a')).toBe(true);
    const before = reads;
    await cache.lookup('tok_a', read('usr_1'));
    expect(reads).toBe(before);
    cache.changed('usr_2');
    expect(cache.has('tok_a')).toBe(true);
    cache.changed('usr_1');
    expect(cache.has('tok_a')).toBe(false);
  });

  test('entries expire; `*` and a lost connection drop them all', async () => {
    let now = 0;
    const cache = new CredentialCache(() => now);
    cache.resumed();
    await cache.lookup('tok_a', async () => stored('tok_a', 'usr_1'));
    await cache.lookup('tok_b', async () => stored('tok_b', 'usr_2'));
    now += 60_000;
    let reads = 0;
    await cache.lookup('tok_a', async () => (reads++, stored('tok_a', 'usr_1')));
    expect(reads).toBe(1);
    cache.changed('*');
    expect(cache.size).toBe(0);
    await cache.lookup('tok_a', async () => stored('tok_a', 'usr_1'));
    cache.suspended();
    expect(cache.size).toBe(0);
    await cache.lookup('tok_a', async () => stored('tok_a', 'usr_1'));
    expect(cache.size).toBe(0);
  });
});
