import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Blobs } from '../../blobs';
import { AppError, conflict, notFound } from '../../errors';
import { int4Array, textArray } from '../../db/binary-arrays';
import { conditions, containsPattern, directQuery, inTransaction, Query, sqlOf, withDates } from '../../db/sql';
import { checks } from '../../validation';
import { isAdmin } from '../admin/admin.policy';
import type { Viewer } from '../auth/auth.service';
import { storageQuotaOf } from '../users/user.service';
import { loadPayload, storePayload } from './payloads';
import { IncomingRecord, parseRecords } from './records';
import { authorizeTrajectory, LabRole, SessionFacts, TrajectoryAction } from './trajectory.policy';

/** Records larger than this keep their text in the payload store, not inline. */
export const INLINE_RECORD_LIMIT = 256 * 1024;
export const SESSION_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const TITLE_MAX = 500;

/** A session row as the service reads it (snake_case columns, numbers already numbers). */
export interface SessionRow {
  id: string;
  owner_id: string;
  lab_id: string | null;
  visibility: string;
  title: string | null;
  source: string;
  count: number;
  head_uuid: string | null;
  bytes: number;
  created_at: Date;
  updated_at: Date;
  archived_at: Date | null;
  forked_from_session: string | null;
  forked_from_uuid: string | null;
}

const SESSION_COLUMNS = `t.id, t.owner_id, t.lab_id, t.visibility, t.title, t.source, t.count, t.head_uuid, t.bytes::float8 as bytes,
  t.created_at, t.updated_at, t.archived_at, t.forked_from_session, t.forked_from_uuid`;

const facts = (row: SessionRow): SessionFacts => ({ ownerId: row.owner_id, labId: row.lab_id, visibility: row.visibility });

const toSessionRow = (row: Record<string, unknown>) => withDates<SessionRow>(row, 'created_at', 'updated_at', 'archived_at');

/** SQL: the user (an SQL expression) is an active member of the lab (one), and that lab is active. */
const activeMemberOf = (lab: string, user: string) =>
  `exists (select from lab_members m join labs l on l.id = m.lab_id where m.lab_id = ${lab} and m.user_id = ${user} and m.status = 'active' and l.status = 'active')`;

/**
 * A member who left or was revoked keeps their lab-shared sessions, and the lab keeps reading
 * them as they were: new records would reach a lab the writer is no longer in.
 */
const FROZEN_SHARED_SESSION =
  'this session is shared with a lab you are no longer an active member of, so the lab keeps it as it was: set its visibility to private to continue it, or fork it';

/** The viewer's role in a lab where they are active, or null. */
async function roleIn(q: Query, viewer: Viewer, labId: string | null): Promise<LabRole> {
  if (!labId) return null;
  const [row] = await q<{ role: LabRole }>(
    `select m.role from lab_members m join labs l on l.id = m.lab_id where m.lab_id = ? and m.user_id = ? and m.status = 'active' and l.status = 'active'`,
    [labId, viewer.user.id],
  );
  return row?.role ?? null;
}

/**
 * Loads a session and authorizes `action`. `forUpdate` locks the row for the rest of the
 * transaction (writers of one session go one at a time).
 * @throws NOT_FOUND, FORBIDDEN
 */
export async function loadSession(em: EntityManager, viewer: Viewer, sessionId: string, action: TrajectoryAction, forUpdate = false) {
  const q = sqlOf(em);
  const [raw] = SESSION_ID.test(sessionId)
    ? await q(`select ${SESSION_COLUMNS} from trajectories t where t.id = ?${forUpdate ? ' for update' : ''}`, [sessionId])
    : [];
  if (!raw) throw notFound('trajectory');
  const session = toSessionRow(raw);
  const role = await roleIn(q, viewer, session.lab_id);
  authorizeTrajectory(viewer, action, facts(session), role);
  return { session, role };
}

export interface WriteInput {
  records: string[];
  labId?: string | null;
  title?: string | null;
}

export interface AppendInput extends WriteInput {
  baseUuid?: string | null;
}

export interface AppendResult {
  sessionId: string;
  headUuid: string | null;
  count: number;
  appended: number;
}

