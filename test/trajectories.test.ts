import { Actor, last, META_KEYS, newSessionId, newUuid, sessionPath as path, trajectoryCalls } from './support/trajectories';
import { addMember, makeLab, makeUser, Reply, TestLab, TestUser, useTestApp } from './support/app';

/**
 * Trajectories (docs/api/trajectories.md): who may see and write a session, the fast-forward append and its
 * retry, whole-batch refusal, byte-exact storage, reads with `since` and `download`, reconcile,
 * visibility, storage accounting, usage and the list filters. Everything over real HTTP.
 */

const t = useTestApp();

const sql = <T = any>(text: string, params: unknown[] = []) => t.sql<T>(text, params);

const admin = (): Actor => ({ token: t.adminToken });

type Rec = { uuid: string; type: string; [member: string]: unknown };
const rec = (uuid: string, extra: Record<string, unknown> = {}): Rec => ({ uuid, parentUuid: null, type: 'user', ...extra });

/** `n` records chained by parentUuid after `parent`, with some non-ASCII text (bytes ≠ characters). */
function chain(n: number, parent: string | null = null, label = 'r'): Rec[] {
  const out: Rec[] = [];
  for (let i = 0; i < n; i++) {
    const uuid = newUuid(label);
    out.push({
      uuid,
      parentUuid: out.length ? out[out.length - 1].uuid : parent,
      type: i % 2 ? 'assistant' : 'user',
      text: `step ${i} – café ✓`,
    });
  }
  return out;
}

/** Bytes a record costs: its exact text as sent (our bodies are JSON.stringify'd, element by element). */
const bytesOf = (records: unknown[]) => records.reduce<number>((sum, r) => sum + Buffer.byteLength(JSON.stringify(r)), 0);

const { append, cover, read, meta, setVisibility, remove } = trajectoryCalls(t);
const list = (who: Actor, query: Record<string, string | number> = {}) => t.call('GET', '/api/trajectories', { token: who.token, query });
/** The session ids of a list reply, sorted; the whole reply is printed when it is not a 200 list. */
function listedIds(reply: Reply): string[] {
  expect({ status: reply.status, body: reply.body }).toEqual({ status: 200, body: expect.objectContaining({ items: expect.any(Array) }) });
  return (reply.body.items as { session_id: string }[]).map((item) => item.session_id).sort();
}
const reconcile = (who: Actor, sessionIds: string[]) =>
  t.call('POST', '/api/trajectories/reconcile', { token: who.token, body: { session_ids: sessionIds } });

function expectStatus(reply: Reply, status: number) {
  // The whole reply is printed when the status is wrong.
  expect({ status: reply.status, body: reply.body }).toEqual(expect.objectContaining({ status }));
}

interface Session {
  id: string;
  records: Rec[];
  head: string;
}

/** A session of `owner` with `n` records, in `lab` (and shared with it when `shared`). */
async function makeSession(owner: Actor, opts: { lab?: TestLab; shared?: boolean; n?: number; title?: string } = {}): Promise<Session> {
  const id = newSessionId();
  const records = chain(opts.n ?? 3);
  const created = await append(owner, id, null, records, {
    ...(opts.lab ? { lab_id: opts.lab.id } : {}),
    ...(opts.title ? { title: opts.title } : {}),
  });
  if (created.status !== 200) throw new Error(`makeSession: ${created.status} ${created.text}`);
  if (opts.shared) {
    const shared = await setVisibility(owner, id, { visibility: 'lab', ...(opts.lab ? { lab_id: opts.lab.id } : {}) });
    if (shared.status !== 200) throw new Error(`makeSession share: ${shared.status} ${shared.text}`);
  }
  return { id, records, head: last(records).uuid };
}

const usedBytes = async (userId: string) =>
  (await sql<{ used: number }>('select storage_used_bytes::float8 as used from users where id = $1', [userId]))[0].used;

/** The session's row and its records as stored: what a refused request must leave untouched. */
async function stored(id: string) {
  const [row] = await sql('select *, bytes::float8 as bytes from trajectories where id = $1', [id]);
  const records = await sql(
    `select r.seq, r.uuid, r.parent_uuid, r.type, r.bytes, coalesce(r.raw, p.body) as raw from trajectory_records r
       left join record_payloads p on r.payload_ref = 'db:' || p.id where r.session_id = $1 order by r.seq`,
    [id],
  );
  return { row: row ?? null, records };
}

/** A user who joined `lab` and then left it. */
async function formerMember(lab: TestLab) {
  const user = await makeUser(t, { name: 'Former' });
  await addMember(t, lab, user);
  const left = await t.call('DELETE', `/api/labs/${lab.id}/membership`, { token: user.token });
  if (left.status !== 200) throw new Error(`leave: ${left.status} ${left.text}`);
  return user;
}

// ---------------------------------------------------------------------------------------------
// Who may view, who may write
// ---------------------------------------------------------------------------------------------

type Who =
  | 'the owner'
  | 'an admin'
  | 'a lab member'
  | 'a mentor'
  | 'the lab owner'
  | 'an outsider'
  | 'a member of another lab'
  | 'someone who left the lab';

interface World {
  lab: TestLab;
  actors: Record<Who, Actor>;
  owner: TestUser;
  priv: Session;
  shared: Session;
}

async function makeWorld(): Promise<World> {
  const lab = await makeLab(t);
  const other = await makeLab(t);
  const [owner, member, mentor, outsider, otherMember] = await Promise.all([
    makeUser(t, { name: 'Owner' }),
    makeUser(t, { name: 'Member' }),
    makeUser(t, { name: 'Mentor' }),
    makeUser(t, { name: 'Outsider' }),
    makeUser(t, { name: 'Other lab' }),
  ]);
  await addMember(t, lab, owner);
  await addMember(t, lab, member);
  await addMember(t, lab, mentor, 'mentor');
  await addMember(t, other, otherMember);
  const leaver = await formerMember(lab);
  const priv = await makeSession(owner, { lab, title: 'private one' });
  const shared = await makeSession(owner, { lab, shared: true, title: 'shared one' });
  return {
    lab,
    owner,
    priv,
    shared,
    actors: {
      'the owner': owner,
      'an admin': admin(),
      'a lab member': member,
      'a mentor': mentor,
      'the lab owner': lab.owner,
      'an outsider': outsider,
      'a member of another lab': otherMember,
      'someone who left the lab': leaver,
    },
  };
}

