import {
  Arg,
  Ctx as Context,
  FieldResolver,
  Float,
  ID,
  Int,
  Mutation,
  Query,
  Resolver,
  Root,
  Subscription,
  type SubscribeResolverData,
  Extensions,
} from 'type-graphql';
import type { Ctx } from '../../context';
import { loadPerson } from '../users/person.resolver';
import { Person } from '../users/user.types';
import { viewerCanTrajectory } from './trajectory.policy';
import type { Viewer } from '../auth/viewer';
import type { RecordsAppended } from '../../pubsub';
import { failureAsLastEvent, SourceFailure, whileAllowed } from '../../subscriptions';
import { checks, limitArg } from '../../validation';
import * as trajectories from './trajectory.service';
import { diffTrajectories } from './trajectory-diff';
import * as annotations from './annotation.service';
import type { AnnotationView } from './annotation.repository';
import { critique } from './critique.service';
import * as discussion from './discuss.service';
import * as summaries from './summaries.service';
import {
  Annotation,
  AnnotationInput,
  AnnotationList,
  AnnotationStatusValue,
  AppendPayload,
  Critique,
  DiscussAnswer,
  DiscussInput,
  DiscussStreamEvent,
  Discussions,
  ForkInput,
  ForkOrigin,
  ForkPayload,
  SeverityValue,
  SummaryRecord,
  SummaryRefresh,
  SummaryRequestInput,
  SummaryState,
  ReconcileInput,
  ReconcilePayload,
  RecordsAppendedEvent,
  TrajectoryAppendInput,
  TrajectoryCoverInput,
  TrajectoryMeta,
  TrajectoryPage,
  RecordTextPage,
  TrajectoryDiff,
  DiffSide,
  RecordTextBatch,
  VisibilityInput,
  VisibilityValue,
  TrajectoryTokens,
  TrajectoryViewerCan,
} from './trajectory.types';
import { SIGNED_IN, Caller, callerOf } from '../../operation-rules';

/** Presents the rows of a read that counted along, priming the counts loader with them. */
export function presentCounted(ctx: Ctx, rows: trajectories.TrajectoryRow[]): TrajectoryMeta[] {
  for (const row of rows) if (row.counts) ctx.loaders.countsBySessionId.prime(row.id, row.counts);
  return rows.map(presentMeta);
}

export function presentMeta(row: trajectories.TrajectoryRow): TrajectoryMeta {
  return Object.assign(new TrajectoryMeta(), {
    sessionId: row.id,
    ownerId: row.ownerId,
    labId: row.labId,
    visibility: row.visibility as VisibilityValue,
    title: row.title,
    count: row.count,
    headUuid: row.headUuid,
    bytes: row.bytes,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    archivedAt: row.archivedAt,
    forkedFrom: row.forkedFromSession ? { sessionId: row.forkedFromSession, headUuid: row.forkedFromUuid!, forkId: row.id } : null,
    source: row.source,
  });
}

/** A TrajectoryMeta's facts as the policy reads them. */
const factsOf = (meta: TrajectoryMeta) => ({ ownerId: meta.ownerId, labId: meta.labId, visibility: meta.visibility });

const presentAnnotation = (annotation: AnnotationView): Annotation =>
  Object.assign(new Annotation(), { ...annotation, status: annotation.status as AnnotationStatusValue });

/** Publishes a committed append to the session's live viewers. */
function publishAppend(ctx: Ctx, result: trajectories.AppendResult, records: string[]) {
  if (result.appended === 0) return;
  ctx.services.pubsub.publish('RECORDS_APPENDED', result.sessionId, {
    sessionId: result.sessionId,
    records: records.slice(records.length - result.appended),
    headUuid: result.headUuid,
    count: result.count,
  });
}

