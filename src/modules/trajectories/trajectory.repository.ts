import type { EntityManager } from '@mikro-orm/postgresql';
import { type Expression, sql, type Selection } from 'kysely';
import { z } from 'zod';
import { int4Array, textArray } from '../../db/binary-arrays';
import type { Database } from '../../db/database';
import { conditions, containsPattern, dateOf, Query } from '../../db/sql';
import {
  asFloat8,
  at,
  condition,
  cteBody,
  db,
  firstRowOf,
  fragment,
  namedOnce,
  namedText,
  preparedStatement,
  rowsOf,
} from '../../db/typed-sql';
import { isUniqueViolation } from '../../errors';
import { canViewSql, fastForwardSql } from './trajectory.policy';
import { activeMemberSql } from '../labs/membership.repository';
import { OPEN_NOTE } from './annotation.repository';
import type { IncomingRecord } from './records';
import { STORAGE_QUOTA_BY_PLAN } from '../users/plans';

/**
 * Every SQL statement on trajectories and their records (the annotations, the board and the
 * record facts have their own repositories beside this one). Services call these and keep the
 * rules and the transactions; rows come back as the domain's camelCase types. Statements that
 * answer rows are built with Kysely (`typed-sql.ts`), which types their rows from the schema.
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
const COUNTS_COLUMNS = [
  sql<number>`(select count(*)::int from figures f where f.session_id = t.id)`.as('figures'),
  sql<number>`(select count(*)::int from annotation_entries n where n.session_id = t.id and ${sql.raw(OPEN_NOTE)})`.as('open_annotations'),
] as const;

/** A trajectory's columns (unqualified: they serve `trajectories t` and an insert's `returning`). */
const TRAJECTORY_COLUMNS = [
  'id',
  'owner_id',
  'lab_id',
  'visibility',
  'title',
  'source',
  'count',
  'head_uuid',
  sql<number>`bytes::float8`.as('bytes'),
  'created_at',
  'updated_at',
  'archived_at',
  'forked_from_session',
  'forked_from_uuid',
] as const;

/** A row of `TRAJECTORY_COLUMNS`, as Kysely types it from the schema. */
type TrajectoryColumns = Selection<Database, 'trajectories', (typeof TRAJECTORY_COLUMNS)[number]>;

/** A row of `TRAJECTORY_COLUMNS` (raw SQL gets timestamps as text) to a `TrajectoryRow`. */
const toTrajectory = (row: TrajectoryColumns): TrajectoryRow => ({
  id: row.id,
  ownerId: row.owner_id,
  labId: row.lab_id,
  visibility: row.visibility,
  title: row.title,
  source: row.source,
  count: row.count,
  headUuid: row.head_uuid,
  bytes: row.bytes,
  createdAt: dateOf(row.created_at)!,
  updatedAt: dateOf(row.updated_at)!,
  archivedAt: dateOf(row.archived_at),
  forkedFromSession: row.forked_from_session,
  forkedFromUuid: row.forked_from_uuid,
});

/** A row of `TRAJECTORY_COLUMNS` and `COUNTS_COLUMNS` to a `TrajectoryRow` with its counts. */
const toTrajectoryWithCounts = (row: TrajectoryColumns & { figures: number; open_annotations: number }): TrajectoryRow => ({
  ...toTrajectory(row),
  counts: { figures: row.figures, openAnnotations: row.open_annotations },
});

/** One trajectory with its counts (`COUNTS_COLUMNS`), for reading it. */
export async function findTrajectoryWithCounts(q: Query, id: string): Promise<TrajectoryRow | null> {
  const row = await firstRowOf(
    q,
    db
      .selectFrom('trajectories as t')
      .select([...TRAJECTORY_COLUMNS, ...COUNTS_COLUMNS])
      .where('t.id', '=', id),
  );
  return row ? toTrajectoryWithCounts(row) : null;
}

