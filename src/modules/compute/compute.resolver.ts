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
import type { Viewer } from '../auth/viewer';
import type { LeaseChanged } from '../../pubsub';
import { whileAllowed } from '../../subscriptions';
import * as compute from './compute.service';
import { availableCredits, credits, creditSummary, grantCredits } from './credits.service';
import { publishLease } from './lease-events';
import {
  BootstrapInput,
  BootstrapNode,
  CreditGrantInput,
  CreditsNode,
  HeartbeatInput,
  HeartbeatNode,
  LeaseChangedEvent,
  LeaseConnection,
  LeaseNode,
  PlanInputType,
  PlanNode,
  DirectLeaseInput,
  TopUpInput,
} from './compute.types';
import { ADMIN, ANYONE, Caller, MINTS_CREDENTIAL, SIGNED_IN, callerOf } from '../../operation-rules';
import { pageInfoOf, pageOf } from '../../pagination';

const presentPlan = (plan: compute.Plan): PlanNode => ({
  planId: plan.id,
  status: plan.status,
  goal: plan.goal,
  steps: plan.steps,
  machine: plan.machine,
  estimatedMinutes: plan.estimatedMinutes,
  estimatedCredits: plan.estimatedCredits,
  spendCeilingCredits: plan.spendCeilingCredits,
  tokenCharge: plan.tokenCharge,
  draftedBy: plan.draftedBy,
  createdAt: plan.createdAt,
});

/** `available`: the owner's free credits, when the caller has them already. */
async function presentLease(ctx: Ctx, lease: compute.Lease, claimToken: string | null = null, available?: number): Promise<LeaseNode> {
  return {
    leaseId: lease.id,
    planId: lease.planId,
    goal: lease.planId === null ? null : await ctx.loaders.planGoalByPlanId.load(lease.planId),
    state: lease.state,
    provider: lease.provider,
    machine: lease.machine,
    ceilingCredits: lease.ceilingCredits,
    spentCredits: lease.spentCredits,
    balanceCredits: available ?? (await availableCredits(ctx.em, lease.userId)),
    idleExpiresAt: lease.idleExpiresAt,
    idleRefreshes: await ctx.loaders.idleRefreshesByLeaseId.load(lease.id),
    createdAt: lease.createdAt,
    releasedAt: lease.releasedAt,
    claimToken,
    bootstrapDeadline: lease.bootstrapDeadline,
    endReason: compute.endReasonOf(lease),
  };
}

const now = (ctx: Ctx) => ctx.services.clock.now();
const settings = (ctx: Ctx) => ctx.services.config.compute;

@Resolver()
export class ComputeResolver {
  @Extensions(SIGNED_IN)
  @Mutation(() => PlanNode, { description: 'Drafts a plan (charged on the token line); supersedes an undecided one.' })
  async computePlanDraft(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('input', () => PlanInputType) input: PlanInputType,
  ): Promise<PlanNode> {
    return presentPlan(await compute.draftPlan(ctx.em, ctx.services.llm, ctx.services.config.modelLimits, viewer, input, ctx.callerGone));
  }

  @Extensions(SIGNED_IN)
  @Query(() => PlanNode, { nullable: true, description: 'The caller’s plan awaiting a decision, if any.' })
  async computePlanCurrent(@Context() ctx: Ctx, @Caller() viewer: Viewer): Promise<PlanNode | null> {
    const plan = await compute.currentPlan(ctx.em, viewer);
    return plan && presentPlan(plan);
  }

  @Extensions({ ...SIGNED_IN, ...MINTS_CREDENTIAL })
  @Mutation(() => LeaseNode, { description: 'Approves a plan: reserves its ceiling and claims a lease (claim token shown once).' })
  async computePlanApprove(@Context() ctx: Ctx, @Caller() viewer: Viewer, @Arg('planId', () => Int) planId: number): Promise<LeaseNode> {
    const issued = await compute.approvePlan(ctx.em, viewer, planId, settings(ctx), now(ctx));
    return this.issued(ctx, issued);
  }

