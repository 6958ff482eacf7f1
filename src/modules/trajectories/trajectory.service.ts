import { randomUUID } from 'node:crypto';
import { type EntityManager, wrap } from '@mikro-orm/postgresql';
import type { Blobs } from '../../blobs';
import { AppError, conflict, notFound } from '../../errors';
import { inTransaction, preparedOf, Query, sqlOf } from '../../db/sql';
import { checks } from '../../validation';
import { isAdmin } from '../admin/admin.policy';
import type { Viewer } from '../auth/viewer';
import { copyFigureRows, figurePaths } from '../figures/figure.repository';
import { User } from '../users/user.entity';
import { activeRoleIn, firstActiveLabOf, mentorsMember } from '../labs/membership.repository';
import { storageQuotaOf } from '../users/user.service';
import { loadPayload, storePayload } from './payloads';
import { IncomingRecord, parseRecords, tokensReported } from './records';
import type { LabRole } from '../labs/membership.repository';
import { authorizeTrajectory, isFastForward, TRAJECTORY_MUTATIONS, TrajectoryAction } from './trajectory.policy';
import * as repo from './trajectory.repository';
import type { TrajectoryRow } from './trajectory.repository';

export type { TrajectoryRow } from './trajectory.repository';

/** Records larger than this keep their text in the payload store, not inline. */
export const INLINE_RECORD_LIMIT = 256 * 1024;
/** A trajectory id (the wire's `session_id`), chosen by the client. */
export const TRAJECTORY_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const TITLE_MAX = 500;

/**
 * A member who left or was revoked keeps their lab-shared sessions, and the lab keeps reading
 * them as they were: new records would reach a lab the writer is no longer in.
 */
const FROZEN_SHARED_SESSION =
  'this session is shared with a lab you are no longer an active member of, so the lab keeps it as it was: set its visibility to private to continue it, or fork it';

/** The viewer's role in a lab where they are active, or null. */
const roleIn = (q: Query, viewer: Viewer, labId: string | null): Promise<LabRole> =>
  labId ? activeRoleIn(q, labId, viewer.user.id) : Promise.resolve(null);

/**
 * Loads a trajectory and authorizes `action`. `forUpdate` locks the row for the rest of the
 * transaction (writers of one trajectory go one at a time).
 * @throws NOT_FOUND, FORBIDDEN
 */
export async function loadTrajectory(em: EntityManager, viewer: Viewer, sessionId: string, action: TrajectoryAction, forUpdate = false) {
  const q = sqlOf(em);
  const trajectory = TRAJECTORY_ID.test(sessionId) ? await repo.findTrajectory(q, sessionId, forUpdate) : null;
  if (!trajectory) throw notFound('trajectory');
  const role = await roleIn(q, viewer, trajectory.labId);
  authorizeTrajectory(viewer, action, trajectory, role);
  return { trajectory, role };
}

/** Reads a trajectory with its counts for a viewer who may view it (the meta read). @throws NOT_FOUND */
export async function viewTrajectory(em: EntityManager, viewer: Viewer, sessionId: string): Promise<repo.TrajectoryRow> {
  const q = preparedOf(em);
  const trajectory = TRAJECTORY_ID.test(sessionId) ? await repo.findTrajectoryWithCounts(q, sessionId) : null;
  if (!trajectory) throw notFound('trajectory');
  authorizeTrajectory(viewer, 'view', trajectory, await roleIn(q, viewer, trajectory.labId));
  return trajectory;
}

/** The trajectory when the viewer may view it, else null (a fork's link to its parent). */
export async function viewableTrajectory(em: EntityManager, viewer: Viewer, sessionId: string): Promise<repo.TrajectoryRow | null> {
  try {
    return await viewTrajectory(em, viewer, sessionId);
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') return null;
    throw error;
  }
}

/** Position of `uuid` in the trajectory, or null when it is not there. */
export const positionOf = (em: EntityManager, sessionId: string, uuid: string) => repo.seqOfRecord(sqlOf(em), sessionId, uuid);

/** A fork's title: its parent's, marked as a fork, so a list tells the two apart. */
export const forkTitle = (parentTitle: string | null) => `${(parentTitle ?? 'Untitled').slice(0, TITLE_MAX - ' (fork)'.length)} (fork)`;

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
    .text(['sessionId'], sessionId, { min: 1, max: 128, pattern: TRAJECTORY_ID, hint: 'must be 1-128 of A-Z a-z 0-9 . _ : -' })
    .text(['input', 'title'], input.title, { max: TITLE_MAX })
    .done();
  return parseRecords(input.records, ['input', 'records']);
}