function checkWrite(sessionId: string, input: WriteInput) {
  checks()
    .text(['sessionId'], sessionId, { min: 1, max: 128, pattern: SESSION_ID, hint: 'must be 1-128 of A-Z a-z 0-9 . _ : -' })
    .text(['input', 'title'], input.title, { max: TITLE_MAX })
    .done();
  return parseRecords(input.records, ['input', 'records']);
}

/**
 * Opens the session for writing inside the caller's transaction: creates it (owned by the
 * viewer) on first write, then locks its row. A lab given must be one the viewer is active in;
 * it becomes the session's lab on creation, or on any write that `movesLab` (a cover-write).
 * Answers the session and the lab its usage is credited to: the session's lab after the write,
 * only while the writer is active there.
 * @throws CONFLICT (a lab given the viewer is not active in; a shared session of a lab the viewer left)
 */
async function openForWrite(q: Query, viewer: Viewer, sessionId: string, input: WriteInput, source: string, { movesLab }: { movesLab: boolean }) {
  if (input.labId && !(await roleIn(q, viewer, input.labId))) throw conflict('lab_id must be a lab you are an active member of');
  // One statement creates the session if needed and locks its row either way (DO UPDATE locks).
  const [raw] = await q(
    `insert into trajectories as t (id, owner_id, lab_id, title, source) values (?, ?, ?, ?, ?)
     on conflict (id) do update set id = excluded.id returning ${SESSION_COLUMNS}`,
    [sessionId, viewer.user.id, input.labId ?? null, input.title ?? null, source],
  );
  const session = toSessionRow(raw);
  const role = session.owner_id === viewer.user.id ? null : await roleIn(q, viewer, session.lab_id);
  authorizeTrajectory(viewer, 'write', facts(session), role);
  const labAfter = movesLab && input.labId ? input.labId : session.lab_id;
  const inLab = labAfter !== null && (labAfter === input.labId || (await roleIn(q, viewer, labAfter)) !== null);
  if (session.visibility === 'lab' && !inLab) throw conflict(FROZEN_SHARED_SESSION);
  return { session, usageLabId: inLab ? labAfter : null };
}

/** Where a write leaves its session: head, count and bytes, plus what else it sets. */
export interface SessionMove {
  session: SessionRow;
  count: number;
  head: string | null;
  bytes: number;
  labId?: string | null;
  title?: string | null;
  /** Records new to the session, whose token counts go to the usage ledger (counts only). */
  usage: IncomingRecord[];
  /** The lab that usage is credited to (null: none). */
  usageLabId: string | null;
}

/**
 * Charges `bytes` to the viewer's storage and, only when that fits the quota, moves the session
 * (`move`) and records its token usage. One statement, so the quota check cannot be raced and
 * the append hot path pays one round trip for all three.
 * @throws PAYLOAD_TOO_LARGE
 */
export async function chargeStorage(q: Query, viewer: Viewer, bytes: number, move?: SessionMove) {
  const params: unknown[] = [bytes, viewer.user.id, bytes, bytes, storageQuotaOf(viewer.user)];
  let sql = `with charged as (
      update users set storage_used_bytes = greatest(storage_used_bytes + ?::bigint, 0)
       where id = ? and (?::bigint <= 0 or storage_used_bytes + ?::bigint <= ?) returning id)`;
  if (move) {
    const { tokensIn, tokensOut } = tokenTotals(move.usage);
    sql += `, moved as (
      update trajectories set count = ?, head_uuid = ?, bytes = ?, lab_id = coalesce(?, lab_id), title = coalesce(?, title), archived_at = null, updated_at = now()
       where id = ? and exists (select from charged))
    , used as (
      insert into usage_entries (user_id, lab_id, session_id, source, tokens_in, tokens_out)
      select ?, ?, ?, 'trajectory', ?::bigint, ?::bigint where exists (select from charged) and (?::bigint > 0 or ?::bigint > 0))`;
    const { session } = move;
    params.push(move.count, move.head, move.bytes, move.labId ?? null, move.title ?? null, session.id);
    params.push(session.owner_id, move.usageLabId, session.id, tokensIn, tokensOut, tokensIn, tokensOut);
  }
  const [{ charged }] = await q<{ charged: boolean }>(`${sql} select exists (select from charged) as charged`, params);
  if (!charged) throw new AppError('PAYLOAD_TOO_LARGE', 'storage quota exceeded: nothing was stored');
}

