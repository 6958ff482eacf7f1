import { Arg, Ctx as Context, FieldResolver, ID, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { Ctx, requireViewer } from '../../context';
import type { RecordsAppended } from '../../pubsub';
import { whileAllowed } from '../../subscriptions';
import { checks } from '../../validation';
import * as trajectories from './trajectory.service';
import {
  AppendPayload,
  ReconcileInput,
  ReconcilePayload,
  RecordsAppendedEvent,
  TrajectoryAppendInput,
  TrajectoryCoverInput,
  TrajectoryMeta,
  TrajectoryPage,
  VisibilityInput,
  VisibilityValue,
} from './trajectory.types';

export function presentMeta(row: trajectories.SessionRow): TrajectoryMeta {
  return Object.assign(new TrajectoryMeta(), {
    sessionId: row.id,
    ownerId: row.owner_id,
    labId: row.lab_id,
    visibility: row.visibility as VisibilityValue,
    title: row.title,
    count: row.count,
    headUuid: row.head_uuid,
    bytes: row.bytes,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    archivedAt: row.archived_at,
    forkedFrom: row.forked_from_session ? { sessionId: row.forked_from_session, headUuid: row.forked_from_uuid! } : null,
    figureCount: 0, // figures arrive with the blob store
    source: row.source,
  });
}

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
  @Query(() => TrajectoryPage, { description: 'Sessions the caller can see, newest activity first. Without filters: the caller’s own.' })
  async trajectories(
    @Context() ctx: Ctx,
    @Arg('owner', () => ID, { nullable: true, description: 'Another member’s sessions (mentors).' }) owner?: string,
    @Arg('labId', () => ID, { nullable: true }) labId?: string,
    @Arg('limit', () => Int, { nullable: true, description: '1-500 (default 100).' }) limit?: number,
    @Arg('includeArchived', () => Boolean, { nullable: true }) includeArchived?: boolean,
    @Arg('sharedOnly', () => Boolean, { nullable: true }) sharedOnly?: boolean,
    @Arg('source', () => String, { nullable: true, description: 'Only this source; a2a sessions are listed only when asked for.' }) source?: string,
  ): Promise<TrajectoryPage> {
    const viewer = await requireViewer(ctx);
    const page = limit ?? 100;
    checks().int(['limit'], page, { min: 1, max: 500 }).text(['source'], source, { min: 1, max: 32 }).done();
    const found = await trajectories.listSessions(ctx.em, viewer, { ownerId: owner, labId, includeArchived, sharedOnly, source }, page);
    return { ...found, items: found.items.map(presentMeta) };
  }

  @Query(() => TrajectoryMeta, { description: 'One session’s metadata.' })
  async trajectoryMeta(@Context() ctx: Ctx, @Arg('sessionId', () => ID) sessionId: string): Promise<TrajectoryMeta> {
    return presentMeta((await trajectories.loadSession(ctx.em, await requireViewer(ctx), sessionId, 'view')).session);
  }

  @Mutation(() => AppendPayload, { description: 'Fast-forward append (owner only). Not a fast-forward: CONFLICT with the server head.' })
  async trajectoryAppend(
    @Context() ctx: Ctx,
    @Arg('sessionId', () => ID) sessionId: string,
    @Arg('input', () => TrajectoryAppendInput) input: TrajectoryAppendInput,
  ): Promise<AppendPayload> {
    const result = await trajectories.appendRecords(ctx.em, await requireViewer(ctx), sessionId, input, ctx.clientKind ?? 'api');
    publishAppend(ctx, result, input.records);
    return result;
  }

  @Mutation(() => AppendPayload, { description: 'Cover-write (owner only): the session becomes exactly these records.' })
  async trajectoryCover(
    @Context() ctx: Ctx,
    @Arg('sessionId', () => ID) sessionId: string,
    @Arg('input', () => TrajectoryCoverInput) input: TrajectoryCoverInput,
  ): Promise<AppendPayload> {
    const result = await trajectories.coverRecords(ctx.em, await requireViewer(ctx), sessionId, input, ctx.clientKind ?? 'api');
    publishAppend(ctx, result, input.records);
    return result;
  }

  @Mutation(() => Boolean, { description: 'Deletes a session and its records (owner only).' })
  async trajectoryDelete(@Context() ctx: Ctx, @Arg('sessionId', () => ID) sessionId: string): Promise<boolean> {
    await trajectories.deleteSession(ctx.em, await requireViewer(ctx), sessionId);
    return true;
  }

  @Mutation(() => ReconcilePayload, { description: 'Archives the caller’s sessions absent from the list; re-activates listed archived ones.' })
  async trajectoryReconcile(@Context() ctx: Ctx, @Arg('input', () => ReconcileInput) input: ReconcileInput): Promise<ReconcilePayload> {
    return trajectories.reconcile(ctx.em, await requireViewer(ctx), input.sessionIds);
  }

  @Mutation(() => TrajectoryMeta, { description: 'Sets who may view the session (owner only).' })
  async trajectoryVisibilitySet(
    @Context() ctx: Ctx,
    @Arg('sessionId', () => ID) sessionId: string,
    @Arg('input', () => VisibilityInput) input: VisibilityInput,
  ): Promise<TrajectoryMeta> {
    return presentMeta(await trajectories.setVisibility(ctx.em, await requireViewer(ctx), sessionId, input.visibility, input.labId));
  }

  @Subscription(() => RecordsAppendedEvent, {
    description: 'Records appended to a session, for everyone allowed to view it (checked again for every event).',
    subscribe: async ({ args, context }) => {
      const ctx = context as Ctx;
      const viewer = await requireViewer(ctx);
      await trajectories.loadSession(ctx.em, viewer, args.sessionId, 'view');
      return whileAllowed(ctx, ctx.services.pubsub.subscribe('RECORDS_APPENDED', args.sessionId), (em, current) =>
        trajectories.loadSession(em, current, args.sessionId, 'view'),
      );
    },
  })
  trajectoryRecordsAppended(@Arg('sessionId', () => ID) _sessionId: string, @Root() event: RecordsAppended): RecordsAppendedEvent {
    return Object.assign(new RecordsAppendedEvent(), event);
  }

  @FieldResolver(() => Int)
  openAnnotations(@Root() meta: TrajectoryMeta, @Context() ctx: Ctx): Promise<number> {
    return ctx.loaders.openAnnotationsBySessionId.load(meta.sessionId);
  }
}
