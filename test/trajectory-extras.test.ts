import { Actor, last, META_KEYS, newSessionId, newUuid, recordsText, sessionPath as path, trajectoryCalls } from './support/trajectories';
import { addMember, makeLab, makeUser, Reply, TestLab, TestUser, useTestApp } from './support/app';

/**
 * Trajectory extras (docs/api/trajectories.md; service spec "Trajectories", "Labs", "Admin"): annotations and
 * their append-only log, review threads, the lab board, forks, rule-based critique, summaries,
 * discussion without a model, and the admin trajectory list and storage summary. Everything over
 * real HTTP; no language model is configured in tests.
 */

const t = useTestApp();

const sql = <T = any>(text: string, params: unknown[] = []) => t.sql<T>(text, params);

const admin = (): Actor => ({ token: t.adminToken });

type Rec = { uuid: string; parentUuid?: string | null; type: string; [member: string]: unknown };

/** `n` plain records chained by parentUuid (user, assistant, user, …). */
function chain(n: number, parent: string | null = null): Rec[] {
  const out: Rec[] = [];
  for (let i = 0; i < n; i++) {
    const uuid = newUuid();
    out.push({
      uuid,
      parentUuid: out.length ? out[out.length - 1].uuid : parent,
      type: i % 2 ? 'assistant' : 'user',
      message: { content: `step ${i} – café` },
    });
  }
  return out;
}

/** Links records into a chain (each one's parentUuid is the previous record's uuid). */
function linked(records: Omit<Rec, 'uuid' | 'parentUuid'>[]): Rec[] {
  const out: Rec[] = [];
  for (const record of records) out.push({ uuid: newUuid(), parentUuid: out.length ? out[out.length - 1].uuid : null, ...record } as Rec);
  return out;
}

const bytesOfRaw = (raws: string[]) => raws.reduce((sum, raw) => sum + Buffer.byteLength(raw), 0);
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const { append, read, meta, setVisibility, remove } = trajectoryCalls(t);
/** An append whose records are sent as exactly these texts (odd spacing kept: stored byte for byte). */
const appendRaw = (who: Actor, id: string, base: string | null, raws: string[]) =>
  t.call('PUT', path(id, '/append'), {
    token: who.token,
    rawBody: `{"base_uuid":${JSON.stringify(base)},"records":[ ${raws.join(' ,\n ')} ]}`,
  });

const annotate = (who: Actor, id: string, body: Record<string, unknown>) =>
  t.call('POST', path(id, '/annotations'), { token: who.token, body });
const annotations = (who: Actor, id: string) => t.call('GET', path(id, '/annotations'), { token: who.token });
const resolve = (who: Actor, id: string, annotationId: string) =>
  t.call('POST', path(id, `/annotations/${encodeURIComponent(annotationId)}/resolve`), { token: who.token });
const reviews = (who: Actor, labId: string, query?: Record<string, string | number>) =>
  t.call('GET', `/api/labs/${labId}/reviews`, { token: who.token, query });
const board = (who: Actor, labId: string, query?: Record<string, string | number>) =>
  t.call('GET', `/api/labs/${labId}/board`, { token: who.token, query });
const fork = (who: Actor, id: string, body: Record<string, unknown>) => t.call('POST', path(id, '/fork'), { token: who.token, body });
const critique = (who: Actor, id: string) => t.call('POST', path(id, '/critique'), { token: who.token });
const summarize = (who: Actor, id: string, body: Record<string, unknown>) =>
  t.call('POST', path(id, '/summary'), { token: who.token, body });
const summary = (who: Actor, id: string) => t.call('GET', path(id, '/summary'), { token: who.token });
const refresh = (who: Actor, id: string) => t.call('POST', path(id, '/summary/refresh'), { token: who.token });
const discuss = (who: Actor, id: string, body: Record<string, unknown>) => t.call('POST', path(id, '/discuss'), { token: who.token, body });
const discussions = (who: Actor, id: string) => t.call('GET', path(id, '/discussions'), { token: who.token });

function expectStatus(reply: Reply, status: number) {
  // The whole reply is printed when the status is wrong.
  expect({ status: reply.status, body: reply.body }).toEqual(expect.objectContaining({ status }));
}

/** A non-422 error: exactly `{detail: "<message>"}`. */
function expectError(reply: Reply, status: number) {
  expectStatus(reply, status);
  expect(reply.body).toEqual({ detail: expect.any(String) });
}

const usedBytes = async (userId: string) =>
  (await sql<{ used: number }>('select storage_used_bytes::float8 as used from users where id = $1', [userId]))[0].used;

interface Session {
  id: string;
  records: Rec[];
  head: string;
}

