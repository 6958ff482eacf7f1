import { Check, Entity, Enum, Index, ManyToOne, Opt, PrimaryKey, Property } from '@mikro-orm/core';
import { Lab } from '../labs/lab.entity';
import { Trajectory } from '../trajectories/trajectory.entity';
import { User } from '../users/user.entity';

/** Where a review stands (docs/api/reviews.md): the first three are open. */
export const REVIEW_STATES = ['requested', 'in_review', 'changes_requested', 'approved', 'withdrawn'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];
/** The states in which a review still waits on someone (the partial unique index below lists them too). */
export const OPEN_STATES: readonly ReviewState[] = ['requested', 'in_review', 'changes_requested'];
/** The open states in which it waits on the reviewer (in `changes_requested` it waits on the author). */
export const REVIEWER_TURN: readonly ReviewState[] = ['requested', 'in_review'];

/**
 * Schema only: a lab's request that a mentor review a trajectory shared with it, and the
 * mentor's verdict. A reviewer has at most one open review of a trajectory in a lab (partial
 * unique index: a trajectory moved to another lab leaves the first lab's reviews as they were,
 * and may be reviewed there). Read and written by review.repository.ts.
 */
@Entity({ tableName: 'trajectory_reviews' })
@Index({
  name: 'trajectory_reviews_one_open',
  expression: `create unique index "trajectory_reviews_one_open" on "trajectory_reviews" ("session_id", "reviewer_id", "lab_id") where (state = any (array['requested'::text, 'in_review'::text, 'changes_requested'::text]))`,
})
@Index({ properties: ['reviewer', 'state'] })
@Index({ properties: ['requestedBy', 'state'] })
@Index({ properties: ['lab', 'createdAt'] })
@Index({ properties: ['session', 'createdAt'] })
@Check({ name: 'trajectory_reviews_note_check', expression: '(char_length(note) <= 2000) and (char_length(verdict_note) <= 4000)' })
export class TrajectoryReview {
  /** `rev_…` */
  @PrimaryKey({ type: 'text' })
  id!: string;

  @ManyToOne(() => Trajectory, { fieldName: 'session_id', deleteRule: 'cascade' })
  session!: Trajectory;

  /** The lab the trajectory was shared with when the review was asked for. */
  @ManyToOne(() => Lab, { deleteRule: 'cascade' })
  lab!: Lab;

  @ManyToOne(() => User, { fieldName: 'requested_by', deleteRule: 'cascade' })
  requestedBy!: User;

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  reviewer!: User;

  @Enum({ items: [...REVIEW_STATES], default: 'requested' })
  state: ReviewState & Opt = 'requested';

  /** What the requester asks the reviewer to look at. */
  @Property({ type: 'text', nullable: true })
  note: string | null = null;

  /** The day it is due (the requester's calendar day; no time of day). */
  @Property({ type: 'date', nullable: true })
  dueOn: string | null = null;

  /** The reviewer's notes with the last verdict. */
  @Property({ type: 'text', nullable: true })
  verdictNote: string | null = null;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date & Opt = new Date();

  /** When the reviewer first took it. */
  @Property({ type: 'datetime', nullable: true })
  startedAt: Date | null = null;

  /** The first verdict: the lab's turnaround runs from `createdAt` to here. */
  @Property({ type: 'datetime', nullable: true })
  firstVerdictAt: Date | null = null;

  /** When the reviewer was reminded that it is due (once: `remindDueReviews`). */
  @Property({ type: 'datetime', nullable: true })
  dueRemindedAt: Date | null = null;

  /** The last verdict, or the withdrawal. */
  @Property({ type: 'datetime', nullable: true })
  decidedAt: Date | null = null;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  updatedAt: Date & Opt = new Date();
}
