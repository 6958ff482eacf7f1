import {
  Arg,
  Ctx as Context,
  Extensions,
  ID,
  Int,
  Mutation,
  Query,
  Resolver,
  Root,
  Subscription,
  type SubscribeResolverData,
} from 'type-graphql';
import type { Ctx } from '../../context';
import { limitArg, pageArgs } from '../../validation';
import { revokeToken } from '../auth/auth.service';
import { LabAdminUpdateInput } from '../labs/lab.inputs';
import { presentLab } from '../labs/lab.resolver';
import { adminUpdateLab, listAllLabs, loadLab } from '../labs/lab.service';
import { LabNode, LabPage, LabStatusValue } from '../labs/lab.types';
import { presentCounted } from '../trajectories/trajectory.resolver';
import { listAllTrajectories, storageSummary } from '../trajectories/trajectory.service';
import { StorageSummary, TrajectoryPage } from '../trajectories/trajectory.types';
import { PlanCode, STORAGE_QUOTA_BY_PLAN } from '../users/plans';
import { presentUser } from '../users/user.resolver';
import { checkTokenLabel, TokenCreateInput, UserCreateInput, UserUpdateInput } from '../users/user.inputs';
import * as users from '../users/user.service';
import { IssuedTokenNode, PersonalTokenPage, PlanCodeValue, UserNode, UserPage, UserSyncBatch } from '../users/user.types';
import { DEFAULT_SEGMENTATION_DOMAIN, segmentation, SEGMENTATION_LIMIT } from './segmentation.service';
import { SegmentationNode } from './segmentation.types';
import { adminStats } from './stats.service';
import { AdminStatsNode } from './stats.types';
import { ADMIN, AUTH_LIMITED, Caller, MINTS_CREDENTIAL } from '../../operation-rules';
import type { Viewer } from '../auth/viewer';

const PAGE = { max: 500, default: 100 };

@Resolver()
export class AdminResolver {
  @Extensions(ADMIN)
  @Subscription(() => UserSyncBatch, {
    description:
      'Admin: the whole user table, oldest first, in batches read from a database cursor as the reader takes them (GET /api/admin/sync/users). No pagination: a downstream deployment upserts every row.',
    subscribe: ({ context: ctx }: SubscribeResolverData<unknown, Record<string, never>, Ctx>) => {
      return users.allUserRows(ctx.em);
    },
  })
  adminUserSync(@Root() rows: Record<string, unknown>[]): UserSyncBatch {
    return { rows: rows.map((row) => JSON.stringify(row)) };
  }

  @Extensions(ADMIN)
  @Query(() => UserPage, { description: 'Admin: users whose email, name or phone contains q.' })
  async adminUsers(
    @Context() ctx: Ctx,
    @Arg('q', () => String, { nullable: true, description: 'Substring of email, name or phone.' }) q?: string,
    @Arg('planCode', () => PlanCodeValue, { nullable: true }) planCode?: PlanCodeValue,
    @Arg('limit', () => Int, { nullable: true, description: '1-500 (default 100).' }) limit?: number,
    @Arg('offset', () => Int, { nullable: true, description: '≥ 0 (default 0).' }) offset?: number,
  ): Promise<UserPage> {
    const page = await users.listUsers(ctx.em, { q, planCode }, pageArgs(limit, offset, PAGE));
    return { ...page, items: page.items.map(presentUser) };
  }

  @Extensions(ADMIN)
  @Query(() => UserNode, { description: 'Admin: one user.' })
  async adminUser(@Context() ctx: Ctx, @Arg('id', () => ID) id: string): Promise<UserNode> {
    return presentUser(await users.getUser(ctx.em, id));
  }

  @Extensions({ ...ADMIN, ...MINTS_CREDENTIAL })
  @Mutation(() => UserNode, { description: 'Admin: creates a user.' })
  async adminUserCreate(
    @Context() ctx: Ctx,
    @Caller() admin: Viewer,
    @Arg('input', () => UserCreateInput) input: UserCreateInput,
  ): Promise<UserNode> {
    return presentUser(await users.createUser(ctx.em, admin.user.id, input));
  }