/** A session of `owner` holding `records` (default: 3 plain ones), in `lab`, shared with it when `shared`. */
async function makeSession(
  owner: Actor,
  opts: { lab?: TestLab; shared?: boolean; records?: Rec[]; title?: string; id?: string } = {},
): Promise<Session> {
  const id = opts.id ?? newSessionId();
  const records = opts.records ?? chain(3);
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

/** A user who joined `lab` (as `role`) and then left it. */
async function formerMember(lab: TestLab, role: 'member' | 'mentor' = 'member') {
  const user = await makeUser(t, { name: 'Former' });
  await addMember(t, lab, user, role);
  const left = await t.call('DELETE', `/api/labs/${lab.id}/membership`, { token: user.token });
  if (left.status !== 200) throw new Error(`leave: ${left.status} ${left.text}`);
  return user;
}

/** A lab with an owner of sessions (plain member), another member, a mentor, a former mentor, an outsider and a member of another lab. */
interface World {
  lab: TestLab;
  owner: TestUser;
  member: TestUser;
  mentor: TestUser;
  formerMentor: TestUser;
  outsider: TestUser;
  otherLabMember: TestUser;
}

async function makeWorld(): Promise<World> {
  const lab = await makeLab(t, { name: 'World lab' });
  const other = await makeLab(t, { name: 'Other lab' });
  const [owner, member, mentor, outsider, otherLabMember] = await Promise.all([
    makeUser(t, { name: 'Owner' }),
    makeUser(t, { name: 'Member' }),
    makeUser(t, { name: 'Mentor' }),
    makeUser(t, { name: 'Outsider' }),
    makeUser(t, { name: 'Other' }),
  ]);
  await addMember(t, lab, owner);
  await addMember(t, lab, member);
  await addMember(t, lab, mentor, 'mentor');
  await addMember(t, other, otherLabMember);
  const formerMentor = await formerMember(lab, 'mentor');
  return { lab, owner, member, mentor, formerMentor, outsider, otherLabMember };
}

const ANNOTATION_KEYS = [
  'annotation_id',
  'session_id',
  'record_uuid',
  'author_id',
  'body',
  'reply_to',
  'status',
  'created_at',
  'resolved_at',
  'resolved_by',
].sort();

// ---------------------------------------------------------------------------------------------
// Annotations
// ---------------------------------------------------------------------------------------------

describe('annotations', () => {
  let w: World;
  let shared: Session;
  let priv: Session;
  beforeAll(async () => {
    w = await makeWorld();
    shared = await makeSession(w.owner, { lab: w.lab, shared: true, title: 'shared' });
    priv = await makeSession(w.owner, { lab: w.lab, title: 'private' });
  });

  const entries = (annotationId: string) =>
    sql(
      'select id, session_id, annotation_id, kind, author_id, record_uuid, body, reply_to, created_at from annotation_entries where annotation_id = $1 order by id',
      [annotationId],
    );

  test('the owner annotates a record of their session (shared or private) → 201 with the annotation object of the OpenAPI document', async () => {
    for (const session of [shared, priv]) {
      const reply = await annotate(w.owner, session.id, { record_uuid: session.records[1].uuid, body: 'Why this step? ✓' });
      expectStatus(reply, 201);
      expect(Object.keys(reply.body).sort()).toEqual(ANNOTATION_KEYS);
      expect(reply.body).toEqual({
        annotation_id: expect.stringMatching(/^ann_\w+$/),
        session_id: session.id,
        record_uuid: session.records[1].uuid,
        author_id: w.owner.id,
        body: 'Why this step? ✓',
        reply_to: null,
        status: 'open',
        created_at: expect.stringMatching(ISO),
        resolved_at: null,
        resolved_by: null,
      });
    }
  });

  test('a mentor (active, role mentor) of the session’s lab annotates a shared session → 201, authored by the mentor', async () => {
    const reply = await annotate(w.mentor, shared.id, { record_uuid: shared.records[0].uuid, body: 'Check the input first.' });
    expectStatus(reply, 201);
    expect(reply.body).toMatchObject({
      session_id: shared.id,
      record_uuid: shared.records[0].uuid,
      author_id: w.mentor.id,
      status: 'open',
      reply_to: null,
    });
  });

  test('a plain lab member who can view the shared session → 403 {detail}; nothing is written', async () => {
    expectStatus(await meta(w.member, shared.id), 200); // can view
    const before = await sql('select count(*)::int as n from annotation_entries where session_id = $1', [shared.id]);
    expectError(await annotate(w.member, shared.id, { record_uuid: shared.records[0].uuid, body: 'me too' }), 403);
    expect(await sql('select count(*)::int as n from annotation_entries where session_id = $1', [shared.id])).toEqual(before);
  });

  test('someone who cannot view → 404, the same answer as an unknown session (outsider, member of another lab, mentor on a private session, a mentor who left)', async () => {
    const unknown = await annotate(w.outsider, newSessionId('missing'), { record_uuid: 'r', body: 'x' });
    expectError(unknown, 404);
    const cases: [Actor, Session][] = [
      [w.outsider, shared],
      [w.outsider, priv],
      [w.otherLabMember, shared],
      [w.mentor, priv],
      [w.member, priv],
      [w.formerMentor, shared],
    ];
    for (const [who, session] of cases) {
      const reply = await annotate(who, session.id, { record_uuid: session.records[0].uuid, body: 'hidden?' });
      expect({ status: reply.status, body: reply.body }).toEqual({ status: 404, body: unknown.body });
    }
    expect(await sql('select 1 from annotation_entries where body = $1', ['hidden?'])).toEqual([]);
  });

  test('record_uuid not in the session (unknown, or a record of another session) → 404', async () => {
    expectError(await annotate(w.owner, shared.id, { record_uuid: 'no-such-record', body: 'x' }), 404);
    expectError(await annotate(w.owner, shared.id, { record_uuid: priv.records[0].uuid, body: 'x' }), 404);
    expectError(await annotate(w.mentor, shared.id, { record_uuid: 'no-such-record', body: 'x' }), 404);
  });

  test('reply_to an existing note → 201 with reply_to; an unknown annotation, or a note of another session → 404', async () => {
    const note = await annotate(w.owner, shared.id, { record_uuid: shared.records[2].uuid, body: 'root note' });
    expectStatus(note, 201);
    const reply = await annotate(w.mentor, shared.id, {
      record_uuid: shared.records[2].uuid,
      body: 'an answer',
      reply_to: note.body.annotation_id,
    });
    expectStatus(reply, 201);
    expect(reply.body).toMatchObject({ reply_to: note.body.annotation_id, author_id: w.mentor.id, status: 'open' });

    expectError(
      await annotate(w.owner, shared.id, { record_uuid: shared.records[2].uuid, body: 'orphan', reply_to: 'ann_doesnotexist000000000000' }),
      404,
    );
    const elsewhere = await annotate(w.owner, priv.id, { record_uuid: priv.records[0].uuid, body: 'on the private one' });
    expectStatus(elsewhere, 201);
    expectError(
      await annotate(w.owner, shared.id, { record_uuid: shared.records[2].uuid, body: 'cross', reply_to: elsewhere.body.annotation_id }),
      404,
    );
    expect(await sql(`select 1 from annotation_entries where body in ('orphan', 'cross')`)).toEqual([]);
  });

  test('body "" → 422 at [body, body]; 10,001 characters → 422; exactly 10,000 → 201', async () => {
    for (const body of ['', 'x'.repeat(10_001)]) {
      const reply = await annotate(w.owner, shared.id, { record_uuid: shared.records[0].uuid, body });
      expectStatus(reply, 422);
      expect(reply.body.detail[0]).toEqual({ loc: ['body', 'body'], msg: expect.any(String), type: expect.any(String) });
    }
    const max = await annotate(w.owner, shared.id, { record_uuid: shared.records[0].uuid, body: 'é'.repeat(10_000) });
    expectStatus(max, 201);
    expect(max.body.body).toBe('é'.repeat(10_000));
  });

  test('the list shows every note of the session, oldest first, status open, for anyone who can view; others → 404', async () => {
    const session = await makeSession(w.owner, { lab: w.lab, shared: true });
    const a = await annotate(w.owner, session.id, { record_uuid: session.records[0].uuid, body: 'first' });
    const b = await annotate(w.mentor, session.id, { record_uuid: session.records[1].uuid, body: 'second' });
    for (const viewer of [w.owner, w.mentor, w.member, admin()]) {
      const reply = await annotations(viewer, session.id);
      expectStatus(reply, 200);
      expect(reply.body).toEqual({ items: [a.body, b.body], total: 2 });
      expect(reply.body.items.map((i: { status: string }) => i.status)).toEqual(['open', 'open']);
    }
    expectError(await annotations(w.outsider, session.id), 404);
    expectError(await annotations(w.member, priv.id), 404);
  });

  test('resolve → 200 status resolved with resolved_at and resolved_by; a second resolve (by anyone) changes nothing', async () => {
    const session = await makeSession(w.owner, { lab: w.lab, shared: true });
    const note = await annotate(w.owner, session.id, { record_uuid: session.records[0].uuid, body: 'to resolve' });
    expectStatus(note, 201);
    const resolved = await resolve(w.mentor, session.id, note.body.annotation_id);
    expectStatus(resolved, 200);
    expect(resolved.body).toEqual({ ...note.body, status: 'resolved', resolved_at: expect.stringMatching(ISO), resolved_by: w.mentor.id });
    expect(Date.parse(resolved.body.resolved_at)).toBeGreaterThanOrEqual(Date.parse(note.body.created_at));

    const again = await resolve(w.owner, session.id, note.body.annotation_id);
    expectStatus(again, 200);
    expect(again.body).toEqual(resolved.body);
    expect((await annotations(w.member, session.id)).body.items).toEqual([resolved.body]);
  });

  test('the annotation log stays append-only: resolve adds one `resolve` row, the `note` row is unchanged; a second resolve adds nothing', async () => {
    const session = await makeSession(w.owner, { lab: w.lab, shared: true });
    const note = await annotate(w.owner, session.id, { record_uuid: session.records[1].uuid, body: 'log me' });
    expectStatus(note, 201);
    const before = await entries(note.body.annotation_id);
    expect(before).toEqual([
      expect.objectContaining({
        kind: 'note',
        author_id: w.owner.id,
        record_uuid: session.records[1].uuid,
        body: 'log me',
        session_id: session.id,
      }),
    ]);

    expectStatus(await resolve(w.owner, session.id, note.body.annotation_id), 200);
    const after = await entries(note.body.annotation_id);
    expect(after).toHaveLength(2);
    expect(after[0]).toEqual(before[0]);
    expect(after[1]).toMatchObject({
      kind: 'resolve',
      author_id: w.owner.id,
      session_id: session.id,
      annotation_id: note.body.annotation_id,
    });
    expect(Number(after[1].id)).toBeGreaterThan(Number(after[0].id));

    expectStatus(await resolve(w.mentor, session.id, note.body.annotation_id), 200);
    expect(await entries(note.body.annotation_id)).toEqual(after);
  });

  test('meta’s open_annotations counts the open notes only (also in lists)', async () => {
    const session = await makeSession(w.owner, { lab: w.lab, shared: true });
    expect((await meta(w.owner, session.id)).body.open_annotations).toBe(0);
    const ids: string[] = [];
    for (const [who, body] of [
      [w.owner, 'one'],
      [w.mentor, 'two'],
      [w.owner, 'three'],
    ] as const) {
      const reply = await annotate(who, session.id, { record_uuid: session.records[0].uuid, body });
      expectStatus(reply, 201);
      ids.push(reply.body.annotation_id);
    }
    expect((await meta(w.member, session.id)).body.open_annotations).toBe(3);
    expectStatus(await resolve(w.owner, session.id, ids[1]), 200);
    expect((await meta(w.member, session.id)).body.open_annotations).toBe(2);
    const listed = await t.call('GET', '/api/trajectories', { token: w.owner.token, query: { lab_id: w.lab.id } });
    expect(listed.body.items.find((i: { session_id: string }) => i.session_id === session.id)).toMatchObject({ open_annotations: 2 });
  });
});

// ---------------------------------------------------------------------------------------------
// Review threads
// ---------------------------------------------------------------------------------------------

describe('reviews (GET /api/labs/{lab_id}/reviews)', () => {
  let lab: TestLab;
  let ann: TestUser; // mentor, owns sessions
  let ben: TestUser; // mentor, owns sessions
  let cat: TestUser; // plain member
  let outsider: TestUser;
  let annShared: Session;
  let benShared: Session;
  const notes: Record<string, Record<string, any>> = {};
  beforeAll(async () => {
    lab = await makeLab(t, { name: 'Review lab' });
    [ann, ben, cat, outsider] = [
      await makeUser(t, { name: 'Ann' }),
      await makeUser(t, { name: 'Ben' }),
      await makeUser(t, { name: 'Cat' }),
      await makeUser(t),
    ];
    await addMember(t, lab, ann, 'mentor');
    await addMember(t, lab, ben, 'mentor');
    await addMember(t, lab, cat);
    annShared = await makeSession(ann, { lab, shared: true, title: 'Ann shared' });
    benShared = await makeSession(ben, { lab, shared: true, title: 'Ben shared' });
    const note = async (key: string, who: TestUser, session: Session, body: string) => {
      const reply = await annotate(who, session.id, { record_uuid: session.records[0].uuid, body });
      if (reply.status !== 201) throw new Error(`note ${key}: ${reply.status} ${reply.text}`);
      notes[key] = reply.body;
    };
    await note('benOnAnn', ben, annShared, 'Ben asks Ann');
    await note('annOnOwn', ann, annShared, 'Ann notes to self');
    await note('annOnBen', ann, benShared, 'Ann asks Ben');
    await note('benOnOwn', ben, benShared, 'Ben notes to self');
  });

  const thread = (n: Record<string, any>, session: Session, title: string) => ({
    annotation_id: n.annotation_id,
    session_id: session.id,
    session_title: title,
    record_uuid: n.record_uuid,
    author_id: n.author_id,
    body: n.body,
    created_at: n.created_at,
  });

  test('for_me lists open notes written by others on the caller’s lab sessions (not the caller’s own notes)', async () => {
    const a = await reviews(ann, lab.id);
    expectStatus(a, 200);
    expect(a.body.for_me).toEqual([thread(notes.benOnAnn, annShared, 'Ann shared')]);
    const b = await reviews(ben, lab.id);
    expect(b.body.for_me).toEqual([thread(notes.annOnBen, benShared, 'Ben shared')]);
  });

  test('by_me lists the caller’s notes on others’ sessions (not on their own)', async () => {
    const a = await reviews(ann, lab.id);
    expectStatus(a, 200);
    expect(a.body.by_me).toEqual([thread(notes.annOnBen, benShared, 'Ben shared')]);
    const b = await reviews(ben, lab.id);
    expect(b.body.by_me).toEqual([thread(notes.benOnAnn, annShared, 'Ann shared')]);
  });

  test('only visibility=lab sessions count: notes on a session made private again disappear from for_me and by_me', async () => {
    const session = await makeSession(ann, { lab, shared: true, title: 'soon private' });
    const note = await annotate(ben, session.id, { record_uuid: session.records[1].uuid, body: 'on a soon private one' });
    expectStatus(note, 201);
    expect((await reviews(ann, lab.id)).body.for_me.map((r: { annotation_id: string }) => r.annotation_id)).toContain(
      note.body.annotation_id,
    );
    expect((await reviews(ben, lab.id)).body.by_me.map((r: { annotation_id: string }) => r.annotation_id)).toContain(
      note.body.annotation_id,
    );

    expectStatus(await setVisibility(ann, session.id, { visibility: 'private' }), 200);
    const a = await reviews(ann, lab.id);
    const b = await reviews(ben, lab.id);
    expect(a.body.for_me.map((r: { annotation_id: string }) => r.annotation_id)).not.toContain(note.body.annotation_id);
    expect(b.body.by_me.map((r: { annotation_id: string }) => r.annotation_id)).not.toContain(note.body.annotation_id);
    expect(a.body.by_me).toEqual([thread(notes.annOnBen, benShared, 'Ben shared')]);
  });

  test('a resolved note disappears from for_me and by_me', async () => {
    const note = await annotate(ben, annShared.id, { record_uuid: annShared.records[2].uuid, body: 'resolve me' });
    expectStatus(note, 201);
    expect((await reviews(ann, lab.id)).body.for_me.map((r: { annotation_id: string }) => r.annotation_id)).toContain(
      note.body.annotation_id,
    );
    expectStatus(await resolve(ann, annShared.id, note.body.annotation_id), 200);
    expect((await reviews(ann, lab.id)).body.for_me).toEqual([thread(notes.benOnAnn, annShared, 'Ann shared')]);
    expect((await reviews(ben, lab.id)).body.by_me).toEqual([thread(notes.benOnAnn, annShared, 'Ann shared')]);
  });

  test('visible to every active member: a plain member and the lab owner → 200 (nothing of theirs); an outsider and a former member → 404', async () => {
    for (const who of [cat, lab.owner]) {
      const reply = await reviews(who, lab.id);
      expectStatus(reply, 200);
      expect(reply.body).toEqual({ for_me: [], by_me: [] });
    }
    expectError(await reviews(outsider, lab.id), 404);
    expectError(await reviews(await formerMember(lab), lab.id), 404);
  });
});

// ---------------------------------------------------------------------------------------------
// Board
// ---------------------------------------------------------------------------------------------

const BOARD_KEYS = [
  'session_id',
  'owner_id',
  'owner_name',
  'title',
  'last_activity_at',
  'count',
  'state',
  'stopped_at_uuid',
  'last_text',
  'error',
  'outputs',
  'figure_count',
  'open_annotations',
].sort();

describe('board (GET /api/labs/{lab_id}/board)', () => {
  let lab: TestLab;
  let dan: TestUser;
  let eve: TestUser;
  let outsider: TestUser;
  let failed: Session;
  let running: Session;
  let stopped: Session;
  let abandoned: Session;
  let hidden: Record<string, string>;
  beforeAll(async () => {
    lab = await makeLab(t, { name: 'Board lab' });
    const other = await makeLab(t, { name: 'Other board lab' });
    [dan, eve, outsider] = [await makeUser(t, { name: 'Dan' }), await makeUser(t, { name: 'Eve' }), await makeUser(t)];
    await addMember(t, lab, dan);
    await addMember(t, lab, eve);
    await addMember(t, other, outsider);

    // Eve: a shared session that gets archived (reconcile without it), then the running one.
    const archived = await makeSession(eve, { lab, shared: true, title: 'archived' });
    failed = await makeSession(dan, {
      lab,
      shared: true,
      title: 'fails',
      records: linked([
        { type: 'user', message: { role: 'user', content: 'Run the pipeline' } },
        { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'Starting.' }] } },
        { type: 'error', error: 'CUDA out of memory' },
      ]),
    });
    running = await makeSession(eve, {
      lab,
      shared: true,
      title: 'runs',
      records: linked([
        { type: 'user', message: { role: 'user', content: 'Build it' } },
        {
          type: 'assistant',
          message: {
            role: 'assistant',
            content: [
              { type: 'text', text: 'Building.' },
              { type: 'tool_use', id: 'toolu_run', name: 'Bash', input: { command: 'make' } },
            ],
          },
        },
      ]),
    });
    const reconciled = await t.call('POST', '/api/trajectories/reconcile', { token: eve.token, body: { session_ids: [running.id] } });
    if (JSON.stringify(reconciled.body?.archived) !== JSON.stringify([archived.id]))
      throw new Error(`reconcile: ${reconciled.status} ${reconciled.text}`);
    stopped = await makeSession(dan, {
      lab,
      shared: true,
      title: 'stops',
      records: linked([
        { type: 'user', message: { role: 'user', content: 'Plot it' } },
        {
          type: 'assistant',
          message: {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 'toolu_plot', name: 'Bash', input: { command: 'python plot.py' } }],
          },
        },
        { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_plot', content: 'ok' }] } },
        { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'All done: 3 figures written.' }] } },
      ]),
    });
    // A tool call that never got a result, after which the assistant still answered: it had the last word.
    abandoned = await makeSession(eve, {
      lab,
      shared: true,
      title: 'abandoned tool call',
      records: linked([
        { type: 'user', message: { role: 'user', content: 'Summarize' } },
        {
          type: 'assistant',
          message: { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_lost', name: 'Read', input: { path: 'x' } }] },
        },
        {
          type: 'assistant',
          message: { role: 'assistant', content: [{ type: 'text', text: 'I could not read x; here is what I know.' }] },
        },
      ]),
    });
    const privateOne = await makeSession(dan, { lab, title: 'private' });
    const elsewhere = await makeSession(outsider, { lab: other, shared: true, title: 'other lab' });
    const loose = await makeSession(dan, { title: 'no lab' });
    hidden = { archived: archived.id, private: privateOne.id, elsewhere: elsewhere.id, loose: loose.id };
  });

  test('only the lab’s shared, non-archived sessions are listed; rows have the members of the OpenAPI document', async () => {
    const reply = await board(dan, lab.id);
    expectStatus(reply, 200);
    expect(reply.body).toMatchObject({ total: 4, limit: 200 });
    const ids = reply.body.items.map((row: { session_id: string }) => row.session_id);
    expect([...ids].sort()).toEqual([failed.id, running.id, stopped.id, abandoned.id].sort());
    for (const id of Object.values(hidden)) expect(ids).not.toContain(id);
    for (const row of reply.body.items) {
      expect(Object.keys(row).sort()).toEqual(BOARD_KEYS);
      expect(row).toMatchObject({
        owner_id: expect.any(String),
        owner_name: expect.any(String),
        last_activity_at: expect.stringMatching(ISO),
        count: expect.any(Number),
        state: expect.stringMatching(/^(running|stopped|failed)$/),
        outputs: expect.any(Array),
        figure_count: expect.any(Number),
        open_annotations: expect.any(Number),
      });
    }
    const stoppedRow = reply.body.items.find((row: { session_id: string }) => row.session_id === stopped.id);
    expect(stoppedRow).toMatchObject({
      owner_id: dan.id,
      owner_name: 'Dan',
      title: 'stops',
      count: 4,
      stopped_at_uuid: stopped.head,
      open_annotations: 0,
    });
    // Every active member sees the same board.
    expect((await board(eve, lab.id)).body.items.map((row: { session_id: string }) => row.session_id).sort()).toEqual([...ids].sort());
    expect((await board(lab.owner, lab.id)).body.items).toHaveLength(4);
  });

  test('a session whose last record is {type:"error", …} → state failed with its error text', async () => {
    const row = (await board(eve, lab.id)).body.items.find((r: { session_id: string }) => r.session_id === failed.id);
    expect(row).toMatchObject({ state: 'failed', error: 'CUDA out of memory', stopped_at_uuid: failed.head, count: 3, owner_name: 'Dan' });
  });

  test('a session whose last record is an assistant tool_use without a tool_result → state running', async () => {
    const row = (await board(dan, lab.id)).body.items.find((r: { session_id: string }) => r.session_id === running.id);
    expect(row).toMatchObject({
      state: 'running',
      error: null,
      stopped_at_uuid: running.head,
      owner_id: eve.id,
      owner_name: 'Eve',
      count: 2,
    });
  });

  test('a session where the assistant had the last word → state stopped, last_text set', async () => {
    const row = (await board(dan, lab.id)).body.items.find((r: { session_id: string }) => r.session_id === stopped.id);
    expect(row).toMatchObject({ state: 'stopped', last_text: 'All done: 3 figures written.', error: null });
  });

  test('an earlier tool_use that never got a result, followed by an assistant answer → stopped (the assistant had the last word), last_text set', async () => {
    const row = (await board(dan, lab.id)).body.items.find((r: { session_id: string }) => r.session_id === abandoned.id);
    expect(row).toMatchObject({
      state: 'stopped',
      last_text: 'I could not read x; here is what I know.',
      error: null,
      stopped_at_uuid: abandoned.head,
    });
  });

  test('open notes are counted on the row', async () => {
    expectStatus(await annotate(dan, failed.id, { record_uuid: failed.head, body: 'why OOM?' }), 201);
    const row = (await board(eve, lab.id)).body.items.find((r: { session_id: string }) => r.session_id === failed.id);
    expect(row.open_annotations).toBe(1);
  });

  test('limit is respected (limit=1, limit=2); someone outside the lab → 404', async () => {
    for (const limit of [1, 2]) {
      const reply = await board(dan, lab.id, { limit });
      expectStatus(reply, 200);
      expect(reply.body.items).toHaveLength(limit);
      expect(reply.body.limit).toBe(limit);
    }
    expectError(await board(outsider, lab.id), 404);
  });

  test('a record whose JSON PostgreSQL cannot parse (an escaped NUL, a number beyond its range) is read by its type alone: board and critique still answer', async () => {
    const odd = newSessionId('odd');
    const u = [newUuid(), newUuid()];
    const raws = [
      `{"uuid":"${u[0]}","type":"user","message":{"content":"nul \\u0000 here"}}`,
      `{"uuid":"${u[1]}","parentUuid":"${u[0]}","type":"error","error":"boom","n":1e400000}`,
    ];
    expectStatus(await appendRaw(dan, odd, null, raws), 200);
    expectStatus(await setVisibility(dan, odd, { visibility: 'lab', lab_id: lab.id }), 200);
    const row = (await board(eve, lab.id)).body.items.find((r: { session_id: string }) => r.session_id === odd);
    expect(row).toMatchObject({ state: 'failed', error: 'failed', count: 2 });
    expectStatus(await critique(dan, odd), 200);
  });
});