/**
 * Opens the trajectory for writing inside the caller's transaction: creates it (owned by the
 * viewer) on first write, then locks its row. A lab given must be one the viewer is active in;
 * it becomes the trajectory's lab on creation, or on any write that `movesLab` (a cover-write).
 * Answers the trajectory and the lab its usage is credited to: the trajectory's lab after the
 * write, only while the writer is active there.
 * @throws CONFLICT (a lab given the viewer is not active in; a shared trajectory of a lab the viewer left)
 */
async function openForWrite(
  q: Query,
  viewer: Viewer,
  sessionId: string,
  input: WriteInput,
  source: string,
  { movesLab }: { movesLab: boolean },
) {
  if (input.labId && !(await roleIn(q, viewer, input.labId))) throw conflict('lab_id must be a lab you are an active member of');
  const trajectory = await repo.createOrLockTrajectory(q, {
    id: sessionId,
    ownerId: viewer.user.id,
    labId: input.labId ?? null,
    title: input.title ?? null,
    source,
  });
  const role = trajectory.ownerId === viewer.user.id ? null : await roleIn(q, viewer, trajectory.labId);
  authorizeTrajectory(viewer, 'write', trajectory, role);
  const labAfter = movesLab && input.labId ? input.labId : trajectory.labId;
  const inLab = labAfter !== null && (labAfter === input.labId || (await roleIn(q, viewer, labAfter)) !== null);
  if (trajectory.visibility === 'lab' && !inLab) throw conflict(FROZEN_SHARED_SESSION);
  return { trajectory, usageLabId: inLab ? labAfter : null };
}

/** Where a write leaves its trajectory: head, count and bytes, plus what else it sets. */
export interface TrajectoryMove {
  trajectory: TrajectoryRow;
  count: number;
  head: string | null;
  bytes: number;
  labId?: string | null;
  title?: string | null;
  /** Records new to the trajectory, whose token counts go to the usage ledger (counts only). */
  usage: IncomingRecord[];
  /** The lab that usage is credited to (null: none). */
  usageLabId: string | null;
}

/**
 * Charges `bytes` to the viewer's storage and, only when that fits the quota, moves the
 * trajectory (`move`) and records its token usage, in one statement.
 * @throws PAYLOAD_TOO_LARGE
 */
export async function chargeStorage(q: Query, viewer: Viewer, bytes: number, move?: TrajectoryMove) {
  const moved = move && {
    id: move.trajectory.id,
    ownerId: move.trajectory.ownerId,
    count: move.count,
    head: move.head,
    bytes: move.bytes,
    labId: move.labId,
    title: move.title,
    usageLabId: move.usageLabId,
    ...tokenTotals(move.usage),
  };
  if (!(await repo.chargeAndMove(q, viewer.user.id, bytes, storageQuotaOf(viewer.user), moved))) {
    throw new AppError('PAYLOAD_TOO_LARGE', 'storage quota exceeded: nothing was stored');
  }
}

/**
 * What a write's body may hold besides its records' own text: the other members (`base_uuid`,
 * `lab_id`, a title of at most 500 characters), the brackets, and between up to 10,000 records
 * their commas and whitespace (a hundred bytes each, more than any indentation a client uses).
 */
export const WRITE_ENVELOPE_BYTES = 1024 * 1024;

/**
 * The largest body an append or cover-write of `sessionId` by `viewer` could have and still
 * succeed, so that a longer one is refused before it is read (its records could never be
 * stored, and reading them costs memory and a statement of their size each time). A record is
 * stored and charged as the exact text it had in the body, so a body is its records' bytes plus
 * its envelope (`WRITE_ENVELOPE_BYTES`). Those records can weigh at most what is left of the
 * viewer's quota (what an append is charged) plus what the session holds now when it is theirs:
 * a cover-write is charged only the difference, and an append retried after it landed is charged
 * nothing, its records being that session's tail. Only the owner writes a session, so another's
 * adds nothing (and its size is not told). The session is read only when `declared` (the body's
 * length, when it has one) is over the quota alone: the common write costs no statement.
 */