describe('who may view', () => {
  let w: World;
  beforeAll(async () => {
    w = await makeWorld();
  });

  const cases: [Who, 'private' | 'lab', 200 | 404][] = [
    ['the owner', 'private', 200],
    ['the owner', 'lab', 200],
    ['an admin', 'private', 200],
    ['an admin', 'lab', 200],
    ['a lab member', 'lab', 200],
    ['a mentor', 'lab', 200],
    ['the lab owner', 'lab', 200],
    ['a lab member', 'private', 404],
    ['a mentor', 'private', 404],
    ['the lab owner', 'private', 404],
    ['an outsider', 'private', 404],
    ['an outsider', 'lab', 404],
    ['a member of another lab', 'private', 404],
    ['a member of another lab', 'lab', 404],
    ['someone who left the lab', 'private', 404],
    ['someone who left the lab', 'lab', 404],
  ];

  test.each(cases)('%s on a %s session: GET, meta and the lab list → %s', async (who, visibility, status) => {
    const actor = w.actors[who];
    const session = visibility === 'lab' ? w.shared : w.priv;
    const full = await read(actor, session.id);
    const metaReply = await meta(actor, session.id);
    const listed = await list(actor, { lab_id: w.lab.id });
    expectStatus(full, status);
    expectStatus(metaReply, status);
    if (status === 200) {
      expect(Object.keys(metaReply.body).sort()).toEqual(META_KEYS);
      expect(metaReply.body).toMatchObject({
        session_id: session.id,
        owner_id: w.owner.id,
        lab_id: w.lab.id,
        visibility,
        count: 3,
        head_uuid: session.head,
      });
      expect(full.body).toEqual({ ...metaReply.body, records: session.records });
      expect(listedIds(listed)).toContain(session.id);
    } else {
      // Exactly what an id that never existed answers: existence is not revealed.
      const missing = newSessionId('missing');
      const absent = await meta(actor, missing);
      expect(metaReply.body).toEqual(absent.body);
      expect(full.body).toEqual((await read(actor, missing)).body);
      expect(metaReply.body).toEqual({ detail: expect.any(String) });
      if (listed.status === 200) expect(listedIds(listed)).not.toContain(session.id);
    }
  });

  test('a stranger asking for an unknown session id gets the same 404 as for a hidden one', async () => {
    const stranger = w.actors['an outsider'];
    const hidden = await meta(stranger, w.priv.id);
    const unknown = await meta(stranger, 'never-existed');
    expect({ status: hidden.status, body: hidden.body }).toEqual({ status: unknown.status, body: unknown.body });
    expect(hidden.status).toBe(404);
  });
});