// ---------------------------------------------------------------------------------------------
// Fork
// ---------------------------------------------------------------------------------------------

describe('fork', () => {
  let lab: TestLab;
  let pat: TestUser; // owns the parent
  let quinn: TestUser; // lab member: can view shared sessions
  let rex: TestUser; // in no lab
  let parent: Session;
  let parentRaws: string[];
  beforeAll(async () => {
    lab = await makeLab(t, { name: 'Fork lab' });
    [pat, quinn, rex] = [await makeUser(t, { name: 'Pat' }), await makeUser(t, { name: 'Quinn' }), await makeUser(t, { name: 'Rex' })];
    await addMember(t, lab, pat);
    await addMember(t, lab, quinn);
    // Sent with odd spacing and escapes: what is stored (and must be copied) is exactly this text.
    const ids = [newUuid('p'), newUuid('p'), newUuid('p'), newUuid('p')];
    parentRaws = [
      `{ "uuid" : "${ids[0]}",  "parentUuid":null, "type":"user", "message": {"content": "naïve \\u00e9 ✓"} }`,
      `{"type":"assistant","uuid":"${ids[1]}","parentUuid":"${ids[0]}","message":{"content":[{"type":"text","text":"1.50"}]},"n":1.50}`,
      `{"uuid":"${ids[2]}",\n"parentUuid":"${ids[1]}","type":"custom_kind","x":[1, 2 ,3]}`,
      `{"uuid":"${ids[3]}","parentUuid":"${ids[2]}","type":"assistant"}`,
    ];
    const id = newSessionId('parent');
    const created = await appendRaw(pat, id, null, parentRaws);
    if (created.status !== 200) throw new Error(`parent: ${created.status} ${created.text}`);
    const shared = await setVisibility(pat, id, { visibility: 'lab', lab_id: lab.id });
    if (shared.status !== 200) throw new Error(`share: ${shared.status} ${shared.text}`);
    parent = { id, records: ids.map((uuid) => ({ uuid, type: 'x' })), head: ids[3] };
  });

  test('a lab member who can view forks at a middle record → 201 {session_id, forked_from: {session_id, head_uuid}, count}', async () => {
    const reply = await fork(quinn, parent.id, { head_uuid: parent.records[1].uuid });
    expectStatus(reply, 201);
    expect(reply.body).toEqual({
      session_id: expect.any(String),
      forked_from: { session_id: parent.id, head_uuid: parent.records[1].uuid },
      count: 2,
    });
    expect(reply.body.session_id).not.toBe(parent.id);
    expect(reply.body.session_id).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
  });

  test('the fork has the records up to and including head_uuid, byte for byte (GET both and compare)', async () => {
    const forked = await fork(quinn, parent.id, { head_uuid: parent.records[2].uuid });
    expectStatus(forked, 201);
    const parentText = recordsText(await read(pat, parent.id));
    expect(parentText).toBe(parentRaws.join(','));
    const forkReply = await read(quinn, forked.body.session_id);
    expectStatus(forkReply, 200);
    expect(recordsText(forkReply)).toBe(parentRaws.slice(0, 3).join(','));
    expect(parentText.startsWith(recordsText(forkReply))).toBe(true);
    // The parent is untouched.
    expect((await meta(pat, parent.id)).body).toMatchObject({ count: 4, head_uuid: parent.head, forked_from: null });
  });

  test('the fork’s meta: owner the caller, shared with the caller’s active lab, forked_from set, source "fork"', async () => {
    const forked = await fork(quinn, parent.id, { head_uuid: parent.records[1].uuid });
    expectStatus(forked, 201);
    const reply = await meta(quinn, forked.body.session_id);
    expectStatus(reply, 200);
    expect(Object.keys(reply.body).sort()).toEqual(META_KEYS);
    expect(reply.body).toMatchObject({
      session_id: forked.body.session_id,
      owner_id: quinn.id,
      lab_id: lab.id,
      visibility: 'lab',
      count: 2,
      head_uuid: parent.records[1].uuid,
      bytes: bytesOfRaw(parentRaws.slice(0, 2)),
      archived_at: null,
      forked_from: { session_id: parent.id, head_uuid: parent.records[1].uuid },
      source: 'fork',
      open_annotations: 0,
    });
    // The new owner writes it; the lab (the parent's owner too) reads it but cannot write it, until quinn makes it private.
    expect(await append(quinn, forked.body.session_id, parent.records[1].uuid, chain(1, parent.records[1].uuid))).toMatchObject({
      status: 200,
      body: { count: 3 },
    });
    expectStatus(await meta(pat, forked.body.session_id), 200);
    expectError(await append(pat, forked.body.session_id, null, chain(1)), 403);
    expectStatus(await setVisibility(quinn, forked.body.session_id, { visibility: 'private' }), 200);
    expectError(await meta(pat, forked.body.session_id), 404);
  });

  test('an admin in a lab forking another user’s private session gets a private fork: the admin’s lab members cannot read it', async () => {
    const secret = await makeSession(rex, { title: 'Rex private' });
    const labAdmin = await makeUser(t, { name: 'Lab admin', is_admin: true });
    const adminLab = await makeLab(t, { name: 'Admin lab', owner: labAdmin });
    const adminLabMember = await makeUser(t, { name: 'Admin lab member' });
    await addMember(t, adminLab, adminLabMember);
    const forked = await fork(labAdmin, secret.id, { head_uuid: secret.head });
    expectStatus(forked, 201);
    expect((await meta(labAdmin, forked.body.session_id)).body).toMatchObject({ visibility: 'private', lab_id: adminLab.id, count: 3 });
    expectError(await read(adminLabMember, forked.body.session_id), 404);
    expect((await board(adminLabMember, adminLab.id)).body.items).toEqual([]);
    // A session shared with a lab the admin is not active in: read as an admin, so private too.
    const ofOtherLab = await fork(labAdmin, parent.id, { head_uuid: parent.head });
    expect((await meta(labAdmin, ofOtherLab.body.session_id)).body).toMatchObject({ visibility: 'private', lab_id: adminLab.id, count: 4 });
    expectError(await read(adminLabMember, ofOtherLab.body.session_id), 404);
  });

  test('a caller without an active lab (an admin; a user in no lab) gets a private fork', async () => {
    const byAdmin = await fork(admin(), parent.id, { head_uuid: parent.head });
    expectStatus(byAdmin, 201);
    const adminMeta = (await meta(admin(), byAdmin.body.session_id)).body;
    expect(adminMeta).toMatchObject({
      visibility: 'private',
      lab_id: null,
      count: 4,
      source: 'fork',
      forked_from: { session_id: parent.id, head_uuid: parent.head },
    });
    expectError(await meta(pat, byAdmin.body.session_id), 404);

    const own = await makeSession(rex);
    const byRex = await fork(rex, own.id, { head_uuid: own.records[0].uuid });
    expectStatus(byRex, 201);
    expect((await meta(rex, byRex.body.session_id)).body).toMatchObject({
      owner_id: rex.id,
      visibility: 'private',
      lab_id: null,
      count: 1,
    });
  });

  test('the owner with an active lab forking their own session, even a private one → a fork shared with that lab', async () => {
    const own = await makeSession(pat);
    const forked = await fork(pat, own.id, { head_uuid: own.head });
    expectStatus(forked, 201);
    expect((await meta(pat, forked.body.session_id)).body).toMatchObject({ owner_id: pat.id, visibility: 'lab', lab_id: lab.id, count: 3 });
    expectStatus(await meta(quinn, forked.body.session_id), 200);
  });

  test('head_uuid not in the session (unknown, or a record of another session) → 404 {detail}; nothing is created or charged', async () => {
    const other = await makeSession(quinn);
    const sessionsBefore = await sql('select id from trajectories where owner_id = $1 order by id', [quinn.id]);
    const bytesBefore = await usedBytes(quinn.id);
    expectError(await fork(quinn, parent.id, { head_uuid: 'no-such-record' }), 404);
    expectError(await fork(quinn, parent.id, { head_uuid: other.head }), 404);
    expect(await sql('select id from trajectories where owner_id = $1 order by id', [quinn.id])).toEqual(sessionsBefore);
    expect(await usedBytes(quinn.id)).toBe(bytesBefore);
  });

  test('a session the caller cannot view → 404, the same as an unknown session (an outsider; a lab member on a private session)', async () => {
    const unknown = await fork(rex, newSessionId('missing'), { head_uuid: 'x' });
    expectError(unknown, 404);
    const privateOne = await makeSession(pat, { lab });
    for (const [who, session] of [
      [rex, parent],
      [quinn, privateOne],
    ] as const) {
      const reply = await fork(who, session.id, { head_uuid: session.head });
      expect({ status: reply.status, body: reply.body }).toEqual({ status: 404, body: unknown.body });
    }
    expect(await sql(`select 1 from trajectories where forked_from_session = $1`, [privateOne.id])).toEqual([]);
  });

  test('the fork is charged to the caller’s storage, not to the parent’s owner', async () => {
    const [quinnBefore, patBefore] = [await usedBytes(quinn.id), await usedBytes(pat.id)];
    const forked = await fork(quinn, parent.id, { head_uuid: parent.records[2].uuid });
    expectStatus(forked, 201);
    expect(await usedBytes(quinn.id)).toBe(quinnBefore + bytesOfRaw(parentRaws.slice(0, 3)));
    expect(await usedBytes(pat.id)).toBe(patBefore);
    // Deleting the fork gives the bytes back.
    expect((await remove(quinn, forked.body.session_id)).status).toBe(204);
    expect(await usedBytes(quinn.id)).toBe(quinnBefore);
  });

  test('a record over 256 KiB is copied too, and the fork survives deleting the parent', async () => {
    const id = newSessionId('bigparent');
    const n = Math.random().toString(36).slice(2, 10);
    const big = `{"uuid":"big-${n}","parentUuid":null,"type":"tool_result", "blob":"${'é日x\\"'.repeat(60 * 1024)}"}`;
    const after = `{"uuid":"after-${n}","parentUuid":"big-${n}","type":"assistant"}`;
    const tail = `{"uuid":"tail-${n}","parentUuid":"after-${n}","type":"user"}`;
    expect(Buffer.byteLength(big)).toBeGreaterThan(256 * 1024);
    expectStatus(await appendRaw(pat, id, null, [big, after, tail]), 200);
    expectStatus(await setVisibility(pat, id, { visibility: 'lab', lab_id: lab.id }), 200);

    const bytesBefore = await usedBytes(quinn.id);
    const forked = await fork(quinn, id, { head_uuid: `after-${n}` });
    expectStatus(forked, 201);
    expect(forked.body.count).toBe(2);
    expect(await usedBytes(quinn.id)).toBe(bytesBefore + bytesOfRaw([big, after]));
    expect(recordsText(await read(quinn, forked.body.session_id))).toBe(`${big},${after}`);

    expect((await remove(pat, id)).status).toBe(204);
    expectError(await meta(pat, id), 404);
    const survivor = await read(quinn, forked.body.session_id);
    expectStatus(survivor, 200);
    expect(recordsText(survivor)).toBe(`${big},${after}`);
    expect(survivor.body).toMatchObject({ count: 2, head_uuid: `after-${n}`, forked_from: { session_id: id, head_uuid: `after-${n}` } });
  });

  test('a fork’s token total counts the turns it was seeded with and its own, and charges no one’s usage for the copies', async () => {
    const tokensOf = async (who: Actor, id: string) =>
      (
        await t.call('POST', '/graphql', {
          token: who.token,
          body: { query: 'query ($id: ID!) { trajectoryMeta(sessionId: $id) { tokens { input output } } }', variables: { id } },
        })
      ).body.data.trajectoryMeta.tokens;
    const turns = linked([
      { type: 'user', message: { content: 'count the reads' } },
      { type: 'assistant', message: { content: 'wc -l', usage: { input_tokens: 120, output_tokens: 30 } } },
      { type: 'assistant', message: { content: 'done', usage: { input_tokens: 7, output_tokens: 5 } } },
      { type: 'assistant', message: { content: 'later', usage: { input_tokens: 1000, output_tokens: 1000 } } },
    ]);
    const id = newSessionId('tokens');
    expectStatus(await append(pat, id, null, turns), 200);
    expectStatus(await setVisibility(pat, id, { visibility: 'lab', lab_id: lab.id }), 200);
    const ledger = async () =>
      (await sql<{ n: string }>(`select coalesce(sum(tokens_in), 0) as n from usage_entries where user_id = $1`, [quinn.id]))[0].n;
    const usedBefore = await ledger();

    const forked = await fork(quinn, id, { head_uuid: turns[2].uuid });
    expectStatus(forked, 201);
    expect(await tokensOf(quinn, forked.body.session_id)).toEqual({ input: 127, output: 35 });
    expect(await ledger()).toBe(usedBefore); // the copies were Pat's usage, not Quinn's
    // Its own turns add to it (and are Quinn's usage); the parent's total is its own.
    const own = linked([{ type: 'assistant', message: { content: 'more', usage: { input_tokens: 3, output_tokens: 2 } } }]);
    own[0].parentUuid = turns[2].uuid;
    expectStatus(await append(quinn, forked.body.session_id, turns[2].uuid, own), 200);
    expect(await tokensOf(quinn, forked.body.session_id)).toEqual({ input: 130, output: 37 });
    expect(await tokensOf(pat, id)).toEqual({ input: 1127, output: 1035 });
    // A fork of the fork counts through its own fork point, across both.
    const again = await fork(quinn, forked.body.session_id, { head_uuid: own[0].uuid });
    expectStatus(again, 201);
    expect(await tokensOf(quinn, again.body.session_id)).toEqual({ input: 130, output: 37 });
  });
});

