import http from 'node:http';
import { addMember, makeLab, makeUser, startTestApp, useTestApp } from './support/app';
import { User } from '../src/modules/users/user.entity';
import { getUser } from '../src/modules/users/user.service';

const t = useTestApp();

const sql = <T = any>(text: string, params: unknown[] = []) => t.sql<T>(text, params);

const GIB = 1024 ** 3;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** The admin user object (its OpenAPI schema), with effective_tier (docs/api/admin.md). */
const USER_MEMBERS = [
  'user_id',
  'email',
  'name',
  'phone',
  'plan_code',
  'plan_source',
  'plan_expires_at',
  'is_admin',
  'disabled',
  'domain',
  'institution',
  'institution_tier',
  'institution_type',
  'institution_name',
  'storage_quota_bytes',
  'storage_used_bytes',
  'created_at',
  'last_active_at',
  'effective_tier',
];

let serial = 0;
const uniqueEmail = (tag = 'user') => `${tag}${++serial}x${Math.random().toString(36).slice(2, 8)}@example.org`;

const createUser = (body: Record<string, unknown>) => t.call('POST', '/api/admin/users', { token: t.adminToken, body });
const patchUser = (id: string, body: Record<string, unknown>) => t.call('PATCH', `/api/admin/users/${id}`, { token: t.adminToken, body });
const listUsers = (query: Record<string, string | number | undefined>) => t.call('GET', '/api/admin/users', { token: t.adminToken, query });

async function created(body: Record<string, unknown>) {
  const reply = await createUser(body);
  if (reply.status !== 201) throw new Error(`create user: ${reply.status} ${reply.text}`);
  return reply.body;
}

describe('POST /api/admin/users', () => {
  test('201 with every member of the user object', async () => {
    const reply = await createUser({ email: 'Full.Shape@Example.org', name: '  Full Shape ', phone: '+1 555 0100' });
    expect(reply.status).toBe(201);
    expect(Object.keys(reply.body).sort()).toEqual([...USER_MEMBERS].sort());
    expect(reply.body).toMatchObject({
      user_id: expect.stringMatching(/^usr_/),
      email: 'full.shape@example.org',
      name: 'Full Shape',
      phone: '+1 555 0100',
      plan_code: 'free',
      plan_source: 'admin',
      plan_expires_at: null,
      effective_tier: 'free',
      is_admin: false,
      disabled: false,
      domain: 'omics',
      institution: null,
      storage_quota_bytes: 1 * GIB,
      storage_used_bytes: 0,
      last_active_at: null,
    });
    expect(reply.body.created_at).toMatch(ISO_UTC);
    const fetched = await t.call('GET', `/api/admin/users/${reply.body.user_id}`, { token: t.adminToken });
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(reply.body);
  });

  test('a duplicate email, in any case, is 409', async () => {
    const email = uniqueEmail('dup');
    expect((await createUser({ email, name: 'First' })).status).toBe(201);
    for (const variant of [email, email.toUpperCase(), `${email[0].toUpperCase()}${email.slice(1)}`]) {
      const again = await createUser({ email: variant, name: 'Second' });
      expect({ variant, status: again.status }).toEqual({ variant, status: 409 });
      expect(typeof again.body.detail).toBe('string');
    }
    expect(await sql('select 1 from users where lower(email) = $1', [email])).toHaveLength(1);
  });

  test('institution_* are derived from the email domain or the institution text; unknown gives nulls', async () => {
    const mit = await created({ email: `someone${++serial}@bio.mit.edu`, name: 'MIT Person' });
    expect(mit).toMatchObject({
      institution: null,
      institution_name: 'Massachusetts Institute of Technology',
      institution_tier: 'r1',
      institution_type: 'university',
    });

    const byText = await created({ email: uniqueEmail(), name: 'Stanford Person', institution: 'stanford' });
    expect(byText).toMatchObject({
      institution: 'stanford',
      institution_name: 'Stanford University',
      institution_tier: 'r1',
      institution_type: 'university',
    });

    const unknown = await created({ email: uniqueEmail(), name: 'Nobody', institution: 'Institute of Nowhere' });
    expect(unknown).toMatchObject({
      institution: 'Institute of Nowhere',
      institution_name: null,
      institution_tier: null,
      institution_type: null,
    });

    const bare = await created({ email: uniqueEmail(), name: 'Bare' });
    expect(bare).toMatchObject({ institution: null, institution_name: null, institution_tier: null, institution_type: null });
  });
});