@Resolver(() => TrajectoryMeta)
export class TrajectoryResolver {
  @Extensions(SIGNED_IN)
  @Query(() => TrajectoryPage, { description: 'Sessions the caller can see, newest activity first. Without filters: the caller’s own.' })
  async trajectories(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('owner', () => ID, { nullable: true, description: 'Another member’s sessions (mentors).' }) owner?: string,
    @Arg('labId', () => ID, { nullable: true }) labId?: string,
    @Arg('limit', () => Int, { nullable: true, description: '1-500 (default 100).' }) limit?: number,
    @Arg('includeArchived', () => Boolean, { nullable: true }) includeArchived?: boolean,
    @Arg('sharedOnly', () => Boolean, { nullable: true }) sharedOnly?: boolean,
    @Arg('source', () => String, { nullable: true, description: 'Only this source; a2a sessions are listed only when asked for.' })
    source?: string,
  ): Promise<TrajectoryPage> {
    const page = limitArg(limit, { max: 500, default: 100 });
    checks().text(['source'], source, { min: 1, max: 32 }).done();
    const found = await trajectories.listTrajectories(ctx.em, viewer, { ownerId: owner, labId, includeArchived, sharedOnly, source }, page);
    return { ...found, items: presentCounted(ctx, found.items) };
  }

  @Extensions(SIGNED_IN)
  @Query(() => TrajectoryMeta, { description: 'One session’s metadata.' })
  async trajectoryMeta(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('sessionId', () => ID) sessionId: string,
  ): Promise<TrajectoryMeta> {
    return presentCounted(ctx, [await trajectories.viewTrajectory(ctx.em, viewer, sessionId)])[0];
  }

  @Extensions(SIGNED_IN)
  @Query(() => TrajectoryDiff, {
    description:
      'Two trajectories the caller can read, compared record by record (a fork and its parent, or any two), a page of rows: by default from just before where they diverge.',
  })
  trajectoryDiff(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('base', () => ID) base: string,
    @Arg('other', () => ID) other: string,
    @Arg('from', () => Int, { nullable: true, description: 'The first row (default: the row before the first difference).' }) from?: number,
    @Arg('first', () => Int, { nullable: true, description: '1-200 (default 50).' }) first?: number,
  ): Promise<TrajectoryDiff> {
    checks()
      .int(['from'], from, { min: 0, max: 2 ** 31 - 1 })
      .int(['first'], first, { min: 1, max: 200 })
      .done();
    return diffTrajectories(ctx.em, ctx.services.blobs, viewer, base, other, { from, first: first ?? 50 });
  }

  @Extensions(SIGNED_IN)
  @Query(() => RecordTextPage, {
    description: 'A session’s records in order, a page at a time (the web console reads them so; clients use the NDJSON download).',
  })
  async trajectoryRecords(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('sessionId', () => ID) sessionId: string,
    @Arg('after', () => Int, { nullable: true, description: 'Records after this position (default 0: from the first).' }) after?: number,
    @Arg('first', () => Int, { nullable: true, description: '1-500 (default 100); a page also stops at about 4 MiB.' }) first?: number,
  ): Promise<RecordTextPage> {
    checks()
      .int(['after'], after, { min: 0, max: 2 ** 31 - 1 })
      .int(['first'], first, { min: 1, max: 500 })
      .done();
    return trajectories.readRecordPage(ctx.em, ctx.services.blobs, viewer, sessionId, after ?? 0, first ?? 100);
  }

  @Extensions(SIGNED_IN)
  @Subscription(() => RecordTextBatch, {
    description:
      'A session’s records in order (after the record `since`, when given), read in batches as the reader takes them: what GET /api/trajectories/{session_id} streams. For a viewer of the session, checked once before the first batch.',
    subscribe: async ({ args, context: ctx }: SubscribeResolverData<unknown, { sessionId: string; since?: string | null }, Ctx>) =>
      trajectories.readRecords(ctx.em, ctx.services.blobs, await callerOf(ctx), args.sessionId, args.since ?? null),
  })
  trajectoryRecordBatches(
    @Arg('sessionId', () => ID) _sessionId: string,
    @Arg('since', () => String, { nullable: true, description: 'Only the records after the one with this uuid.' }) _since: string | null,
    @Root() records: string[],
  ): RecordTextBatch {
    return { records };
  }