// ---------------------------------------------------------------------------------------------
// Critique
// ---------------------------------------------------------------------------------------------

describe('critique', () => {
  let w: World;
  beforeAll(async () => {
    w = await makeWorld();
  });

  test('findings for a failed tool result (is_error inside message.content), an error record and a tool_use with no result; severities in {info, warning, error}', async () => {
    const records = linked([
      { type: 'user', message: { role: 'user', content: 'Analyze the data' } },
      {
        type: 'assistant',
        message: { role: 'assistant', content: [{ type: 'tool_use', id: 'tu_ok', name: 'Read', input: { path: 'a.csv' } }] },
      },
      { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu_ok', content: 'x,y\n1,2' }] } },
      {
        type: 'assistant',
        message: { role: 'assistant', content: [{ type: 'tool_use', id: 'tu_bad', name: 'Bash', input: { command: 'make' } }] },
      },
      {
        type: 'user',
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'tu_bad', is_error: true, content: 'make: *** No rule to make target' }],
        },
      },
      { type: 'error', error: 'API overloaded' },
      {
        type: 'assistant',
        message: { role: 'assistant', content: [{ type: 'tool_use', id: 'tu_lost', name: 'Write', input: { file_path: 'out.txt' } }] },
      },
    ]);
    const session = await makeSession(w.owner, { lab: w.lab, shared: true, records });
    const reply = await critique(w.owner, session.id);
    expectStatus(reply, 200);
    expect(Object.keys(reply.body)).toEqual(['findings']);
    const findings = reply.body.findings as { record_uuid: string; severity: string; body: string }[];
    for (const finding of findings) {
      expect(Object.keys(finding).sort()).toEqual(['body', 'record_uuid', 'severity']);
      expect(['info', 'warning', 'error']).toContain(finding.severity);
      expect(finding.body).toEqual(expect.any(String));
      expect(finding.body.length).toBeGreaterThan(0);
    }
    const anchored = (uuid: string) => findings.filter((f) => f.record_uuid === uuid);
    expect(anchored(records[4].uuid)).toHaveLength(1); // the failed tool result
    expect(anchored(records[5].uuid)).toHaveLength(1); // the error record
    expect(anchored(records[6].uuid)).toHaveLength(1); // the tool call that never got a result
    // Nothing on the healthy steps.
    expect([...new Set(findings.map((f) => f.record_uuid))].sort()).toEqual([records[4].uuid, records[5].uuid, records[6].uuid].sort());
  });

  test('a clean session → {findings: []}', async () => {
    const records = linked([
      { type: 'user', message: { role: 'user', content: 'Hi' } },
      { type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id: 'tu_1', name: 'Read', input: {} }] } },
      {
        type: 'user',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu_1', is_error: false, content: 'fine' }] },
      },
      { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] } },
    ]);
    const session = await makeSession(w.owner, { records });
    const reply = await critique(w.owner, session.id);
    expectStatus(reply, 200);
    expect(reply.body).toEqual({ findings: [] });
  });

  test('any viewer may ask (a lab member, an admin); someone who cannot view → 404', async () => {
    const session = await makeSession(w.owner, { lab: w.lab, shared: true, records: linked([{ type: 'error', error: 'boom' }]) });
    for (const who of [w.member, admin()]) {
      const reply = await critique(who, session.id);
      expectStatus(reply, 200);
      expect(reply.body.findings).toEqual([
        expect.objectContaining({ record_uuid: session.head, severity: expect.stringMatching(/^(info|warning|error)$/) }),
      ]);
    }
    expectError(await critique(w.outsider, session.id), 404);
  });
});