describe('GET /api/admin/users', () => {
  test('q matches email, name or phone substrings, case-insensitively', async () => {
    const mark = `qz${Math.random().toString(36).slice(2, 7)}`;
    const byEmail = await created({ email: `${mark}.mail@example.org`, name: 'Alpha' });
    const byName = await created({ email: uniqueEmail(), name: `Beta ${mark.toUpperCase()} Gamma` });
    const byPhone = await created({ email: uniqueEmail(), name: 'Delta', phone: '+44 (0) 7700-900123' });
    await created({ email: uniqueEmail(), name: 'Unrelated' });

    const ids = async (q: string) => {
      const reply = await listUsers({ q });
      expect(reply.status).toBe(200);
      expect(reply.body.total).toBe(reply.body.items.length);
      return (reply.body.items as { user_id: string }[]).map((u) => u.user_id).sort();
    };
    expect(await ids(mark)).toEqual([byEmail.user_id, byName.user_id].sort());
    expect(await ids(mark.toUpperCase())).toEqual([byEmail.user_id, byName.user_id].sort());
    expect(await ids(`${mark}.MAIL@EXAMPLE`)).toEqual([byEmail.user_id]);
    expect(await ids(`beta ${mark} gam`)).toEqual([byName.user_id]);
    expect(await ids('7700-900123')).toEqual([byPhone.user_id]);
    expect(await ids('(0) 7700')).toEqual([byPhone.user_id]);
    expect(await ids(`${mark}-nothing`)).toEqual([]);
  });

  test('% and _ in q are literal', async () => {
    const mark = `lit${Math.random().toString(36).slice(2, 7)}`;
    const percent = await created({ email: uniqueEmail(), name: `${mark} 100% done` });
    const underscore = await created({ email: uniqueEmail(), name: `${mark} snake_case` });
    const decoy = await created({ email: uniqueEmail(), name: `${mark} 100 x done snakeXcase` });
    const backslash = await created({ email: uniqueEmail(), name: `${mark} back\\slash` });

    const ids = async (q: string) => ((await listUsers({ q })).body.items as { user_id: string }[]).map((u) => u.user_id).sort();
    expect(await ids(`${mark} 100%`)).toEqual([percent.user_id]);
    expect(await ids('100% done')).toEqual([percent.user_id]);
    expect(await ids('snake_case')).toEqual([underscore.user_id]);
    expect(await ids('%')).toEqual([percent.user_id]);
    expect(await ids('_')).toEqual([underscore.user_id]);
    expect(await ids('k\\s')).toEqual([backslash.user_id]);
    expect(await ids('snake')).toEqual([underscore.user_id, decoy.user_id].sort());
  });

  test('plan_code filter', async () => {
    const mark = `plan${Math.random().toString(36).slice(2, 7)}`;
    const pro = await created({ email: uniqueEmail(mark), name: 'Pro', plan_code: 'pro' });
    const lab = await created({ email: uniqueEmail(mark), name: 'Lab', plan_code: 'lab' });
    const free = await created({ email: uniqueEmail(mark), name: 'Free' });
    expect(pro).toMatchObject({ plan_code: 'pro', effective_tier: 'pro', storage_quota_bytes: 20 * GIB });

    const only = async (query: Record<string, string>) =>
      ((await listUsers(query)).body.items as { user_id: string }[]).map((u) => u.user_id);
    expect(await only({ q: mark, plan_code: 'pro' })).toEqual([pro.user_id]);
    expect(await only({ q: mark, plan_code: 'lab' })).toEqual([lab.user_id]);
    expect(await only({ q: mark, plan_code: 'free' })).toEqual([free.user_id]);

    // Without q: every pro user and nothing else.
    const allPro = await listUsers({ plan_code: 'pro', limit: 500 });
    expect(allPro.status).toBe(200);
    const [{ count }] = await sql<{ count: number }>(`select count(*)::int as count from users where plan_code = 'pro'`);
    expect(allPro.body.total).toBe(count);
    expect((allPro.body.items as { plan_code: string }[]).every((u) => u.plan_code === 'pro')).toBe(true);

    const bad = await listUsers({ plan_code: 'platinum' });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['query', 'plan_code']);
  });

  test('limit/offset paging with a correct total; defaults limit 100 offset 0; list shape', async () => {
    const mark = `page${Math.random().toString(36).slice(2, 7)}`;
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await created({ email: uniqueEmail(mark), name: `Paged ${i}` })).user_id);

    const seen: string[] = [];
    for (const offset of [0, 2, 4]) {
      const page = await listUsers({ q: mark, limit: 2, offset });
      expect(page.status).toBe(200);
      expect(Object.keys(page.body).sort()).toEqual(['items', 'limit', 'offset', 'total']);
      expect(page.body).toMatchObject({ total: 5, limit: 2, offset });
      expect(page.body.items).toHaveLength(offset === 4 ? 1 : 2);
      for (const item of page.body.items) expect(Object.keys(item).sort()).toEqual([...USER_MEMBERS].sort());
      seen.push(...page.body.items.map((u: { user_id: string }) => u.user_id));
    }
    expect(new Set(seen).size).toBe(5);
    expect([...seen].sort()).toEqual([...made].sort());
    const past = await listUsers({ q: mark, limit: 2, offset: 10 });
    expect(past.body).toEqual({ items: [], total: 5, limit: 2, offset: 10 });

    const defaults = await listUsers({});
    expect(defaults.status).toBe(200);
    const [{ count }] = await sql<{ count: number }>('select count(*)::int as count from users');
    expect(defaults.body).toMatchObject({ total: count, limit: 100, offset: 0 });
    expect(defaults.body.items).toHaveLength(Math.min(count, 100));

    for (const query of [{ limit: 0 }, { limit: 501 }, { offset: -1 }, { limit: 'ten' }]) {
      const reply = await listUsers(query);
      expect({ query, status: reply.status }).toEqual({ query, status: 422 });
      expect(reply.body.detail[0].loc[0]).toBe('query');
    }
  });

  test('non-admins get 403, anonymous callers 401', async () => {
    const user = await makeUser(t);
    expect((await t.call('GET', '/api/admin/users', { token: user.token })).status).toBe(403);
    expect((await t.call('POST', '/api/admin/users', { token: user.token, body: { email: uniqueEmail(), name: 'x' } })).status).toBe(403);
    expect((await t.call('GET', '/api/admin/users')).status).toBe(401);
  });
});