  @Extensions(SIGNED_IN)
  @Query(() => Float, {
    description:
      'The most bytes a write’s body (append, cover-write) to this session could have and still be stored: the caller’s storage left, plus what the session holds when the write may replace it (`declared`: the body’s length, when known).',
  })
  async trajectoryWriteLimit(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('sessionId', () => ID) sessionId: string,
    @Arg('declared', () => Float, { nullable: true }) declared?: number | null,
  ): Promise<number> {
    return trajectories.writeBodyLimit(ctx.em, viewer, sessionId, declared ?? undefined);
  }

  @Extensions(SIGNED_IN)
  @Mutation(() => AppendPayload, { description: 'Fast-forward append (owner only). Not a fast-forward: CONFLICT with the server head.' })
  async trajectoryAppend(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('sessionId', () => ID) sessionId: string,
    @Arg('input', () => TrajectoryAppendInput) input: TrajectoryAppendInput,
  ): Promise<AppendPayload> {
    const result = await trajectories.appendRecords(ctx.em, ctx.services.blobs, viewer, sessionId, input, ctx.clientKind ?? 'api');
    publishAppend(ctx, result, input.records);
    return result;
  }

  @Extensions(SIGNED_IN)
  @Mutation(() => AppendPayload, { description: 'Cover-write (owner only): the session becomes exactly these records.' })
  async trajectoryCover(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('sessionId', () => ID) sessionId: string,
    @Arg('input', () => TrajectoryCoverInput) input: TrajectoryCoverInput,
  ): Promise<AppendPayload> {
    const result = await trajectories.coverRecords(ctx.em, ctx.services.blobs, viewer, sessionId, input, ctx.clientKind ?? 'api');
    publishAppend(ctx, result, input.records);
    return result;
  }

  @Extensions(SIGNED_IN)
  @Mutation(() => Boolean, { description: 'Deletes a session and its records (owner only).' })
  async trajectoryDelete(@Context() ctx: Ctx, @Caller() viewer: Viewer, @Arg('sessionId', () => ID) sessionId: string): Promise<boolean> {
    await trajectories.deleteTrajectory(ctx.em, viewer, sessionId);
    return true;
  }

  @Extensions(SIGNED_IN)
  @Mutation(() => ReconcilePayload, {
    description: 'Archives the caller’s sessions absent from the list; re-activates listed archived ones.',
  })
  async trajectoryReconcile(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('input', () => ReconcileInput) input: ReconcileInput,
  ): Promise<ReconcilePayload> {
    return trajectories.reconcile(ctx.em, viewer, input.sessionIds);
  }

  @Extensions(SIGNED_IN)
  @Mutation(() => TrajectoryMeta, { description: 'Sets who may view the session (owner only).' })
  async trajectoryVisibilitySet(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('sessionId', () => ID) sessionId: string,
    @Arg('input', () => VisibilityInput) input: VisibilityInput,
  ): Promise<TrajectoryMeta> {
    return presentMeta(await trajectories.setVisibility(ctx.em, viewer, sessionId, input.visibility, input.labId));
  }

  @Extensions(SIGNED_IN)
  @Query(() => AnnotationList, { description: 'Annotations of a session, oldest first (anyone who can view it).' })
  async trajectoryAnnotations(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('sessionId', () => ID) sessionId: string,
  ): Promise<AnnotationList> {
    const rows = await annotations.listAnnotations(ctx.em, viewer, sessionId);
    return { items: rows.map(presentAnnotation), total: rows.length };
  }

  @Extensions(SIGNED_IN)
  @Mutation(() => Annotation, { description: 'Annotates a record: the owner, or a mentor of the session’s lab.' })
  async trajectoryAnnotate(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('sessionId', () => ID) sessionId: string,
    @Arg('input', () => AnnotationInput) input: AnnotationInput,
  ): Promise<Annotation> {
    return presentAnnotation(await annotations.createAnnotation(ctx.em, viewer, sessionId, input));
  }

  @Extensions(SIGNED_IN)
  @Mutation(() => Annotation, { description: 'Resolves an annotation by appending a status entry.' })
  async trajectoryAnnotationResolve(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('sessionId', () => ID) sessionId: string,
    @Arg('annotationId', () => ID) annotationId: string,
  ): Promise<Annotation> {
    return presentAnnotation(await annotations.resolveAnnotation(ctx.em, viewer, sessionId, annotationId));
  }

