import { Field, Float, InputType, Int, ObjectType } from 'type-graphql';
import { PageInfo } from '../../pagination';

@ObjectType({ description: 'A sandbox machine.' })
export class MachineNode {
  @Field(() => Int)
  cpus!: number;

  @Field(() => Int)
  memoryGb!: number;

  @Field()
  gpu!: boolean;

  @Field(() => Float)
  rateCreditsPerMinute!: number;
}

@ObjectType()
export class TokenChargeNode {
  @Field(() => Float)
  tokensIn!: number;

  @Field(() => Float)
  tokensOut!: number;

  @Field(() => Float)
  credits!: number;
}

@ObjectType({ description: 'A drafted quote awaiting the user’s decision.' })
export class PlanNode {
  @Field(() => Int)
  planId!: number;

  @Field({ description: 'awaiting_decision, approved, declined or superseded.' })
  status!: string;

  @Field()
  goal!: string;

  @Field(() => [String])
  steps!: string[];

  @Field(() => MachineNode)
  machine!: MachineNode;

  @Field(() => Int)
  estimatedMinutes!: number;

  @Field(() => Float)
  estimatedCredits!: number;

  @Field(() => Float)
  spendCeilingCredits!: number;

  @Field(() => TokenChargeNode, {
    description:
      'What drafting took: the model call’s tokens as the provider reported them, or the estimator’s nominal tokens, and their credits.',
  })
  tokenCharge!: TokenChargeNode;

  @Field({
    description:
      '`model` (the configured language model drafted the steps, machine and minutes) or `estimator` (no model is configured, or its answer was malformed or out of bounds).',
  })
  draftedBy!: string;

  @Field()
  createdAt!: Date;
}

@ObjectType({ description: 'One refresh of a lease’s idle clock: why it is still alive.' })
export class IdleRefreshNode {
  @Field({ description: 'approve, session, bootstrap, heartbeat or topup.' })
  source!: string;

  @Field()
  at!: Date;

  @Field()
  idleExpiresAt!: Date;
}

@ObjectType({ description: 'A sandbox lease.' })
export class LeaseNode {
  @Field(() => Int)
  leaseId!: number;

  @Field(() => Int, { nullable: true })
  planId!: number | null;

  @Field(() => String, {
    nullable: true,
    description: 'What the lease is for: the goal of the plan it was approved for; null for a direct session.',
  })
  goal!: string | null;

  @Field({ description: 'awaiting_sandbox, ready, paused, released or expired.' })
  state!: string;

  @Field()
  provider!: string;

  @Field(() => MachineNode)
  machine!: MachineNode;

  @Field(() => Float, { nullable: true, description: 'Null for a direct session.' })
  ceilingCredits!: number | null;

  @Field(() => Float)
  spentCredits!: number;

  @Field(() => Float, { description: 'The owner’s credits not reserved by ceilings.' })
  balanceCredits!: number;

  @Field()
  idleExpiresAt!: Date;

  @Field(() => [IdleRefreshNode], { description: 'The last refreshes of the idle clock, newest first.' })
  idleRefreshes!: IdleRefreshNode[];

  @Field()
  createdAt!: Date;

  @Field(() => Date, { nullable: true })
  releasedAt!: Date | null;

  @Field(() => String, { nullable: true, description: 'Only in the answer that creates the lease: the sandbox’s single-use credential.' })
  claimToken!: string | null;

  @Field({ description: 'Until when a sandbox may claim the lease (while it awaits one); unclaimed by then, it expires.' })
  bootstrapDeadline!: Date;

  @Field(() => String, {
    nullable: true,
    description:
      'Why the lease is over; null while it is open. `released` (its owner released it), `unclaimed` (no sandbox claimed it before its bootstrap deadline) or `idle` (its sandbox did not report activity before its idle clock ran out).',
  })
  endReason!: string | null;
}

@ObjectType({ description: 'A page of leases.' })
export class LeaseConnection {
  @Field(() => [LeaseNode])
  nodes!: LeaseNode[];

  @Field(() => PageInfo, { description: 'Where this page ends.' })
  pageInfo!: PageInfo;

