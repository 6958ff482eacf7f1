import { Arg, Ctx as Context, Extensions, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Ctx } from '../../context';
import { sqlOf } from '../../db/sql';
import { Caller, SIGNED_IN } from '../../operation-rules';
import type { Viewer } from '../auth/viewer';
import { can } from '../labs/lab.policy';
import type { LabSource } from '../labs/lab.resolver';
import { LabNode, BoardRow } from '../labs/lab.types';
import { sendAfterCommit } from '../notices/notice.service';
import { TrajectoryMeta } from '../trajectories/trajectory.types';
import { loadPerson } from '../users/person.resolver';
import { Person } from '../users/user.types';
import { OPEN_STATES } from './review.entity';
import { seesReview, viewerCanReview } from './review.policy';
import * as repo from './review.repository';
import type { ReviewRow } from './review.repository';
import * as reviews from './review.service';
import type { ReviewChangeResult } from './review.service';
import { LabReviewSummary, ReviewRequestInput, ReviewVerdictInput, ReviewViewerCan, TrajectoryReview } from './review.types';

/** A review as its fields resolve it: the row, whose people and rights are fields of their own. */
type ReviewSource = Omit<TrajectoryReview, 'requestedBy' | 'reviewer' | 'author' | 'viewerCan'> & { row: ReviewRow };

const today = () => new Date().toISOString().slice(0, 10);

const present = (row: ReviewRow): ReviewSource => ({
  row,
  reviewId: row.id,
  sessionId: row.sessionId,
  trajectoryTitle: row.title ?? 'Untitled',
  labId: row.labId,
  state: row.state as TrajectoryReview['state'],
  note: row.note,
  dueOn: row.dueOn,
  overdue: OPEN_STATES.includes(row.state) && row.dueOn !== null && row.dueOn < today(),
  verdictNote: row.verdictNote,
  updatedSinceVerdict: row.state === 'changes_requested' && row.decidedAt !== null && row.trajectoryUpdatedAt > row.decidedAt,
  createdAt: row.createdAt,
  startedAt: row.startedAt,
  decidedAt: row.decidedAt,
});

/** Answers a committed change, its mails on their way. */
const answered = (ctx: Ctx, { review, mails }: ReviewChangeResult) => {
  sendAfterCommit(ctx.services.mailer, mails);
  return present(review);
};

@Resolver(() => TrajectoryReview)
export class ReviewResolver {
  @Extensions(SIGNED_IN)
  @Query(() => [TrajectoryReview], {
    description: 'Reviews asked of the caller (their queue): the open ones, due first, then those decided in the last 30 days.',
  })
  async reviewQueue(@Context() ctx: Ctx, @Caller() viewer: Viewer): Promise<ReviewSource[]> {
    return (await reviews.reviewsOfViewer(ctx.em, viewer, 'reviewer')).map(present);
  }

  @Extensions(SIGNED_IN)
  @Query(() => [TrajectoryReview], { description: 'Reviews the caller asked for: the open ones, then those decided in the last 30 days.' })
  async reviewsRequested(@Context() ctx: Ctx, @Caller() viewer: Viewer): Promise<ReviewSource[]> {
    return (await reviews.reviewsOfViewer(ctx.em, viewer, 'requester')).map(present);
  }

  @Extensions(SIGNED_IN)
  @Query(() => [TrajectoryReview], {
    description: 'Reviews of the caller’s own trajectories: the open ones, then those decided in the last 30 days.',
  })
  async reviewsOfMyWork(@Context() ctx: Ctx, @Caller() viewer: Viewer): Promise<ReviewSource[]> {
    return (await reviews.reviewsOfViewer(ctx.em, viewer, 'author')).map(present);
  }

  @Extensions(SIGNED_IN)
  @Mutation(() => TrajectoryReview, {
    description: 'Asks a mentor (or the owner) of the lab a trajectory is shared with to review it (an owner or mentor of that lab).',
  })
  async trajectoryReviewRequest(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('sessionId', () => ID) sessionId: string,
    @Arg('input', () => ReviewRequestInput) input: ReviewRequestInput,
  ): Promise<ReviewSource> {
    return answered(ctx, await reviews.requestReview(ctx.em, viewer, ctx.services.config.publicUrl, sessionId, input));
  }

  @Extensions(SIGNED_IN)
  @Mutation(() => TrajectoryReview, { description: 'The reviewer takes the review (again, after asking for changes).' })
  async trajectoryReviewStart(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('reviewId', () => ID) reviewId: string,
  ): Promise<ReviewSource> {
    return answered(ctx, await reviews.startReview(ctx.em, viewer, ctx.services.config.publicUrl, reviewId));
  }