/**
 * A batch as the array parameters `recordRows` unnests: one statement shape for any batch size
 * (so the hot path's statement is planned once per connection), in PostgreSQL's binary format.
 */
const recordArrays = (records: IncomingRecord[], payloadRefs: (string | null)[] = []) => [
  textArray(records.map((r) => r.uuid)),
  textArray(records.map((r) => r.parentUuid)),
  textArray(records.map((r) => r.type)),
  textArray(
    records.map((r, i) => (payloadRefs[i] ? null : r.raw)),
    records.map((r) => r.bytes),
  ),
  textArray(records.map((_, i) => payloadRefs[i] ?? null)),
  int4Array(records.map((r) => r.bytes)),
];

/** The rows of `recordArrays` given as parameters `$first…` (`?` without), numbered from 1 (`n`). */
const recordRows = (first?: number) =>
  `unnest(${['text', 'text', 'text', 'text', 'text', 'int'].map((type, i) => `${first ? `$${first + i}` : '?'}::${type}[]`).join(', ')})
     with ordinality as v (uuid, parent_uuid, type, raw, payload_ref, bytes, n)`;

/** Inserts records after position `after`, in one statement; large texts go to the payload store. */
async function insertRecords(q: Query, blobs: Blobs, sessionId: string, after: number, records: IncomingRecord[]) {
  const payloadRefs: (string | null)[] = [];
  for (const record of records) payloadRefs.push(record.bytes > INLINE_RECORD_LIMIT ? await storePayload(q, blobs, sessionId, record.raw) : null);
  await q(
    `insert into trajectory_records (session_id, seq, uuid, parent_uuid, type, raw, payload_ref, bytes)
     select ?, ?::int + v.n, v.uuid, v.parent_uuid, v.type, v.raw, v.payload_ref, v.bytes from ${recordRows()}`,
    [sessionId, after, ...recordArrays(records, payloadRefs)],
  );
}

const byteSum = (records: IncomingRecord[]) => records.reduce((sum, r) => sum + r.bytes, 0);

const tokenTotals = (records: IncomingRecord[]) => ({
  tokensIn: records.reduce((sum, r) => sum + r.tokensIn, 0),
  tokensOut: records.reduce((sum, r) => sum + r.tokensOut, 0),
});

/**
 * Fast-forward append. `baseUuid` must be the server's last record (null for a new or empty
 * session); a retry of a batch that already landed answers again without duplicating.
 * Everything happens in one transaction holding the session's row lock: the batch is stored
 * whole or not at all, and head, count and bytes move with it.
 * @throws VALIDATION_FAILED, NOT_FOUND, FORBIDDEN, CONFLICT (not a fast-forward, with head_uuid and count), PAYLOAD_TOO_LARGE
 */
export async function appendRecords(em: EntityManager, blobs: Blobs, viewer: Viewer, sessionId: string, input: AppendInput, source: string): Promise<AppendResult> {
  const records = checkWrite(sessionId, input);
  const landed = await appendInOneStatement(em, viewer, sessionId, input, records);
  if (landed) return landed;
  return inTransaction(em, async (q) => {
    const { session, usageLabId } = await openForWrite(q, viewer, sessionId, input, source, { movesLab: false });
    const base = input.baseUuid ?? null;
    if (base !== session.head_uuid) {
      if (await alreadyLanded(q, session, base, records)) {
        return { sessionId, headUuid: session.head_uuid, count: session.count, appended: 0 };
      }
      throw conflict('not a fast-forward', { head_uuid: session.head_uuid, count: session.count });
    }
    if (records.length === 0) return { sessionId, headUuid: session.head_uuid, count: session.count, appended: 0 };
    const bytes = byteSum(records);
    const head = records[records.length - 1].uuid;
    const count = session.count + records.length;
    await insertRecords(q, blobs, sessionId, session.count, records).catch((error: unknown) => {
      // The unique (session, uuid) index is the check: a uuid already stored refuses the batch.
      throw isUniqueViolation(error) ? conflict('a record uuid of this batch is already in this session') : error;
    });
    // Charged last: the owner's row stays locked only until commit, so one owner's sessions
    // append in parallel. Over quota, the rollback takes the inserted rows back out.
    await chargeStorage(q, viewer, bytes, { session, count, head, bytes: session.bytes + bytes, title: input.title, usage: records, usageLabId });
    return { sessionId, headUuid: head, count, appended: records.length };
  });
}