  @Extensions(ADMIN)
  @Mutation(() => UserNode, { description: 'Admin: updates a user.' })
  async adminUserUpdate(
    @Context() ctx: Ctx,
    @Caller() admin: Viewer,
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UserUpdateInput) input: UserUpdateInput,
  ): Promise<UserNode> {
    return presentUser(await users.updateUser(ctx.em, admin.user.id, id, input));
  }

  @Extensions({ ...ADMIN, ...MINTS_CREDENTIAL, ...AUTH_LIMITED })
  @Mutation(() => IssuedTokenNode, { description: 'Admin: a personal access token for a user (plaintext shown once).' })
  async adminTokenCreate(
    @Context() ctx: Ctx,
    @Caller() admin: Viewer,
    @Arg('userId', () => ID) userId: string,
    @Arg('input', () => TokenCreateInput) input: TokenCreateInput,
  ): Promise<IssuedTokenNode> {
    checkTokenLabel(input);
    return users.createPersonalToken(ctx.em, admin.user.id, userId, input);
  }

  @Extensions(ADMIN)
  @Query(() => PersonalTokenPage, { description: "Admin: a user's personal access tokens, newest first (never their secrets)." })
  async adminUserTokens(
    @Context() ctx: Ctx,
    @Arg('userId', () => ID) userId: string,
    @Arg('limit', () => Int, { nullable: true, description: '1-500 (default 100).' }) limit?: number,
    @Arg('offset', () => Int, { nullable: true, description: '≥ 0 (default 0).' }) offset?: number,
  ): Promise<PersonalTokenPage> {
    return users.listPersonalTokens(ctx.em, userId, pageArgs(limit, offset, PAGE));
  }

  @Extensions(ADMIN)
  @Mutation(() => Boolean, { description: 'Admin: revokes a token; it stops working on the next request.' })
  async adminTokenRevoke(
    @Context() ctx: Ctx,
    @Caller() admin: Viewer,
    @Arg('userId', () => ID) userId: string,
    @Arg('tokenId', () => ID) tokenId: string,
  ): Promise<boolean> {
    await revokeToken(ctx.em, admin.user.id, userId, tokenId);
    return true;
  }

  @Extensions(ADMIN)
  @Query(() => TrajectoryPage, { description: 'Admin: every session, by owner, lab, or a title/id substring.' })
  async adminTrajectories(
    @Context() ctx: Ctx,
    @Arg('owner', () => ID, { nullable: true }) owner?: string,
    @Arg('labId', () => ID, { nullable: true }) labId?: string,
    @Arg('q', () => String, { nullable: true, description: 'Substring of the title or session id.' }) q?: string,
    @Arg('limit', () => Int, { nullable: true, description: '1-500 (default 100).' }) limit?: number,
  ): Promise<TrajectoryPage> {
    const found = await listAllTrajectories(ctx.em, { ownerId: owner, labId, q }, limitArg(limit, PAGE));
    return { ...found, items: presentCounted(ctx, found.items) };
  }

  @Extensions(ADMIN)
  @Query(() => StorageSummary, { description: 'Admin: byte usage per user and per lab.' })
  async adminStorageSummary(@Context() ctx: Ctx): Promise<StorageSummary> {
    const summary = await storageSummary(ctx.em);
    return {
      totalBytes: summary.totalBytes,
      labs: summary.labs.map((l) => ({ labId: l.labId, name: l.name, bytes: l.bytes, sessions: l.trajectories })),
      users: summary.users.map((u) => ({
        userId: u.userId,
        email: u.email,
        usedBytes: u.usedBytes,
        quotaBytes: u.quotaOverrideBytes ?? STORAGE_QUOTA_BY_PLAN[u.planCode as PlanCode],
        sessions: u.trajectories,
      })),
    };
  }

  @Extensions(ADMIN)
  @Query(() => LabPage, { description: 'Admin: labs whose name contains q.' })
  async adminLabs(
    @Context() ctx: Ctx,
    @Caller() admin: Viewer,
    @Arg('q', () => String, { nullable: true, description: 'Substring of the lab name.' }) q?: string,
    @Arg('status', () => LabStatusValue, { nullable: true }) status?: LabStatusValue,
    @Arg('limit', () => Int, { nullable: true, description: '1-500 (default 100).' }) limit?: number,
    @Arg('offset', () => Int, { nullable: true, description: '≥ 0 (default 0).' }) offset?: number,
  ): Promise<LabPage> {
    const page = await listAllLabs(ctx.em, { q, status }, pageArgs(limit, offset, PAGE));
    return { ...page, items: page.labs.map((lab) => presentLab(ctx, admin, { lab, membership: null })) };
  }

  @Extensions(ADMIN)
  @Query(() => LabNode, { description: 'Admin: one lab, with its members.' })
  async adminLab(@Context() ctx: Ctx, @Caller() admin: Viewer, @Arg('id', () => ID) id: string): Promise<LabNode> {
    return presentLab(ctx, admin, await loadLab(ctx.em, admin, id, 'view'));
  }

  @Extensions(ADMIN)
  @Mutation(() => LabNode, { description: 'Admin: renames a lab, or changes its status or seat quota.' })
  async adminLabUpdate(
    @Context() ctx: Ctx,
    @Caller() admin: Viewer,
    @Arg('id', () => ID) id: string,
    @Arg('input', () => LabAdminUpdateInput) input: LabAdminUpdateInput,
  ): Promise<LabNode> {
    const lab = await adminUpdateLab(ctx.em, admin.user.id, id, input);
    return presentLab(ctx, admin, { lab, membership: null });
  }

  @Extensions(ADMIN)
  @Query(() => AdminStatsNode, {
    description:
      'Admin: online users, LLM activity over 5 minutes and 1 hour, DAU/WAU/MAU (UTC days), registrations, monthly active users per plan.',
  })
  async adminStats(@Context() ctx: Ctx): Promise<AdminStatsNode> {
    return adminStats(ctx.em, ctx.services.clock.now());
  }

  @Extensions(ADMIN)
  @Query(() => SegmentationNode, {
    description:
      'Admin: users, paying and granted users of a domain over institution tier, type and name, and the institution strings not recognised.',
  })
  async adminSegmentation(
    @Context() ctx: Ctx,
    @Arg('domain', () => String, { nullable: true, description: "The users' domain (default omics)." }) domain?: string,
    @Arg('limit', () => Int, { nullable: true, description: '1-200 (default 40): institutions and unresolved strings listed.' })
    limit?: number,
  ): Promise<SegmentationNode> {
    const args = { domain: domain ?? DEFAULT_SEGMENTATION_DOMAIN, limit: limitArg(limit, SEGMENTATION_LIMIT) };
    return segmentation(ctx.em, args, ctx.services.clock.now());
  }
}