export async function writeBodyLimit(em: EntityManager, viewer: Viewer, sessionId: string, declared?: number): Promise<number> {
  const left = Math.max(0, storageQuotaOf(viewer.user) - viewer.user.storageUsedBytes) + WRITE_ENVELOPE_BYTES;
  if (declared !== undefined && declared <= left) return left;
  return left + (await repo.ownTrajectoryBytes(sqlOf(em), sessionId, viewer.user.id));
}

/** Inserts records after position `after`, in one statement; large texts go to the payload store. */
async function insertRecords(q: Query, blobs: Blobs, sessionId: string, after: number, records: IncomingRecord[]) {
  const payloadRefs: (string | null)[] = [];
  for (const record of records)
    payloadRefs.push(record.bytes > INLINE_RECORD_LIMIT ? await storePayload(q, blobs, sessionId, record.raw) : null);
  await repo.insertRecords(q, sessionId, after, records, payloadRefs);
}

const byteSum = (records: IncomingRecord[]) => records.reduce((sum, r) => sum + r.bytes, 0);

const tokenTotals = (records: IncomingRecord[]) => ({
  tokensIn: records.reduce((sum, r) => sum + r.tokensIn, 0),
  tokensOut: records.reduce((sum, r) => sum + r.tokensOut, 0),
});

/**
 * Fast-forward append (`isFastForward`). `baseUuid` must be the server's last record (null for a
 * new or empty trajectory); a retry of a batch that already landed answers again without
 * duplicating. The common cases, the owner's existing trajectory or a new one of no lab with
 * every record inline, are one statement (`repo.appendInOneStatement`, `repo.createInOneStatement`);
 * everything else (a new trajectory in a lab, a retry, a refusal to explain, over quota, large records) runs in one transaction holding the
 * trajectory's row lock: the batch is stored whole or not at all, and head, count and bytes
 * move with it.
 * @throws VALIDATION_FAILED, NOT_FOUND, FORBIDDEN, CONFLICT (not a fast-forward, with head_uuid and count; a uuid already stored), PAYLOAD_TOO_LARGE
 */
export async function appendRecords(
  em: EntityManager,
  blobs: Blobs,
  viewer: Viewer,
  sessionId: string,
  input: AppendInput,
  source: string,
): Promise<AppendResult> {
  const records = checkWrite(sessionId, input);
  const head = records.length ? records[records.length - 1].uuid : null;
  if (head !== null && records.every((r) => r.bytes <= INLINE_RECORD_LIMIT)) {
    const common = {
      trajectoryId: sessionId,
      userId: viewer.user.id,
      head,
      title: input.title ?? null,
      ...tokenTotals(records),
    };
    // Without a base the trajectory is new (or, rarely, empty): made in one statement when it names no lab.
    const count = input.baseUuid
      ? await repo.appendInOneStatement(em, { ...common, baseUuid: input.baseUuid, givenLabId: input.labId ?? null }, records)
      : input.labId
        ? null
        : await repo.createInOneStatement(em, { ...common, source }, records);
    if (count !== null) return { sessionId, headUuid: head, count, appended: records.length };
  }
  // A writer given as a reference (the A2A agent's owner: `em.getReference`) is loaded only here:
  // the one-statement paths above need its id alone.
  if (viewer.user instanceof User && !wrap(viewer.user).isInitialized()) await wrap(viewer.user).init();
  return inTransaction(em, async (q) => {
    // Each refusal but the base's is explained (thrown) here.
    const { trajectory, usageLabId } = await openForWrite(q, viewer, sessionId, input, source, { movesLab: false });
    const base = input.baseUuid ?? null;
    if (
      !isFastForward(viewer, { trajectory, baseUuid: base, inGivenLab: input.labId ? true : null, inTrajectoryLab: usageLabId !== null })
    ) {
      if (await alreadyLanded(q, trajectory, base, records)) {
        return { sessionId, headUuid: trajectory.headUuid, count: trajectory.count, appended: 0 };
      }
      throw conflict('not a fast-forward', { head_uuid: trajectory.headUuid, count: trajectory.count });
    }
    if (records.length === 0) return { sessionId, headUuid: trajectory.headUuid, count: trajectory.count, appended: 0 };
    const bytes = byteSum(records);
    const count = trajectory.count + records.length;
    // A uuid already stored fails on the unique (session, uuid) constraint: CONFLICT (errors.ts).
    await insertRecords(q, blobs, sessionId, trajectory.count, records);
    // Charged last: the owner's row stays locked only until commit, so one owner's trajectories
    // append in parallel. Over quota, the rollback takes the inserted rows back out.
    await chargeStorage(q, viewer, bytes, {
      trajectory,
      count,
      head,
      bytes: trajectory.bytes + bytes,
      title: input.title,
      usage: records,
      usageLabId,
    });
    return { sessionId, headUuid: head, count, appended: records.length };
  });
}