// ---------------------------------------------------------------------------------------------
// Summary
// ---------------------------------------------------------------------------------------------

describe('summary', () => {
  let w: World;
  beforeAll(async () => {
    w = await makeWorld();
  });

  test('POST {parent_uuid} by the owner → 201 the appended record {type: "summary", uuid, parentUuid, summary, leafUuid}', async () => {
    const session = await makeSession(w.owner, { lab: w.lab, shared: true });
    const reply = await summarize(w.owner, session.id, { parent_uuid: session.head });
    expectStatus(reply, 201);
    expect(Object.keys(reply.body).sort()).toEqual(['leafUuid', 'parentUuid', 'summary', 'type', 'uuid']);
    expect(reply.body).toEqual({
      type: 'summary',
      uuid: expect.any(String),
      parentUuid: session.head,
      summary: expect.any(String),
      leafUuid: expect.any(String),
    });
    expect(reply.body.summary.length).toBeGreaterThan(0);
    expect(session.records.map((r) => r.uuid)).not.toContain(reply.body.uuid);
  });

  test('the session’s head is now the summary record (meta and records)', async () => {
    const session = await makeSession(w.owner, { lab: w.lab, shared: true });
    const reply = await summarize(w.owner, session.id, { parent_uuid: session.records[1].uuid });
    expectStatus(reply, 201);
    expect(reply.body.parentUuid).toBe(session.records[1].uuid);
    expect((await meta(w.member, session.id)).body).toMatchObject({ head_uuid: reply.body.uuid, count: 4 });
    const full = await read(w.owner, session.id);
    expect(full.body.records).toHaveLength(4);
    expect(full.body.records.slice(0, 3)).toEqual(session.records);
    expect(last(full.body.records)).toEqual(reply.body);
    // The client continues from the new head.
    expect(await append(w.owner, session.id, reply.body.uuid, chain(1, reply.body.uuid))).toMatchObject({
      status: 200,
      body: { count: 5 },
    });
  });

  test('a non-owner viewer → 403; parent_uuid not in the session → 404; someone who cannot view → 404; nothing is appended', async () => {
    const session = await makeSession(w.owner, { lab: w.lab, shared: true });
    expectError(await summarize(w.member, session.id, { parent_uuid: session.head }), 403);
    expectError(await summarize(w.mentor, session.id, { parent_uuid: session.head }), 403);
    expectError(await summarize(admin(), session.id, { parent_uuid: session.head }), 403);
    expectError(await summarize(w.owner, session.id, { parent_uuid: 'no-such-record' }), 404);
    expectError(await summarize(w.outsider, session.id, { parent_uuid: session.head }), 404);
    expect((await meta(w.owner, session.id)).body).toMatchObject({ head_uuid: session.head, count: 3 });
  });

  test('GET summary → 200 {enabled: false, reason} (no model configured) for any viewer; 404 for others', async () => {
    const session = await makeSession(w.owner, { lab: w.lab, shared: true });
    for (const who of [w.owner, w.member, w.mentor, admin()]) {
      const reply = await summary(who, session.id);
      expectStatus(reply, 200);
      expect(reply.body).toEqual({ enabled: false, reason: expect.any(String) });
      expect(reply.body.reason.length).toBeGreaterThan(0);
    }
    expectError(await summary(w.outsider, session.id), 404);
    expectError(await summary(w.otherLabMember, session.id), 404);
    const priv = await makeSession(w.owner, { lab: w.lab });
    expectError(await summary(w.member, priv.id), 404);
  });

  test('POST summary/refresh → {status: "pending"} for the owner; 403 for other viewers; 404 for others', async () => {
    const session = await makeSession(w.owner, { lab: w.lab, shared: true });
    const reply = await refresh(w.owner, session.id);
    expectStatus(reply, 200);
    expect(reply.body).toEqual({ status: 'pending' });
    expectError(await refresh(w.member, session.id), 403);
    expectError(await refresh(w.mentor, session.id), 403);
    expectError(await refresh(w.outsider, session.id), 404);
  });
});