  @Extensions(SIGNED_IN)
  @Mutation(() => PlanNode, { description: 'Declines a plan; its drafting charge stands.' })
  async computePlanDecline(@Context() ctx: Ctx, @Caller() viewer: Viewer, @Arg('planId', () => Int) planId: number): Promise<PlanNode> {
    return presentPlan(await compute.declinePlan(ctx.em, viewer, planId));
  }

  @Extensions({ ...SIGNED_IN, ...MINTS_CREDENTIAL })
  @Mutation(() => LeaseNode, { description: 'A lease without a plan or ceiling (manual-provider dev flow).' })
  async computeSessionCreate(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('input', () => DirectLeaseInput) input: DirectLeaseInput,
  ): Promise<LeaseNode> {
    return this.issued(ctx, await compute.createDirectLease(ctx.em, viewer, input, settings(ctx), now(ctx)));
  }

  /** The local provider starts the sandbox runtime now; the manual one leaves that to a person. */
  private async issued(ctx: Ctx, { lease, claimToken }: compute.IssuedLease): Promise<LeaseNode> {
    if (lease.provider === 'local') ctx.services.sandboxes.launch(lease.id, claimToken);
    return presentLease(ctx, lease, claimToken);
  }

  @Extensions(SIGNED_IN)
  @Query(() => LeaseNode, { nullable: true, description: 'The caller’s newest lease that is not over.' })
  async computeSessionCurrent(@Context() ctx: Ctx, @Caller() viewer: Viewer): Promise<LeaseNode | null> {
    const lease = await compute.currentLease(ctx.em, viewer);
    return lease && presentLease(ctx, lease);
  }

  @Extensions(SIGNED_IN)
  @Query(() => LeaseNode, { description: 'One of the caller’s leases, with why it is still alive.' })
  async computeSession(@Context() ctx: Ctx, @Caller() viewer: Viewer, @Arg('leaseId', () => Int) leaseId: number): Promise<LeaseNode> {
    return presentLease(ctx, await compute.getLease(ctx.em, viewer, leaseId));
  }

  @Extensions(SIGNED_IN)
  @Query(() => LeaseConnection, { description: 'The caller’s leases that are over (released or expired), the newest ended first.' })
  async computeSessionsPast(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('first', () => Int, { nullable: true, description: 'Leases per page, 1 to 100 (default 20).' }) first: number | null,
    @Arg('after', () => String, { nullable: true, description: 'The endCursor of the page before.' }) after: string | null,
  ): Promise<LeaseConnection> {
    const page = pageOf(first, after);
    const { leases, total } = await compute.pastLeases(ctx.em, viewer, page);
    const available = await availableCredits(ctx.em, viewer.user.id);
    return {
      nodes: await Promise.all(leases.map((lease) => presentLease(ctx, lease, null, available))),
      pageInfo: pageInfoOf(page.offset, leases.length, total),
      totalCount: total,
    };
  }

  @Extensions(SIGNED_IN)
  @Mutation(() => LeaseNode, { description: 'Releases a lease; its unspent reservation returns.' })
  async computeSessionRelease(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('leaseId', () => Int) leaseId: number,
  ): Promise<LeaseNode> {
    const lease = await compute.releaseLease(ctx.em, viewer, leaseId, now(ctx));
    publishLease(ctx.services.pubsub, lease);
    return presentLease(ctx, lease);
  }

  @Extensions(SIGNED_IN)
  @Mutation(() => LeaseNode, { description: 'Raises a lease’s ceiling; a paused lease resumes.' })
  async computeSessionTopUp(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('leaseId', () => Int) leaseId: number,
    @Arg('input', () => TopUpInput) input: TopUpInput,
  ): Promise<LeaseNode> {
    const lease = await compute.topUp(ctx.em, viewer, leaseId, input.credits, settings(ctx), now(ctx));
    publishLease(ctx.services.pubsub, lease);
    return presentLease(ctx, lease);
  }