  @Field(() => Int, { description: 'How many leases there are in all.' })
  totalCount!: number;
}

@ObjectType({ description: 'What a sandbox learns from its heartbeat.' })
export class HeartbeatNode {
  @Field(() => Int)
  leaseId!: number;

  @Field()
  state!: string;

  @Field(() => Float)
  balanceCredits!: number;

  @Field(() => Float)
  spentCredits!: number;

  @Field(() => Float, { nullable: true })
  ceilingCredits!: number | null;

  @Field()
  lowCredit!: boolean;

  @Field()
  idleExpiresAt!: Date;

  @Field({ description: 'continue, checkpoint_and_pause or stop.' })
  action!: string;
}

@ObjectType({ description: 'The bootstrap answer: the CLI login form plus the lease and its process token.' })
export class BootstrapNode {
  @Field()
  status!: string;

  @Field()
  accessToken!: string;

  @Field()
  refreshToken!: string;

  @Field()
  tokenType!: string;

  @Field(() => Int)
  expiresIn!: number;

  @Field(() => Int)
  leaseId!: number;

  @Field()
  processToken!: string;
}

@ObjectType({ description: 'The caller’s credits.' })
export class CreditsNode {
  @Field(() => Float)
  balanceCredits!: number;

  @Field(() => Float)
  reservedCredits!: number;

  @Field(() => TokenChargeNode, {
    description:
      'What drafting plans cost, from the ledgers: the tokens of every drafting (model calls, or the estimator’s nominal counts) and the credits debited for them.',
  })
  tokenLine!: TokenChargeNode;

  @Field(() => [LeaseNode], { description: 'Leases that are not over.' })
  leases!: LeaseNode[];
}

@InputType()
export class MachineInput {
  @Field(() => Int, { nullable: true })
  cpus?: number | null;

  @Field(() => Int, { nullable: true })
  memoryGb?: number | null;

  @Field(() => Boolean, { nullable: true })
  gpu?: boolean | null;
}

@InputType()
export class PlanInputFile {
  @Field()
  name!: string;

  @Field(() => Float)
  bytes!: number;
}

@InputType({ description: 'What to plan.' })
export class PlanInputType {
  @Field()
  goal!: string;

  @Field(() => [PlanInputFile], { nullable: true })
  inputs?: PlanInputFile[] | null;

  @Field(() => MachineInput, { nullable: true })
  machine?: MachineInput | null;
}

/** A lease without a plan; the schema keeps the spec's name for it (a "session"). */
@InputType('SessionInput')
export class DirectLeaseInput {
  @Field(() => String, {
    nullable: true,
    description: 'One of the providers the server enables (COMPUTE_PROVIDERS: manual, local); default: the server’s COMPUTE_PROVIDER.',
  })
  provider?: string | null;

  @Field(() => MachineInput, { nullable: true })
  machine?: MachineInput | null;
}

@InputType()
export class TopUpInput {
  @Field(() => Float)
  credits!: number;
}

@InputType()
export class BootstrapInput {
  @Field()
  claimToken!: string;
}

@InputType()
export class HeartbeatInput {
  @Field()
  active!: boolean;

  @Field(() => String, { nullable: true, description: 'Or as the bearer token.' })
  processToken?: string | null;
}

@InputType()
export class CreditGrantInput {
  @Field(() => Float)
  credits!: number;

  @Field(() => String, { nullable: true })
  reason?: string | null;
}

@ObjectType({
  description: 'A lease as it is after a change: a state change, a meter pass that charged it, a top-up, or a heartbeat of its sandbox.',
})
export class LeaseChangedEvent {
  @Field(() => Int)
  leaseId!: number;

  @Field({ description: 'awaiting_sandbox, ready, paused, released or expired.' })
  state!: string;

  @Field(() => Float)
  spentCredits!: number;

  @Field(() => Float, { nullable: true })
  ceilingCredits!: number | null;

  @Field({ description: 'When the lease idles out unless its sandbox says it is active.' })
  idleExpiresAt!: Date;

  @Field({ description: 'When the change happened.' })
  at!: Date;
}
