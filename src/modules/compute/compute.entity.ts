import { Check, Entity, Enum, Index, ManyToOne, Opt, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { User } from '../users/user.entity';

// Schema only: these entities drive the migrations; the domain reads and writes through
// compute.repository.ts and credits.repository.ts, whose types (`Plan`, `Lease`) are its model.

export const PLAN_STATUSES = ['awaiting_decision', 'approved', 'declined', 'superseded'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];
export const LEASE_STATES = ['awaiting_sandbox', 'ready', 'paused', 'released', 'expired'] as const;
export type LeaseState = (typeof LEASE_STATES)[number];
export const CREDIT_ENTRY_KINDS = ['allowance', 'grant', 'reservation', 'lease_spend', 'token_charge'] as const;

/** A user's credits: `balance` and the part of it `reserved` by lease ceilings, moved with every ledger entry. */
@Entity({ tableName: 'credit_accounts' })
@Check({ name: 'credit_accounts_check', expression: '(balance >= (0)::numeric) and (reserved >= (0)::numeric) and (reserved <= balance)' })
export class CreditAccount {
  @ManyToOne(() => User, { primary: true, deleteRule: 'cascade' })
  user!: User;

  @Property({ type: 'decimal', precision: 14, scale: 4, default: 0 })
  balance: string & Opt = '0';

  @Property({ type: 'decimal', precision: 14, scale: 4, default: 0 })
  reserved: string & Opt = '0';
}

/** Every credit movement, append-only: allowances, grants, lease spend, token charges. */
@Entity({ tableName: 'credit_entries' })
@Index({ properties: ['user', 'id'] })
/** The token line sums a user's `token_charge` entries. */
@Index({ properties: ['user', 'kind'] })
export class CreditEntry {
  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  @Enum({ items: [...CREDIT_ENTRY_KINDS] })
  kind!: (typeof CREDIT_ENTRY_KINDS)[number];

  /** Signed: positive adds to the balance. */
  @Property({ type: 'decimal', precision: 14, scale: 4 })
  credits!: string;

  /** Signed change of the reserved part of the balance (ceilings reserved, spent or returned). */
  @Property({ type: 'decimal', precision: 14, scale: 4, default: 0 })
  reserved: string & Opt = '0';

  @Property({ type: 'integer', nullable: true })
  leaseId: number | null = null;

  @Property({ type: 'integer', nullable: true })
  planId: number | null = null;

  @Property({ type: 'text', nullable: true })
  reason: string | null = null;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date & Opt = new Date();
}

/** A drafted quote; a user has at most one awaiting a decision (partial unique index). */
@Entity({ tableName: 'compute_plans' })
@Index({
  name: 'compute_plans_one_undecided',
  expression: `create unique index "compute_plans_one_undecided" on "compute_plans" ("user_id") where (status = 'awaiting_decision'::text)`,
})
export class ComputePlan {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  @Enum({ items: [...PLAN_STATUSES] })
  status!: PlanStatus;

  @Property({ type: 'text' })
  goal!: string;

  @Property({ type: 'json' })
  inputs!: unknown[];

  @Property({ type: 'json' })
  machine!: Record<string, unknown>;

  @Property({ type: 'json' })
  steps!: string[];

  @Property({ type: 'integer' })
  estimatedMinutes!: number;

  @Property({ type: 'decimal', precision: 14, scale: 4 })
  estimatedCredits!: string;

  @Property({ type: 'decimal', precision: 14, scale: 4 })
  spendCeilingCredits!: string;

  @Property({ type: 'json' })
  tokenCharge!: Record<string, number>;

  /** `model` (the configured language model drafted it) or `estimator` (the deterministic estimator did). */
  @Enum({ items: ['model', 'estimator'], default: 'estimator' })
  draftedBy: string & Opt = 'estimator';

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'datetime', nullable: true })
  decidedAt: Date | null = null;
}

/** A sandbox lease. The claim and process tokens are stored only as SHA-256 digests. */
@Entity({ tableName: 'compute_leases' })
@Index({ properties: ['user', 'state'] })
@Index({ properties: ['state', 'lastMeteredAt'] })
@Check({
  name: 'compute_leases_spend_check',
  expression: '(spent_credits >= (0)::numeric) and ((ceiling_credits is null) or (spent_credits <= ceiling_credits))',
})
export class ComputeLease {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  @Property({ type: 'integer', nullable: true })
  planId: number | null = null;

  @Enum({ items: [...LEASE_STATES] })
  state!: LeaseState;

  @Property({ type: 'text' })
  provider!: string;

  @Property({ type: 'json' })
  machine!: Record<string, unknown>;

  @Property({ type: 'decimal', precision: 14, scale: 4 })
  rateCreditsPerMinute!: string;

  /** Null for a lease without a plan (no ceiling). */
  @Property({ type: 'decimal', precision: 14, scale: 4, nullable: true })
  ceilingCredits: string | null = null;

  @Property({ type: 'decimal', precision: 14, scale: 4, default: 0 })
  spentCredits: string & Opt = '0';

  @Unique({ name: 'compute_leases_claim_token_hash_index' })
  @Property({ type: 'text', nullable: true })
  claimTokenHash: string | null = null;

  @Property({ type: 'text', nullable: true })
  processTokenHash: string | null = null;

  @Property({ type: 'datetime' })
  idleExpiresAt!: Date;

  /** Until when a lease awaiting its sandbox may wait for the bootstrap. */
  @Property({ type: 'datetime' })
  bootstrapDeadline!: Date;

  /** Metered up to here. */
  @Property({ type: 'datetime' })
  lastMeteredAt!: Date;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'datetime', nullable: true })
  releasedAt: Date | null = null;
}

/** Why a lease is still alive: every refresh of its idle clock, with its source. */
@Entity({ tableName: 'lease_idle_refreshes' })
@Index({ properties: ['lease', 'at'] })
export class LeaseIdleRefresh {
  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  @ManyToOne(() => ComputeLease, { deleteRule: 'cascade' })
  lease!: ComputeLease;

  /** approve, session, bootstrap, heartbeat, topup */
  @Property({ type: 'text' })
  source!: string;

  @Property({ type: 'datetime' })
  at!: Date;

  @Property({ type: 'datetime' })
  idleExpiresAt!: Date;
}