describe('PATCH /api/admin/users/{id}', () => {
  test('name and phone (null clears)', async () => {
    const user = await created({ email: uniqueEmail(), name: 'Old Name', phone: '+1 555 0101' });
    const renamed = await patchUser(user.user_id, { name: '  New Name  ' });
    expect(renamed).toMatchObject({ status: 200, body: { name: 'New Name', phone: '+1 555 0101' } });
    const phone = await patchUser(user.user_id, { phone: '+1 555 0199' });
    expect(phone.body.phone).toBe('+1 555 0199');
    const cleared = await patchUser(user.user_id, { phone: null });
    expect(cleared).toMatchObject({ status: 200, body: { phone: null, name: 'New Name' } });
    const [row] = await sql('select name, phone from users where id = $1', [user.user_id]);
    expect(row).toEqual({ name: 'New Name', phone: null });
  });

  test('plan_code moves the storage quota with the plan; an override wins until reset with null', async () => {
    const user = await created({ email: uniqueEmail(), name: 'Quota' });
    expect(user.storage_quota_bytes).toBe(1 * GIB);
    const pro = await patchUser(user.user_id, { plan_code: 'pro' });
    expect(pro).toMatchObject({ status: 200, body: { plan_code: 'pro', effective_tier: 'pro', storage_quota_bytes: 20 * GIB } });

    const override = await patchUser(user.user_id, { storage_quota_bytes: 5 * GIB });
    expect(override).toMatchObject({ status: 200, body: { plan_code: 'pro', storage_quota_bytes: 5 * GIB } });
    const enterprise = await patchUser(user.user_id, { plan_code: 'enterprise' });
    expect(enterprise.body.storage_quota_bytes).toBe(5 * GIB);

    const reset = await patchUser(user.user_id, { storage_quota_bytes: null });
    expect(reset).toMatchObject({ status: 200, body: { plan_code: 'enterprise', storage_quota_bytes: 200 * GIB } });
    const [row] = await sql('select storage_quota_bytes from users where id = $1', [user.user_id]);
    expect(row.storage_quota_bytes).toBeNull();

    const negative = await patchUser(user.user_id, { storage_quota_bytes: -1 });
    expect(negative.status).toBe(422);
  });

  test('plan_expires_at in the past makes the effective tier free; plan_source is writable', async () => {
    const user = await created({ email: uniqueEmail(), name: 'Expiring', plan_code: 'pro' });
    const future = new Date(Date.now() + 86400_000).toISOString();
    const later = await patchUser(user.user_id, { plan_expires_at: future, plan_source: 'trial' });
    expect(later).toMatchObject({ status: 200, body: { plan_code: 'pro', plan_source: 'trial', effective_tier: 'pro' } });
    expect(new Date(later.body.plan_expires_at).toISOString()).toBe(future);
    expect(later.body.plan_expires_at).toMatch(ISO_UTC);

    const past = new Date(Date.now() - 60_000).toISOString();
    const expired = await patchUser(user.user_id, { plan_expires_at: past });
    expect(expired).toMatchObject({ status: 200, body: { plan_code: 'pro', effective_tier: 'free' } });
    const viaList = await listUsers({ q: user.email });
    expect(viaList.body.items[0]).toMatchObject({ user_id: user.user_id, effective_tier: 'free' });

    const never = await patchUser(user.user_id, { plan_expires_at: null });
    expect(never).toMatchObject({ status: 200, body: { plan_expires_at: null, effective_tier: 'pro' } });
  });

  test('is_admin grants the admin area; disabled locks the user out', async () => {
    const user = await makeUser(t);
    expect((await t.call('GET', '/api/admin/users', { token: user.token })).status).toBe(403);
    const promoted = await patchUser(user.id, { is_admin: true });
    expect(promoted).toMatchObject({ status: 200, body: { is_admin: true } });
    expect((await t.call('GET', '/api/admin/users', { token: user.token })).status).toBe(200);
    expect((await t.call('GET', '/api/me', { token: user.token })).body.is_admin).toBe(true);

    const demoted = await patchUser(user.id, { is_admin: false });
    expect(demoted.body.is_admin).toBe(false);
    expect((await t.call('GET', '/api/admin/users', { token: user.token })).status).toBe(403);

    const disabled = await patchUser(user.id, { disabled: true });
    expect(disabled).toMatchObject({ status: 200, body: { disabled: true } });
    expect((await t.call('GET', '/api/me', { token: user.token })).status).toBe(401);
    const enabled = await patchUser(user.id, { disabled: false });
    expect(enabled.body.disabled).toBe(false);
    expect((await t.call('GET', '/api/me', { token: user.token })).status).toBe(200);
  });

  test('changing institution re-derives institution_*', async () => {
    const user = await created({ email: uniqueEmail(), name: 'Mover' });
    const moved = await patchUser(user.user_id, { institution: 'Harvard' });
    expect(moved.body).toMatchObject({ institution: 'Harvard', institution_name: 'Harvard University', institution_tier: 'r1' });
    const cleared = await patchUser(user.user_id, { institution: null });
    expect(cleared.body).toMatchObject({ institution: null, institution_name: null, institution_tier: null, institution_type: null });
  });

  test('unknown id → 404; null name → 422', async () => {
    const missing = await patchUser('usr_doesnotexist', { name: 'X' });
    expect(missing.status).toBe(404);
    expect(typeof missing.body.detail).toBe('string');
    expect((await t.call('GET', '/api/admin/users/usr_doesnotexist', { token: t.adminToken })).status).toBe(404);

    const user = await created({ email: uniqueEmail(), name: 'Keeps Name' });
    const nulled = await patchUser(user.user_id, { name: null });
    expect(nulled.status).toBe(422);
    expect(nulled.body.detail[0].loc).toEqual(['body', 'name']);
    const [row] = await sql('select name from users where id = $1', [user.user_id]);
    expect(row.name).toBe('Keeps Name');
  });
});

