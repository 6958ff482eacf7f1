import { dateOf, type Query } from '../../db/sql';
import { canViewSql } from '../trajectories/trajectory.policy';
import { OPEN_STATES, type ReviewState } from './review.entity';

/** A review as the domain reads it, with what every list shows of its trajectory. */
export interface ReviewRow {
  id: string;
  sessionId: string;
  labId: string;
  requestedBy: string;
  reviewerId: string;
  state: ReviewState;
  note: string | null;
  /** `YYYY-MM-DD` */
  dueOn: string | null;
  verdictNote: string | null;
  createdAt: Date;
  startedAt: Date | null;
  decidedAt: Date | null;
  updatedAt: Date;
  title: string | null;
  /** The trajectory's owner, lab and visibility now (what the rules read). */
  ownerId: string;
  trajectoryLabId: string | null;
  visibility: string;
  /** When the trajectory last changed (records appended, title, visibility). */
  trajectoryUpdatedAt: Date;
}

const COLUMNS = `r.id, r.session_id as "sessionId", r.lab_id as "labId", r.requested_by as "requestedBy",
  r.reviewer_id as "reviewerId", r.state, r.note, to_char(r.due_on, 'YYYY-MM-DD') as "dueOn", r.verdict_note as "verdictNote",
  r.created_at as "createdAt", r.started_at as "startedAt", r.decided_at as "decidedAt", r.updated_at as "updatedAt",
  t.title, t.owner_id as "ownerId", t.lab_id as "trajectoryLabId", t.visibility,
  t.updated_at as "trajectoryUpdatedAt"`;
const FROM = `trajectory_reviews r join trajectories t on t.id = r.session_id`;

/** SQL: the review `r` is of a trajectory `t` still shared with the review's lab. */
const STILL_SHARED = `t.visibility = 'lab' and t.lab_id = r.lab_id`;

/** SQL: the review `r` is open. */
const OPEN = `r.state = any(array[${OPEN_STATES.map((state) => `'${state}'`).join(', ')}])`;

/** The driver answers timestamps as text. */
const reviewOf = (row: ReviewRow): ReviewRow => ({
  ...row,
  createdAt: dateOf(row.createdAt)!,
  startedAt: dateOf(row.startedAt),
  decidedAt: dateOf(row.decidedAt),
  updatedAt: dateOf(row.updatedAt)!,
  trajectoryUpdatedAt: dateOf(row.trajectoryUpdatedAt)!,
});
const reviewsOf = (rows: ReviewRow[]) => rows.map(reviewOf);

/** Inserts a review. @throws the unique violation of `trajectory_reviews_one_open` when the reviewer has one open already */
export async function insertReview(
  q: Query,
  review: {
    id: string;
    sessionId: string;
    labId: string;
    requestedBy: string;
    reviewerId: string;
    note: string | null;
    dueOn: string | null;
  },
): Promise<ReviewRow> {
  await q(
    `insert into trajectory_reviews (id, session_id, lab_id, requested_by, reviewer_id, note, due_on) values (?, ?, ?, ?, ?, ?, ?::date)`,
    [review.id, review.sessionId, review.labId, review.requestedBy, review.reviewerId, review.note, review.dueOn],
  );
  return (await findReview(q, review.id))!;
}

/** The review, its row locked for the transaction when `forUpdate`. */
export async function findReview(q: Query, id: string, forUpdate = false): Promise<ReviewRow | null> {
  const [row] = await q<ReviewRow>(`select ${COLUMNS} from ${FROM} where r.id = ?${forUpdate ? ' for update of r' : ''}`, [id]);
  return row ? reviewOf(row) : null;
}

/** What a move from one state to another sets besides the state. */
export type ReviewChange = { state: ReviewState; verdictNote?: string | null };

/**
 * Moves the review to `change.state` if it is in one of `from` (else answers null: another move
 * came first). A verdict sets its note and times; the first verdict's time stays.
 */
export async function moveReview(q: Query, id: string, from: readonly ReviewState[], change: ReviewChange): Promise<ReviewRow | null> {
  const verdict = change.state === 'approved' || change.state === 'changes_requested';
  const [row] = await q<{ id: string }>(
    `update trajectory_reviews set state = ?, updated_at = now(),
       started_at = case when ? = 'in_review' or ? then coalesce(started_at, now()) else started_at end,
       verdict_note = case when ? then ? else verdict_note end,
       first_verdict_at = case when ? then coalesce(first_verdict_at, now()) else first_verdict_at end,
       decided_at = case when ? or ? = 'withdrawn' then now() else decided_at end
     where id = ? and state = any(?::text[]) returning id`,
    [change.state, change.state, verdict, verdict, change.verdictNote ?? null, verdict, verdict, change.state, id, [...from]],
  );
  return row ? findReview(q, id) : null;
}

/** The reviews of these trajectories, newest first, by trajectory id. */
export async function reviewsOfTrajectories(q: Query, sessionIds: readonly string[]): Promise<Map<string, ReviewRow[]>> {
  const rows = reviewsOf(
    await q<ReviewRow>(`select ${COLUMNS} from ${FROM} where r.session_id = any(?::text[]) order by r.created_at desc, r.id desc`, [
      [...sessionIds],
    ]),
  );
  const bySession = new Map<string, ReviewRow[]>();
  for (const row of rows) bySession.set(row.sessionId, [...(bySession.get(row.sessionId) ?? []), row]);
  return bySession;
}