describe('only the owner writes', () => {
  let w: World;
  beforeAll(async () => {
    w = await makeWorld();
  });

  const cases: [string, Who, 'private' | 'lab', 403 | 404][] = [
    ['a lab member who can view', 'a lab member', 'lab', 403],
    ['a mentor who can view', 'a mentor', 'lab', 403],
    ['an admin (who can view)', 'an admin', 'lab', 403],
    ['an admin (who can view)', 'an admin', 'private', 403],
    ['a lab member', 'a lab member', 'private', 404],
    ['a mentor', 'a mentor', 'private', 404],
    ['an outsider', 'an outsider', 'lab', 404],
    ['an outsider', 'an outsider', 'private', 404],
    ['a member of another lab', 'a member of another lab', 'lab', 404],
    ['someone who left the lab', 'someone who left the lab', 'lab', 404],
  ];

  test.each(cases.map(([label, who, visibility, status]) => ({ label, who, visibility, status })))(
    '$label appending, covering, setting visibility or deleting a $visibility session → $status, and nothing changes',
    async ({ who, visibility, status }) => {
      const actor = w.actors[who];
      const session = visibility === 'lab' ? w.shared : w.priv;
      const before = await stored(session.id);
      const ownerBytes = await usedBytes(w.owner.id);
      const actorBytes = actor.id ? await usedBytes(actor.id) : null;

      const replies = {
        'append on the head': await append(actor, session.id, session.head, chain(2, session.head)),
        'append on null': await append(actor, session.id, null, chain(1)),
        'append with a title': await append(actor, session.id, session.head, chain(1, session.head), { title: 'taken over' }),
        cover: await cover(actor, session.id, chain(1)),
        'cover to nothing': await cover(actor, session.id, []),
        'visibility private': await setVisibility(actor, session.id, { visibility: 'private' }),
        'visibility lab': await setVisibility(actor, session.id, { visibility: 'lab', lab_id: w.lab.id }),
        delete: await remove(actor, session.id),
      };
      expect(Object.fromEntries(Object.entries(replies).map(([what, r]) => [what, r.status]))).toEqual(
        Object.fromEntries(Object.keys(replies).map((what) => [what, status])),
      );
      for (const reply of Object.values(replies)) expect(reply.body).toEqual({ detail: expect.any(String) });

      expect(await stored(session.id)).toEqual(before);
      expect(await usedBytes(w.owner.id)).toBe(ownerBytes);
      if (actor.id) expect(await usedBytes(actor.id)).toBe(actorBytes);
    },
  );

  test('an outsider appending (with a lab and title of their own) to a session id someone else owns → 404, the session stays the owner’s', async () => {
    const outsider = await makeUser(t);
    const outsiderLab = await makeLab(t, { owner: outsider });
    const session = await makeSession(w.owner, { title: 'mine' });
    const before = await stored(session.id);
    for (const base of [null, session.head, 'anything']) {
      const reply = await append(outsider, session.id, base, chain(2, base), { lab_id: outsiderLab.id, title: 'theirs' });
      expectStatus(reply, 404);
    }
    expectStatus(await cover(outsider, session.id, chain(1), { lab_id: outsiderLab.id, title: 'theirs' }), 404);
    expect(await stored(session.id)).toEqual(before);
    expect(before.row).toMatchObject({ owner_id: w.owner.id, title: 'mine', lab_id: null });
    expect(await usedBytes(outsider.id)).toBe(0);
    expect(listedIds(await list(outsider))).toEqual([]);
  });

  test('the owner deletes their session → 204; afterwards it is 404 for everyone and its records are gone', async () => {
    const session = await makeSession(w.owner, { lab: w.lab, shared: true });
    const reply = await remove(w.owner, session.id);
    expect(reply.status).toBe(204);
    expect(reply.text).toBe('');
    for (const actor of [w.owner, admin(), w.actors['a lab member']]) {
      expectStatus(await meta(actor, session.id), 404);
      expectStatus(await read(actor, session.id), 404);
    }
    expectStatus(await remove(w.owner, session.id), 404);
    expect(await sql('select 1 from trajectory_records where session_id = $1', [session.id])).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Visibility
// ---------------------------------------------------------------------------------------------

describe('visibility', () => {
  test('the owner sets lab without an active lab → 409 (no lab, a pending lab, a left lab, an unknown lab, a suspended lab), nothing changes', async () => {
    const owner = await makeUser(t);
    const pendingLab = await makeLab(t);
    await t.call('POST', '/api/labs/join', { token: owner.token, body: { code: pendingLab.code } });
    const leftLab = await makeLab(t);
    await addMember(t, leftLab, owner);
    await t.call('DELETE', `/api/labs/${leftLab.id}/membership`, { token: owner.token });
    const suspendedLab = await makeLab(t);
    await addMember(t, suspendedLab, owner);
    const session = await makeSession(owner, { lab: suspendedLab });
    await t.call('PATCH', `/api/admin/labs/${suspendedLab.id}`, { token: t.adminToken, body: { status: 'suspended' } });
    const loose = await makeSession(owner);
    const before = [await stored(session.id), await stored(loose.id)];

    const replies = [
      await setVisibility(owner, loose.id, { visibility: 'lab' }), // no lab at all
      await setVisibility(owner, loose.id, { visibility: 'lab', lab_id: null }),
      await setVisibility(owner, loose.id, { visibility: 'lab', lab_id: pendingLab.id }),
      await setVisibility(owner, loose.id, { visibility: 'lab', lab_id: leftLab.id }),
      await setVisibility(owner, loose.id, { visibility: 'lab', lab_id: 'lab_doesnotexist' }),
      await setVisibility(owner, session.id, { visibility: 'lab' }), // its own lab, suspended
    ];
    expect(replies.map((r) => r.status)).toEqual(replies.map(() => 409));
    for (const reply of replies) expect(reply.body).toEqual({ detail: expect.any(String) });
    expect([await stored(session.id), await stored(loose.id)]).toEqual(before);
  });

  test('the owner shares with their lab → lab members see it; back to private → they get 404 again', async () => {
    const lab = await makeLab(t);
    const [owner, member, outsider] = [await makeUser(t), await makeUser(t), await makeUser(t)];
    await addMember(t, lab, owner);
    await addMember(t, lab, member);
    const session = await makeSession(owner);
    expectStatus(await meta(member, session.id), 404);

    const shared = await setVisibility(owner, session.id, { visibility: 'lab', lab_id: lab.id });
    expectStatus(shared, 200);
    expect(Object.keys(shared.body).sort()).toEqual(META_KEYS);
    expect(shared.body).toMatchObject({ session_id: session.id, visibility: 'lab', lab_id: lab.id, owner_id: owner.id, count: 3 });
    expect((await read(member, session.id)).body.records).toEqual(session.records);
    expect(listedIds(await list(member, { lab_id: lab.id }))).toEqual([session.id]);
    expectStatus(await meta(outsider, session.id), 404);

    const again = await setVisibility(owner, session.id, { visibility: 'private' });
    expectStatus(again, 200);
    expect(again.body).toMatchObject({ visibility: 'private' });
    expectStatus(await meta(member, session.id), 404);
    expectStatus(await read(member, session.id), 404);
    expect(listedIds(await list(member, { lab_id: lab.id }))).toEqual([]);

    // Lab given by the session itself: a session written into the lab can be shared without naming it.
    const inLab = await makeSession(owner, { lab });
    expect((await setVisibility(owner, inLab.id, { visibility: 'lab' })).body).toMatchObject({ visibility: 'lab', lab_id: lab.id });
    expectStatus(await meta(member, inLab.id), 200);
  });
});

// ---------------------------------------------------------------------------------------------
// Reconcile
// ---------------------------------------------------------------------------------------------

describe('reconcile', () => {
  test('archives only the caller’s own active sessions absent from the list, re-activates listed ones, deletes nothing, ignores others’ sessions', async () => {
    const [me, other] = [await makeUser(t), await makeUser(t)];
    const [a, b, c] = [await makeSession(me), await makeSession(me), await makeSession(me)];
    const theirs = await makeSession(other);
    const theirsArchived = await makeSession(other);
    expect((await reconcile(other, [theirs.id])).body).toEqual({ archived: [theirsArchived.id], reactivated: [] });
    const recordCount = async () => (await sql<{ n: number }>('select count(*)::int as n from trajectory_records')).at(0)!.n;
    const rowsBefore = await recordCount();

    // c is absent: archived. Another user's ids in my list change nothing of theirs.
    const first = await reconcile(me, [a.id, b.id, theirsArchived.id]);
    expect(first).toMatchObject({ status: 200, body: { archived: [c.id], reactivated: [] } });
    expect((await meta(me, c.id)).body.archived_at).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/));
    expect((await meta(me, a.id)).body.archived_at).toBeNull();
    expect((await meta(other, theirs.id)).body.archived_at).toBeNull();
    expect((await meta(other, theirsArchived.id)).body.archived_at).not.toBeNull();
    expect(listedIds(await list(me))).toEqual([a.id, b.id].sort());

    // Again with the same list: nothing more to do.
    expect((await reconcile(me, [a.id, b.id])).body).toEqual({ archived: [], reactivated: [] });

    // c is listed again: re-activated; the empty list then archives everything of mine, and only mine.
    expect((await reconcile(me, [a.id, b.id, c.id])).body).toEqual({ archived: [], reactivated: [c.id] });
    expect((await meta(me, c.id)).body.archived_at).toBeNull();
    expect((await reconcile(me, [])).body).toEqual({ archived: [a.id, b.id, c.id].sort(), reactivated: [] });
    expect((await meta(other, theirs.id)).body.archived_at).toBeNull();
    expect(listedIds(await list(me))).toEqual([]);

    // Nothing was deleted, and archived sessions still read in full.
    expect(await recordCount()).toBe(rowsBefore);
    expect((await read(me, a.id)).body.records).toEqual(a.records);

    // Writing an archived session makes it active again: append and cover-write alike.
    expect(await append(me, a.id, a.head, chain(1, a.head))).toMatchObject({ status: 200, body: { appended: 1 } });
    expect((await meta(me, a.id)).body.archived_at).toBeNull();
    expect(await cover(me, b.id, chain(2))).toMatchObject({ status: 200, body: { count: 2 } });
    expect((await meta(me, b.id)).body.archived_at).toBeNull();
    expect((await meta(me, c.id)).body.archived_at).not.toBeNull();
    expect(listedIds(await list(me))).toEqual([a.id, b.id].sort());
  });
});

// ---------------------------------------------------------------------------------------------
// Fast-forward append
// ---------------------------------------------------------------------------------------------

describe('fast-forward append', () => {
  test('the first append creates the session, owned by the caller; the next must name the head', async () => {
    const owner = await makeUser(t);
    const id = newSessionId();
    const first = chain(2);
    const created = await append(owner, id, null, first, { title: 'Run 1' });
    expect(created).toMatchObject({ status: 200, body: { session_id: id, head_uuid: first[1].uuid, count: 2, appended: 2 } });
    expect(Object.keys(created.body).sort()).toEqual(['appended', 'count', 'head_uuid', 'session_id']);
    expect((await meta(owner, id)).body).toMatchObject({
      owner_id: owner.id,
      title: 'Run 1',
      visibility: 'private',
      lab_id: null,
      count: 2,
      head_uuid: first[1].uuid,
      bytes: bytesOf(first),
      source: 'api',
    });

    const stale = await append(owner, id, first[0].uuid, chain(1));
    expect({ status: stale.status, body: stale.body }).toEqual({
      status: 409,
      body: { detail: 'not a fast-forward', head_uuid: first[1].uuid, count: 2 },
    });
    const fromScratch = await append(owner, id, null, chain(1));
    expect({ status: fromScratch.status, body: fromScratch.body }).toEqual({
      status: 409,
      body: { detail: 'not a fast-forward', head_uuid: first[1].uuid, count: 2 },
    });

    const next = chain(1, first[1].uuid);
    expect((await append(owner, id, first[1].uuid, next)).body).toEqual({ session_id: id, head_uuid: next[0].uuid, count: 3, appended: 1 });
    expect((await read(owner, id)).body.records).toEqual([...first, ...next]);
  });

  test.each([
    ['an existing session, base = its head', 2],
    ['a new session, base = null', 0],
  ])(
    '50 concurrent appends on %s, each a different batch → exactly one 200 and 49 × 409 with the head; storage stays consistent',
    async (_what, seed) => {
      const owner = await makeUser(t);
      const id = newSessionId('race');
      let base: string | null = null;
      let seeded: Rec[] = [];
      if (seed) {
        seeded = chain(seed);
        expectStatus(await append(owner, id, null, seeded), 200);
        base = last(seeded).uuid;
      }
      const batches = Array.from({ length: 50 }, (_, i) => chain(1 + (i % 3), base, `b${i}`));
      const replies = await Promise.all(batches.map((batch) => append(owner, id, base, batch)));

      const winners = replies.map((r, i) => [r, i] as const).filter(([r]) => r.status === 200);
      expect(replies.map((r) => r.status).sort()).toEqual([...Array(49).fill(409), 200].sort());
      const [winner, index] = winners[0];
      const won = batches[index];
      const count = seed + won.length;
      expect(winner.body).toEqual({ session_id: id, head_uuid: last(won).uuid, count, appended: won.length });
      for (const loser of replies.filter((r) => r.status === 409)) {
        expect(loser.body).toEqual({ detail: 'not a fast-forward', head_uuid: last(won).uuid, count });
      }

      const rows = await sql<{ seq: number; uuid: string; bytes: number }>(
        'select seq, uuid, bytes from trajectory_records where session_id = $1 order by seq',
        [id],
      );
      expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
      expect(new Set(rows.map((r) => r.uuid)).size).toBe(rows.length);
      expect(rows.map((r) => r.uuid)).toEqual([...seeded, ...won].map((r) => r.uuid));
      const m = (await meta(owner, id)).body;
      expect({ count: m.count, head_uuid: m.head_uuid, bytes: m.bytes }).toEqual({
        count: rows.length,
        head_uuid: last(rows).uuid,
        bytes: rows.reduce((sum, r) => sum + r.bytes, 0),
      });
      expect(m.bytes).toBe(bytesOf([...seeded, ...won]));
      expect(await usedBytes(owner.id)).toBe(m.bytes);
    },
  );

  test('a retried append (same records, same base, after it landed) → 200 with appended 0, nothing stored twice', async () => {
    const owner = await makeUser(t);
    const id = newSessionId();
    const first = chain(2);
    const firstReply = await append(owner, id, null, first);
    // Retrying the very first batch (base null, the batch is the whole session).
    const firstRetry = await append(owner, id, null, first);
    expect(firstRetry).toMatchObject({ status: 200, body: { session_id: id, head_uuid: last(first).uuid, count: 2, appended: 0 } });
    expect(firstReply.body).toMatchObject({ appended: 2 });

    const second = chain(3, last(first).uuid);
    expect((await append(owner, id, last(first).uuid, second)).body).toMatchObject({ appended: 3, count: 5 });
    const before = await stored(id);
    const used = await usedBytes(owner.id);
    const retry = await append(owner, id, last(first).uuid, second);
    expect({ status: retry.status, body: retry.body }).toEqual({
      status: 200,
      body: { session_id: id, head_uuid: last(second).uuid, count: 5, appended: 0 },
    });
    expect(await stored(id)).toEqual(before);
    expect(await usedBytes(owner.id)).toBe(used);
    expect((await read(owner, id)).body.records).toEqual([...first, ...second]);

    // A batch that is not the tail any more (an older one) is not a retry.
    const old = await append(owner, id, null, first);
    expect({ status: old.status, body: old.body }).toEqual({
      status: 409,
      body: { detail: 'not a fast-forward', head_uuid: last(second).uuid, count: 5 },
    });
    expect(await stored(id)).toEqual(before);
  });

  test('a first append with a lab_id the caller is not active in → 409 and no session is created', async () => {
    const user = await makeUser(t);
    const foreign = await makeLab(t);
    const pending = await makeLab(t);
    await t.call('POST', '/api/labs/join', { token: user.token, body: { code: pending.code } });
    const left = await makeLab(t);
    await addMember(t, left, user);
    await t.call('DELETE', `/api/labs/${left.id}/membership`, { token: user.token });
    for (const labId of [foreign.id, pending.id, left.id, 'lab_doesnotexist']) {
      const id = newSessionId();
      const reply = await append(user, id, null, chain(2), { lab_id: labId });
      expectStatus(reply, 409);
      expect(reply.body).toEqual({ detail: expect.any(String) });
      expectStatus(await meta(user, id), 404);
      expect(await sql('select 1 from trajectories where id = $1', [id])).toEqual([]);
      const covered = await cover(user, id, chain(1), { lab_id: labId });
      expectStatus(covered, 409);
      expect(await sql('select 1 from trajectories where id = $1', [id])).toEqual([]);
    }
    expect(await usedBytes(user.id)).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------
// A bad batch is refused whole
// ---------------------------------------------------------------------------------------------

describe('a batch that breaks a rule is refused whole', () => {
  let owner: TestUser;
  let session: Session;
  beforeAll(async () => {
    owner = await makeUser(t);
    session = await makeSession(owner, { n: 2 });
  });

  const fresh = () => rec(newUuid('ok'), { text: 'fine' });
  const cases: [string, () => unknown[], number, (string | number)[]][] = [
    ['a uuid twice in the batch', () => [fresh(), rec('twice'), fresh(), rec('twice')], 422, ['body', 'records', 3, 'uuid']],
    ['a record that is a number', () => [fresh(), 5], 422, ['body', 'records', 1]],
    ['a record that is a string', () => [fresh(), '{"uuid":"s","type":"user"}'], 422, ['body', 'records', 1]],
    ['a record that is an array', () => [[{ uuid: 'a', type: 'user' }], fresh()], 422, ['body', 'records', 0]],
    ['a record that is null', () => [fresh(), null], 422, ['body', 'records', 1]],
    ['a record without uuid', () => [fresh(), { type: 'user', text: 'no id' }], 422, ['body', 'records', 1, 'uuid']],
    ['a record with an empty uuid', () => [fresh(), { uuid: '', type: 'user' }], 422, ['body', 'records', 1, 'uuid']],
    ['a record with a numeric uuid', () => [fresh(), { uuid: 7, type: 'user' }], 422, ['body', 'records', 1, 'uuid']],
    ['a record without type', () => [fresh(), { uuid: newUuid() }], 422, ['body', 'records', 1, 'type']],
    ['a record with a non-string type', () => [fresh(), { uuid: newUuid(), type: 3 }], 422, ['body', 'records', 1, 'type']],
  ];

  test.each(cases.map(([what, batch, status, loc]) => ({ what, batch, status, loc })))(
    '$what → $status, nothing stored, storage unchanged',
    async ({ batch, status, loc }) => {
      const before = await stored(session.id);
      const used = await usedBytes(owner.id);
      for (const reply of [await append(owner, session.id, session.head, batch()), await cover(owner, session.id, batch())]) {
        expectStatus(reply, status);
        expect(reply.body.detail[0].loc).toEqual(loc);
      }
      // On a new session id: not even the session is created.
      const id = newSessionId();
      expectStatus(await append(owner, id, null, batch()), status);
      expect(await sql('select 1 from trajectories where id = $1', [id])).toEqual([]);
      expect(await stored(session.id)).toEqual(before);
      expect(await usedBytes(owner.id)).toBe(used);
    },
  );

  test('a record uuid already in the session (not a retry) → 409, nothing stored, storage unchanged', async () => {
    const before = await stored(session.id);
    const used = await usedBytes(owner.id);
    const reply = await append(owner, session.id, session.head, [fresh(), rec(session.records[0].uuid, { text: 'again' }), fresh()]);
    expectStatus(reply, 409);
    expect(reply.body).toEqual({ detail: expect.any(String) });
    expect(await stored(session.id)).toEqual(before);
    expect(await usedBytes(owner.id)).toBe(used);
  });

  test('over the storage quota → 413 on append and cover-write, nothing stored, storage unchanged; a write that fits passes', async () => {
    const user = await makeUser(t);
    const mine = await makeSession(user, { n: 2 });
    const used = await usedBytes(user.id);
    expect(used).toBe(bytesOf(mine.records));
    const patched = await t.call('PATCH', `/api/admin/users/${user.id}`, {
      token: t.adminToken,
      body: { storage_quota_bytes: used + 500 },
    });
    expectStatus(patched, 200);
    const before = await stored(mine.id);

    const tooBig = [rec(newUuid(), { text: 'x'.repeat(300) }), rec(newUuid(), { text: 'y'.repeat(300) })];
    const replies = [await append(user, mine.id, mine.head, tooBig), await cover(user, mine.id, [...mine.records, ...tooBig])];
    const newId = newSessionId();
    replies.push(await append(user, newId, null, tooBig));
    for (const reply of replies) {
      expectStatus(reply, 413);
      expect(reply.body).toEqual({ detail: expect.any(String) });
    }
    expect(await stored(mine.id)).toEqual(before);
    expect(await sql('select 1 from trajectories where id = $1', [newId])).toEqual([]);
    expect(await usedBytes(user.id)).toBe(used);

    const fits = [rec(newUuid(), { text: 'z'.repeat(100) })];
    expect(await append(user, mine.id, mine.head, fits)).toMatchObject({ status: 200, body: { appended: 1 } });
    expect(await usedBytes(user.id)).toBe(used + bytesOf(fits));
  });
});

describe('a new trajectory of no lab (made in one statement)', () => {
  test('the first batch makes it with its head, count and bytes, charges the owner, records usage for no lab; the same batch again lands once; another owner cannot take its id', async () => {
    const user = await makeUser(t);
    const other = await makeUser(t);
    const id = newSessionId();
    const batch = chain(3).map((r, i) =>
      i === 2 ? { ...r, type: 'assistant', message: { usage: { input_tokens: 40, output_tokens: 4 } } } : r,
    );
    const before = await usedBytes(user.id);
    expect(await append(user, id, null, batch, { title: 'first' })).toMatchObject({
      status: 200,
      body: { appended: 3, count: 3, head_uuid: last(batch).uuid },
    });
    expect(
      await sql('select owner_id, lab_id, title, count, head_uuid, bytes::float8 as bytes from trajectories where id = $1', [id]),
    ).toEqual([{ owner_id: user.id, lab_id: null, title: 'first', count: 3, head_uuid: last(batch).uuid, bytes: bytesOf(batch) }]);
    expect(
      (await sql('select seq, uuid from trajectory_records where session_id = $1 order by seq', [id])).map((r) => [r.seq, r.uuid]),
    ).toEqual(batch.map((r, i) => [i + 1, r.uuid]));
    expect(await usedBytes(user.id)).toBe(before + bytesOf(batch));
    expect(
      await sql(
        `select user_id, lab_id, tokens_in::float8 as tokens_in, tokens_out::float8 as tokens_out from usage_entries where session_id = $1 and source = 'trajectory'`,
        [id],
      ),
    ).toEqual([{ user_id: user.id, lab_id: null, tokens_in: 40, tokens_out: 4 }]);

    expect(await append(user, id, null, batch)).toMatchObject({ status: 200, body: { appended: 0, count: 3 } });
    expect(await usedBytes(user.id)).toBe(before + bytesOf(batch));
    const taken = await append(other, id, null, chain(1));
    expect([403, 404]).toContain(taken.status);
    expect(await sql('select count(*)::int as n from trajectory_records where session_id = $1', [id])).toEqual([{ n: 3 }]);
  });
});

// ---------------------------------------------------------------------------------------------
// Reading: since, byte-exact text, download
// ---------------------------------------------------------------------------------------------

/** Records as odd as JSON allows: whitespace, key order, escapes, numbers as written, non-ASCII. */
const ODD = [
  String.raw`{"type":"user",   "uuid":"odd-1" ,"zeta":1,"alpha":{"b":2,"a":1},"parentUuid":null}`,
  String.raw`{	"uuid" : "odd-2",   "parentUuid":"odd-1", "type":"assistant", "text":"caf\u00e9 \ud83d\ude00 \"q\" \\ \/ \n\t"}`,
  String.raw`{"uuid":"odd-3","parentUuid":"odd-2","type":"tool_result","text":"日本語 – émoji 😀 ∑ Ünïcödé","n":1.50,"e":1E+2,"neg":-0.0,"arr":[ 1 ,2,[ ]],"empty":{ }}`,
  String.raw`{"uuid":"odd-4","type":"some-unknown-type","nested":{"records":[1,2]},"s":"]},{\"uuid\":\"fake\"}","records":"not the batch"}`,
];

describe('reading', () => {
  test('append then read with since=<old head> → exactly the new records; since the head → none; unknown since → 404', async () => {
    const owner = await makeUser(t);
    const session = await makeSession(owner, { n: 3 });
    const more = chain(2, session.head);
    expectStatus(await append(owner, session.id, session.head, more), 200);

    const after = await read(owner, session.id, { since: session.head });
    expectStatus(after, 200);
    expect(after.body.records).toEqual(more);
    expect(after.body).toMatchObject({ count: 5, head_uuid: last(more).uuid });
    expect((await read(owner, session.id, { since: session.records[0].uuid })).body.records).toEqual([
      ...session.records.slice(1),
      ...more,
    ]);
    expect((await read(owner, session.id, { since: last(more).uuid })).body.records).toEqual([]);
    expect((await read(owner, session.id)).body.records).toEqual([...session.records, ...more]);

    const downloaded = await read(owner, session.id, { since: session.head, download: 'true' });
    expect(downloaded.text).toBe(more.map((r) => `${JSON.stringify(r)}\n`).join(''));

    const other = await makeSession(owner, { n: 1 });
    for (const since of ['no-such-uuid', other.head]) {
      const unknown = await read(owner, session.id, { since });
      expectStatus(unknown, 404);
      expect(unknown.body).toEqual({ detail: expect.any(String) });
    }
  });

  test('records come back byte for byte: whitespace, key order, escapes, numbers, non-ASCII (append and cover-write)', async () => {
    const owner = await makeUser(t);
    const id = newSessionId();
    const rawBody = `{ "title" : "\\"records\\": [1]" ,\n "records" :\n [ ${ODD.slice(0, 3).join(' ,\n\t')} ] , "base_uuid":null }`;
    const first = await t.call('PUT', path(id, '/append'), { token: owner.token, rawBody });
    expect(first).toMatchObject({ status: 200, body: { appended: 3, head_uuid: 'odd-3', count: 3 } });
    const next = await t.call('PUT', path(id, '/append'), {
      token: owner.token,
      rawBody: `{"base_uuid":"odd-3","records":[\r\n${ODD[3]}\r\n]}`,
    });
    expect(next).toMatchObject({ status: 200, body: { appended: 1, count: 4 } });
    // Whitespace between the tokens of a record, newlines included, is part of its bytes.
    const multiline = `{\n  "uuid": "odd-5",\r\n  "type": "user",\n\t"parentUuid": "odd-4"\n}`;
    expectStatus(
      await t.call('PUT', path(id, '/append'), { token: owner.token, rawBody: `{"base_uuid":"odd-4","records":[${multiline}]}` }),
      200,
    );
    const all = [...ODD, multiline];

    const reply = await read(owner, id);
    expectStatus(reply, 200);
    for (const raw of all) expect(reply.text).toContain(raw);
    expect(reply.text).toContain(`"records":[${all.join(',')}]`);
    expect(reply.body.records).toEqual(all.map((raw) => JSON.parse(raw)));
    expect(reply.body.title).toBe('"records": [1]');
    expect((await meta(owner, id)).body.bytes).toBe(all.reduce((sum, raw) => sum + Buffer.byteLength(raw), 0));
    expect((await stored(id)).records.map((r: { raw: string }) => r.raw)).toEqual(all);

    const since = await read(owner, id, { since: 'odd-1' });
    expect(since.text).toContain(`"records":[${all.slice(1).join(',')}]`);

    // A cover-write stores its records the same way.
    const coverId = newSessionId();
    const covered = await t.call('PUT', path(coverId, '/full'), { token: owner.token, rawBody: `{"records":[ ${ODD.join(' , ')} ]}` });
    expect(covered).toMatchObject({ status: 200, body: { count: 4, head_uuid: 'odd-4' } });
    expect((await read(owner, coverId)).text).toContain(`"records":[${ODD.join(',')}]`);
  });

  test('a record over 256 KiB is accepted and served back exactly (JSON, since and download)', async () => {
    const owner = await makeUser(t);
    const session = await makeSession(owner, { n: 1 });
    const body = 'é日x\\"'.repeat(60 * 1024); // ~ 420 KiB of UTF-8 with escapes
    const big = `{ "uuid" : "big-1", "parentUuid": "${session.head}", "type":"tool_result",  "blob":"${body}" }`;
    const small = String.raw`{"uuid":"after-big","parentUuid":"big-1","type":"assistant"}`;
    expect(Buffer.byteLength(big)).toBeGreaterThan(256 * 1024);
    const appended = await t.call('PUT', path(session.id, '/append'), {
      token: owner.token,
      rawBody: `{"base_uuid":"${session.head}","records":[${big},${small}]}`,
    });
    expect(appended).toMatchObject({ status: 200, body: { appended: 2, count: 3, head_uuid: 'after-big' } });

    const full = await read(owner, session.id);
    expect(full.text).toContain(`,${big},${small}]`);
    expect(full.body.records[1].blob).toBe(JSON.parse(big).blob);
    expect((await read(owner, session.id, { since: session.head })).text).toContain(`"records":[${big},${small}]`);
    const downloaded = await read(owner, session.id, { download: 'true' });
    expect(downloaded.text.split('\n')).toEqual([JSON.stringify(session.records[0]), big, small, '']);
    expect((await meta(owner, session.id)).body.bytes).toBe(bytesOf(session.records) + Buffer.byteLength(big) + Buffer.byteLength(small));
    expect(await usedBytes(owner.id)).toBe(bytesOf(session.records) + Buffer.byteLength(big) + Buffer.byteLength(small));
  });

  test('download=true → application/x-ndjson attachment named <id>.jsonl, one stored record per line', async () => {
    const owner = await makeUser(t);
    const id = newSessionId('dl');
    const oneLine = ODD.filter((raw) => !raw.includes('\n'));
    const sent = await t.call('PUT', path(id, '/append'), {
      token: owner.token,
      rawBody: `{"base_uuid":null,"records":[${oneLine.join(' ,  ')}]}`,
    });
    expectStatus(sent, 200);
    const reply = await read(owner, id, { download: 'true' });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    expect(reply.headers.get('content-disposition')).toBe(`attachment; filename="${id}.jsonl"`);
    expect(reply.text).toBe(oneLine.map((raw) => `${raw}\n`).join(''));
    expect(reply.text.split('\n').slice(0, -1)).toEqual(oneLine);

    // download=false is the JSON answer.
    const json = await read(owner, id, { download: 'false' });
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(json.body.records).toHaveLength(oneLine.length);

    // An empty session downloads as an empty file; a hidden one is 404, not an empty file.
    const empty = newSessionId('empty');
    expectStatus(await cover(owner, empty, []), 200);
    const nothing = await read(owner, empty, { download: 'true' });
    expect({ status: nothing.status, text: nothing.text }).toEqual({ status: 200, text: '' });
    const stranger = await makeUser(t);
    const hidden = await read(stranger, id, { download: 'true' });
    expectStatus(hidden, 404);
    expect(hidden.headers.get('content-disposition')).toBeNull();
  });

  test('download=true writes a record sent across lines on one line with its values as sent (numbers are not re-encoded)', async () => {
    const owner = await makeUser(t);
    const id = newSessionId('dl');
    const multiline = `{\r\n  "uuid": "num-1",\n  "type": "tool_result",\n  "values": [1.0, 1e5, -0,\n 12345678901234567890123],\n  "text": "a\\nb"\n}`;
    expectStatus(
      await t.call('PUT', path(id, '/append'), { token: owner.token, rawBody: `{"base_uuid":null,"records":[${multiline}]}` }),
      200,
    );
    const reply = await read(owner, id, { download: 'true' });
    expect(reply.text).toBe(
      `{  "uuid": "num-1",  "type": "tool_result",  "values": [1.0, 1e5, -0, 12345678901234567890123],  "text": "a\\nb"}\n`,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Storage accounting, usage
// ---------------------------------------------------------------------------------------------

describe('storage accounting', () => {
  test('storage_used_bytes rises by the record bytes on append, follows cover-writes down and up, drops back on delete; the session’s bytes match', async () => {
    const owner = await makeUser(t);
    expect(await usedBytes(owner.id)).toBe(0);
    const keep = await makeSession(owner, { n: 2 });
    const kept = bytesOf(keep.records);
    expect(await usedBytes(owner.id)).toBe(kept);

    const id = newSessionId();
    const a = chain(3);
    expectStatus(await append(owner, id, null, a), 200);
    expect(await usedBytes(owner.id)).toBe(kept + bytesOf(a));
    const b = chain(2, last(a).uuid).map((r) => ({ ...r, text: 'ü'.repeat(1000) }));
    expectStatus(await append(owner, id, last(a).uuid, b), 200);
    expect(await usedBytes(owner.id)).toBe(kept + bytesOf([...a, ...b]));
    expect((await meta(owner, id)).body.bytes).toBe(bytesOf([...a, ...b]));

    const smaller = chain(1);
    expect(await cover(owner, id, smaller)).toMatchObject({ status: 200, body: { count: 1, head_uuid: smaller[0].uuid } });
    expect(await usedBytes(owner.id)).toBe(kept + bytesOf(smaller));
    expect((await meta(owner, id)).body).toMatchObject({ bytes: bytesOf(smaller), count: 1 });
    expect((await read(owner, id)).body.records).toEqual(smaller);

    const bigger = chain(4).map((r) => ({ ...r, text: '漢'.repeat(700) }));
    expectStatus(await cover(owner, id, bigger), 200);
    expect(await usedBytes(owner.id)).toBe(kept + bytesOf(bigger));
    expect((await meta(owner, id)).body.bytes).toBe(bytesOf(bigger));

    expectStatus(await cover(owner, id, []), 200);
    expect(await usedBytes(owner.id)).toBe(kept);
    expect((await meta(owner, id)).body).toMatchObject({ bytes: 0, count: 0, head_uuid: null });
    expectStatus(await append(owner, id, null, a), 200);
    expect(await usedBytes(owner.id)).toBe(kept + bytesOf(a));

    expect((await remove(owner, id)).status).toBe(204);
    expect(await usedBytes(owner.id)).toBe(kept);
    expect((await remove(owner, keep.id)).status).toBe(204);
    expect(await usedBytes(owner.id)).toBe(0);
  });
});

describe('usage', () => {
  test('message.usage tokens of records on a session with a lab feed the lab owner’s usage report (counts only, a retry counts once)', async () => {
    const lab = await makeLab(t);
    const member = await makeUser(t, { name: 'Counter' });
    await addMember(t, lab, member);
    const id = newSessionId('usage');
    const batch = [
      rec(newUuid(), { type: 'user', message: { role: 'user', content: 'secret question' } }),
      rec(newUuid(), {
        type: 'assistant',
        message: { role: 'assistant', content: 'secret answer', usage: { input_tokens: 100, output_tokens: 7 } },
      }),
      rec(newUuid(), { type: 'assistant', message: { usage: { input_tokens: 20, output_tokens: 3, cache_read_input_tokens: 999 } } }),
    ];
    expectStatus(await append(member, id, null, batch, { lab_id: lab.id }), 200);
    expectStatus(await append(member, id, null, batch, { lab_id: lab.id }), 200); // a retry: no second count
    // A session without a lab feeds no lab.
    await append(member, newSessionId(), null, [rec(newUuid(), { message: { usage: { input_tokens: 5000, output_tokens: 5000 } } })]);

    const report = await t.call('GET', `/api/labs/${lab.id}/usage`, { token: lab.owner.token });
    expectStatus(report, 200);
    const row = report.body.members.find((m: { member_user_id: string }) => m.member_user_id === member.id);
    expect(row).toMatchObject({ tokens_in: 120, tokens_out: 10, sessions: 1 });
    expect(report.body.totals).toMatchObject({ tokens_in: 120, tokens_out: 10, sessions: 1 });
    expect(report.text).not.toContain('secret');

    const more = [
      rec(newUuid(), { parentUuid: last(batch).uuid, type: 'assistant', message: { usage: { input_tokens: 1, output_tokens: 2 } } }),
    ];
    expectStatus(await append(member, id, last(batch).uuid, more), 200);
    const after = await t.call('GET', `/api/labs/${lab.id}/usage`, { token: lab.owner.token });
    expect(after.body.totals).toMatchObject({ tokens_in: 121, tokens_out: 12, sessions: 1 });
  });

  test('a cover-write re-sending records already counted does not count their tokens again (the report follows the records)', async () => {
    const lab = await makeLab(t);
    const member = await makeUser(t);
    await addMember(t, lab, member);
    const id = newSessionId('usage');
    const records = [rec(newUuid(), { type: 'assistant', message: { usage: { input_tokens: 10, output_tokens: 1 } } })];
    expectStatus(await append(member, id, null, records, { lab_id: lab.id }), 200);
    // A client that lost its sync state re-sends the whole session, twice.
    expectStatus(await cover(member, id, records), 200);
    expectStatus(await cover(member, id, records), 200);
    const report = await t.call('GET', `/api/labs/${lab.id}/usage`, { token: lab.owner.token });
    expect(report.body.totals).toMatchObject({ tokens_in: 10, tokens_out: 1, sessions: 1 });
  });
});

describe('a member who left or was revoked', () => {
  const usageRows = (sessionId: string) =>
    sql<{ lab_id: string | null; tokens_in: number }>(
      'select lab_id, tokens_in::float8 as tokens_in from usage_entries where session_id = $1 order by id',
      [sessionId],
    );
  const revoke = (lab: TestLab, user: TestUser) =>
    t.call('PATCH', `/api/labs/${lab.id}/members/${user.id}`, { token: lab.owner.token, body: { status: 'revoked' } });
  const leave = (lab: TestLab, user: TestUser) => t.call('DELETE', `/api/labs/${lab.id}/membership`, { token: user.token });
  const used = (tokens: number) => ({ type: 'assistant', message: { usage: { input_tokens: tokens, output_tokens: 1 } } });

  for (const [how, depart] of [
    ['revoked', revoke],
    ['who left', leave],
  ] as const) {
    test(`${how}: their lab-shared session stays readable by the lab as it was; writes to it are 409 and credit nothing; made private, it takes writes again, crediting no lab`, async () => {
      const lab = await makeLab(t);
      const member = await makeUser(t);
      await addMember(t, lab, member);
      const shared = await makeSession(member, { lab, shared: true });
      expectStatus(await depart(lab, member), 200);

      const next = [{ ...rec(newUuid(), { parentUuid: shared.head }), ...used(1e6) }];
      const refused = await append(member, shared.id, shared.head, next);
      expectStatus(refused, 409);
      expect(refused.body.detail).toMatch(/no longer an active member/);
      expectStatus(await cover(member, shared.id, [...shared.records, ...next]), 409);
      const asRead = await meta(lab.owner, shared.id);
      expect(asRead.body).toMatchObject({ count: 3, head_uuid: shared.head, visibility: 'lab' });
      expect(await usageRows(shared.id)).toEqual([]);

      expectStatus(await setVisibility(member, shared.id, { visibility: 'private' }), 200);
      expect(await append(member, shared.id, shared.head, next)).toMatchObject({ status: 200, body: { count: 4 } });
      expectStatus(await meta(lab.owner, shared.id), 404);
      expect(await usageRows(shared.id)).toEqual([{ lab_id: null, tokens_in: 1e6 }]);
    });
  }

  test('a private session still filed under the lab they left credits no usage to that lab', async () => {
    const lab = await makeLab(t);
    const member = await makeUser(t);
    await addMember(t, lab, member);
    const own = await makeSession(member, { lab });
    expectStatus(await revoke(lab, member), 200);
    const next = [{ ...rec(newUuid(), { parentUuid: own.head }), ...used(500) }];
    expect(await append(member, own.id, own.head, next)).toMatchObject({ status: 200, body: { count: 4 } });
    expect(await usageRows(own.id)).toEqual([{ lab_id: null, tokens_in: 500 }]);
    const report = await t.call('GET', `/api/labs/${lab.id}/usage`, { token: lab.owner.token });
    expect(report.body.totals).toMatchObject({ tokens_in: 0 });
  });

  test('implausible token counts on a record (over 10 million) are not counted', async () => {
    const lab = await makeLab(t);
    const member = await makeUser(t);
    await addMember(t, lab, member);
    const id = newSessionId('usage');
    const records = [rec(newUuid(), used(1e12)), rec(newUuid(), used(10_000_001)), rec(newUuid(), used(10_000_000))];
    expectStatus(await append(member, id, null, records, { lab_id: lab.id }), 200);
    expect(await usageRows(id)).toEqual([{ lab_id: lab.id, tokens_in: 10_000_000 }]);
  });
});

// ---------------------------------------------------------------------------------------------
// Lists
// ---------------------------------------------------------------------------------------------

describe('list filters', () => {
  let lab: TestLab;
  let ann: TestUser;
  let bob: TestUser;
  let mentor: TestUser;
  let outsider: TestUser;
  const s: Record<string, string> = {};
  beforeAll(async () => {
    lab = await makeLab(t);
    [ann, bob, mentor, outsider] = [await makeUser(t), await makeUser(t), await makeUser(t), await makeUser(t)];
    await addMember(t, lab, ann);
    await addMember(t, lab, bob);
    await addMember(t, lab, mentor, 'mentor');
    s.annPrivate = (await makeSession(ann, { lab, n: 1 })).id;
    s.annShared = (await makeSession(ann, { lab, shared: true, n: 1 })).id;
    s.annLoose = (await makeSession(ann, { n: 1 })).id;
    s.annArchived = (await makeSession(ann, { n: 1 })).id;
    const archived = await reconcile(ann, [s.annPrivate, s.annShared, s.annLoose]);
    if (archived.body?.archived?.[0] !== s.annArchived) throw new Error(`reconcile: ${archived.status} ${archived.text}`);
    s.annCli = newSessionId('cli');
    const cli = await t.call('PUT', path(s.annCli, '/append'), {
      token: ann.token,
      headers: { 'x-client-kind': 'cli' },
      body: { base_uuid: null, records: chain(1) },
    });
    if (cli.status !== 200) throw new Error(`cli append: ${cli.status} ${cli.text}`);
    s.annA2a = newSessionId('a2a');
    await sql(`insert into trajectories (id, owner_id, source) values ($1, $2, 'a2a')`, [s.annA2a, ann.id]);
    s.bobShared = (await makeSession(bob, { lab, shared: true, n: 1 })).id;
    s.bobPrivate = (await makeSession(bob, { lab, n: 1 })).id;
    s.outsiderOwn = (await makeSession(outsider, { n: 1 })).id;
  });

  test('a member’s default list → only their own active, non-a2a sessions, as metas, with total and limit 100', async () => {
    const reply = await list(ann);
    expectStatus(reply, 200);
    expect(listedIds(reply)).toEqual([s.annPrivate, s.annShared, s.annLoose, s.annCli].sort());
    expect(reply.body).toMatchObject({ total: 4, limit: 100 });
    for (const item of reply.body.items) expect(Object.keys(item).sort()).toEqual(META_KEYS);
    // Newest activity first.
    const times = reply.body.items.map((i: { updated_at: string }) => i.updated_at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  test('include_archived=1 → archived sessions too', async () => {
    const reply = await list(ann, { include_archived: 1 });
    expectStatus(reply, 200);
    expect(listedIds(reply)).toEqual([s.annPrivate, s.annShared, s.annLoose, s.annArchived, s.annCli].sort());
    expect(listedIds(await list(ann, { include_archived: 0 }))).not.toContain(s.annArchived);
  });

  test('lab_id → that lab’s sessions the caller can see (own, and others’ shared ones)', async () => {
    expect(listedIds(await list(ann, { lab_id: lab.id }))).toEqual([s.annPrivate, s.annShared, s.bobShared].sort());
    expect(listedIds(await list(bob, { lab_id: lab.id }))).toEqual([s.annShared, s.bobShared, s.bobPrivate].sort());
    expect(listedIds(await list(outsider, { lab_id: lab.id }))).toEqual([]);
  });

  test('shared_only=1 → only lab-shared sessions the caller can see', async () => {
    const reply = await list(ann, { shared_only: 1 });
    expectStatus(reply, 200);
    expect(listedIds(reply)).toEqual([s.annShared, s.bobShared].sort());
    expect(listedIds(await list(mentor, { shared_only: 1, lab_id: lab.id }))).toEqual([s.annShared, s.bobShared].sort());
    expect(listedIds(await list(outsider, { shared_only: 1 }))).toEqual([]);
  });

  test('source=cli → only that source; source=a2a → the a2a sessions, which are otherwise never listed', async () => {
    expect(listedIds(await list(ann, { source: 'cli' }))).toEqual([s.annCli]);
    expect(listedIds(await list(ann, { source: 'a2a' }))).toEqual([s.annA2a]);
    expect(listedIds(await list(ann))).not.toContain(s.annA2a);
    expect(listedIds(await list(ann, { lab_id: lab.id }))).not.toContain(s.annA2a);
  });

  test('a mentor of a shared lab uses owner= another member → that member’s shared sessions', async () => {
    const reply = await list(mentor, { owner: bob.id });
    expectStatus(reply, 200);
    expect(listedIds(reply)).toEqual([s.bobShared]);
    expect(listedIds(await list(mentor, { owner: ann.id }))).toEqual([s.annShared]);
  });

  test('a plain member (or an outsider) using owner= another member → 403', async () => {
    for (const [who, target] of [
      [ann, bob],
      [bob, ann],
      [outsider, bob],
    ] as const) {
      const reply = await list(who, { owner: target.id });
      expectStatus(reply, 403);
      expect(reply.body).toEqual({ detail: expect.any(String) });
    }
    // Their own id is fine.
    expect(listedIds(await list(ann, { owner: ann.id }))).toEqual([s.annPrivate, s.annShared, s.annLoose, s.annCli].sort());
  });

  test('limit bounds: 1 and 500 pass (total counts all), 0, 501 and abc → 422', async () => {
    const one = await list(ann, { limit: 1 });
    expectStatus(one, 200);
    expect(one.body.items).toHaveLength(1);
    expect(one.body).toMatchObject({ total: 4, limit: 1 });
    expect((await list(ann, { limit: 500 })).body).toMatchObject({ total: 4, limit: 500 });
    for (const limit of [0, 501, 'abc']) {
      const reply = await list(ann, { limit });
      expectStatus(reply, 422);
      expect(reply.body.detail[0].loc).toEqual(['query', 'limit']);
    }
  });
});