// ---------------------------------------------------------------------------------------------
// Discussion (no model configured)
// ---------------------------------------------------------------------------------------------

describe('discuss and discussions', () => {
  let w: World;
  let session: Session;
  beforeAll(async () => {
    w = await makeWorld();
    session = await makeSession(w.owner, { lab: w.lab, shared: true });
  });

  test('discuss (the owner, or a viewer) → 503 {detail} saying no language model is configured; nothing is recorded', async () => {
    for (const who of [w.owner, w.member]) {
      const reply = await discuss(who, session.id, { question: 'Why did step 2 fail?' });
      expectError(reply, 503);
      expect(reply.body.detail).toMatch(/no language model is configured/i);
    }
    expect(await sql('select 1 from discussion_turns where session_id = $1', [session.id])).toEqual([]);
  });

  test('discuss with `history` (docs/api/models.md: body {question, history?}) → still 503, not a validation error', async () => {
    const reply = await discuss(w.member, session.id, { question: 'And then?', history: [{ question: 'Why?', answer: 'Because.' }] });
    expectError(reply, 503);
    expect(reply.body.detail).toMatch(/no language model is configured/i);
  });

  test('discuss by someone who cannot view → 404', async () => {
    expectError(await discuss(w.outsider, session.id, { question: 'Why?' }), 404);
  });

  test('discussions: the owner → 200 {viewers: []}; a non-owner viewer → 403; someone who cannot view → 404', async () => {
    const reply = await discussions(w.owner, session.id);
    expectStatus(reply, 200);
    expect(reply.body).toEqual({ viewers: [] });
    expectError(await discussions(w.member, session.id), 403);
    expectError(await discussions(w.mentor, session.id), 403);
    expectError(await discussions(w.outsider, session.id), 404);
  });
});