/** Whether this exact batch is already the trajectory's tail, right after `base` (a retried append). */
async function alreadyLanded(q: Query, trajectory: TrajectoryRow, base: string | null, records: IncomingRecord[]): Promise<boolean> {
  const n = records.length;
  if (n === 0 || n > trajectory.count) return false;
  const tail = await repo.uuidsAfter(q, trajectory.id, trajectory.count - n - 1);
  const before = n === trajectory.count ? null : (tail.shift() ?? null);
  return before === base && tail.every((uuid, i) => uuid === records[i].uuid);
}

/**
 * Cover-write for a client that lost its sync state: the trajectory becomes exactly `records`.
 * Same quota gate as append (charged by the difference), no fast-forward check.
 */
export async function coverRecords(
  em: EntityManager,
  blobs: Blobs,
  viewer: Viewer,
  sessionId: string,
  input: WriteInput,
  source: string,
): Promise<AppendResult> {
  const records = checkWrite(sessionId, input);
  return inTransaction(em, async (q) => {
    const { trajectory, usageLabId } = await openForWrite(q, viewer, sessionId, input, source, { movesLab: true });
    const bytes = byteSum(records);
    const head = records.length ? records[records.length - 1].uuid : null;
    // Usage counts each record once: only records new to the trajectory add to the ledger.
    const known = new Set(await repo.uuidsAfter(q, sessionId, 0));
    const usage = records.filter((r) => !known.has(r.uuid));
    await chargeStorage(q, viewer, bytes - trajectory.bytes, {
      trajectory,
      count: records.length,
      head,
      bytes,
      labId: input.labId,
      title: input.title,
      usage,
      usageLabId,
    });
    await repo.deleteRecords(q, sessionId);
    await insertRecords(q, blobs, sessionId, 0, records);
    return { sessionId, headUuid: head, count: records.length, appended: records.length };
  });
}

/** Position of record `uuid` in the trajectory. @throws NOT_FOUND when it is not there. */
export async function seqOf(em: EntityManager, sessionId: string, uuid: string): Promise<number> {
  const seq = await repo.seqOfRecord(sqlOf(em), sessionId, uuid);
  if (seq === null) throw notFound('record');
  return seq;
}

/**
 * The stored texts of the records after the one with uuid `since` (all when null), in order,
 * in groups of about a mebibyte (a reader writes each group at once), for a viewer who may view
 * the trajectory: keyset reads of at most `batch` rows and about `READ_BATCH_BYTES` (at least
 * one row), so the cost does not grow with the position and memory stays flat however long the
 * trajectory and however large its records. Authorizes (and finds `since`) before it answers.
 * @throws NOT_FOUND (the trajectory, or `since` in it), FORBIDDEN
 */
export async function readRecords(
  em: EntityManager,
  blobs: Blobs,
  viewer: Viewer,
  sessionId: string,
  since: string | null,
  { batch = 1000 } = {},
) {
  await loadTrajectory(em, viewer, sessionId, 'view');
  const after = since === null ? 0 : await seqOf(em, sessionId, since);
  return recordBatches(em, blobs, sessionId, after, { batch });
}

/**
 * The records after position `afterSeq`, at most `first` of them and about `READ_BATCH_BYTES`
 * (at least one), for a viewer who may view the trajectory: one keyset read, whatever the
 * position. @throws NOT_FOUND, FORBIDDEN
 */
export async function readRecordPage(em: EntityManager, blobs: Blobs, viewer: Viewer, sessionId: string, afterSeq: number, first: number) {
  await loadTrajectory(em, viewer, sessionId, 'view');
  return recordPageOf(em, blobs, sessionId, afterSeq, first);
}