  @Extensions(SIGNED_IN)
  @Mutation(() => Critique, {
    description:
      'Findings on the session: the rules’ (errors, failed tool calls, tool calls without a result), then, with a language model, the model’s, each anchored to one of its records.',
  })
  async trajectoryCritique(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('sessionId', () => ID) sessionId: string,
  ): Promise<Critique> {
    const findings = await critique(ctx.em, ctx.services, viewer, sessionId, ctx.callerGone);
    return { findings: findings.map((f) => ({ ...f, severity: f.severity as SeverityValue })) };
  }

  @Extensions(SIGNED_IN)
  @Mutation(() => ForkPayload, { description: 'A new session of the caller’s, seeded with the records up to head_uuid.' })
  async trajectoryFork(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('sessionId', () => ID) sessionId: string,
    @Arg('input', () => ForkInput) input: ForkInput,
  ): Promise<ForkPayload> {
    return trajectories.forkTrajectory(ctx.em, ctx.services.blobs, viewer, sessionId, input.headUuid);
  }

  @Extensions(SIGNED_IN)
  @Mutation(() => SummaryRecord, { description: 'Appends a summary record condensing everything up to parent_uuid (owner only).' })
  async trajectorySummaryAppend(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('sessionId', () => ID) sessionId: string,
    @Arg('input', () => SummaryRequestInput) input: SummaryRequestInput,
  ): Promise<SummaryRecord> {
    return summaries.appendSummary(ctx.em, ctx.services, viewer, sessionId, input.parentUuid, ctx.callerGone);
  }

  @Extensions(SIGNED_IN)
  @Query(() => SummaryState, {
    description:
      'The cached model summary: ready, pending (a job is queued or running; one is queued when there is none) or failed; enabled false without a model.',
  })
  async trajectorySummary(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('sessionId', () => ID) sessionId: string,
  ): Promise<SummaryState> {
    return summaries.summaryState(ctx.em, ctx.services, viewer, sessionId);
  }

  @Extensions(SIGNED_IN)
  @Mutation(() => SummaryRefresh, {
    description: 'Drops the cached summary and queues a job that makes it again (owner only); poll the summary.',
  })
  async trajectorySummaryRefresh(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('sessionId', () => ID) sessionId: string,
  ): Promise<SummaryRefresh> {
    await summaries.refreshSummary(ctx.em, ctx.services, viewer, sessionId);
    return { status: 'pending' };
  }

  @Extensions(SIGNED_IN)
  @Mutation(() => DiscussAnswer, { description: 'A question about the session to the language model.' })
  async trajectoryDiscuss(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('sessionId', () => ID) sessionId: string,
    @Arg('input', () => DiscussInput) input: DiscussInput,
  ): Promise<DiscussAnswer> {
    return discussion.discuss(ctx.em, ctx.services, viewer, sessionId, input, ctx.callerGone);
  }

  @Extensions(SIGNED_IN)
  @Subscription(() => DiscussStreamEvent, {
    description:
      'trajectoryDiscuss with the answer streamed: its pieces as delta events, then one done event. Checked, kept and charged as trajectoryDiscuss; completing the subscription (or closing the socket) cancels the model call. A model failure is a GraphQL error, then the subscription completes.',
    subscribe: async ({ args, context: ctx }: SubscribeResolverData<unknown, { sessionId: string; input: DiscussInput }, Ctx>) => {
      // One answer, authorized once like trajectoryDiscuss (not a feed to re-check per event).
      return failureAsLastEvent(
        await discussion.discussStream(ctx.em, ctx.services, await callerOf(ctx), args.sessionId, args.input, ctx.callerGone),
      );
    },
  })
  trajectoryDiscussStream(
    @Arg('sessionId', () => ID) _sessionId: string,
    @Arg('input', () => DiscussInput) _input: DiscussInput,
    @Root() event: discussion.DiscussEvent | SourceFailure,
  ): DiscussStreamEvent {
    if ('failed' in event) throw event.failed;
    return event;
  }

