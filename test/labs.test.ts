import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../src/config';
import { Sealer } from '../src/db/instance-keys';
import { addMember, makeLab, makeUser, startTestApp, useTestApp } from './support/app';

const t = useTestApp();

const sql = <T = any>(text: string, params: unknown[] = []) => t.sql<T>(text, params);

const memberRow = async (labId: string, userId: string) =>
  (
    await sql<{ role: string; status: string }>('select role, status from lab_members where lab_id = $1 and user_id = $2', [labId, userId])
  )[0];

describe('membership state machine', () => {
  test('join → pending, approve → active with the lab tier, promote, leave keeps the row', async () => {
    const lab = await makeLab(t);
    const ann = await makeUser(t);
    expect((await t.call('GET', '/api/me', { token: ann.token })).body.effective_tier).toBe('free');

    const preview = await t.call('GET', '/api/labs/preview', { token: ann.token, query: { code: lab.code } });
    expect(preview).toMatchObject({ status: 200, body: { name: 'Test Lab' } });
    expect(Object.keys(preview.body)).toEqual(['name']);

    const joined = await t.call('POST', '/api/labs/join', { token: ann.token, body: { code: lab.code } });
    expect(joined).toMatchObject({ status: 200, body: { lab_id: lab.id, status: 'pending' } });
    // A pending requester sees nothing of the lab yet.
    expect((await t.call('GET', `/api/labs/${lab.id}`, { token: ann.token })).status).toBe(404);

    const again = await t.call('POST', '/api/labs/join', { token: ann.token, body: { code: lab.code } });
    expect(again).toMatchObject({ status: 200, body: { status: 'pending' } });
    expect(await sql('select 1 from lab_members where lab_id = $1 and user_id = $2', [lab.id, ann.id])).toHaveLength(1);

    const approved = await t.call('PATCH', `/api/labs/${lab.id}/members/${ann.id}`, { token: lab.owner.token, body: { status: 'active' } });
    expect(approved).toMatchObject({ status: 200, body: { member_user_id: ann.id, status: 'active', role: 'member' } });
    expect(approved.body.joined_at).toEqual(expect.any(String));
    expect((await t.call('GET', '/api/me', { token: ann.token })).body.effective_tier).toBe('lab');

    const seen = await t.call('GET', `/api/labs/${lab.id}`, { token: ann.token });
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ role: 'member', seats_used: 2, members: null });
    // Member entries omit the code (absent, not null: the spec's "member entries omit it").
    expect(seen.body).not.toHaveProperty('invitation_code');
    expect(seen.body).not.toHaveProperty('code_expires_at');

    const promoted = await t.call('PATCH', `/api/labs/${lab.id}/members/${ann.id}`, { token: lab.owner.token, body: { role: 'mentor' } });
    expect(promoted).toMatchObject({ status: 200, body: { role: 'mentor', status: 'active' } });
    const asMentor = await t.call('GET', `/api/labs/${lab.id}`, { token: ann.token });
    expect(asMentor.body.members).toHaveLength(2);
    expect(asMentor.body).not.toHaveProperty('invitation_code');

    const listed = await t.call('GET', '/api/labs', { token: ann.token });
    expect(listed.body.items).toEqual([expect.objectContaining({ lab_id: lab.id, role: 'mentor' })]);
    expect(listed.body.items[0]).not.toHaveProperty('invitation_code');
    expect(listed.body.items[0]).not.toHaveProperty('code_expires_at');
    const ownerList = await t.call('GET', '/api/labs', { token: lab.owner.token });
    expect(ownerList.body.items[0]).toMatchObject({ role: 'owner', invitation_code: lab.code, code_expires_at: expect.any(String) });

    const left = await t.call('DELETE', `/api/labs/${lab.id}/membership`, { token: ann.token });
    expect(left).toMatchObject({ status: 200, body: { member_user_id: ann.id, status: 'left' } });
    expect(await memberRow(lab.id, ann.id)).toEqual({ role: 'mentor', status: 'left' });
    expect((await t.call('GET', '/api/me', { token: ann.token })).body.effective_tier).toBe('free');
    expect((await t.call('GET', `/api/labs/${lab.id}`, { token: ann.token })).status).toBe(404);

    const actions = await sql<{ action: string }>('select action from audit_events where lab_id = $1 order by id', [lab.id]);
    expect(actions.map((a) => a.action)).toEqual(['lab.create', 'member.join', 'member.approve', 'member.role', 'member.leave']);
  });

  test('reject, then a new request; revoke; wrong transitions are 409 and change nothing', async () => {
    const lab = await makeLab(t);
    const bob = await makeUser(t);
    await t.call('POST', '/api/labs/join', { token: bob.token, body: { code: lab.code } });
    const rejected = await t.call('PATCH', `/api/labs/${lab.id}/members/${bob.id}`, {
      token: lab.owner.token,
      body: { status: 'rejected' },
    });
    expect(rejected).toMatchObject({ status: 200, body: { status: 'rejected' } });
    // rejected → active is not an approval of a pending request
    const approveRejected = await t.call('PATCH', `/api/labs/${lab.id}/members/${bob.id}`, {
      token: lab.owner.token,
      body: { status: 'active' },
    });
    expect(approveRejected.status).toBe(409);
    expect(await memberRow(lab.id, bob.id)).toMatchObject({ status: 'rejected' });
    // leaving a rejected request is a conflict
    expect((await t.call('DELETE', `/api/labs/${lab.id}/membership`, { token: bob.token })).status).toBe(409);

    expect((await t.call('POST', '/api/labs/join', { token: bob.token, body: { code: lab.code } })).body.status).toBe('pending');
    await t.call('PATCH', `/api/labs/${lab.id}/members/${bob.id}`, { token: lab.owner.token, body: { status: 'active' } });
    expect((await t.call('POST', '/api/labs/join', { token: bob.token, body: { code: lab.code } })).status).toBe(409);
    // revoking a pending-only transition on an active member is refused
    expect(
      (await t.call('PATCH', `/api/labs/${lab.id}/members/${bob.id}`, { token: lab.owner.token, body: { status: 'rejected' } })).status,
    ).toBe(409);
    const revoked = await t.call('PATCH', `/api/labs/${lab.id}/members/${bob.id}`, { token: lab.owner.token, body: { status: 'revoked' } });
    expect(revoked).toMatchObject({ status: 200, body: { status: 'revoked' } });
    expect((await t.call('GET', `/api/labs/${lab.id}`, { token: bob.token })).status).toBe(404);
  });

  test('labJoinRequests: one’s own pending requests by lab name only; gone once decided', async () => {
    const [first, second] = await Promise.all([makeLab(t, { name: 'First Lab' }), makeLab(t, { name: 'Second Lab' })]);
    const carol = await makeUser(t);
    const waiting = async (who = carol) =>
      (await t.call('POST', '/graphql', { token: who.token, body: { query: '{ labJoinRequests { labName requestedAt } }' } })).body.data
        .labJoinRequests as { labName: string; requestedAt: string }[];
    expect(await waiting()).toEqual([]);
    for (const lab of [first, second]) await t.call('POST', '/api/labs/join', { token: carol.token, body: { code: lab.code } });
    expect((await waiting()).map((request) => request.labName)).toEqual(['First Lab', 'Second Lab']);
    // Nobody else sees them, the owners included.
    expect(await waiting(first.owner)).toEqual([]);
    await t.call('PATCH', `/api/labs/${first.id}/members/${carol.id}`, { token: first.owner.token, body: { status: 'active' } });
    await t.call('PATCH', `/api/labs/${second.id}/members/${carol.id}`, { token: second.owner.token, body: { status: 'rejected' } });
    expect(await waiting()).toEqual([]);
  });

  test('the owner cannot modify or leave their own membership (409)', async () => {
    const lab = await makeLab(t);
    const own = await t.call('PATCH', `/api/labs/${lab.id}/members/${lab.owner.id}`, { token: lab.owner.token, body: { role: 'member' } });
    expect(own.status).toBe(409);
    expect((await t.call('DELETE', `/api/labs/${lab.id}/membership`, { token: lab.owner.token })).status).toBe(409);
    expect(await memberRow(lab.id, lab.owner.id)).toEqual({ role: 'owner', status: 'active' });
  });

  test('an unknown member id is 404; an empty update is 422', async () => {
    const lab = await makeLab(t);
    expect(
      (await t.call('PATCH', `/api/labs/${lab.id}/members/usr_nobody`, { token: lab.owner.token, body: { status: 'active' } })).status,
    ).toBe(404);
    const empty = await t.call('PATCH', `/api/labs/${lab.id}/members/usr_nobody`, { token: lab.owner.token, body: {} });
    expect(empty.status).toBe(422);
    expect(empty.body.detail[0].loc[0]).toBe('body');
  });
});