/** A page of the session's records as stored, for a caller that authorized the read (a share link). */
export async function recordPageOf(em: EntityManager, blobs: Blobs, sessionId: string, afterSeq: number, first: number) {
  const { records, complete } = await repo.readRecordBatch(em, sessionId, afterSeq, 2 ** 31 - 1, first, READ_BATCH_BYTES);
  const items = await Promise.all(
    records.map(async (record) => ({ seq: record.seq, text: record.raw ?? (await loadPayload(blobs, record.payloadRef!)) })),
  );
  return { items, hasMore: !complete };
}

async function* recordBatches(
  em: EntityManager,
  blobs: Blobs,
  sessionId: string,
  afterSeq: number,
  { uptoSeq = 2 ** 31 - 1, batch = 1000 } = {},
) {
  for (let after = afterSeq; ;) {
    const { records, complete } = await repo.readRecordBatch(em, sessionId, after, uptoSeq, batch, READ_BATCH_BYTES);
    let texts: string[] = [];
    let size = 0;
    for (const record of records) {
      const text = record.raw ?? (await loadPayload(blobs, record.payloadRef!));
      if (size + text.length > YIELD_CHARS && texts.length) {
        yield texts;
        texts = [];
        size = 0;
      }
      texts.push(text);
      size += text.length;
    }
    if (texts.length) yield texts;
    if (complete) return;
    after = records[records.length - 1].seq;
  }
}

const YIELD_CHARS = 1 << 20;
/** Bytes of records one read of `recordBatches` asks for (a single larger record still comes whole). */
const READ_BATCH_BYTES = 4 << 20;

/** Deletes a trajectory and everything in it; the owner's storage is credited. */
export async function deleteTrajectory(em: EntityManager, viewer: Viewer, sessionId: string): Promise<void> {
  await em.transactional(async (tx) => {
    const { trajectory } = await loadTrajectory(tx, viewer, sessionId, TRAJECTORY_MUTATIONS.delete, true);
    const q = sqlOf(tx);
    // Figure blobs no figure of the owner's still points at stop counting against their quota.
    const released = await repo.deleteTrajectory(q, sessionId, trajectory.ownerId);
    await chargeStorage(q, viewer, -(trajectory.bytes + released));
  });
}

/**
 * Archives the caller's own, non-archived trajectories absent from `sessionIds` and
 * re-activates the listed ones that were archived. Deletes nothing.
 */
export async function reconcile(em: EntityManager, viewer: Viewer, sessionIds: string[]) {
  checks().int(['input', 'sessionIds'], sessionIds.length, { max: 100_000 }).done();
  return repo.reconcileArchive(sqlOf(em), viewer.user.id, sessionIds);
}

/**
 * Owner-only. `lab` needs a lab the owner is active in (the one given, else the trajectory's).
 * @throws CONFLICT when there is no such lab
 */
export async function setVisibility(
  em: EntityManager,
  viewer: Viewer,
  sessionId: string,
  visibility: 'private' | 'lab',
  labId?: string | null,
) {
  const { trajectory } = await loadTrajectory(em, viewer, sessionId, TRAJECTORY_MUTATIONS.changeVisibility);
  const q = sqlOf(em);
  const lab = labId ?? trajectory.labId;
  if (visibility === 'lab' && (!lab || !(await roleIn(q, viewer, lab)))) {
    throw conflict('visibility lab needs a lab_id of a lab you are an active member of');
  }
  await repo.updateVisibility(q, sessionId, visibility, visibility === 'lab' ? lab : trajectory.labId);
  return (await loadTrajectory(em, viewer, sessionId, 'view')).trajectory;
}

export interface ListFilter {
  ownerId?: string | null;
  labId?: string | null;
  includeArchived?: boolean | null;
  sharedOnly?: boolean | null;
  source?: string | null;
}

/**
 * Trajectories the viewer can see, newest activity first. Without filters: the viewer's own.
 * `labId`: that lab's trajectories the viewer can see; `sharedOnly`: shared ones only; `ownerId`:
 * another user's shared trajectories, for mentors of an active lab that user is active in.
 */