/** One trajectory; `forUpdate` locks its row for the rest of the transaction. */
export async function findTrajectory(q: Query, id: string, forUpdate = false): Promise<TrajectoryRow | null> {
  const row = await firstRowOf(
    q,
    db
      .selectFrom('trajectories as t')
      .select(TRAJECTORY_COLUMNS)
      .where('t.id', '=', id)
      .$if(forUpdate, (query) => query.forUpdate()),
  );
  return row ? toTrajectory(row) : null;
}

/** The bytes of records a trajectory of `ownerId`'s holds (0 when there is none, or it is someone else's). */
export async function ownTrajectoryBytes(q: Query, id: string, ownerId: string): Promise<number> {
  const row = await firstRowOf(
    q,
    db
      .selectFrom('trajectories')
      .select((eb) => asFloat8(eb.ref('bytes')).as('bytes'))
      .where('id', '=', id)
      .where('owner_id', '=', ownerId),
  );
  return row?.bytes ?? 0;
}

/** Creates the trajectory if it is new, and locks its row either way (one statement: DO UPDATE locks). */
export async function createOrLockTrajectory(
  q: Query,
  t: { id: string; ownerId: string; labId: string | null; title: string | null; source: string },
): Promise<TrajectoryRow> {
  const [row] = await rowsOf(
    q,
    db
      .insertInto('trajectories')
      .values({ id: t.id, owner_id: t.ownerId, lab_id: t.labId, title: t.title, source: t.source })
      .onConflict((conflict) => conflict.column('id').doUpdateSet((eb) => ({ id: eb.ref('excluded.id') })))
      .returning(TRAJECTORY_COLUMNS),
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
  const charging = db.with('charged', (creator) =>
    creator
      .updateTable('users')
      .set({ storage_used_bytes: fragment<string>('greatest(storage_used_bytes + ?::bigint, 0)', bytes) })
      .where('id', '=', userId)
      .where(condition('?::bigint <= 0 or storage_used_bytes + ?::bigint <= ?', bytes, bytes, quota))
      .returning('id'),
  );
  const wasCharged = sql<boolean>`exists (select from charged)`.as('charged');
  const statement = move
    ? charging
        .with('moved', () =>
          cteBody(
            `update trajectories set count = @count, head_uuid = @head, bytes = @bytes, lab_id = coalesce(@labId, lab_id), title = coalesce(@title, title),
               archived_at = null, updated_at = now()
             where id = @id and exists (select from charged)`,
            { count: move.count, head: move.head, bytes: move.bytes, labId: move.labId ?? null, title: move.title ?? null, id: move.id },
          ),
        )
        .with('used', () =>
          cteBody(
            `insert into usage_entries (user_id, lab_id, session_id, source, tokens_in, tokens_out)
             select @ownerId, @usageLabId, @id, 'trajectory', @tokensIn::bigint, @tokensOut::bigint
              where exists (select from charged) and (@tokensIn::bigint > 0 or @tokensOut::bigint > 0)`,
            { ownerId: move.ownerId, usageLabId: move.usageLabId, id: move.id, tokensIn: move.tokensIn, tokensOut: move.tokensOut },
          ),
        )
        .selectNoFrom(wasCharged)
    : charging.selectNoFrom(wasCharged);
  const [{ charged }] = await rowsOf(q, statement);
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

/** The rows of `recordArrays` given as parameters (`?`, or `@r0`… for `named`), numbered from 1 (`n`). */
const recordRows = (placeholders: '?' | 'named' = '?') =>
  `unnest(${['text', 'text', 'text', 'text', 'text', 'int'].map((type, i) => `${placeholders === '?' ? '?' : `@r${i}`}::${type}[]`).join(', ')})
     with ordinality as v (uuid, parent_uuid, type, raw, payload_ref, bytes, n)`;

/** `recordArrays` as the values of `recordRows('named')`. */
const namedRecordArrays = (records: IncomingRecord[]) => Object.fromEntries(recordArrays(records).map((array, i) => [`r${i}`, array]));

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
  const [payload] = await rowsOf(q, db.insertInto('record_payloads').values({ session_id: trajectoryId, body: text }).returning('id'));
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

/** The answer of a one-statement write: the new count, else (over quota) the statement aborts. */
const countUnlessRefused = (count: Expression<number>) =>
  sql<number>`case when exists (select from charged) then ${count} else ${sql.raw(`labdesk_refuse('${QUOTA_REFUSED}', 'storage quota exceeded')`)} end`;

/**
 * The statement part that charges the owner for the records `inserted` wrote: only when all `@n`
 * were written and the owner stays within their quota (else no row, and the statement's later
 * parts write nothing).
 */
const chargeOwner = () =>
  namedText<{ id: string }>(
    `(update users set storage_used_bytes = storage_used_bytes + @bytes::bigint
      where id = @user and storage_used_bytes + @bytes::bigint <= ${QUOTA_OF_USER('@plans')} and (select count(*) from inserted) = @n returning id)`,
  );

/** What a one-statement write (`APPEND`, `CREATE`) names in both: the writer, the head, usage and the records. */
const writeValues = (a: OneStatementWrite, records: IncomingRecord[]) => ({
  trajectoryId: a.trajectoryId,
  user: a.userId,
  head: a.head,
  title: a.title,
  tokensIn: a.tokensIn,
  tokensOut: a.tokensOut,
  bytes: records.reduce((sum, r) => sum + r.bytes, 0),
  plans: PLAN_QUOTAS,
  n: records.length,
  ...namedRecordArrays(records),
});

/** The statement of `appendInOneStatement`, compiled once: its values are named (`@name`). */
const APPEND = namedOnce(
  'trajectory_append',
  db
    .with('s', (creator) =>
      creator
        .selectFrom('trajectories as t')
        .select(['t.id', 't.lab_id', 't.count', 't.bytes'])
        .where('t.id', '=', at<string>('trajectoryId'))
        .where(namedText<boolean>(`(${fastForwardSql('t', { user: '@user', base: '@base::text', givenLab: '@givenLab::text' })})`))
        .forNoKeyUpdate('t'),
    )
    .with(
      'inserted',
      () =>
        sql`(insert into trajectory_records (session_id, seq, uuid, parent_uuid, type, raw, bytes)
         select s.id, s.count + v.n, v.uuid, v.parent_uuid, v.type, v.raw, v.bytes from s cross join ${sql.raw(recordRows('named'))}
         returning 1)`,
    )
    .with('charged', chargeOwner)
    .with('moved', () =>
      namedText(
        `(update trajectories t set count = s.count + @n, head_uuid = @head, bytes = s.bytes + @bytes::bigint, title = coalesce(@title, t.title),
           archived_at = null, updated_at = now()
          from s where t.id = s.id and exists (select from charged))`,
      ),
    )
    .with('used', () =>
      namedText(
        `(insert into usage_entries (user_id, lab_id, session_id, source, tokens_in, tokens_out)
         select @user, case when ${activeMemberSql('s.lab_id', '@user')} then s.lab_id end, s.id, 'trajectory', @tokensIn::bigint, @tokensOut::bigint
           from s where exists (select from charged) and (@tokensIn::bigint > 0 or @tokensOut::bigint > 0))`,
      ),
    )
    .selectFrom('s')
    .select((eb) => countUnlessRefused(eb('s.count', '+', at<number>('n'))).as('count')),
);

/** What both one-statement writes are given besides the records. */
interface OneStatementWrite {
  trajectoryId: string;
  userId: string;
  head: string;
  title: string | null;
  tokensIn: number;
  tokensOut: number;
}

interface AppendInOneStatement extends OneStatementWrite {
  baseUuid: string | null;
  givenLabId: string | null;
}

/**
 * The common append (see `appendRecords`) as one prepared statement, in its own transaction:
 * only when `fastForwardSql` holds does it insert the records (all inline), then charge the
 * owner, move the trajectory and record usage (credited to its lab while the writer is active
 * there). Charging comes last, so the owner's row is locked only until commit; over quota, the
 * statement aborts with `QUOTA_REFUSED` and its inserts go with it. Lock order as in the
 * transaction: trajectory, then owner. Answers the new count, or null when nothing was written
 * (not a fast-forward, a uuid already stored, over quota).
 */
export async function appendInOneStatement(em: EntityManager, a: AppendInOneStatement, records: IncomingRecord[]): Promise<number | null> {
  return countWritten(APPEND, em, { ...writeValues(a, records), base: a.baseUuid, givenLab: a.givenLabId });
}

/** A one-statement write's new count, or null when it wrote nothing (a uuid or id taken, over quota). */
async function countWritten(
  statement: { run(em: EntityManager, values: Record<string, unknown>): Promise<{ count: number }[]> },
  em: EntityManager,
  values: Record<string, unknown>,
): Promise<number | null> {
  const [written] = await statement.run(em, values).catch((error: unknown) => {
    if (isUniqueViolation(error) || (error as { code?: string }).code === QUOTA_REFUSED) return [];
    throw error;
  });
  return written ? written.count : null;
}

interface CreateInOneStatement extends OneStatementWrite {
  source: string;
}

/** The statement of `createInOneStatement`, compiled once: its values are named (`@name`). */
const CREATE = namedOnce(
  'trajectory_create',
  db
    .with('made', (creator) =>
      creator
        .insertInto('trajectories')
        .values({
          id: at<string>('trajectoryId'),
          owner_id: at<string>('user'),
          lab_id: sql.lit(null),
          title: at<string | null>('title'),
          source: at<string>('source'),
          count: at<number>('n'),
          head_uuid: at<string>('head'),
          bytes: namedText<string>('@bytes::bigint'),
        })
        .onConflict((conflict) => conflict.column('id').doNothing())
        .returning('id'),
    )
    .with(
      'inserted',
      () =>
        sql`(insert into trajectory_records (session_id, seq, uuid, parent_uuid, type, raw, bytes)
         select made.id, v.n, v.uuid, v.parent_uuid, v.type, v.raw, v.bytes from made cross join ${sql.raw(recordRows('named'))}
         returning 1)`,
    )
    .with('charged', chargeOwner)
    .with('used', () =>
      namedText(
        `(insert into usage_entries (user_id, lab_id, session_id, source, tokens_in, tokens_out)
         select @user, null, made.id, 'trajectory', @tokensIn::bigint, @tokensOut::bigint
           from made where exists (select from charged) and (@tokensIn::bigint > 0 or @tokensOut::bigint > 0))`,
      ),
    )
    .selectFrom('made')
    .select(countUnlessRefused(namedText<number>('@n::int')).as('count')),
);

/**
 * A new trajectory of no lab with its first records (all inline) as one prepared statement, as
 * `appendInOneStatement` appends: made with its head, count and bytes, the records inserted, the
 * owner charged, usage recorded; over quota the statement aborts with `QUOTA_REFUSED` and nothing
 * stays. Answers the count, or null when nothing was written (the id is taken, over quota): the
 * transaction path then explains or retries.
 */
export async function createInOneStatement(em: EntityManager, a: CreateInOneStatement, records: IncomingRecord[]): Promise<number | null> {
  return countWritten(CREATE, em, { ...writeValues(a, records), source: a.source });
}

/** The uuids of the records after position `afterSeq`, in order. */
export async function uuidsAfter(q: Query, trajectoryId: string, afterSeq: number): Promise<string[]> {
  const rows = await rowsOf(
    q,
    db.selectFrom('trajectory_records').select('uuid').where('session_id', '=', trajectoryId).where('seq', '>', afterSeq).orderBy('seq'),
  );
  return rows.map((r) => r.uuid);
}

/** Deletes every record of the trajectory, with their payload rows. */
export async function deleteRecords(q: Query, trajectoryId: string) {
  await q(`delete from trajectory_records where session_id = ?`, [trajectoryId]);
  await q(`delete from record_payloads where session_id = ?`, [trajectoryId]);
}

/** Position of record `uuid` in the trajectory (null: not there). */
export async function seqOfRecord(q: Query, trajectoryId: string, uuid: string): Promise<number | null> {
  const row = await firstRowOf(
    q,
    db.selectFrom('trajectory_records').select('seq').where('session_id', '=', trajectoryId).where('uuid', '=', uuid),
  );
  return row?.seq ?? null;
}

/** A stored record as a read returns it: its text inline (or from a payload row), else its blob reference. */
export interface StoredRecord {
  seq: number;
  raw: string | null;
  payloadRef: string | null;
}

/** The statement of `readRecordBatch`. */
const recordBatch = (trajectoryId: string, afterSeq: number, uptoSeq: number, rows: number, bytes: number) =>
  db
    .selectFrom((outer) =>
      outer
        .selectFrom((inner) =>
          inner
            .selectFrom('trajectory_records')
            .selectAll()
            .where('session_id', '=', trajectoryId)
            .where('seq', '>', afterSeq)
            .where('seq', '<=', uptoSeq)
            .orderBy('seq')
            .limit(rows)
            .as('r'),
        )
        .select([
          'r.seq',
          'r.raw',
          'r.payload_ref',
          'r.bytes',
          sql<string>`sum(r.bytes) over (order by r.seq)`.as('through'),
          countOver().as('scanned'),
        ])
        .as('x'),
    )
    .leftJoin('record_payloads as p', (join) =>
      join.on(sql<boolean>`p.id = (case when x.payload_ref like 'db:%' then substr(x.payload_ref, 4)::bigint end)`),
    )
    .select((eb) => ['x.seq', eb.fn.coalesce('x.raw', 'p.body').as('raw'), 'x.payload_ref', 'x.scanned'])
    .where(condition('x.through - x.bytes < ?', bytes))
    .orderBy('x.seq');

/** SQL: how many rows the window holds in all, as int4 (a number). */
const countOver = () => sql<number>`(count(*) over ())::int`;

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
  const found = await preparedStatement('trajectory_record_batch_bounded', recordBatch(trajectoryId, afterSeq, uptoSeq, rows, bytes)).run(
    em,
  );
  const records: StoredRecord[] = found.map((r) => ({ seq: r.seq, raw: r.raw, payloadRef: r.payload_ref }));
  return { records, complete: found.length === 0 || (found.length === found[0].scanned && found[0].scanned < rows) };
}

/**
 * Deletes the trajectory (its records, annotations and figure map go with it), then the owner's
 * figure blobs no figure of theirs still points at. Answers the bytes those blobs counted.
 */
export async function deleteTrajectory(q: Query, id: string, ownerId: string): Promise<number> {
  await q(`delete from trajectories where id = ?`, [id]);
  const [released] = await rowsOf(
    q,
    db
      .with('released', (creator) =>
        creator
          .deleteFrom('blob_owners')
          .where('user_id', '=', ownerId)
          .where(
            sql<boolean>`not exists (
              select 1 from figures f join trajectories t on t.id = f.session_id
               where t.owner_id = blob_owners.user_id and 'drive://sha256/' || blob_owners.sha256 in (f.storage_uri, f.original_uri))`,
          )
          .returning('bytes'),
      )
      .selectFrom('released')
      .select(asFloat8(sql`coalesce(sum(bytes), 0)`).as('bytes')),
  );
  return released.bytes;
}

/**
 * Archives the owner's non-archived trajectories (a2a ones aside) absent from `listed` and
 * re-activates the listed ones that were archived. Answers the ids of each, sorted.
 */
export async function reconcileArchive(q: Query, ownerId: string, listed: string[]) {
  const ids = JSON.stringify(listed);
  const archived = await rowsOf(
    q,
    db
      .updateTable('trajectories')
      .set({ archived_at: sql<string>`now()` })
      .where('owner_id', '=', ownerId)
      .where('archived_at', 'is', null)
      .where('source', '<>', sql.lit('a2a'))
      .where(condition('id not in (select jsonb_array_elements_text(?::jsonb))', ids))
      .returning('id'),
  );
  const reactivated = await rowsOf(
    q,
    db
      .updateTable('trajectories')
      .set({ archived_at: null })
      .where('owner_id', '=', ownerId)
      .where('archived_at', 'is not', null)
      .where(condition('id in (select jsonb_array_elements_text(?::jsonb))', ids))
      .returning('id'),
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
  const rows = await rowsOf(
    q,
    db
      .selectFrom('trajectories as t')
      .select([...TRAJECTORY_COLUMNS, ...COUNTS_COLUMNS, countOver().as('total')])
      .where(condition(where.sql(), ...where.params))
      .orderBy('t.updated_at', 'desc')
      .orderBy('t.id')
      .limit(limit),
  );
  return { items: rows.map(toTrajectoryWithCounts), total: rows.length ? rows[0].total : 0, limit };
}

/** Position and stored bytes (through it) of record `uuid` (null: not in the trajectory). */
export async function forkPoint(q: Query, trajectoryId: string, uuid: string): Promise<{ seq: number; bytes: number } | null> {
  const head = await firstRowOf(
    q,
    db
      .selectFrom('trajectory_records as r')
      .select([
        'r.seq',
        fragment<number>(
          '(select coalesce(sum(bytes), 0)::float8 from trajectory_records where session_id = ? and seq <= r.seq)',
          trajectoryId,
        ).as('bytes'),
      ])
      .where('r.session_id', '=', trajectoryId)
      .where('r.uuid', '=', uuid),
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
  const large = await rowsOf(
    q,
    db
      .selectFrom('trajectory_records')
      .select('seq')
      .where('session_id', '=', fork.parentId)
      .where('seq', '<=', fork.seq)
      .where('payload_ref', 'like', sql.lit('db:%')),
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
  const users = await rowsOf(
    q,
    db
      .selectFrom('users as u')
      .select((eb) => [
        'u.id as user_id',
        'u.email',
        asFloat8(eb.ref('u.storage_used_bytes')).as('used_bytes'),
        asFloat8(eb.ref('u.storage_quota_bytes')).as('quota_override_bytes'),
        'u.plan_code',
        sql<number>`(select count(*)::int from trajectories t where t.owner_id = u.id)`.as('sessions'),
      ])
      .where(condition('u.storage_used_bytes > 0'))
      .orderBy('u.storage_used_bytes', 'desc')
      .orderBy('u.id')
      .limit(500),
  );
  const labs = await rowsOf(
    q,
    db
      .selectFrom('labs as l')
      .innerJoin('trajectories as t', 't.lab_id', 'l.id')
      .select([
        'l.id as lab_id',
        'l.name',
        asFloat8(sql`coalesce(sum(t.bytes), 0)`).as('bytes'),
        sql<number>`count(t.id)::int`.as('sessions'),
      ])
      .groupBy('l.id')
      .orderBy('bytes', 'desc')
      .orderBy('l.id')
      .limit(500),
  );
  const [{ total }] = await rowsOf(q, db.selectFrom('users').select(asFloat8(sql`coalesce(sum(storage_used_bytes), 0)`).as('total')));
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

/** A cached summary as `storeSummary` writes it to the jsonb column. */
const STORED_SUMMARY = z.object({ text: z.string(), head_uuid: z.string(), generated_at: z.string() });

export interface CachedSummary {
  text: string;
  headUuid: string;
  generatedAt: Date;
}

/** The cached model summary of a trajectory (null: none) and the error of its last failed job (null: none). */
export async function summaryCache(q: Query, id: string): Promise<{ summary: CachedSummary | null; error: string | null }> {
  const row = await firstRowOf(q, db.selectFrom('trajectories').select(['summary', 'summary_error']).where('id', '=', id));
  const cached = row?.summary == null ? null : STORED_SUMMARY.parse(row.summary);
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
  const rows = await rowsOf(
    q,
    db
      .selectFrom('discussion_turns as d')
      .innerJoin('users as u', 'u.id', 'd.viewer_id')
      .select(['d.viewer_id as user_id', 'u.name', 'd.id as turn_id', 'd.question', 'd.answer', 'd.created_at'])
      .where('d.session_id', '=', id)
      .orderBy('d.viewer_id')
      .orderBy('d.created_at'),
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
  const rows = await rowsOf(
    q,
    db
      .selectFrom(
        db
          .selectNoFrom(fragment<string>('jsonb_array_elements_text(?::jsonb)', JSON.stringify(ids)).as('id'))
          .distinct()
          .as('t'),
      )
      .select(['t.id as session_id', ...COUNTS_COLUMNS]),
  );
  return new Map(rows.map((r) => [r.session_id, { figures: r.figures, openAnnotations: r.open_annotations }]));
}

/**
 * Tokens the records reported (`message.usage`), per trajectory: those appended to it, from the
 * usage ledger, and for a fork those it was seeded with (`inherited_tokens_*`).
 */
export async function sessionTokens(q: Query, ids: string[]): Promise<Map<string, { input: number; output: number }>> {
  const rows = await rowsOf(
    q,
    db
      .selectFrom('trajectories as t')
      .leftJoin('usage_entries as u', (join) => join.onRef('u.session_id', '=', 't.id').on('u.source', '=', sql.lit('trajectory')))
      .select([
        't.id as session_id',
        asFloat8(sql`t.inherited_tokens_in + coalesce(sum(u.tokens_in), 0)`).as('input'),
        asFloat8(sql`t.inherited_tokens_out + coalesce(sum(u.tokens_out), 0)`).as('output'),
      ])
      .where(condition('t.id in (select jsonb_array_elements_text(?::jsonb))', JSON.stringify(ids)))
      .groupBy('t.id'),
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

/** A record's place, identity and text hash: what a comparison aligns (trajectory-diff.ts). */
export interface RecordKey {
  seq: number;
  uuid: string;
  hash: string;
}

/** Every record's key, in order. */
export const recordKeys = (q: Query, sessionId: string) =>
  q<RecordKey>(
    `select seq, uuid, md5(coalesce(raw, '') || coalesce(payload_ref, '')) as hash from trajectory_records where session_id = ? order by seq`,
    [sessionId],
  );

/** How many records hold a tool call, and how many a failed tool result (read off their text). */
export async function recordToolCounts(q: Query, sessionId: string): Promise<{ toolCalls: number; errors: number }> {
  const [row] = await q<{ toolCalls: number; errors: number }>(
    `select count(*) filter (where raw like '%"type":"tool_use"%')::int as "toolCalls",
            count(*) filter (where raw like '%"is_error":true%')::int as errors
       from trajectory_records where session_id = ?`,
    [sessionId],
  );
  return row;
}

/** The records at these positions, their text inline or by reference. */
export const recordTextsAt = (q: Query, sessionId: string, seqs: number[]) =>
  seqs.length === 0
    ? Promise.resolve([])
    : q<{ seq: number; raw: string | null; payloadRef: string | null }>(
        `select seq, raw, payload_ref as "payloadRef" from trajectory_records where session_id = ? and seq = any(?::int[])`,
        [sessionId, seqs],
      );