const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === '23505';

/**
 * The common append, a fast-forward of the viewer's own existing session with every record
 * inline, in one prepared statement (its own transaction). It locks the session row; only when
 * the base is the head, a lab given is one the viewer is active in (as in the transaction, it
 * sets only a new session's lab) and a shared session's lab still has the viewer as an active
 * member does it insert the records, then charge the owner, move the session and record usage
 * (credited to the session's lab while the viewer is active there). Charging comes last, so the owner's row is locked only until
 * commit; over quota, the statement aborts with `QUOTA_REFUSED` and its inserts go with it.
 * Lock order as in the transaction: session, then owner. Answers null for everything else (a
 * new session, a retry, a conflict, over quota, large records), which the transaction then
 * handles and explains.
 */
async function appendInOneStatement(em: EntityManager, viewer: Viewer, sessionId: string, input: AppendInput, records: IncomingRecord[]): Promise<AppendResult | null> {
  if (records.length === 0 || records.some((r) => r.bytes > INLINE_RECORD_LIMIT)) return null;
  const head = records[records.length - 1].uuid;
  const { tokensIn, tokensOut } = tokenTotals(records);
  const params = [sessionId, viewer.user.id, input.baseUuid ?? null, byteSum(records), storageQuotaOf(viewer.user), records.length, head, input.title ?? null, tokensIn, tokensOut, input.labId ?? null, ...recordArrays(records)];
  const [moved] = await directQuery<{ count: number }>(em, { name: 'trajectory_append', text: APPEND_IN_ONE_STATEMENT }, params).catch((error: unknown) => {
    // A uuid already stored, or over quota: nothing was written, and the transaction explains.
    if (isUniqueViolation(error) || (error as { code?: string }).code === QUOTA_REFUSED) return [];
    throw error;
  });
  return moved ? { sessionId, headUuid: head, count: moved.count, appended: records.length } : null;
}

/** The SQLSTATE the one-statement append aborts with when the owner's quota does not hold. */
const QUOTA_REFUSED = 'LD413';

const APPEND_IN_ONE_STATEMENT = `with s as (
    select t.id, t.lab_id, t.count, t.bytes from trajectories t
     where t.id = $1 and t.owner_id = $2 and t.head_uuid is not distinct from $3::text
       and ($11::text is null or ${activeMemberOf('$11', '$2')})
       and (t.visibility <> 'lab' or ${activeMemberOf('t.lab_id', '$2')})
       for no key update of t)
  , inserted as (
    insert into trajectory_records (session_id, seq, uuid, parent_uuid, type, raw, bytes)
    select s.id, s.count + v.n, v.uuid, v.parent_uuid, v.type, v.raw, v.bytes from s cross join ${recordRows(12)}
    returning 1)
  , charged as (
    update users set storage_used_bytes = storage_used_bytes + $4::bigint
     where id = $2 and storage_used_bytes + $4::bigint <= $5 and (select count(*) from inserted) = $6 returning id)
  , moved as (
    update trajectories t set count = s.count + $6, head_uuid = $7, bytes = s.bytes + $4::bigint, title = coalesce($8, t.title), archived_at = null, updated_at = now()
      from s where t.id = s.id and exists (select from charged))
  , used as (
    insert into usage_entries (user_id, lab_id, session_id, source, tokens_in, tokens_out)
    select $2, case when ${activeMemberOf('s.lab_id', '$2')} then s.lab_id end, s.id, 'trajectory', $9::bigint, $10::bigint
      from s where exists (select from charged) and ($9::bigint > 0 or $10::bigint > 0))
  select case when exists (select from charged) then s.count + $6 else labdesk_refuse('${QUOTA_REFUSED}', 'storage quota exceeded') end as count from s`;

