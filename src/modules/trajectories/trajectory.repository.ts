import type { EntityManager } from '@mikro-orm/postgresql';
import { int4Array, textArray } from '../../db/binary-arrays';
import { conditions, containsPattern, dateOf, directQuery, Query } from '../../db/sql';
import { isUniqueViolation } from '../../errors';
import { canViewSql, fastForwardSql } from './trajectory.policy';
import { activeMemberSql } from '../labs/membership.repository';
import { OPEN_NOTE } from './annotation.repository';
import type { IncomingRecord } from './records';
import { STORAGE_QUOTA_BY_PLAN } from '../users/plans';

/**
 * Every SQL statement on trajectories and their records (the annotations, the board and the
 * record facts have their own repositories beside this one). Services call these and keep the
 * rules and the transactions; rows come back as the domain's camelCase types.
 */

/** A trajectory (a "session" on the wire) as the service reads it. */
export interface TrajectoryRow {
  id: string;
  ownerId: string;
  labId: string | null;
  visibility: string;
  title: string | null;
  source: string;
  count: number;
  headUuid: string | null;
  bytes: number;
  createdAt: Date;
  updatedAt: Date;
  archivedAt: Date | null;
  forkedFromSession: string | null;
  forkedFromUuid: string | null;
  /** Set by the reads that count them along (`COUNTS_COLUMNS`): the request's counts loader is primed with them. */
  counts?: SessionCounts;
}

/**
 * A trajectory's figure-map rows and open review threads, read in the statement that reads it
 * (the meta read, a page of the list): one round trip fewer than the counts loader's own.
 */
const COUNTS_COLUMNS = `(select count(*)::int from figures f where f.session_id = t.id) as figures,
  (select count(*)::int from annotation_entries n where n.session_id = t.id and ${OPEN_NOTE}) as open_annotations`;

const TRAJECTORY_COLUMNS = `t.id, t.owner_id, t.lab_id, t.visibility, t.title, t.source, t.count, t.head_uuid, t.bytes::float8 as bytes,
  t.created_at, t.updated_at, t.archived_at, t.forked_from_session, t.forked_from_uuid`;

/** A row of `TRAJECTORY_COLUMNS` (raw SQL gets timestamps as text) to a `TrajectoryRow`. */
const toTrajectory = (row: Record<string, unknown>): TrajectoryRow => ({
  id: row.id as string,
  ownerId: row.owner_id as string,
  labId: row.lab_id as string | null,
  visibility: row.visibility as string,
  title: row.title as string | null,
  source: row.source as string,
  count: row.count as number,
  headUuid: row.head_uuid as string | null,
  bytes: row.bytes as number,
  createdAt: dateOf(row.created_at)!,
  updatedAt: dateOf(row.updated_at)!,
  archivedAt: dateOf(row.archived_at),
  forkedFromSession: row.forked_from_session as string | null,
  forkedFromUuid: row.forked_from_uuid as string | null,
  ...(row.figures === undefined ? {} : { counts: { figures: row.figures as number, openAnnotations: row.open_annotations as number } }),
});

/** One trajectory with its counts (`COUNTS_COLUMNS`), for reading it. */
export async function findTrajectoryWithCounts(q: Query, id: string): Promise<TrajectoryRow | null> {
  const [row] = await q(`select ${TRAJECTORY_COLUMNS}, ${COUNTS_COLUMNS} from trajectories t where t.id = ?`, [id]);
  return row ? toTrajectory(row) : null;
}

/** One trajectory; `forUpdate` locks its row for the rest of the transaction. */
export async function findTrajectory(q: Query, id: string, forUpdate = false): Promise<TrajectoryRow | null> {
  const [row] = await q(`select ${TRAJECTORY_COLUMNS} from trajectories t where t.id = ?${forUpdate ? ' for update' : ''}`, [id]);
  return row ? toTrajectory(row) : null;
}

/** The bytes of records a trajectory of `ownerId`'s holds (0 when there is none, or it is someone else's). */
export async function ownTrajectoryBytes(q: Query, id: string, ownerId: string): Promise<number> {
  const [row] = await q<{ bytes: number }>(`select bytes::float8 as bytes from trajectories where id = ? and owner_id = ?`, [id, ownerId]);
  return row?.bytes ?? 0;
}