// ---------------------------------------------------------------------------------------------
// Admin
// ---------------------------------------------------------------------------------------------

describe('admin trajectories and storage summary', () => {
  let tag: string;
  let lab: TestLab;
  let uma: TestUser;
  let vic: TestUser;
  let s: Record<'umaPrivate' | 'vicShared' | 'vicLoose', Session>;
  beforeAll(async () => {
    tag = `adm${Math.random().toString(36).slice(2, 8)}`;
    lab = await makeLab(t, { name: 'Admin lab' });
    [uma, vic] = [await makeUser(t, { name: 'Uma' }), await makeUser(t, { name: 'Vic' })];
    await addMember(t, lab, vic);
    s = {
      umaPrivate: await makeSession(uma, { title: `${tag} alpha` }),
      vicShared: await makeSession(vic, { lab, shared: true, title: `${tag} beta` }),
      vicLoose: await makeSession(vic, { title: `${tag} gamma`, id: newSessionId(`${tag}-id`) }),
    };
  });

  const adminList = (query: Record<string, string | number>, who: Actor = admin()) =>
    t.call('GET', '/api/admin/trajectories', { token: who.token, query });
  const idsOf = (reply: Reply) => (reply.body.items as { session_id: string }[]).map((i) => i.session_id).sort();

  test('an admin lists every user’s sessions, private ones included, as metas', async () => {
    const reply = await adminList({ q: tag });
    expectStatus(reply, 200);
    expect(idsOf(reply)).toEqual([s.umaPrivate.id, s.vicShared.id, s.vicLoose.id].sort());
    expect(reply.body).toMatchObject({ total: 3, limit: 100 });
    for (const item of reply.body.items) expect(Object.keys(item).sort()).toEqual(META_KEYS);
    expect(reply.body.items.find((i: { session_id: string }) => i.session_id === s.umaPrivate.id)).toMatchObject({
      owner_id: uma.id,
      visibility: 'private',
      count: 3,
    });
    // Without filters too.
    const all = await adminList({ limit: 500 });
    expectStatus(all, 200);
    expect(idsOf(all)).toEqual(expect.arrayContaining([s.umaPrivate.id, s.vicShared.id, s.vicLoose.id]));
  });

  test('owner= filters to one owner, lab_id= to one lab, q= matches a title or a session id substring, limit caps the page (total counts all)', async () => {
    expect(idsOf(await adminList({ owner: uma.id }))).toEqual([s.umaPrivate.id]);
    expect(idsOf(await adminList({ owner: vic.id }))).toEqual([s.vicShared.id, s.vicLoose.id].sort());
    expect(idsOf(await adminList({ lab_id: lab.id }))).toEqual([s.vicShared.id]);
    expect(idsOf(await adminList({ q: `${tag} BETA` }))).toEqual([s.vicShared.id]);
    expect(idsOf(await adminList({ q: `${tag}-id` }))).toEqual([s.vicLoose.id]);
    expect(idsOf(await adminList({ q: tag, owner: vic.id, lab_id: lab.id }))).toEqual([s.vicShared.id]);
    // q is a plain substring: % and _ are not wildcards.
    expect(idsOf(await adminList({ q: `${tag}%` }))).toEqual([]);
    expect(idsOf(await adminList({ q: `${tag}_beta` }))).toEqual([]);
    const page = await adminList({ q: tag, limit: 1 });
    expectStatus(page, 200);
    expect(page.body.items).toHaveLength(1);
    expect(page.body).toMatchObject({ total: 3, limit: 1 });
  });

  test('a non-admin (a lab owner, a member) → 403 {detail}', async () => {
    for (const who of [lab.owner, vic, uma]) expectError(await adminList({ q: tag }, who), 403);
  });

  test('GET /api/admin/storage_summary → {users, labs, total_bytes}; byte counts match what was appended', async () => {
    const reply = await t.call('GET', '/api/admin/storage_summary', { token: t.adminToken });
    expectStatus(reply, 200);
    expect(Object.keys(reply.body).sort()).toEqual(['labs', 'total_bytes', 'users']);
    const jsonBytes = (session: Session) => session.records.reduce((sum, r) => sum + Buffer.byteLength(JSON.stringify(r)), 0);
    const vicRow = reply.body.users.find((u: { user_id: string }) => u.user_id === vic.id);
    expect(vicRow).toMatchObject({
      user_id: vic.id,
      email: vic.email,
      used_bytes: jsonBytes(s.vicShared) + jsonBytes(s.vicLoose),
      sessions: 2,
    });
    expect(reply.body.users.find((u: { user_id: string }) => u.user_id === uma.id)).toMatchObject({
      used_bytes: jsonBytes(s.umaPrivate),
      sessions: 1,
    });
    expect(reply.body.labs.find((l: { lab_id: string }) => l.lab_id === lab.id)).toMatchObject({
      lab_id: lab.id,
      name: 'Admin lab',
      bytes: jsonBytes(s.vicShared),
      sessions: 1,
    });
    const [{ total }] = await sql<{ total: number }>('select coalesce(sum(storage_used_bytes), 0)::float8 as total from users');
    expect(reply.body.total_bytes).toBe(total);

    // One more append: the user, the lab and the total all move by exactly its bytes.
    const more = chain(2, s.vicShared.head);
    expectStatus(await append(vic, s.vicShared.id, s.vicShared.head, more), 200);
    const added = more.reduce((sum, r) => sum + Buffer.byteLength(JSON.stringify(r)), 0);
    const after = await t.call('GET', '/api/admin/storage_summary', { token: t.adminToken });
    expect(after.body.total_bytes).toBe(reply.body.total_bytes + added);
    expect(after.body.users.find((u: { user_id: string }) => u.user_id === vic.id).used_bytes).toBe(vicRow.used_bytes + added);
    expect(after.body.labs.find((l: { lab_id: string }) => l.lab_id === lab.id).bytes).toBe(jsonBytes(s.vicShared) + added);
  });

  test('storage_summary for a non-admin → 403 {detail}', async () => {
    for (const who of [lab.owner, vic]) expectError(await t.call('GET', '/api/admin/storage_summary', { token: who.token }), 403);
  });
});