describe('invitation codes', () => {
  test('a rotated code is dead on the very next request, and the new one works', async () => {
    const lab = await makeLab(t);
    const cat = await makeUser(t);
    const rotated = await t.call('POST', `/api/labs/${lab.id}/rotate_code`, { token: lab.owner.token });
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.invitation_code as string;
    expect(fresh).toMatch(/^[0-9A-HJKMNP-TV-Z]{12}$/);
    expect(fresh).not.toBe(lab.code);
    expect(new Date(rotated.body.code_expires_at).getTime()).toBeGreaterThan(Date.now() + 29 * 24 * 3600 * 1000);

    expect((await t.call('GET', '/api/labs/preview', { token: cat.token, query: { code: lab.code } })).status).toBe(404);
    expect((await t.call('POST', '/api/labs/join', { token: cat.token, body: { code: lab.code } })).status).toBe(404);
    expect((await t.call('GET', '/api/labs/preview', { token: cat.token, query: { code: fresh.toLowerCase() } })).status).toBe(200);
    expect((await t.call('POST', '/api/labs/join', { token: cat.token, body: { code: fresh } })).body.status).toBe('pending');
  });

  test('codes are stored hashed, never in plain text', async () => {
    const lab = await makeLab(t);
    const [row] = await sql<Record<string, string>>('select * from labs where id = $1', [lab.id]);
    expect(JSON.stringify(row)).not.toContain(lab.code);
  });

  test('expired, unknown and inactive-lab codes give the same 404 on preview and join', async () => {
    const expired = await makeLab(t);
    await sql(`update labs set code_expires_at = now() - interval '1 second' where id = $1`, [expired.id]);
    const suspended = await makeLab(t);
    await t.call('PATCH', `/api/admin/labs/${suspended.id}`, { token: t.adminToken, body: { status: 'suspended' } });
    const dan = await makeUser(t);
    const replies = [];
    for (const code of [expired.code, suspended.code, 'ZZZZZZZZZZZZ', 'short']) {
      replies.push(await t.call('GET', '/api/labs/preview', { token: dan.token, query: { code } }));
      replies.push(await t.call('POST', '/api/labs/join', { token: dan.token, body: { code } }));
    }
    for (const reply of replies)
      expect({ status: reply.status, body: reply.body }).toEqual({ status: 404, body: { detail: 'invitation code not found' } });
  });
});