/** Whether this exact batch is already the session's tail, right after `base` (a retried append). */
async function alreadyLanded(q: Query, session: SessionRow, base: string | null, records: IncomingRecord[]): Promise<boolean> {
  const n = records.length;
  if (n === 0 || n > session.count) return false;
  const tail = await q<{ uuid: string }>(`select uuid from trajectory_records where session_id = ? and seq > ? order by seq`, [
    session.id,
    session.count - n - 1,
  ]);
  const before = n === session.count ? null : tail.shift()?.uuid ?? null;
  return before === base && tail.every((row, i) => row.uuid === records[i].uuid);
}

/**
 * Cover-write for a client that lost its sync state: the session becomes exactly `records`.
 * Same quota gate as append (charged by the difference), no fast-forward check.
 */
export async function coverRecords(em: EntityManager, blobs: Blobs, viewer: Viewer, sessionId: string, input: WriteInput, source: string): Promise<AppendResult> {
  const records = checkWrite(sessionId, input);
  return inTransaction(em, async (q) => {
    const { session, usageLabId } = await openForWrite(q, viewer, sessionId, input, source, { movesLab: true });
    const bytes = byteSum(records);
    const head = records.length ? records[records.length - 1].uuid : null;
    // Usage counts each record once: only records new to the session add to the ledger.
    const known = new Set((await q<{ uuid: string }>(`select uuid from trajectory_records where session_id = ?`, [sessionId])).map((r) => r.uuid));
    const usage = records.filter((r) => !known.has(r.uuid));
    await chargeStorage(q, viewer, bytes - session.bytes, { session, count: records.length, head, bytes, labId: input.labId, title: input.title, usage, usageLabId });
    await q(`delete from trajectory_records where session_id = ?`, [sessionId]);
    await q(`delete from record_payloads where session_id = ?`, [sessionId]);
    await insertRecords(q, blobs, sessionId, 0, records);
    return { sessionId, headUuid: head, count: records.length, appended: records.length };
  });
}

/** Position of record `uuid` in the session. @throws NOT_FOUND when it is not there. */
export async function seqOf(em: EntityManager, sessionId: string, uuid: string): Promise<number> {
  const [row] = await sqlOf(em)<{ seq: number }>(`select seq from trajectory_records where session_id = ? and uuid = ?`, [sessionId, uuid]);
  if (!row) throw notFound('record');
  return row.seq;
}

/**
 * The stored texts of the records after position `afterSeq` (up to `uptoSeq`, inclusive), in
 * order, in groups of about a mebibyte (a reader writes each group at once): keyset reads on the
 * sequence index of at most `batch` rows and about `READ_BATCH_BYTES` (at least one row), so the
 * cost does not grow with the position and memory stays flat however long the session and
 * however large its records.
 */
export async function* recordBatches(em: EntityManager, blobs: Blobs, sessionId: string, afterSeq: number, { uptoSeq = 2 ** 31 - 1, batch = 1000 } = {}) {
  for (let after = afterSeq; ; ) {
    const rows = await directQuery<{ seq: number; raw: string | null; payload_ref: string | null; scanned: number }>(em, RECORD_BATCH, [sessionId, after, uptoSeq, batch, READ_BATCH_BYTES]);
    let texts: string[] = [];
    let size = 0;
    for (const row of rows) {
      const text = row.raw ?? (await loadPayload(blobs, row.payload_ref!));
      if (size + text.length > YIELD_CHARS && texts.length) {
        yield texts;
        texts = [];
        size = 0;
      }
      texts.push(text);
      size += text.length;
    }
    if (texts.length) yield texts;
    // Every row the index scan found was returned, and it found fewer than asked: the end.
    if (rows.length === 0 || (rows.length === rows[0].scanned && rows[0].scanned < batch)) return;
    after = rows[rows.length - 1].seq;
  }
}

