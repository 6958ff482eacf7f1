import {
  Arg,
  Ctx as Context,
  FieldResolver,
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
import type { Viewer } from '../auth/viewer';
import type { LabMemberEvent } from '../../pubsub';
import { whileAllowed } from '../../subscriptions';
import { limitArg } from '../../validation';
import { labBoard, labReviews } from '../trajectories/board.service';
import type { MemberRecord } from './lab.repository';
import { LabCreateInput, LabJoinInput, LabMemberUpdateInput } from './lab.inputs';
import { can, viewerCanLab } from './lab.policy';
import * as labs from './lab.service';
import {
  LabBoard,
  LabJoinPayload,
  LabJoinRequest,
  LabMemberEventNode,
  LabMemberNode,
  LabNode,
  LabPreview,
  LabReviews,
  LabStatusValue,
  LabUsageDay,
  LabUsageReport,
  LabViewerCan,
  MemberRoleValue,
  MemberStatusValue,
} from './lab.types';
import { AUTH_LIMITED, Caller, SIGNED_IN, callerOf } from '../../operation-rules';

/** Usage by day: up to a year, 30 days unless asked. */
const USAGE_DAYS = { max: 366, default: 30 };

/** Board and reviews scan at most 500 shared sessions, 200 unless asked. */
const SCAN = { max: 500, default: 200 };

/** LabNode plus what its field resolvers need (not exposed). */
export type LabSource = LabNode & { source: labs.LabWithMembership; viewer: Viewer };

export function presentLab(ctx: Ctx, viewer: Viewer, found: labs.LabWithMembership): LabSource {
  const { lab, membership } = found;
  // The read counted the seats already: no second statement for the field.
  if (found.seatsUsed !== undefined) ctx.loaders.seatsUsedByLabId.prime(lab.id, found.seatsUsed);
  const showCode = can(viewer, 'viewCode', lab, membership);
  return Object.assign(new LabNode(), {
    id: lab.id,
    name: lab.name,
    ownerId: lab.owner.id,
    status: lab.status as LabStatusValue,
    seatQuota: lab.seatQuota,
    role: membership?.status === 'active' ? (membership.role as MemberRoleValue) : null,
    createdAt: lab.createdAt,
    invitationCode: showCode ? ctx.services.sealer.open(lab.codeSealed) : null,
    codeExpiresAt: showCode ? lab.codeExpiresAt : null,
    source: found,
    viewer,
  });
}

export function presentMember(member: MemberRecord): LabMemberNode {
  return Object.assign(new LabMemberNode(), {
    memberUserId: member.user.id,
    name: member.user.name,
    email: member.user.email,
    role: member.role as MemberRoleValue,
    status: member.status as MemberStatusValue,
    joinedAt: member.joinedAt,
    requestedAt: member.createdAt,
  });
}

/** Publishes a committed membership change; called only after the transaction succeeded. */
function publish(ctx: Ctx, change: labs.MemberChange | undefined) {
  if (change?.event) ctx.services.pubsub.publish('LAB_MEMBER', change.event.labId, change.event);
}

@Resolver(() => LabNode)
export class LabResolver {
  @Extensions(SIGNED_IN)
  @Query(() => [LabNode], { description: 'Every lab the caller is an active member of, with their role.' })
  async labs(@Context() ctx: Ctx, @Caller() viewer: Viewer): Promise<LabNode[]> {
    return (await labs.listViewerLabs(ctx.em, viewer)).map((found) => presentLab(ctx, viewer, found));
  }

  @Extensions(SIGNED_IN)
  @Query(() => [LabJoinRequest], { description: 'The caller’s requests to join that wait for an owner’s decision, oldest first.' })
  async labJoinRequests(@Context() ctx: Ctx, @Caller() viewer: Viewer): Promise<LabJoinRequest[]> {
    return labs.listPendingRequests(ctx.em, viewer);
  }

  @Extensions(SIGNED_IN)
  @Query(() => LabNode, { description: 'One lab. Not found unless the caller is an active member or an admin.' })
  async lab(@Context() ctx: Ctx, @Caller() viewer: Viewer, @Arg('id', () => ID) id: string): Promise<LabNode> {
    return presentLab(ctx, viewer, await labs.loadLab(ctx.em, viewer, id, 'view'));
  }

  @Extensions({ ...SIGNED_IN, ...AUTH_LIMITED })
  @Query(() => LabPreview, { description: 'The team name of an invitation code. Any invalid, expired or inactive code is not found.' })
  async labPreview(@Context() ctx: Ctx, @Arg('code') code: string): Promise<LabPreview> {
    return labs.previewLab(ctx.em, code);
  }

  @Extensions(SIGNED_IN)
  @Query(() => LabUsageReport, { description: 'Owner-only usage report: token and session counts per member.' })
  async labUsage(@Context() ctx: Ctx, @Caller() viewer: Viewer, @Arg('labId', () => ID) labId: string): Promise<LabUsageReport> {
    return labs.usageReport(ctx.em, viewer, labId) as Promise<LabUsageReport>;
  }

  @Extensions(SIGNED_IN)
  @Query(() => LabBoard, { description: 'One scan of the lab’s shared analyses (visibility lab).' })
  async labBoard(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('labId', () => ID) labId: string,
    @Arg('limit', () => Int, { nullable: true, description: 'Shared sessions to scan, 1-500 (default 200).' }) limit?: number,
  ): Promise<LabBoard> {
    const scan = limitArg(limit, SCAN);
    await labs.loadLab(ctx.em, viewer, labId, 'view');
    const items = await labBoard(ctx.em, labId, scan);
    return { items, total: items.length, limit: scan };
  }

  @Extensions(SIGNED_IN)
  @Query(() => LabReviews, { description: 'Open review threads on the lab’s shared trajectories.' })
  async labReviews(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('labId', () => ID) labId: string,
    @Arg('limit', () => Int, { nullable: true, description: '1-500 (default 200).' }) limit?: number,
  ): Promise<LabReviews> {
    const scan = limitArg(limit, SCAN);
    await labs.loadLab(ctx.em, viewer, labId, 'view');
    return labReviews(ctx.em, viewer, labId, scan);
  }

  @Extensions(SIGNED_IN)
  @Mutation(() => LabNode, { description: 'Creates a lab; the caller becomes its owner.' })
  async labCreate(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('input', () => LabCreateInput) input: LabCreateInput,
  ): Promise<LabNode> {
    return presentLab(ctx, viewer, await labs.createLab(ctx.em, ctx.services.sealer, viewer, input));
  }

  @Extensions({ ...SIGNED_IN, ...AUTH_LIMITED })
  @Mutation(() => LabJoinPayload, { description: 'Asks to join the lab of an invitation code; the owner approves.' })
  async labJoin(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('input', () => LabJoinInput) input: LabJoinInput,
  ): Promise<LabJoinPayload> {
    const result = await labs.joinLab(ctx.em, viewer, input.code);
    publish(ctx, result.change);
    return { labId: result.labId, status: result.status as MemberStatusValue };
  }

  @Extensions(SIGNED_IN)
  @Mutation(() => LabNode, { description: 'Owner-only: a new invitation code; the old one stops working at once.' })
  async labRotateCode(@Context() ctx: Ctx, @Caller() viewer: Viewer, @Arg('labId', () => ID) labId: string): Promise<LabNode> {
    return presentLab(ctx, viewer, await labs.rotateCode(ctx.em, ctx.services.sealer, viewer, labId));
  }

  @Extensions(SIGNED_IN)
  @Mutation(() => LabMemberNode, { description: 'Leaves the lab (status left; the row is kept).' })
  async labLeave(@Context() ctx: Ctx, @Caller() viewer: Viewer, @Arg('labId', () => ID) labId: string): Promise<LabMemberNode> {
    const change = await labs.leaveLab(ctx.em, viewer, labId);
    publish(ctx, change);
    return presentMember(change.member);
  }

  @Extensions(SIGNED_IN)
  @Mutation(() => LabMemberNode, { description: 'Owner-only: approve, reject, revoke, or change the role of a member.' })
  async labMemberUpdate(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('labId', () => ID) labId: string,
    @Arg('memberUserId', () => ID) memberUserId: string,
    @Arg('input', () => LabMemberUpdateInput) input: LabMemberUpdateInput,
  ): Promise<LabMemberNode> {
    const change = await labs.updateMember(ctx.em, viewer, labId, memberUserId, input);
    publish(ctx, change);
    return presentMember(change.member);
  }

  @Extensions(SIGNED_IN)
  @Subscription(() => LabMemberEventNode, {
    description: 'Membership changes of a lab, for its owner, mentors and admins. Access is re-checked for every event.',
    subscribe: async ({ args, context: ctx }: SubscribeResolverData<unknown, { labId: string }, Ctx>) => {
      const viewer = await callerOf(ctx);
      await labs.loadLab(ctx.em, viewer, args.labId, 'viewMembers');
      return whileAllowed(ctx, ctx.services.pubsub.subscribe('LAB_MEMBER', args.labId), (em, current) =>
        labs.loadLab(em, current, args.labId, 'viewMembers'),
      );
    },
  })
  labMemberEvents(@Arg('labId', () => ID) _labId: string, @Root() event: LabMemberEvent): LabMemberEventNode {
    return Object.assign(new LabMemberEventNode(), { ...event, at: new Date(event.at) });
  }

  @FieldResolver(() => Int)
  seatsUsed(@Root() node: LabSource, @Context() ctx: Ctx): Promise<number> {
    return ctx.loaders.seatsUsedByLabId.load(node.id);
  }

  @FieldResolver(() => LabViewerCan)
  viewerCan(@Root() node: LabSource): LabViewerCan {
    return viewerCanLab(node.viewer, node.source.lab, node.source.membership);
  }

  @FieldResolver(() => [LabMemberNode], { nullable: true })
  async members(@Root() node: LabSource, @Context() ctx: Ctx): Promise<LabMemberNode[] | null> {
    const { lab, membership } = node.source;
    if (!can(node.viewer, 'viewMembers', lab, membership)) return null;
    return (await ctx.loaders.membersByLabId.load(node.id)).map(presentMember);
  }
}

@Resolver(() => LabUsageReport)
export class LabUsageResolver {
  /** Resolved only when asked for: the REST usage report does not select it. */
  @FieldResolver(() => [LabUsageDay], { description: 'Usage per UTC day, oldest first, one entry per day (zeros included).' })
  daily(
    @Root() report: LabUsageReport,
    @Context() ctx: Ctx,
    @Arg('days', () => Int, { nullable: true, description: '1-366 (default 30), today included.' }) days?: number,
  ): Promise<LabUsageDay[]> {
    return labs.usageByDay(ctx.em, report.labId, limitArg(days, USAGE_DAYS), ctx.services.clock.now());
  }
}