describe('the sealing key of invitation codes (SEAL_KEY, SEAL_KEY_FILE)', () => {
  const codeSealed = async (labId: string) =>
    (await sql<{ code_sealed: string }>('select code_sealed from labs where id = $1', [labId]))[0].code_sealed;
  const databaseKey = async () => (await sql<{ value: string }>(`select value from instance_secrets where name = 'seal_key'`))[0]?.value;

  test('with an operator key, codes are sealed with it (a database copy alone cannot open them), and codes sealed earlier with the database key still show', async () => {
    const before = await makeLab(t, { name: 'Sealed by the database' });
    const dbKey = Buffer.from(await databaseKey(), 'base64');
    const operatorKey = randomBytes(32);
    const keyFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-seal-')), 'seal-key');
    fs.writeFileSync(keyFile, `${operatorKey.toString('base64')}\n`, { mode: 0o600 });
    const keyed = await startTestApp({ SEAL_KEY_FILE: keyFile }, { sameDatabaseAs: t });
    try {
      const owner = await makeUser(keyed);
      const created = await keyed.call('POST', '/api/labs', { token: owner.token, body: { name: 'Sealed by the operator' } });
      expect(created.status).toBe(200);
      const sealed = await codeSealed(created.body.lab_id);
      const sealer = new Sealer(operatorKey);
      expect(sealer.open(sealed)).toBe(created.body.invitation_code);
      expect(() => new Sealer(dbKey).open(sealed)).toThrow();
      // What one sealer opened it remembers by the sealed text: a changed text is never taken for it.
      expect(sealer.open(sealed)).toBe(created.body.invitation_code);
      const [iv, tag, body] = sealed.split('.');
      const changed = Buffer.from(body, 'base64url');
      changed[0] ^= 1;
      expect(() => sealer.open([iv, tag, changed.toString('base64url')].join('.'))).toThrow();
      // The code sealed before the operator set a key is still shown to its owner.
      const earlier = await keyed.call('GET', `/api/labs/${before.id}`, { token: before.owner.token });
      expect(earlier.body.invitation_code).toBe(before.code);
    } finally {
      await keyed.close();
    }
  });

  test('a malformed key, both settings, or an unreadable file stop the start with a clear message', () => {
    expect(() => loadConfig({ SEAL_KEY: 'short' })).toThrow(/SEAL_KEY must hold 32 random bytes in base64/);
    expect(() => loadConfig({ SEAL_KEY: randomBytes(32).toString('base64'), SEAL_KEY_FILE: 'k' })).toThrow(
      /SEAL_KEY or SEAL_KEY_FILE, not both/,
    );
    expect(() => loadConfig({ SEAL_KEY_FILE: '/nonexistent/seal-key' })).toThrow(/SEAL_KEY_FILE cannot be read \(ENOENT/);
    const key = randomBytes(32);
    expect(loadConfig({ SEAL_KEY: key.toString('base64') }).sealKey).toEqual(key);
  });
});

describe('seats', () => {
  test('20 concurrent approvals against a seat quota of 5 leave exactly 5 active', async () => {
    const lab = await makeLab(t, { seatQuota: 5 });
    const applicants = await Promise.all(Array.from({ length: 20 }, () => makeUser(t)));
    for (const user of applicants) await t.call('POST', '/api/labs/join', { token: user.token, body: { code: lab.code } });

    const replies = await Promise.all(
      applicants.map((user) =>
        t.call('PATCH', `/api/labs/${lab.id}/members/${user.id}`, { token: lab.owner.token, body: { status: 'active' } }),
      ),
    );
    const statuses = replies.map((r) => r.status).sort();
    // The owner holds one of the five seats.
    expect(statuses.filter((s) => s === 200)).toHaveLength(4);
    expect(statuses.filter((s) => s === 409)).toHaveLength(16);
    const [{ active }] = await sql<{ active: number }>(
      `select count(*)::int as active from lab_members where lab_id = $1 and status = 'active'`,
      [lab.id],
    );
    expect(active).toBe(5);
    expect((await t.call('GET', `/api/labs/${lab.id}`, { token: lab.owner.token })).body.seats_used).toBe(5);
  });

  test('a freed seat can be given again', async () => {
    const lab = await makeLab(t, { seatQuota: 2 });
    const [a, b] = [await makeUser(t), await makeUser(t)];
    await addMember(t, lab, a);
    await t.call('POST', '/api/labs/join', { token: b.token, body: { code: lab.code } });
    expect(
      (await t.call('PATCH', `/api/labs/${lab.id}/members/${b.id}`, { token: lab.owner.token, body: { status: 'active' } })).status,
    ).toBe(409);
    await t.call('DELETE', `/api/labs/${lab.id}/membership`, { token: a.token });
    expect(
      (await t.call('PATCH', `/api/labs/${lab.id}/members/${b.id}`, { token: lab.owner.token, body: { status: 'active' } })).status,
    ).toBe(200);
  });
});

describe('usage report', () => {
  test('aggregates the usage ledger per member, counts only', async () => {
    const lab = await makeLab(t);
    const eve = await makeUser(t);
    await addMember(t, lab, eve);
    await sql(
      `insert into usage_entries (user_id, lab_id, session_id, source, tokens_in, tokens_out) values
        ($1, $2, 's1', 'trajectory', 100, 10), ($1, $2, 's2', 'trajectory', 50, 5), ($3, $2, 's3', 'model_call', 7, 3)`,
      [eve.id, lab.id, lab.owner.id],
    );
    const report = await t.call('GET', `/api/labs/${lab.id}/usage`, { token: lab.owner.token });
    expect(report.status).toBe(200);
    const byId = Object.fromEntries(report.body.members.map((m: any) => [m.member_user_id, m]));
    expect(byId[eve.id]).toMatchObject({ tokens_in: 150, tokens_out: 15, sessions: 2, role: 'member', status: 'active' });
    expect(byId[lab.owner.id]).toMatchObject({ tokens_in: 7, tokens_out: 3, sessions: 1, role: 'owner' });
    expect(report.body.totals).toEqual({ tokens_in: 157, tokens_out: 18, sessions: 3, active_members: 2 });
  });
});

describe('board and reviews', () => {
  test('answer from an empty set until trajectories exist', async () => {
    const lab = await makeLab(t);
    expect(await t.call('GET', `/api/labs/${lab.id}/board`, { token: lab.owner.token })).toMatchObject({
      status: 200,
      body: { items: [], total: 0, limit: 200 },
    });
    expect(await t.call('GET', `/api/labs/${lab.id}/reviews`, { token: lab.owner.token, query: { limit: 5 } })).toMatchObject({
      status: 200,
      body: { for_me: [], by_me: [] },
    });
  });
});

describe('races', () => {
  test('leaving while the owner approves never ends active after a successful leave', async () => {
    const lab = await makeLab(t, { seatQuota: 100 });
    for (let round = 0; round < 15; round++) {
      const user = await makeUser(t);
      await t.call('POST', '/api/labs/join', { token: user.token, body: { code: lab.code } });
      const [left, approved] = await Promise.all([
        t.call('DELETE', `/api/labs/${lab.id}/membership`, { token: user.token }),
        t.call('PATCH', `/api/labs/${lab.id}/members/${user.id}`, { token: lab.owner.token, body: { status: 'active' } }),
      ]);
      const { status } = await memberRow(lab.id, user.id);
      expect(left.status).toBe(200);
      // Serialized by row locks: either the approval came first and the leave undid it, or the
      // approval found a withdrawn request (409). Never both "left" and active.
      expect(status).toBe('left');
      expect([200, 409]).toContain(approved.status);
    }
  });
});