/** Creates the trajectory if it is new, and locks its row either way (one statement: DO UPDATE locks). */
export async function createOrLockTrajectory(
  q: Query,
  t: { id: string; ownerId: string; labId: string | null; title: string | null; source: string },
): Promise<TrajectoryRow> {
  const [row] = await q(
    `insert into trajectories as t (id, owner_id, lab_id, title, source) values (?, ?, ?, ?, ?)
     on conflict (id) do update set id = excluded.id returning ${TRAJECTORY_COLUMNS}`,
    [t.id, t.ownerId, t.labId, t.title, t.source],
  );
  return toTrajectory(row);
}

/** Where a write leaves a trajectory, and the usage it records. */
export interface TrajectoryMove {
  id: string;
  ownerId: string;
  count: number;
  head: string | null;
  bytes: number;
  labId?: string | null;
  title?: string | null;
  tokensIn: number;
  tokensOut: number;
  /** The lab that usage is credited to (null: none). */
  usageLabId: string | null;
}

/**
 * Charges `bytes` to the user's storage and, only when that fits `quota`, moves the trajectory
 * (`move`) and records its token usage: one statement, so the quota check cannot be raced.
 * Answers whether it was charged.
 */
export async function chargeAndMove(q: Query, userId: string, bytes: number, quota: number, move?: TrajectoryMove): Promise<boolean> {
  const params: unknown[] = [bytes, userId, bytes, bytes, quota];
  let sql = `with charged as (
      update users set storage_used_bytes = greatest(storage_used_bytes + ?::bigint, 0)
       where id = ? and (?::bigint <= 0 or storage_used_bytes + ?::bigint <= ?) returning id)`;
  if (move) {
    sql += `, moved as (
      update trajectories set count = ?, head_uuid = ?, bytes = ?, lab_id = coalesce(?, lab_id), title = coalesce(?, title), archived_at = null, updated_at = now()
       where id = ? and exists (select from charged))
    , used as (
      insert into usage_entries (user_id, lab_id, session_id, source, tokens_in, tokens_out)
      select ?, ?, ?, 'trajectory', ?::bigint, ?::bigint where exists (select from charged) and (?::bigint > 0 or ?::bigint > 0))`;
    params.push(move.count, move.head, move.bytes, move.labId ?? null, move.title ?? null, move.id);
    params.push(move.ownerId, move.usageLabId, move.id, move.tokensIn, move.tokensOut, move.tokensIn, move.tokensOut);
  }
  const [{ charged }] = await q<{ charged: boolean }>(`${sql} select exists (select from charged) as charged`, params);
  return charged;
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

/**
 * Inserts records after position `after`, in one statement (`payloadRefs[i]`: record i's text is
 * in the payload store). A uuid already in the trajectory fails on its unique constraint.
 */
export async function insertRecords(
  q: Query,
  trajectoryId: string,
  after: number,
  records: IncomingRecord[],
  payloadRefs: (string | null)[],
) {
  await q(
    `insert into trajectory_records (session_id, seq, uuid, parent_uuid, type, raw, payload_ref, bytes)
     select ?, ?::int + v.n, v.uuid, v.parent_uuid, v.type, v.raw, v.payload_ref, v.bytes from ${recordRows()}`,
    [trajectoryId, after, ...recordArrays(records, payloadRefs)],
  );
}

/** A record text over the inline threshold as a row of `record_payloads`; answers its id. */
export async function insertPayloadRow(q: Query, trajectoryId: string, text: string): Promise<string> {
  const [payload] = await q<{ id: string }>(`insert into record_payloads (session_id, body) values (?, ?) returning id`, [
    trajectoryId,
    text,
  ]);
  return payload.id;
}

/**
 * SQL: the storage quota of the `users` row being charged (`storageQuotaOf` in PostgreSQL): its
 * own, else its plan's from `plans` (a parameter: STORAGE_QUOTA_BY_PLAN as JSON). Read from the
 * row the statement locks, so the writer's user need not be loaded first.
 */
const QUOTA_OF_USER = (plans: string) => `coalesce(storage_quota_bytes, (${plans}::jsonb ->> plan_code)::bigint)`;
const PLAN_QUOTAS = JSON.stringify(STORAGE_QUOTA_BY_PLAN);

/** The SQLSTATE the one-statement append aborts with when the owner's quota does not hold. */
const QUOTA_REFUSED = 'LD413';

const APPEND_IN_ONE_STATEMENT = `with s as (
    select t.id, t.lab_id, t.count, t.bytes from trajectories t
     where t.id = $1 and ${fastForwardSql('t', { user: '$2', base: '$3::text', givenLab: '$11::text' })}
       for no key update of t)
  , inserted as (
    insert into trajectory_records (session_id, seq, uuid, parent_uuid, type, raw, bytes)
    select s.id, s.count + v.n, v.uuid, v.parent_uuid, v.type, v.raw, v.bytes from s cross join ${recordRows(12)}
    returning 1)
  , charged as (
    update users set storage_used_bytes = storage_used_bytes + $4::bigint
     where id = $2 and storage_used_bytes + $4::bigint <= ${QUOTA_OF_USER('$5')} and (select count(*) from inserted) = $6 returning id)
  , moved as (
    update trajectories t set count = s.count + $6, head_uuid = $7, bytes = s.bytes + $4::bigint, title = coalesce($8, t.title), archived_at = null, updated_at = now()
      from s where t.id = s.id and exists (select from charged))
  , used as (
    insert into usage_entries (user_id, lab_id, session_id, source, tokens_in, tokens_out)
    select $2, case when ${activeMemberSql('s.lab_id', '$2')} then s.lab_id end, s.id, 'trajectory', $9::bigint, $10::bigint
      from s where exists (select from charged) and ($9::bigint > 0 or $10::bigint > 0))
  select case when exists (select from charged) then s.count + $6 else labdesk_refuse('${QUOTA_REFUSED}', 'storage quota exceeded') end as count from s`;

/**
 * The common append (see `appendRecords`) as one prepared statement, in its own transaction:
 * only when `fastForwardSql` holds does it insert the records (all inline), then charge the
 * owner, move the trajectory and record usage (credited to its lab while the writer is active
 * there). Charging comes last, so the owner's row is locked only until commit; over quota, the
 * statement aborts with `QUOTA_REFUSED` and its inserts go with it. Lock order as in the
 * transaction: trajectory, then owner. Answers the new count, or null when nothing was written
 * (not a fast-forward, a uuid already stored, over quota).
 */
export async function appendInOneStatement(
  em: EntityManager,
  a: {
    trajectoryId: string;
    userId: string;
    baseUuid: string | null;
    givenLabId: string | null;
    head: string;
    title: string | null;
    tokensIn: number;
    tokensOut: number;
  },
  records: IncomingRecord[],
): Promise<number | null> {
  const bytes = records.reduce((sum, r) => sum + r.bytes, 0);
  const params = [
    a.trajectoryId,
    a.userId,
    a.baseUuid,
    bytes,
    PLAN_QUOTAS,
    records.length,
    a.head,
    a.title,
    a.tokensIn,
    a.tokensOut,
    a.givenLabId,
    ...recordArrays(records),
  ];
  const [moved] = await directQuery<{ count: number }>(em, { name: 'trajectory_append', text: APPEND_IN_ONE_STATEMENT }, params).catch(
    (error: unknown) => {
      if (isUniqueViolation(error) || (error as { code?: string }).code === QUOTA_REFUSED) return [];
      throw error;
    },
  );
  return moved ? moved.count : null;
}

const CREATE_IN_ONE_STATEMENT = `with made as (
    insert into trajectories (id, owner_id, lab_id, title, source, count, head_uuid, bytes) values ($1, $2, null, $7, $8, $5, $6, $3::bigint)
    on conflict (id) do nothing returning id)
  , inserted as (
    insert into trajectory_records (session_id, seq, uuid, parent_uuid, type, raw, bytes)
    select made.id, v.n, v.uuid, v.parent_uuid, v.type, v.raw, v.bytes from made cross join ${recordRows(11)}
    returning 1)
  , charged as (
    update users set storage_used_bytes = storage_used_bytes + $3::bigint
     where id = $2 and storage_used_bytes + $3::bigint <= ${QUOTA_OF_USER('$4')} and (select count(*) from inserted) = $5 returning id)
  , used as (
    insert into usage_entries (user_id, lab_id, session_id, source, tokens_in, tokens_out)
    select $2, null, made.id, 'trajectory', $9::bigint, $10::bigint from made where exists (select from charged) and ($9::bigint > 0 or $10::bigint > 0))
  select case when exists (select from charged) then $5 else labdesk_refuse('${QUOTA_REFUSED}', 'storage quota exceeded') end as count from made`;

/**
 * A new trajectory of no lab with its first records (all inline) as one prepared statement, as
 * `appendInOneStatement` appends: made with its head, count and bytes, the records inserted, the
 * owner charged, usage recorded; over quota the statement aborts with `QUOTA_REFUSED` and nothing
 * stays. Answers the count, or null when nothing was written (the id is taken, over quota): the
 * transaction path then explains or retries.
 */
export async function createInOneStatement(
  em: EntityManager,
  a: {
    trajectoryId: string;
    userId: string;
    head: string;
    title: string | null;
    source: string;
    tokensIn: number;
    tokensOut: number;
  },
  records: IncomingRecord[],
): Promise<number | null> {
  const bytes = records.reduce((sum, r) => sum + r.bytes, 0);
  const params = [
    a.trajectoryId,
    a.userId,
    bytes,
    PLAN_QUOTAS,
    records.length,
    a.head,
    a.title,
    a.source,
    a.tokensIn,
    a.tokensOut,
    ...recordArrays(records),
  ];
  const [made] = await directQuery<{ count: number }>(em, { name: 'trajectory_create', text: CREATE_IN_ONE_STATEMENT }, params).catch(
    (error: unknown) => {
      if (isUniqueViolation(error) || (error as { code?: string }).code === QUOTA_REFUSED) return [];
      throw error;
    },
  );
  return made ? made.count : null;
}

/** The uuids of the records after position `afterSeq`, in order. */
export async function uuidsAfter(q: Query, trajectoryId: string, afterSeq: number): Promise<string[]> {
  const rows = await q<{ uuid: string }>(`select uuid from trajectory_records where session_id = ? and seq > ? order by seq`, [
    trajectoryId,
    afterSeq,
  ]);
  return rows.map((r) => r.uuid);
}

/** Deletes every record of the trajectory, with their payload rows. */
export async function deleteRecords(q: Query, trajectoryId: string) {
  await q(`delete from trajectory_records where session_id = ?`, [trajectoryId]);
  await q(`delete from record_payloads where session_id = ?`, [trajectoryId]);
}

/** Position of record `uuid` in the trajectory (null: not there). */
export async function seqOfRecord(q: Query, trajectoryId: string, uuid: string): Promise<number | null> {
  const [row] = await q<{ seq: number }>(`select seq from trajectory_records where session_id = ? and uuid = ?`, [trajectoryId, uuid]);
  return row?.seq ?? null;
}

/** A stored record as a read returns it: its text inline (or from a payload row), else its blob reference. */
export interface StoredRecord {
  seq: number;
  raw: string | null;
  payloadRef: string | null;
}

const RECORD_BATCH = {
  name: 'trajectory_record_batch_bounded',
  text: `select x.seq, coalesce(x.raw, p.body) as raw, x.payload_ref, x.scanned::int as scanned from (
      select r.seq, r.raw, r.payload_ref, r.bytes, sum(r.bytes) over (order by r.seq) as through, count(*) over () as scanned
        from (select * from trajectory_records where session_id = $1 and seq > $2 and seq <= $3 order by seq limit $4) r) x
      left join record_payloads p on p.id = (case when x.payload_ref like 'db:%' then substr(x.payload_ref, 4)::bigint end)
     where x.through - x.bytes < $5
     order by x.seq`,
};

/**
 * One keyset read on the sequence index: the records after `afterSeq` (up to `uptoSeq`), at
 * most `rows` of them and about `bytes` (at least one). `complete`: every row the index scan
 * found was returned and it found fewer than asked, so nothing follows.
 */
export async function readRecordBatch(
  em: EntityManager,
  trajectoryId: string,
  afterSeq: number,
  uptoSeq: number,
  rows: number,
  bytes: number,
) {
  const found = await directQuery<{ seq: number; raw: string | null; payload_ref: string | null; scanned: number }>(em, RECORD_BATCH, [
    trajectoryId,
    afterSeq,
    uptoSeq,
    rows,
    bytes,
  ]);
  const records: StoredRecord[] = found.map((r) => ({ seq: r.seq, raw: r.raw, payloadRef: r.payload_ref }));
  return { records, complete: found.length === 0 || (found.length === found[0].scanned && found[0].scanned < rows) };
}

/**
 * Deletes the trajectory (its records, annotations and figure map go with it), then the owner's
 * figure blobs no figure of theirs still points at. Answers the bytes those blobs counted.
 */
export async function deleteTrajectory(q: Query, id: string, ownerId: string): Promise<number> {
  await q(`delete from trajectories where id = ?`, [id]);
  const [released] = await q<{ bytes: number }>(
    `with released as (
       delete from blob_owners o where o.user_id = ? and not exists (
         select 1 from figures f join trajectories t on t.id = f.session_id
          where t.owner_id = o.user_id and 'drive://sha256/' || o.sha256 in (f.storage_uri, f.original_uri))
       returning bytes)
     select coalesce(sum(bytes), 0)::float8 as bytes from released`,
    [ownerId],
  );
  return released.bytes;
}

/**
 * Archives the owner's non-archived trajectories (a2a ones aside) absent from `listed` and
 * re-activates the listed ones that were archived. Answers the ids of each, sorted.
 */
export async function reconcileArchive(q: Query, ownerId: string, listed: string[]) {
  const ids = JSON.stringify(listed);
  const archived = await q<{ id: string }>(
    `update trajectories set archived_at = now() where owner_id = ? and archived_at is null and source <> 'a2a'
       and id not in (select jsonb_array_elements_text(?::jsonb)) returning id`,
    [ownerId, ids],
  );
  const reactivated = await q<{ id: string }>(
    `update trajectories set archived_at = null where owner_id = ? and archived_at is not null
       and id in (select jsonb_array_elements_text(?::jsonb)) returning id`,
    [ownerId, ids],
  );
  return { archived: archived.map((r) => r.id).sort(), reactivated: reactivated.map((r) => r.id).sort() };
}

export async function updateVisibility(q: Query, id: string, visibility: string, labId: string | null) {
  await q(`update trajectories set visibility = ?, lab_id = ?, updated_at = now() where id = ?`, [visibility, labId, id]);
}

/** Which trajectories a listing shows; every member given narrows it. */
export interface TrajectoryFilter {
  /** Only those the viewer can view (`canViewSql`); admins see every one. */
  visibleTo?: { userId: string; admin: boolean };
  ownerId?: string | null;
  labId?: string | null;
  sharedOnly?: boolean | null;
  includeArchived?: boolean | null;
  /** Only this source; without it, every source but a2a (undefined: any source at all). */
  source?: string | null;
  /** A title or id substring. */
  text?: string | null;
}

/** A page of trajectories, newest activity first, and how many match in all (`limit` ≥ 1). */
export async function pageOfTrajectories(q: Query, filter: TrajectoryFilter, limit: number) {
  const where = conditions();
  if (filter.visibleTo && !filter.visibleTo.admin) where.add(canViewSql('t', '?', false), filter.visibleTo.userId, filter.visibleTo.userId);
  if (filter.ownerId) where.add('t.owner_id = ?', filter.ownerId);
  if (filter.labId) where.add('t.lab_id = ?', filter.labId);
  if (filter.sharedOnly) where.add(`t.visibility = 'lab'`);
  if (filter.includeArchived === false) where.add('t.archived_at is null');
  if (filter.source) where.add('t.source = ?', filter.source);
  else if (filter.source === null) where.add(`t.source <> 'a2a'`);
  if (filter.text) where.add('(t.title ilike ? or t.id ilike ?)', containsPattern(filter.text), containsPattern(filter.text));
  // The total rides on every row (a window over all matches, counted before the limit): one
  // round trip, not two. `limit` is at least 1, so no rows means no matches.
  const rows = await q(
    `select ${TRAJECTORY_COLUMNS}, ${COUNTS_COLUMNS}, (count(*) over ())::int as total from trajectories t where ${where.sql()} order by t.updated_at desc, t.id limit ?`,
    [...where.params, limit],
  );
  return { items: rows.map(toTrajectory), total: rows.length ? (rows[0].total as number) : 0, limit };
}

/** Position and stored bytes (through it) of record `uuid` (null: not in the trajectory). */
export async function forkPoint(q: Query, trajectoryId: string, uuid: string): Promise<{ seq: number; bytes: number } | null> {
  const [head] = await q<{ seq: number; bytes: number }>(
    `select seq, (select coalesce(sum(bytes), 0)::float8 from trajectory_records where session_id = ? and seq <= r.seq) as bytes
       from trajectory_records r where session_id = ? and uuid = ?`,
    [trajectoryId, trajectoryId, uuid],
  );
  return head ?? null;
}

/**
 * A fork: a new trajectory `forkId` (`visibility` as the service decided) holding the parent's records through `seq`.
 * Content-addressed payloads are shared (the object outlives either trajectory); payload rows
 * are copied, so the fork does not depend on the parent's lifetime.
 */
export async function insertFork(
  q: Query,
  fork: {
    id: string;
    ownerId: string;
    labId: string | null;
    visibility: 'private' | 'lab';
    title: string | null;
    parentId: string;
    headUuid: string;
    seq: number;
    bytes: number;
    /** Tokens the copied records reported. */
    tokensIn: number;
    tokensOut: number;
  },
) {
  await q(
    `insert into trajectories (id, owner_id, lab_id, visibility, title, source, count, head_uuid, bytes, forked_from_session, forked_from_uuid,
                               inherited_tokens_in, inherited_tokens_out)
     values (?, ?, ?, ?, ?, 'fork', ?, ?, ?, ?, ?, ?, ?)`,
    [
      fork.id,
      fork.ownerId,
      fork.labId,
      fork.visibility,
      fork.title,
      fork.seq,
      fork.headUuid,
      fork.bytes,
      fork.parentId,
      fork.headUuid,
      fork.tokensIn,
      fork.tokensOut,
    ],
  );
  await q(
    `insert into trajectory_records (session_id, seq, uuid, parent_uuid, type, raw, payload_ref, bytes)
     select ?, seq, uuid, parent_uuid, type, raw, null, bytes from trajectory_records
      where session_id = ? and seq <= ? and payload_ref is null`,
    [fork.id, fork.parentId, fork.seq],
  );
  await q(
    `insert into trajectory_records (session_id, seq, uuid, parent_uuid, type, raw, payload_ref, bytes)
     select ?, seq, uuid, parent_uuid, type, null, payload_ref, bytes from trajectory_records
      where session_id = ? and seq <= ? and payload_ref like 'blob:%'`,
    [fork.id, fork.parentId, fork.seq],
  );
  const large = await q<{ seq: number }>(
    `select seq from trajectory_records where session_id = ? and seq <= ? and payload_ref like 'db:%'`,
    [fork.parentId, fork.seq],
  );
  for (const { seq } of large) {
    await q(
      `with copy as (
         insert into record_payloads (session_id, body)
         select ?, p.body from trajectory_records r join record_payloads p on p.id = substr(r.payload_ref, 4)::bigint
          where r.session_id = ? and r.seq = ? returning id)
       insert into trajectory_records (session_id, seq, uuid, parent_uuid, type, raw, payload_ref, bytes)
       select ?, r.seq, r.uuid, r.parent_uuid, r.type, null, 'db:' || copy.id, r.bytes
         from trajectory_records r, copy where r.session_id = ? and r.seq = ?`,
      [fork.id, fork.parentId, seq, fork.id, fork.parentId, seq],
    );
  }
}

/** Admin: byte usage per user and per lab (the 500 largest of each), and the total. */
export async function storageSummary(q: Query) {
  const users = await q<{
    user_id: string;
    email: string;
    used_bytes: number;
    quota_override_bytes: number | null;
    plan_code: string;
    sessions: number;
  }>(
    `select u.id as user_id, u.email, u.storage_used_bytes::float8 as used_bytes, u.storage_quota_bytes::float8 as quota_override_bytes, u.plan_code,
            (select count(*)::int from trajectories t where t.owner_id = u.id) as sessions
       from users u where u.storage_used_bytes > 0 order by u.storage_used_bytes desc, u.id limit 500`,
  );
  const labs = await q<{ lab_id: string; name: string; bytes: number; sessions: number }>(
    `select l.id as lab_id, l.name, coalesce(sum(t.bytes), 0)::float8 as bytes, count(t.id)::int as sessions
       from labs l join trajectories t on t.lab_id = l.id group by l.id order by bytes desc, l.id limit 500`,
  );
  const [{ total }] = await q<{ total: number }>(`select coalesce(sum(storage_used_bytes), 0)::float8 as total from users`);
  return {
    users: users.map((u) => ({
      userId: u.user_id,
      email: u.email,
      usedBytes: u.used_bytes,
      quotaOverrideBytes: u.quota_override_bytes,
      planCode: u.plan_code,
      trajectories: u.sessions,
    })),
    labs: labs.map((l) => ({ labId: l.lab_id, name: l.name, bytes: l.bytes, trajectories: l.sessions })),
    totalBytes: total,
  };
}

export interface CachedSummary {
  text: string;
  headUuid: string;
  generatedAt: Date;
}

/** The cached model summary of a trajectory (null: none) and the error of its last failed job (null: none). */
export async function summaryCache(q: Query, id: string): Promise<{ summary: CachedSummary | null; error: string | null }> {
  const [row] = await q<{ summary: { text: string; head_uuid: string; generated_at: string } | null; summary_error: string | null }>(
    `select summary, summary_error from trajectories where id = ?`,
    [id],
  );
  const cached = row?.summary;
  return {
    summary: cached ? { text: cached.text, headUuid: cached.head_uuid, generatedAt: new Date(cached.generated_at) } : null,
    error: row?.summary_error ?? null,
  };
}

/** Drops the cached summary and any error: a summary is to be made afresh. */
export async function dropCachedSummary(q: Query, id: string) {
  await q(`update trajectories set summary = null, summary_error = null where id = ?`, [id]);
}

export async function storeSummary(q: Query, id: string, summary: CachedSummary) {
  await q(`update trajectories set summary = ?::jsonb, summary_error = null where id = ?`, [
    JSON.stringify({ text: summary.text, head_uuid: summary.headUuid, generated_at: summary.generatedAt.toISOString() }),
    id,
  ]);
}

export async function recordSummaryError(q: Query, id: string, error: string) {
  await q(`update trajectories set summary_error = ? where id = ?`, [error, id]);
}

/** The Q&A turns on a trajectory, by viewer then time. */
export async function discussionTurns(q: Query, id: string) {
  const rows = await q<{ user_id: string; name: string; turn_id: string; question: string; answer: string; created_at: string }>(
    `select d.viewer_id as user_id, u.name, d.id as turn_id, d.question, d.answer, d.created_at
       from discussion_turns d join users u on u.id = d.viewer_id where d.session_id = ? order by d.viewer_id, d.created_at`,
    [id],
  );
  return rows.map((r) => ({
    userId: r.user_id,
    name: r.name,
    turnId: r.turn_id,
    question: r.question,
    answer: r.answer,
    createdAt: dateOf(r.created_at)!,
  }));
}

/** What a trajectory's meta counts: rows of its figure map and its open notes. */
export interface SessionCounts {
  figures: number;
  openAnnotations: number;
}

/** The counts of each trajectory of `ids`, in one statement (a list's metas cost one round trip for both). */
export async function sessionCounts(q: Query, ids: string[]): Promise<Map<string, SessionCounts>> {
  const rows = await q<{ session_id: string; figures: number; open_annotations: number }>(
    `select t.id as session_id, ${COUNTS_COLUMNS} from (select distinct jsonb_array_elements_text(?::jsonb) as id) t`,
    [JSON.stringify(ids)],
  );
  return new Map(rows.map((r) => [r.session_id, { figures: r.figures, openAnnotations: r.open_annotations }]));
}

/**
 * Tokens the records reported (`message.usage`), per trajectory: those appended to it, from the
 * usage ledger, and for a fork those it was seeded with (`inherited_tokens_*`).
 */
export async function sessionTokens(q: Query, ids: string[]): Promise<Map<string, { input: number; output: number }>> {
  const rows = await q<{ session_id: string; input: number; output: number }>(
    `select t.id as session_id,
            (t.inherited_tokens_in + coalesce(sum(u.tokens_in), 0))::float8 as input,
            (t.inherited_tokens_out + coalesce(sum(u.tokens_out), 0))::float8 as output
       from trajectories t
       left join usage_entries u on u.session_id = t.id and u.source = 'trajectory'
      where t.id in (select jsonb_array_elements_text(?::jsonb))
      group by t.id`,
    [JSON.stringify(ids)],
  );
  return new Map(rows.map((r) => [r.session_id, { input: r.input, output: r.output }]));
}

/** Keeps a non-owner viewer's Q&A turn about a session. */
export async function insertDiscussionTurn(
  q: Query,
  turn: { id: string; sessionId: string; viewerId: string; question: string; answer: string },
) {
  await q(`insert into discussion_turns (id, session_id, viewer_id, question, answer) values (?, ?, ?, ?, ?)`, [
    turn.id,
    turn.sessionId,
    turn.viewerId,
    turn.question,
    turn.answer,
  ]);
}