/** Whose reviews a person lists: asked of them, asked by them, or of their own trajectories. */
export type ReviewPart = 'reviewer' | 'requester' | 'author';
const PART_COLUMN: Record<ReviewPart, string> = { reviewer: 'r.reviewer_id', requester: 'r.requested_by', author: 't.owner_id' };

/**
 * A person's reviews in one `part` (of them, by them, of their work), on trajectories they can
 * still read: the open ones whose trajectory is still shared with their lab, and those decided
 * in the last 30 days. Due first, then oldest.
 */
export async function reviewsOfPerson(q: Query, userId: string, part: ReviewPart, admin: boolean, limit: number): Promise<ReviewRow[]> {
  const who = PART_COLUMN[part];
  const rows = await q<ReviewRow>(
    `select ${COLUMNS} from ${FROM}
     where ${who} = ? and ${canViewSql('t', '?', admin)}
       and ((${OPEN} and ${STILL_SHARED}) or r.decided_at > now() - interval '30 days')
     order by ${OPEN} desc, r.due_on asc nulls last, r.created_at asc, r.id
     limit ?`,
    admin ? [userId, limit] : [userId, userId, userId, limit],
  );
  return reviewsOf(rows);
}

/** The lab's open reviews of trajectories still shared with it, due first. */
export const openReviewsOfLab = async (q: Query, labId: string, limit: number) =>
  reviewsOf(
    await q<ReviewRow>(
      `select ${COLUMNS} from ${FROM} where r.lab_id = ? and ${STILL_SHARED} and ${OPEN}
       order by r.due_on asc nulls last, r.created_at asc, r.id limit ?`,
      [labId, limit],
    ),
  );

/** The newest review (not withdrawn) of each of these trajectories in the lab it is shared with, by trajectory id. */
export async function latestReviewsOf(q: Query, sessionIds: readonly string[]): Promise<Map<string, ReviewRow>> {
  const rows = await q<ReviewRow>(
    `select distinct on (r.session_id) ${COLUMNS} from ${FROM}
     where r.session_id = any(?::text[]) and ${STILL_SHARED} and r.state <> 'withdrawn'
     order by r.session_id, r.created_at desc, r.id desc`,
    [[...sessionIds]],
  );
  return new Map(reviewsOf(rows).map((row) => [row.sessionId, row]));
}

export interface LabReviewCounts {
  requested: number;
  inReview: number;
  changesRequested: number;
  overdue: number;
  /** Reviews whose first verdict came in the last 90 days. */
  decided: number;
  /** Their median time from request to first verdict, in hours (null: none). */
  medianTurnaroundHours: number | null;
}

/** The lab's review counts (of trajectories still shared with it) and its turnaround over 90 days. */
export async function labReviewCounts(q: Query, labId: string): Promise<LabReviewCounts> {
  const [row] = await q<LabReviewCounts>(
    `select count(*) filter (where r.state = 'requested')::int as requested,
            count(*) filter (where r.state = 'in_review')::int as "inReview",
            count(*) filter (where r.state = 'changes_requested')::int as "changesRequested",
            count(*) filter (where ${OPEN} and r.due_on < (now() at time zone 'utc')::date)::int as overdue,
            count(*) filter (where r.first_verdict_at > now() - interval '90 days')::int as decided,
            (percentile_cont(0.5) within group (order by extract(epoch from r.first_verdict_at - r.created_at) / 3600)
               filter (where r.first_verdict_at > now() - interval '90 days'))::float8 as "medianTurnaroundHours"
     from ${FROM} where r.lab_id = ? and ${STILL_SHARED}`,
    [labId],
  );
  return row;
}

/** A review whose due day has come, claimed for its one reminder, with its trajectory as the rules read it. */
export interface DueReview {
  id: string;
  sessionId: string;
  labId: string;
  reviewerId: string;
  /** `YYYY-MM-DD` */
  dueOn: string;
  /** Its due day is before today (UTC). */
  overdue: boolean;
  title: string | null;
  ownerId: string;
  /** Its trajectory is still shared with the review's lab (else the review is frozen: no reminder). */
  stillShared: boolean;
}

/**
 * Claims up to `max` reviews waiting on their reviewer (`states`) whose due day (UTC) has come and
 * that were not reminded of yet: marks them reminded and answers them. Rows another transaction
 * holds are skipped, so two instances never claim the same review.
 */
export const claimDueReviews = (q: Query, states: readonly ReviewState[], max: number) =>
  q<DueReview>(
    `update trajectory_reviews r set due_reminded_at = now() from trajectories t
     where t.id = r.session_id and r.id in (
       select id from trajectory_reviews where state = any(?::text[]) and due_reminded_at is null
         and due_on <= (now() at time zone 'utc')::date order by due_on, id limit ? for update skip locked)
     returning r.id, r.session_id as "sessionId", r.lab_id as "labId", r.reviewer_id as "reviewerId",
       to_char(r.due_on, 'YYYY-MM-DD') as "dueOn", r.due_on < (now() at time zone 'utc')::date as overdue,
       t.title, t.owner_id as "ownerId", ${STILL_SHARED} as "stillShared"`,
    [[...states], max],
  );