  @Extensions(SIGNED_IN)
  @Query(() => Discussions, { description: 'Q&A turns of other viewers, grouped by viewer (owner only).' })
  async trajectoryDiscussions(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('sessionId', () => ID) sessionId: string,
  ): Promise<Discussions> {
    return discussion.discussions(ctx.em, viewer, sessionId);
  }

  @Extensions(SIGNED_IN)
  @Subscription(() => RecordsAppendedEvent, {
    description: 'Records appended to a session, for everyone allowed to view it (checked again for every event).',
    subscribe: async ({ args, context: ctx }: SubscribeResolverData<unknown, { sessionId: string }, Ctx>) => {
      const viewer = await callerOf(ctx);
      await trajectories.loadTrajectory(ctx.em, viewer, args.sessionId, 'view');
      return whileAllowed(ctx, ctx.services.pubsub.subscribe('RECORDS_APPENDED', args.sessionId), (em, current) =>
        trajectories.loadTrajectory(em, current, args.sessionId, 'view'),
      );
    },
  })
  trajectoryRecordsAppended(@Arg('sessionId', () => ID) _sessionId: string, @Root() event: RecordsAppended): RecordsAppendedEvent {
    return Object.assign(new RecordsAppendedEvent(), event);
  }

  @FieldResolver(() => Int)
  async figureCount(@Root() meta: TrajectoryMeta, @Context() ctx: Ctx): Promise<number> {
    return (await ctx.loaders.countsBySessionId.load(meta.sessionId)).figures;
  }

  @FieldResolver(() => Int)
  async openAnnotations(@Root() meta: TrajectoryMeta, @Context() ctx: Ctx): Promise<number> {
    return (await ctx.loaders.countsBySessionId.load(meta.sessionId)).openAnnotations;
  }

  @FieldResolver(() => TrajectoryTokens)
  tokens(@Root() meta: TrajectoryMeta, @Context() ctx: Ctx): Promise<TrajectoryTokens> {
    return ctx.loaders.tokensBySessionId.load(meta.sessionId);
  }

  @FieldResolver(() => Person)
  owner(@Root() meta: TrajectoryMeta, @Context() ctx: Ctx): Promise<Person> {
    return loadPerson(ctx, meta.ownerId);
  }

  @FieldResolver(() => TrajectoryViewerCan)
  async viewerCan(@Root() meta: TrajectoryMeta, @Context() ctx: Ctx, @Caller() viewer: Viewer): Promise<TrajectoryViewerCan> {
    const role = meta.labId ? await ctx.loaders.activeRoleByLab.load({ userId: viewer.user.id, labId: meta.labId }) : null;
    return viewerCanTrajectory(viewer, factsOf(meta), role);
  }
}

@Resolver(() => ForkOrigin)
export class ForkOriginResolver {
  @FieldResolver(() => TrajectoryMeta, {
    nullable: true,
    description: 'The parent session, when the caller may view it; null when they may not, or it is gone.',
  })
  async parent(@Root() origin: ForkOrigin, @Context() ctx: Ctx, @Caller() viewer: Viewer): Promise<TrajectoryMeta | null> {
    const parent = await trajectories.viewableTrajectory(ctx.em, viewer, origin.sessionId);
    return parent && presentCounted(ctx, [parent])[0];
  }

  @FieldResolver(() => Int, {
    nullable: true,
    description: 'Position of headUuid, counted from 1: the fork was made at this record. Null once a cover-write of the fork dropped it.',
  })
  seq(@Root() origin: ForkOrigin, @Context() ctx: Ctx): Promise<number | null> {
    return trajectories.positionOf(ctx.em, origin.forkId, origin.headUuid);
  }
}

@Resolver(() => Annotation)
export class AnnotationResolver {
  @FieldResolver(() => Person)
  author(@Root() annotation: Annotation, @Context() ctx: Ctx): Promise<Person> {
    return loadPerson(ctx, annotation.authorId);
  }
}

@Resolver(() => DiffSide)
export class DiffSideResolver {
  @FieldResolver(() => TrajectoryTokens)
  tokens(@Root() side: DiffSide, @Context() ctx: Ctx): Promise<TrajectoryTokens> {
    return ctx.loaders.tokensBySessionId.load(side.sessionId);
  }
}