describe('nobody locks everyone out', () => {
  test('suspending oneself, and suspending or demoting the last active admin, are 409 and change nothing', async () => {
    const app = await startTestApp();
    try {
      const patch = (token: string, id: string, body: unknown) => app.call('PATCH', `/api/admin/users/${id}`, { token, body });
      const adminId = (await app.call('GET', '/api/me', { token: app.adminToken })).body.user_id as string;
      const self = await patch(app.adminToken, adminId, { disabled: true });
      expect({ status: self.status, detail: self.body.detail }).toEqual({
        status: 409,
        detail: expect.stringContaining('your own account'),
      });
      const demoted = await patch(app.adminToken, adminId, { is_admin: false });
      expect({ status: demoted.status, detail: demoted.body.detail }).toEqual({
        status: 409,
        detail: expect.stringContaining('last active administrator'),
      });
      expect(await app.sql('select is_admin, disabled from users where id = $1', [adminId])).toEqual([{ is_admin: true, disabled: false }]);

      // With a second admin, one may go; a suspended admin does not count as one.
      const second = await makeUser(app, { is_admin: true });
      expect((await patch(app.adminToken, second.id, { disabled: true })).status).toBe(200);
      expect((await patch(app.adminToken, adminId, { is_admin: false })).status).toBe(409);
      expect((await patch(app.adminToken, second.id, { disabled: false })).status).toBe(200);

      // Two admins demoting each other at once: one wins, the other is refused (the admins are locked in one order).
      const both = await Promise.all([
        patch(app.adminToken, second.id, { is_admin: false }),
        patch(second.token, adminId, { is_admin: false }),
      ]);
      // The loser is 409 when both were admins as they began, 403 when the winner's change came first.
      const [won, lost] = both.map((reply) => reply.status).sort();
      expect({ won, lostRefused: lost === 409 || lost === 403 }).toEqual({ won: 200, lostRefused: true });
      expect(await app.sql('select id from users where is_admin and not disabled')).toHaveLength(1);
    } finally {
      await app.close();
    }
  });
});