const YIELD_CHARS = 1 << 20;
/** Bytes of records one read of `recordBatches` asks for (a single larger record still comes whole). */
const READ_BATCH_BYTES = 4 << 20;

const RECORD_BATCH = {
  name: 'trajectory_record_batch_bounded',
  text: `select x.seq, coalesce(x.raw, p.body) as raw, x.payload_ref, x.scanned::int as scanned from (
      select r.seq, r.raw, r.payload_ref, r.bytes, sum(r.bytes) over (order by r.seq) as through, count(*) over () as scanned
        from (select * from trajectory_records where session_id = $1 and seq > $2 and seq <= $3 order by seq limit $4) r) x
      left join record_payloads p on p.id = (case when x.payload_ref like 'db:%' then substr(x.payload_ref, 4)::bigint end)
     where x.through - x.bytes < $5
     order by x.seq`,
};

/** Deletes a session and everything in it; the owner's storage is credited. */
export async function deleteSession(em: EntityManager, viewer: Viewer, sessionId: string): Promise<void> {
  await em.transactional(async (tx) => {
    const { session } = await loadSession(tx, viewer, sessionId, 'write', true);
    const q = sqlOf(tx);
    await q(`delete from trajectories where id = ?`, [sessionId]);
    // Figure blobs no figure of the owner's still points at stop counting against their quota.
    const [released] = await q<{ bytes: number }>(
      `with released as (
         delete from blob_owners o where o.user_id = ? and not exists (
           select 1 from figures f join trajectories t on t.id = f.session_id
            where t.owner_id = o.user_id and 'drive://sha256/' || o.sha256 in (f.storage_uri, f.original_uri))
         returning bytes)
       select coalesce(sum(bytes), 0)::float8 as bytes from released`,
      [session.owner_id],
    );
    await chargeStorage(q, viewer, -(session.bytes + released.bytes));
  });
}

/**
 * Archives the caller's own, non-archived sessions absent from `sessionIds` and re-activates the
 * listed ones that were archived. Deletes nothing.
 */
export async function reconcile(em: EntityManager, viewer: Viewer, sessionIds: string[]) {
  checks()
    .int(['input', 'sessionIds'], sessionIds.length, { max: 100_000 })
    .done();
  const q = sqlOf(em);
  const listed = JSON.stringify(sessionIds);
  const archived = await q<{ id: string }>(
    `update trajectories set archived_at = now() where owner_id = ? and archived_at is null and source <> 'a2a'
       and id not in (select jsonb_array_elements_text(?::jsonb)) returning id`,
    [viewer.user.id, listed],
  );
  const reactivated = await q<{ id: string }>(
    `update trajectories set archived_at = null where owner_id = ? and archived_at is not null
       and id in (select jsonb_array_elements_text(?::jsonb)) returning id`,
    [viewer.user.id, listed],
  );
  return { archived: archived.map((r) => r.id).sort(), reactivated: reactivated.map((r) => r.id).sort() };
}

/**
 * Owner-only. `lab` needs a lab the owner is active in (the one given, else the session's).
 * @throws CONFLICT when there is no such lab
 */
export async function setVisibility(em: EntityManager, viewer: Viewer, sessionId: string, visibility: 'private' | 'lab', labId?: string | null) {
  const { session } = await loadSession(em, viewer, sessionId, 'write');
  const q = sqlOf(em);
  const lab = labId ?? session.lab_id;
  if (visibility === 'lab' && (!lab || !(await roleIn(q, viewer, lab)))) {
    throw conflict('visibility lab needs a lab_id of a lab you are an active member of');
  }
  await q(`update trajectories set visibility = ?, lab_id = ?, updated_at = now() where id = ?`, [visibility, visibility === 'lab' ? lab : session.lab_id, sessionId]);
  return (await loadSession(em, viewer, sessionId, 'view')).session;
}

export interface ListFilter {
  ownerId?: string | null;
  labId?: string | null;
  includeArchived?: boolean | null;
  sharedOnly?: boolean | null;
  source?: string | null;
}