export async function listTrajectories(em: EntityManager, viewer: Viewer, filter: ListFilter, limit: number) {
  // Reads outside any transaction, on every client's refresh: prepared statements (one text per
  // combination of filters), not the query builder.
  const q = preparedOf(em);
  const ownerId = filter.ownerId ?? (filter.labId || filter.sharedOnly ? null : viewer.user.id);
  if (ownerId && ownerId !== viewer.user.id && !isAdmin(viewer) && !(await mentorsMember(q, viewer.user.id, ownerId))) {
    throw new AppError('FORBIDDEN', 'only mentors may list the sessions of another member');
  }
  return repo.pageOfTrajectories(
    q,
    {
      visibleTo: { userId: viewer.user.id, admin: isAdmin(viewer) },
      ownerId,
      labId: filter.labId,
      sharedOnly: filter.sharedOnly,
      includeArchived: !!filter.includeArchived,
      source: filter.source ?? null,
    },
    limit,
  );
}

/**
 * Forks a trajectory the viewer can view: a new trajectory owned by the viewer, seeded with the
 * records up to and including `headUuid`, charged to the viewer's storage. It belongs to the
 * viewer's lab when they have an active one (the parent's lab first) and is shared with it
 * (`lab`, the spec's state table), unless the viewer reads the parent only as an administrator
 * (someone else's private session, or a session of a lab they are not active in): that fork
 * stays `private`, so it never shows a lab records its members could not read.
 * @throws NOT_FOUND (trajectory, or `headUuid` not in it), PAYLOAD_TOO_LARGE
 */
export async function forkTrajectory(em: EntityManager, blobs: Blobs, viewer: Viewer, sessionId: string, headUuid: string) {
  checks().text(['input', 'headUuid'], headUuid, { min: 1, max: 200 }).done();
  return em.transactional(async (tx) => {
    const q = sqlOf(tx);
    const { trajectory: parent, role } = await loadTrajectory(tx, viewer, sessionId, TRAJECTORY_MUTATIONS.fork);
    const head = await repo.forkPoint(q, sessionId, headUuid);
    if (!head) throw notFound('head_uuid in this session');
    const labId = role ? parent.labId : await firstActiveLabOf(q, viewer.user.id);
    const forkId = randomUUID();
    await chargeStorage(q, viewer, head.bytes);
    const readsAsMember = parent.ownerId === viewer.user.id || (role !== null && parent.visibility === 'lab');
    const visibility = labId !== null && readsAsMember ? 'lab' : 'private';
    const seeded = await readSeed(tx, blobs, sessionId, head.seq);
    await repo.insertFork(q, {
      id: forkId,
      ownerId: viewer.user.id,
      labId,
      visibility,
      title: forkTitle(parent.title),
      parentId: sessionId,
      headUuid,
      seq: head.seq,
      bytes: head.bytes,
      tokensIn: seeded.tokensIn,
      tokensOut: seeded.tokensOut,
    });
    await copyFigureRows(tx, sessionId, forkId, seeded.figures);
    return { sessionId: forkId, forkedFrom: { sessionId, headUuid, forkId }, count: head.seq };
  });
}

/**
 * What a fork takes from records 1…`uptoSeq` of its parent, read once: the tokens they reported,
 * read from their texts (what the console shows on each turn: the fork's header must agree with
 * the turns it was seeded with), and the paths of the parent's figure map they name (a fork keeps
 * those figures, pointing at the same stored bytes, and no other of its parent's).
 */
async function readSeed(em: EntityManager, blobs: Blobs, sessionId: string, uptoSeq: number) {
  const seed = { tokensIn: 0, tokensOut: 0, figures: [] as string[] };
  const unnamed = new Set(await figurePaths(em, sessionId));
  for await (const texts of recordBatches(em, blobs, sessionId, 0, { uptoSeq })) {
    for (const text of texts) {
      const reported = tokensReported(JSON.parse(text) as Record<string, unknown>);
      seed.tokensIn += reported.tokensIn;
      seed.tokensOut += reported.tokensOut;
    }
    for (const path of unnamed) {
      const quoted = JSON.stringify(path);
      if (texts.some((text) => text.includes(quoted))) {
        seed.figures.push(path);
        unnamed.delete(path);
      }
    }
  }
  return seed;
}

/** Admin: every trajectory, filtered by owner, lab and a title or id substring. */
export async function listAllTrajectories(
  em: EntityManager,
  filter: { ownerId?: string | null; labId?: string | null; q?: string | null },
  limit: number,
) {
  return repo.pageOfTrajectories(sqlOf(em), { ownerId: filter.ownerId, labId: filter.labId, text: filter.q }, limit);
}

/** Admin: byte usage per user and per lab (the 500 largest of each), and the total. */
export const storageSummary = (em: EntityManager) => repo.storageSummary(sqlOf(em));