describe('the audit log', () => {
  const events = (token: string, args: Record<string, unknown> = {}) =>
    t.call('POST', '/graphql', {
      token,
      body: {
        query: `query ($actor: String, $action: String, $since: DateTimeISO, $limit: Int, $offset: Int) {
          adminAuditEvents(actor: $actor, action: $action, since: $since, limit: $limit, offset: $offset) {
            total limit offset items { action createdAt actor { userId name email } subject { userId name } lab { labId name } detail }
          }
        }`,
        variables: args,
      },
    });

  test('who did what to whom, newest first, by actor, action and time, paged; for admins only', async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    const admin = await makeUser(t, { is_admin: true, name: 'Audra Admin' });
    const subject = await makeUser(t, { name: 'Sam Subject' });
    const patched = await t.call('PATCH', `/api/admin/users/${subject.id}`, { token: admin.token, body: { name: 'Sam Renamed' } });
    expect(patched.status).toBe(200);
    const minted = await t.call('POST', `/api/admin/users/${subject.id}/tokens`, { token: admin.token, body: { label: 'audited' } });
    await t.call('DELETE', `/api/admin/users/${subject.id}/tokens/${minted.body.token_id}`, { token: admin.token });

    const byActor = (await events(t.adminToken, { actor: admin.email, since })).body.data.adminAuditEvents;
    expect(byActor.items.map((event: { action: string }) => event.action)).toEqual(['token.revoke', 'token.create', 'user.update']);
    expect(byActor.items[2]).toMatchObject({
      actor: { userId: admin.id, name: 'Audra Admin', email: admin.email },
      subject: { userId: subject.id, name: 'Sam Renamed' },
      detail: { fields: ['name'] },
    });
    const tokens = (await events(t.adminToken, { actor: admin.id, action: 'token.', since })).body.data.adminAuditEvents;
    expect(tokens.items.map((event: { action: string }) => event.action)).toEqual(['token.revoke', 'token.create']);
    const page = (await events(t.adminToken, { actor: admin.id, since, limit: 1, offset: 1 })).body.data.adminAuditEvents;
    expect({ total: page.total, actions: page.items.map((event: { action: string }) => event.action) }).toEqual({
      total: 3,
      actions: ['token.create'],
    });
    const future = (await events(t.adminToken, { actor: admin.id, since: new Date(Date.now() + 60_000).toISOString() })).body.data;
    expect(future.adminAuditEvents).toMatchObject({ total: 0, items: [] });
    expect((await events(subject.token)).body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});

describe('admin labs', () => {
  test('GET /api/admin/labs: q, status filter, paging', async () => {
    const mark = `Lab${Math.random().toString(36).slice(2, 7)}`;
    const labs = [];
    for (let i = 0; i < 3; i++) labs.push(await makeLab(t, { name: `${mark} Team ${i}` }));
    const other = await makeLab(t, { name: 'Someone Else' });
    expect((await t.call('PATCH', `/api/admin/labs/${labs[0].id}`, { token: t.adminToken, body: { status: 'suspended' } })).status).toBe(
      200,
    );

    const all = await t.call('GET', '/api/admin/labs', { token: t.adminToken, query: { q: mark.toLowerCase() } });
    expect(all.status).toBe(200);
    expect(Object.keys(all.body).sort()).toEqual(['items', 'limit', 'offset', 'total']);
    expect(all.body).toMatchObject({ total: 3, limit: 100, offset: 0 });
    expect(all.body.items.map((l: { lab_id: string }) => l.lab_id).sort()).toEqual(labs.map((l) => l.id).sort());
    expect(all.body.items.map((l: { lab_id: string }) => l.lab_id)).not.toContain(other.id);
    // An admin who is not a member sees no code and no role.
    expect(all.body.items[0]).toMatchObject({ role: null, invitation_code: null });

    const suspended = await t.call('GET', '/api/admin/labs', { token: t.adminToken, query: { q: mark, status: 'suspended' } });
    expect(suspended.body).toMatchObject({ total: 1 });
    expect(suspended.body.items.map((l: { lab_id: string }) => l.lab_id)).toEqual([labs[0].id]);
    const active = await t.call('GET', '/api/admin/labs', { token: t.adminToken, query: { q: mark, status: 'active' } });
    expect(active.body.total).toBe(2);

    const seen: string[] = [];
    for (const offset of [0, 2]) {
      const page = await t.call('GET', '/api/admin/labs', { token: t.adminToken, query: { q: mark, limit: 2, offset } });
      expect(page.body).toMatchObject({ total: 3, limit: 2, offset });
      seen.push(...page.body.items.map((l: { lab_id: string }) => l.lab_id));
    }
    expect(seen.sort()).toEqual(labs.map((l) => l.id).sort());

    const [{ count }] = await sql<{ count: number }>('select count(*)::int as count from labs');
    expect((await t.call('GET', '/api/admin/labs', { token: t.adminToken })).body.total).toBe(count);

    const lit = await t.call('GET', '/api/admin/labs', { token: t.adminToken, query: { q: '%' } });
    expect(lit.body.total).toBe(0);
    expect((await t.call('GET', '/api/admin/labs', { token: t.adminToken, query: { status: 'gone' } })).status).toBe(422);
  });

  test('PATCH /api/admin/labs/{id}: name, status, seat_quota', async () => {
    const lab = await makeLab(t);
    const renamed = await t.call('PATCH', `/api/admin/labs/${lab.id}`, { token: t.adminToken, body: { name: '  Renamed Lab ' } });
    expect(renamed).toMatchObject({ status: 200, body: { lab_id: lab.id, name: 'Renamed Lab', status: 'active' } });
    const quota = await t.call('PATCH', `/api/admin/labs/${lab.id}`, { token: t.adminToken, body: { seat_quota: 42 } });
    expect(quota).toMatchObject({ status: 200, body: { seat_quota: 42, name: 'Renamed Lab' } });
    const archived = await t.call('PATCH', `/api/admin/labs/${lab.id}`, { token: t.adminToken, body: { status: 'archived' } });
    expect(archived).toMatchObject({ status: 200, body: { status: 'archived', seat_quota: 42 } });
    const [row] = await sql('select name, status, seat_quota from labs where id = $1', [lab.id]);
    expect(row).toEqual({ name: 'Renamed Lab', status: 'archived', seat_quota: 42 });

    expect((await t.call('PATCH', `/api/admin/labs/${lab.id}`, { token: t.adminToken, body: { seat_quota: 0 } })).status).toBe(422);
    expect((await t.call('PATCH', `/api/admin/labs/${lab.id}`, { token: t.adminToken, body: { status: 'gone' } })).status).toBe(422);
    expect((await t.call('PATCH', '/api/admin/labs/lab_doesnotexist', { token: t.adminToken, body: { name: 'x' } })).status).toBe(404);
    expect((await t.call('PATCH', `/api/admin/labs/${lab.id}`, { token: lab.owner.token, body: { name: 'x' } })).status).toBe(403);
  });

  test('GET /api/admin/labs/{id} lists the members', async () => {
    const lab = await makeLab(t);
    const member = await makeUser(t);
    const pending = await makeUser(t);
    await addMember(t, lab, member, 'mentor');
    await t.call('POST', '/api/labs/join', { token: pending.token, body: { code: lab.code } });

    const reply = await t.call('GET', `/api/admin/labs/${lab.id}`, { token: t.adminToken });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ lab_id: lab.id, owner_id: lab.owner.id, seats_used: 2, role: null });
    const members = reply.body.members as { member_user_id: string; role: string; status: string; email: string }[];
    expect(members).toHaveLength(3);
    const byId = Object.fromEntries(members.map((m) => [m.member_user_id, m]));
    expect(byId[lab.owner.id]).toMatchObject({ role: 'owner', status: 'active', email: lab.owner.email });
    expect(byId[member.id]).toMatchObject({ role: 'mentor', status: 'active', email: member.email });
    expect(byId[pending.id]).toMatchObject({ status: 'pending' });
    expect((await t.call('GET', '/api/admin/labs/lab_doesnotexist', { token: t.adminToken })).status).toBe(404);
  });
});