/**
 * Sessions the viewer can see, newest activity first. Without filters: the viewer's own.
 * `labId`: that lab's sessions the viewer can see; `sharedOnly`: shared ones only; `ownerId`:
 * another user's shared sessions, for mentors of a lab that user shares with.
 */
export async function listSessions(em: EntityManager, viewer: Viewer, filter: ListFilter, limit: number) {
  const q = sqlOf(em);
  const where = conditions();
  const ownerId = filter.ownerId ?? (filter.labId || filter.sharedOnly ? null : viewer.user.id);
  if (ownerId && ownerId !== viewer.user.id && !isAdmin(viewer)) {
    const [mentor] = await q(
      `select 1 from lab_members me join lab_members them on them.lab_id = me.lab_id
        where me.user_id = ? and me.role in ('mentor', 'owner') and me.status = 'active' and them.user_id = ? and them.status = 'active' limit 1`,
      [viewer.user.id, ownerId],
    );
    if (!mentor) throw new AppError('FORBIDDEN', 'only mentors may list the sessions of another member');
  }
  // Visible: own, or shared with a lab the viewer is active in (admins see every session).
  if (!isAdmin(viewer)) where.add(
    `(t.owner_id = ? or (t.visibility = 'lab' and t.lab_id in (
      select m.lab_id from lab_members m join labs l on l.id = m.lab_id where m.user_id = ? and m.status = 'active' and l.status = 'active')))`,
    viewer.user.id,
    viewer.user.id,
  );
  if (ownerId) where.add('t.owner_id = ?', ownerId);
  if (filter.labId) where.add('t.lab_id = ?', filter.labId);
  if (filter.sharedOnly) where.add(`t.visibility = 'lab'`);
  if (!filter.includeArchived) where.add('t.archived_at is null');
  if (filter.source) where.add('t.source = ?', filter.source);
  else where.add(`t.source <> 'a2a'`);
  return pageOfSessions(q, where, limit);
}

async function pageOfSessions(q: Query, where: ReturnType<typeof conditions>, limit: number) {
  const rows = await q(`select ${SESSION_COLUMNS} from trajectories t where ${where.sql()} order by t.updated_at desc, t.id limit ?`, [...where.params, limit]);
  const [{ total }] = await q<{ total: number }>(`select count(*)::int as total from trajectories t where ${where.sql()}`, where.params);
  return { items: rows.map(toSessionRow), total, limit };
}

/**
 * Forks a session the viewer can view: a new session owned by the viewer, seeded with the
 * records up to and including `headUuid`. The fork always starts private, whatever the parent's
 * visibility: sharing is the new owner's explicit act, so a fork can never publish records the
 * parent's readers could not see (an admin forking a private session, say). It belongs to the
 * viewer's lab when they have an active one (the parent's lab first), so sharing it later needs
 * no lab_id. The copy is charged to the viewer's storage.
 * @throws NOT_FOUND (session, or `headUuid` not in it), PAYLOAD_TOO_LARGE
 */