  @Extensions(SIGNED_IN)
  @Mutation(() => TrajectoryReview, { description: 'The reviewer’s verdict, with notes (required when asking for changes).' })
  async trajectoryReviewDecide(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('reviewId', () => ID) reviewId: string,
    @Arg('input', () => ReviewVerdictInput) input: ReviewVerdictInput,
  ): Promise<ReviewSource> {
    return answered(ctx, await reviews.decideReview(ctx.em, viewer, ctx.services.config.publicUrl, reviewId, input.verdict, input.note));
  }

  @Extensions(SIGNED_IN)
  @Mutation(() => TrajectoryReview, {
    description: 'Asks the reviewer for another look once the changes asked for are made (who asked, or the author).',
  })
  async trajectoryReviewRerequest(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('reviewId', () => ID) reviewId: string,
  ): Promise<ReviewSource> {
    return answered(ctx, await reviews.rerequestReview(ctx.em, viewer, ctx.services.config.publicUrl, reviewId));
  }

  @Extensions(SIGNED_IN)
  @Mutation(() => TrajectoryReview, { description: 'Withdraws an open review (who asked for it, or the lab owner).' })
  async trajectoryReviewWithdraw(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('reviewId', () => ID) reviewId: string,
  ): Promise<ReviewSource> {
    return answered(ctx, await reviews.withdrawReview(ctx.em, viewer, ctx.services.config.publicUrl, reviewId));
  }

  @FieldResolver(() => Person)
  requestedBy(@Root() review: ReviewSource, @Context() ctx: Ctx) {
    return loadPerson(ctx, review.row.requestedBy);
  }

  @FieldResolver(() => Person)
  reviewer(@Root() review: ReviewSource, @Context() ctx: Ctx) {
    return loadPerson(ctx, review.row.reviewerId);
  }

  @FieldResolver(() => Person)
  author(@Root() review: ReviewSource, @Context() ctx: Ctx) {
    return loadPerson(ctx, review.row.ownerId);
  }

  @FieldResolver(() => ReviewViewerCan)
  async viewerCan(@Root() review: ReviewSource, @Context() ctx: Ctx, @Caller() viewer: Viewer): Promise<ReviewViewerCan> {
    const { row } = review;
    const role = row.trajectoryLabId
      ? await ctx.loaders.activeRoleByLab.load({ userId: viewer.user.id, labId: row.trajectoryLabId })
      : null;
    return viewerCanReview(viewer, row, { ownerId: row.ownerId, labId: row.trajectoryLabId, visibility: row.visibility }, role);
  }
}

/** The reviews of a trajectory, on its meta (which its caller may read). */
@Resolver(() => TrajectoryMeta)
export class TrajectoryReviewsResolver {
  @FieldResolver(() => [TrajectoryReview], {
    description: 'Its reviews, newest first (withdrawn ones too): those of the lab it is shared with now; every one to its owner.',
  })
  async reviews(@Root() meta: TrajectoryMeta, @Context() ctx: Ctx, @Caller() viewer: Viewer): Promise<ReviewSource[]> {
    const facts = { ownerId: meta.ownerId, labId: meta.labId, visibility: meta.visibility };
    const found = await ctx.loaders.reviewsBySessionId.load(meta.sessionId);
    return found.filter((review) => seesReview(viewer, review, facts)).map(present);
  }
}

/** The newest review of each analysis on the lab board. */
@Resolver(() => BoardRow)
export class BoardReviewResolver {
  @FieldResolver(() => TrajectoryReview, { nullable: true, description: 'Its newest review (not withdrawn), if any.' })
  async review(@Root() row: BoardRow, @Context() ctx: Ctx): Promise<ReviewSource | null> {
    const latest = await ctx.loaders.latestReviewBySessionId.load(row.sessionId);
    return latest && present(latest);
  }
}

type LabReviewSummarySource = Omit<LabReviewSummary, 'open'> & { open: ReviewSource[] };

/** A lab's open reviews and turnaround, for those who can see the lab. */
@Resolver(() => LabNode)
export class LabReviewSummaryResolver {
  @FieldResolver(() => LabReviewSummary, {
    nullable: true,
    description: 'Open reviews and turnaround (null: the caller cannot see the lab).',
  })
  async reviewSummary(@Root() node: LabSource, @Context() ctx: Ctx): Promise<LabReviewSummarySource | null> {
    const { lab, membership } = node.source;
    if (!can(node.viewer, 'view', lab, membership)) return null;
    const q = sqlOf(ctx.em);
    const [counts, open] = await Promise.all([repo.labReviewCounts(q, lab.id), repo.openReviewsOfLab(q, lab.id, reviews.QUEUE_MAX)]);
    const { decided, ...rest } = counts;
    return { ...rest, decidedLast90Days: decided, open: open.map(present) };
  }
}