test('last_active_at is set by the first authenticated request', async () => {
  const user = await makeUser(t);
  const before = await t.call('GET', `/api/admin/users/${user.id}`, { token: t.adminToken });
  expect(before.body.last_active_at).toBeNull();
  const started = Date.now();
  const seen = await t.call('GET', '/api/me', { token: user.token });
  expect(seen.status).toBe(200);
  const after = await t.call('GET', `/api/admin/users/${user.id}`, { token: t.adminToken });
  expect(after.body.last_active_at).toMatch(ISO_UTC);
  const at = new Date(after.body.last_active_at).getTime();
  expect(at).toBeGreaterThanOrEqual(started - 1000);
  expect(at).toBeLessThanOrEqual(Date.now() + 1000);
});

test('GET /api/admin/sync/users streams every row as {"users": [...]}, across several cursor batches', async () => {
  await sql(
    `insert into users (id, email, name)
     select 'usr_bulk' || lpad(g::text, 5, '0'), 'bulk' || g || '@example.org', 'Bulk ' || g from generate_series(1, 1200) g`,
  );
  const [{ count }] = await sql<{ count: number }>('select count(*)::int as count from users');
  expect(count).toBeGreaterThan(1200);

  const reply = await t.call('GET', '/api/admin/sync/users', { token: t.adminToken });
  expect(reply.status).toBe(200);
  expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
  expect(Object.keys(reply.body)).toEqual(['users']);
  const users = reply.body.users as Record<string, unknown>[];
  expect(users).toHaveLength(count);
  const ids = users.map((u) => u.user_id as string);
  expect(new Set(ids).size).toBe(count);
  const dbIds = (await sql<{ id: string }>('select id from users')).map((r) => r.id).sort();
  expect([...ids].sort()).toEqual(dbIds);
  const bulk = users.find((u) => u.user_id === 'usr_bulk00042');
  expect(bulk).toMatchObject({ email: 'bulk42@example.org', name: 'Bulk 42', plan_code: 'free', is_admin: false, storage_used_bytes: 0 });

  const user = await makeUser(t);
  expect((await t.call('GET', '/api/admin/sync/users', { token: user.token })).status).toBe(403);
  expect((await t.call('GET', '/api/admin/sync/users')).status).toBe(401);
});