  @Extensions(ANYONE)
  @Mutation(() => BootstrapNode, { description: 'Exchanges a claim token (single use) for the sandbox’s credentials.' })
  async computeBootstrap(@Context() ctx: Ctx, @Arg('input', () => BootstrapInput) input: BootstrapInput): Promise<BootstrapNode> {
    const { lease, ...done } = await compute.bootstrap(ctx.em, input.claimToken, settings(ctx), now(ctx));
    publishLease(ctx.services.pubsub, lease);
    return { status: 'approved', ...done };
  }

  @Extensions(ANYONE)
  @Mutation(() => HeartbeatNode, { description: 'A sandbox’s heartbeat (process token as bearer or in the input).' })
  async computeHeartbeat(
    @Context() ctx: Ctx,
    @Arg('leaseId', () => Int) leaseId: number,
    @Arg('input', () => HeartbeatInput) input: HeartbeatInput,
  ): Promise<HeartbeatNode> {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(ctx.authorization ?? '')?.[1];
    const answer = await compute.heartbeat(ctx.em, leaseId, input.processToken ?? bearer, input.active, settings(ctx), now(ctx));
    const { lease } = answer;
    // A live sandbox's heartbeat is its owner's activity (a lease being told to stop is not).
    if (answer.action !== 'stop') {
      await ctx.services.activity.record(ctx.em, lease.userId, now(ctx));
      // Its live viewers see the idle clock it refreshed, and that the sandbox is alive.
      publishLease(ctx.services.pubsub, lease);
    }
    return {
      leaseId: lease.id,
      state: lease.state,
      balanceCredits: answer.balanceCredits,
      spentCredits: lease.spentCredits,
      ceilingCredits: lease.ceilingCredits,
      lowCredit: answer.lowCredit,
      idleExpiresAt: lease.idleExpiresAt,
      action: answer.action,
    };
  }

  @Extensions(SIGNED_IN)
  @Query(() => CreditsNode, { description: 'The caller’s credits and open leases.' })
  async computeCredits(@Context() ctx: Ctx, @Caller() viewer: Viewer): Promise<CreditsNode> {
    const summary = await creditSummary(ctx.em, viewer.user.id);
    const open = await compute.openLeases(ctx.em, viewer);
    const available = credits(summary.balanceCredits - summary.reservedCredits);
    return { ...summary, leases: await Promise.all(open.map((lease) => presentLease(ctx, lease, null, available))) };
  }

  @Extensions(ADMIN)
  @Mutation(() => CreditsNode, { description: 'Admin: grants credits to a user.' })
  async adminCreditGrant(
    @Context() ctx: Ctx,
    @Caller() admin: Viewer,
    @Arg('userId', () => ID) userId: string,
    @Arg('input', () => CreditGrantInput) input: CreditGrantInput,
  ): Promise<CreditsNode> {
    return { ...(await grantCredits(ctx.em, admin.user.id, userId, input)), leases: [] };
  }

  @Extensions(SIGNED_IN)
  @Subscription(() => LeaseChangedEvent, {
    description: 'State and spend changes of one of the caller’s leases (access checked for every event).',
    subscribe: async ({ args, context: ctx }: SubscribeResolverData<unknown, { leaseId: number }, Ctx>) => {
      await compute.getLease(ctx.em, await callerOf(ctx), args.leaseId);
      return whileAllowed(ctx, ctx.services.pubsub.subscribe('LEASE_CHANGED', String(args.leaseId)), (em, viewer) =>
        compute.getLease(em, viewer, args.leaseId),
      );
    },
  })
  computeLeaseChanged(@Arg('leaseId', () => Int) _leaseId: number, @Root() event: LeaseChanged): LeaseChangedEvent {
    return { ...event, idleExpiresAt: new Date(event.idleExpiresAt), at: new Date(event.at) };
  }
}