export async function forkSession(em: EntityManager, viewer: Viewer, sessionId: string, headUuid: string) {
  checks().text(['input', 'headUuid'], headUuid, { min: 1, max: 200 }).done();
  return em.transactional(async (tx) => {
    const q = sqlOf(tx);
    const { session: parent, role } = await loadSession(tx, viewer, sessionId, 'view');
    const [head] = await q<{ seq: number; bytes: number }>(
      `select seq, (select coalesce(sum(bytes), 0)::float8 from trajectory_records where session_id = ? and seq <= r.seq) as bytes
         from trajectory_records r where session_id = ? and uuid = ?`,
      [sessionId, sessionId, headUuid],
    );
    if (!head) throw notFound('head_uuid in this session');
    const [lab] = role
      ? [{ lab_id: parent.lab_id }]
      : await q<{ lab_id: string }>(
          `select m.lab_id from lab_members m join labs l on l.id = m.lab_id where m.user_id = ? and m.status = 'active' and l.status = 'active' order by m.joined_at limit 1`,
          [viewer.user.id],
        );
    const forkId = randomUUID();
    await chargeStorage(q, viewer, head.bytes);
    await q(
      `insert into trajectories (id, owner_id, lab_id, visibility, title, source, count, head_uuid, bytes, forked_from_session, forked_from_uuid)
       values (?, ?, ?, 'private', ?, 'fork', ?, ?, ?, ?, ?)`,
      [forkId, viewer.user.id, lab?.lab_id ?? null, parent.title, head.seq, headUuid, head.bytes, sessionId, headUuid],
    );
    await q(
      `insert into trajectory_records (session_id, seq, uuid, parent_uuid, type, raw, payload_ref, bytes)
       select ?, seq, uuid, parent_uuid, type, raw, null, bytes from trajectory_records
        where session_id = ? and seq <= ? and payload_ref is null`,
      [forkId, sessionId, head.seq],
    );
    // Content-addressed payloads are shared (the object outlives either session); payload rows are
    // copied, so the fork does not depend on the parent's lifetime.
    await q(
      `insert into trajectory_records (session_id, seq, uuid, parent_uuid, type, raw, payload_ref, bytes)
       select ?, seq, uuid, parent_uuid, type, null, payload_ref, bytes from trajectory_records
        where session_id = ? and seq <= ? and payload_ref like 'blob:%'`,
      [forkId, sessionId, head.seq],
    );
    const large = await q<{ seq: number }>(`select seq from trajectory_records where session_id = ? and seq <= ? and payload_ref like 'db:%'`, [sessionId, head.seq]);
    for (const { seq } of large) {
      await q(
        `with copy as (
           insert into record_payloads (session_id, body)
           select ?, p.body from trajectory_records r join record_payloads p on p.id = substr(r.payload_ref, 4)::bigint
            where r.session_id = ? and r.seq = ? returning id)
         insert into trajectory_records (session_id, seq, uuid, parent_uuid, type, raw, payload_ref, bytes)
         select ?, r.seq, r.uuid, r.parent_uuid, r.type, null, 'db:' || copy.id, r.bytes
           from trajectory_records r, copy where r.session_id = ? and r.seq = ?`,
        [forkId, sessionId, seq, forkId, sessionId, seq],
      );
    }
    return { sessionId: forkId, forkedFrom: { sessionId, headUuid }, count: head.seq };
  });
}

/** Admin: every session, filtered by owner, lab and a title or id substring. */
export async function listAllSessions(em: EntityManager, filter: { ownerId?: string | null; labId?: string | null; q?: string | null }, limit: number) {
  const where = conditions();
  if (filter.ownerId) where.add('t.owner_id = ?', filter.ownerId);
  if (filter.labId) where.add('t.lab_id = ?', filter.labId);
  if (filter.q) where.add('(t.title ilike ? or t.id ilike ?)', containsPattern(filter.q), containsPattern(filter.q));
  return pageOfSessions(sqlOf(em), where, limit);
}

/** Admin: byte usage per user and per lab (the 500 largest of each), and the total. */
export async function storageSummary(em: EntityManager) {
  const q = sqlOf(em);
  const users = await q<{ user_id: string; email: string; used_bytes: number; quota_override_bytes: number | null; plan_code: string; sessions: number }>(
    `select u.id as user_id, u.email, u.storage_used_bytes::float8 as used_bytes, u.storage_quota_bytes::float8 as quota_override_bytes, u.plan_code,
            (select count(*)::int from trajectories t where t.owner_id = u.id) as sessions
       from users u where u.storage_used_bytes > 0 order by u.storage_used_bytes desc, u.id limit 500`,
  );
  const labs = await q<{ lab_id: string; name: string; bytes: number; sessions: number }>(
    `select l.id as lab_id, l.name, coalesce(sum(t.bytes), 0)::float8 as bytes, count(t.id)::int as sessions
       from labs l join trajectories t on t.lab_id = l.id group by l.id order by bytes desc, l.id limit 500`,
  );
  const [{ total }] = await q<{ total: number }>(`select coalesce(sum(storage_used_bytes), 0)::float8 as total from users`);
  return { users, labs, totalBytes: total };
}