test('a client that walks away from sync/users does not leave a transaction open', async () => {
  await sql(
    `insert into users (id, email, name, institution) select 'usr_bulk_' || i, 'bulk' || i || '@sync.example', 'Bulk ' || i, repeat('x', 1000)
       from generate_series(1, 20000) as i`,
  );
  // A reader that stops reading (paused), so the server meets back-pressure, then hangs up.
  await new Promise<void>((resolve, reject) => {
    const req = http.get(`${t.url}/api/admin/sync/users`, { headers: { authorization: `Bearer ${t.adminToken}` } }, (res) => {
      res.pause();
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 500);
    });
    req.on('error', (error) => (req.destroyed ? resolve() : reject(error)));
  });
  const database = new URL(t.databaseUrl).pathname.slice(1);
  const open = async () =>
    (await sql(`select count(*)::int as n from pg_stat_activity where datname = $1 and state like 'idle in transaction%'`, [database]))[0]
      .n;
  for (let i = 0; i < 50 && (await open()) > 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(await open()).toBe(0);
  await sql(`delete from users where id like 'usr_bulk_%'`);
});

describe('getUser (one prepared statement, mapped by hand)', () => {
  test('answers the loaded user; a bare reference the entity manager holds is loaded, not answered empty; an edit not yet flushed is kept', async () => {
    const made = await makeUser(t);
    const em = t.app.services.orm.em.fork();
    const reference = em.getReference(User, made.id); // what loading a relation to the user leaves
    const user = await getUser(em, made.id);
    expect(user).toBe(reference);
    expect(user.email).toBe(made.email);
    user.name = 'Edited, not flushed';
    expect((await getUser(em as never, made.id)).name).toBe('Edited, not flushed');
    await expect(getUser(em as never, 'usr_nobody')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
