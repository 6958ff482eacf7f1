import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlOf, withDates } from '../../db/sql';
import type { LeaseState, PlanStatus } from './compute.entity';
import type { DraftedBy, Machine, Quote, TokenCharge } from './planner';

/*
 * All SQL of plans, leases and idle-clock refreshes, and the mapping of their rows to the
 * domain's types. Every function runs in `em`'s transaction when it is in one: the services
 * choose the transactions and hold the rules.
 */

/** A drafted quote. */
export interface Plan {
  id: number;
  userId: string;
  status: PlanStatus;
  goal: string;
  steps: string[];
  machine: Machine;
  estimatedMinutes: number;
  estimatedCredits: number;
  spendCeilingCredits: number;
  tokenCharge: TokenCharge;
  /** Who wrote the steps, machine and minutes: the configured model, or the estimator (no model, or the model's answer was unusable). */
  draftedBy: DraftedBy;
  createdAt: Date;
}

/** A sandbox lease (the wire calls it a session: `/api/compute/sessions`). */
export interface Lease {
  id: number;
  userId: string;
  planId: number | null;
  state: LeaseState;
  provider: string;
  machine: Machine;
  rateCreditsPerMinute: number;
  /** Null for a lease without a plan (no ceiling). */
  ceilingCredits: number | null;
  spentCredits: number;
  idleExpiresAt: Date;
  bootstrapDeadline: Date;
  lastMeteredAt: Date;
  createdAt: Date;
  releasedAt: Date | null;
  processTokenHash: string | null;
}

/** One refresh of a lease's idle clock, with its source. */
export interface IdleRefresh {
  source: string;
  at: Date;
  idleExpiresAt: Date;
}

/** The states of a lease that is not over: each counts against `COMPUTE_MAX_OPEN_LEASES`. */
export const OPEN_LEASE_STATES = ['awaiting_sandbox', 'ready', 'paused'] as const satisfies readonly LeaseState[];
const OPEN_STATES_SQL = `(${OPEN_LEASE_STATES.map((state) => `'${state}'`).join(', ')})`;

/** A machine as its JSON column stores it. */
interface MachineJson {
  cpus: number;
  memory_gb: number;
  gpu: boolean;
  rate_credits_per_minute: number;
}

const machineJson = (m: Machine): string =>
  JSON.stringify({
    cpus: m.cpus,
    memory_gb: m.memoryGb,
    gpu: m.gpu,
    rate_credits_per_minute: m.rateCreditsPerMinute,
  } satisfies MachineJson);
const machineOfJson = (m: MachineJson): Machine => ({
  cpus: m.cpus,
  memoryGb: m.memory_gb,
  gpu: m.gpu,
  rateCreditsPerMinute: m.rate_credits_per_minute,
});

// Numeric columns are read as float8: credits carry four decimals, well within a double.
const PLAN_COLUMNS = `id, user_id, status, goal, steps, machine, estimated_minutes, estimated_credits::float8 as estimated_credits,
  spend_ceiling_credits::float8 as spend_ceiling_credits, token_charge, drafted_by, created_at`;
const LEASE_COLUMNS = `id, user_id, plan_id, state, provider, machine, rate_credits_per_minute::float8 as rate_credits_per_minute,
  ceiling_credits::float8 as ceiling_credits, spent_credits::float8 as spent_credits, idle_expires_at, bootstrap_deadline,
  last_metered_at, created_at, released_at, process_token_hash`;

interface PlanRecord {
  id: number;
  user_id: string;
  status: PlanStatus;
  goal: string;
  steps: string[];
  machine: MachineJson;
  estimated_minutes: number;
  estimated_credits: number;
  spend_ceiling_credits: number;
  token_charge: { tokens_in: number; tokens_out: number; credits: number };
  drafted_by: DraftedBy;
  created_at: Date;
}

interface LeaseRecord {
  id: number;
  user_id: string;
  plan_id: number | null;
  state: LeaseState;
  provider: string;
  machine: MachineJson;
  rate_credits_per_minute: number;
  ceiling_credits: number | null;
  spent_credits: number;
  idle_expires_at: Date;
  bootstrap_deadline: Date;
  last_metered_at: Date;
  created_at: Date;
  released_at: Date | null;
  process_token_hash: string | null;
}

function toPlan(raw: Record<string, unknown>): Plan {
  const row = withDates<PlanRecord>(raw, 'created_at');
  return {
    id: row.id,
    userId: row.user_id,
    status: row.status,
    goal: row.goal,
    steps: row.steps,
    machine: machineOfJson(row.machine),
    estimatedMinutes: row.estimated_minutes,
    estimatedCredits: row.estimated_credits,
    spendCeilingCredits: row.spend_ceiling_credits,
    tokenCharge: { tokensIn: row.token_charge.tokens_in, tokensOut: row.token_charge.tokens_out, credits: row.token_charge.credits },
    draftedBy: row.drafted_by,
    createdAt: row.created_at,
  };
}

function toLease(raw: Record<string, unknown>): Lease {
  const row = withDates<LeaseRecord>(raw, 'idle_expires_at', 'bootstrap_deadline', 'last_metered_at', 'created_at', 'released_at');
  return {
    id: row.id,
    userId: row.user_id,
    planId: row.plan_id,
    state: row.state,
    provider: row.provider,
    machine: machineOfJson(row.machine),
    rateCreditsPerMinute: row.rate_credits_per_minute,
    ceilingCredits: row.ceiling_credits,
    spentCredits: row.spent_credits,
    idleExpiresAt: row.idle_expires_at,
    bootstrapDeadline: row.bootstrap_deadline,
    lastMeteredAt: row.last_metered_at,
    createdAt: row.created_at,
    releasedAt: row.released_at,
    processTokenHash: row.process_token_hash,
  };
}

const first = <T>(rows: Record<string, unknown>[], map: (row: Record<string, unknown>) => T): T | null =>
  rows.length ? map(rows[0]) : null;

// Plans

/** Marks the user's plan awaiting a decision (if any) superseded. */
export async function supersedeUndecidedPlan(em: EntityManager, userId: string): Promise<void> {
  await sqlOf(em)(`update compute_plans set status = 'superseded', decided_at = now() where user_id = ? and status = 'awaiting_decision'`, [
    userId,
  ]);
}

export async function insertPlan(
  em: EntityManager,
  userId: string,
  plan: { goal: string; inputs: unknown[]; quote: Quote },
): Promise<Plan> {
  const { quote } = plan;
  const [row] = await sqlOf(em)(
    `insert into compute_plans (user_id, status, goal, inputs, machine, steps, estimated_minutes, estimated_credits, spend_ceiling_credits, token_charge, drafted_by)
     values (?, 'awaiting_decision', ?, ?, ?, ?, ?, ?, ?, ?, ?) returning ${PLAN_COLUMNS}`,
    [
      userId,
      plan.goal,
      JSON.stringify(plan.inputs),
      machineJson(quote.machine),
      JSON.stringify(quote.steps),
      quote.estimatedMinutes,
      quote.estimatedCredits,
      quote.spendCeilingCredits,
      JSON.stringify({
        tokens_in: quote.tokenCharge.tokensIn,
        tokens_out: quote.tokenCharge.tokensOut,
        credits: quote.tokenCharge.credits,
      }),
      quote.draftedBy,
    ],
  );
  return toPlan(row);
}

/** The user's plan awaiting a decision, or null. */
export async function findUndecidedPlan(em: EntityManager, userId: string): Promise<Plan | null> {
  return first(
    await sqlOf(em)(`select ${PLAN_COLUMNS} from compute_plans where user_id = ? and status = 'awaiting_decision'`, [userId]),
    toPlan,
  );
}

/** The user's plan, its row locked for the rest of the transaction; null when it is not theirs. */
export async function lockPlan(em: EntityManager, planId: number, userId: string): Promise<Plan | null> {
  return first(
    await sqlOf(em)(`select ${PLAN_COLUMNS} from compute_plans where id = ? and user_id = ? for update`, [planId, userId]),
    toPlan,
  );
}

export async function decidePlan(em: EntityManager, planId: number, status: 'approved' | 'declined'): Promise<Plan> {
  const [row] = await sqlOf(em)(`update compute_plans set status = ?, decided_at = now() where id = ? returning ${PLAN_COLUMNS}`, [
    status,
    planId,
  ]);
  return toPlan(row);
}

// Leases

export async function countOpenLeases(em: EntityManager, userId: string): Promise<number> {
  const [{ open }] = await sqlOf(em)<{ open: number }>(
    `select count(*)::int as open from compute_leases where user_id = ? and state in ${OPEN_STATES_SQL}`,
    [userId],
  );
  return open;
}

export interface NewLease {
  userId: string;
  planId: number | null;
  provider: string;
  machine: Machine;
  ceilingCredits: number | null;
  claimTokenHash: string;
  idleExpiresAt: Date;
  bootstrapDeadline: Date;
  createdAt: Date;
}

/** A lease awaiting its sandbox, metered from its creation. */
export async function insertLease(em: EntityManager, lease: NewLease): Promise<Lease> {
  const [row] = await sqlOf(em)(
    `insert into compute_leases (user_id, plan_id, state, provider, machine, rate_credits_per_minute, ceiling_credits, claim_token_hash,
                                 idle_expires_at, bootstrap_deadline, last_metered_at, created_at)
     values (?, ?, 'awaiting_sandbox', ?, ?, ?, ?, ?, ?, ?, ?, ?) returning ${LEASE_COLUMNS}`,
    [
      lease.userId,
      lease.planId,
      lease.provider,
      machineJson(lease.machine),
      lease.machine.rateCreditsPerMinute,
      lease.ceilingCredits,
      lease.claimTokenHash,
      lease.idleExpiresAt,
      lease.bootstrapDeadline,
      lease.createdAt,
      lease.createdAt,
    ],
  );
  return toLease(row);
}

/** The user's lease, or null (also for someone else's). */
export async function findLease(em: EntityManager, leaseId: number, userId: string): Promise<Lease | null> {
  return first(await sqlOf(em)(`select ${LEASE_COLUMNS} from compute_leases where id = ? and user_id = ?`, [leaseId, userId]), toLease);
}

/** The lease (only when it is `userId`'s, if given), its row locked for the rest of the transaction. */
export async function lockLease(em: EntityManager, leaseId: number, userId?: string): Promise<Lease | null> {
  const rows = await sqlOf(em)(
    `select ${LEASE_COLUMNS} from compute_leases where id = ?${userId ? ' and user_id = ?' : ''} for update`,
    userId ? [leaseId, userId] : [leaseId],
  );
  return first(rows, toLease);
}

/** The user's leases that are not over, newest first. */
export async function findOpenLeases(em: EntityManager, userId: string, limit?: number): Promise<Lease[]> {
  const rows = await sqlOf(em)(
    `select ${LEASE_COLUMNS} from compute_leases where user_id = ? and state in ${OPEN_STATES_SQL} order by id desc${limit ? ' limit ?' : ''}`,
    limit ? [userId, limit] : [userId],
  );
  return rows.map(toLease);
}

/** One page of the user's leases that are over (released or expired), the newest ended first; and how many there are in all. */
export async function pageOfEndedLeases(
  em: EntityManager,
  userId: string,
  page: { limit: number; offset: number },
): Promise<{ leases: Lease[]; total: number }> {
  const q = sqlOf(em);
  const rows = await q(
    `select ${LEASE_COLUMNS} from compute_leases where user_id = ? and state not in ${OPEN_STATES_SQL}
      order by released_at desc nulls last, id desc limit ? offset ?`,
    [userId, page.limit, page.offset],
  );
  const [{ total }] = await q<{ total: number }>(
    `select count(*)::int as total from compute_leases where user_id = ? and state not in ${OPEN_STATES_SQL}`,
    [userId],
  );
  return { leases: rows.map(toLease), total };
}

/**
 * Whether the lease is open, holding its row (shared) until the transaction ends: ending the
 * lease waits for it.
 */
export async function holdOpenLease(em: EntityManager, leaseId: number): Promise<boolean> {
  const rows = await sqlOf(em)(`select 1 from compute_leases where id = ? and state in ${OPEN_STATES_SQL} for share`, [leaseId]);
  return rows.length > 0;
}

/**
 * Up to `batch` open leases after `afterId` not metered up to `now`, by id, locked; leases
 * another transaction holds are skipped (SKIP LOCKED).
 */
export async function lockLeasesToMeter(em: EntityManager, afterId: number, now: Date, batch: number): Promise<Lease[]> {
  const rows = await sqlOf(em)(
    `select ${LEASE_COLUMNS} from compute_leases where state in ${OPEN_STATES_SQL} and id > ? and last_metered_at < ?
      order by id limit ? for update skip locked`,
    [afterId, now, batch],
  );
  return rows.map(toLease);
}

/** Ends a lease: its claim token stops working (the process token stays, for heartbeats to answer `stop`). */
export async function markLeaseEnded(em: EntityManager, leaseId: number, state: 'released' | 'expired', now: Date): Promise<Lease> {
  const [row] = await sqlOf(em)(
    `update compute_leases set state = ?, released_at = ?, claim_token_hash = null where id = ? returning ${LEASE_COLUMNS}`,
    [state, now, leaseId],
  );
  return toLease(row);
}

/** Raises the ceiling and resets the idle clock; a paused lease runs again, metered from `now`. */
export async function raiseCeiling(em: EntityManager, leaseId: number, raise: number, now: Date, idleExpiresAt: Date): Promise<Lease> {
  const [row] = await sqlOf(em)(
    `update compute_leases set ceiling_credits = ceiling_credits + ?, state = case when state = 'paused' then 'ready' else state end,
            last_metered_at = case when state = 'paused' then ? else last_metered_at end, idle_expires_at = ?
      where id = ? returning ${LEASE_COLUMNS}`,
    [raise, now, idleExpiresAt, leaseId],
  );
  return toLease(row);
}

/**
 * Consumes a claim token in one conditional UPDATE: the lease awaiting its sandbox, before its
 * bootstrap deadline, becomes ready with the process token. Null when no lease matched.
 */
export async function claimLease(
  em: EntityManager,
  claim: { claimTokenHash: string; processTokenHash: string; now: Date; idleExpiresAt: Date },
): Promise<Lease | null> {
  const rows = await sqlOf(em)(
    `update compute_leases set claim_token_hash = null, process_token_hash = ?, state = 'ready', last_metered_at = ?, idle_expires_at = ?
      where claim_token_hash = ? and state = 'awaiting_sandbox' and bootstrap_deadline >= ? returning ${LEASE_COLUMNS}`,
    [claim.processTokenHash, claim.now, claim.idleExpiresAt, claim.claimTokenHash, claim.now],
  );
  return first(rows, toLease);
}

export async function setIdleExpiry(em: EntityManager, leaseId: number, idleExpiresAt: Date): Promise<Lease> {
  const [row] = await sqlOf(em)(`update compute_leases set idle_expires_at = ? where id = ? returning ${LEASE_COLUMNS}`, [
    idleExpiresAt,
    leaseId,
  ]);
  return toLease(row);
}

/** Records a meter pass over a lease: `charge` spent, metered up to `now`, in `state`. */
export async function recordMetering(
  em: EntityManager,
  leaseId: number,
  update: { charge: number; now: Date; state: 'ready' | 'paused' },
): Promise<Lease> {
  const [row] = await sqlOf(em)(
    `update compute_leases set spent_credits = spent_credits + ?, last_metered_at = ?, state = ? where id = ? returning ${LEASE_COLUMNS}`,
    [update.charge, update.now, update.state, leaseId],
  );
  return toLease(row);
}

/** A paused lease runs again, metered from `now`. */
export async function resumeLease(em: EntityManager, leaseId: number, now: Date): Promise<Lease> {
  const [row] = await sqlOf(em)(`update compute_leases set state = 'ready', last_metered_at = ? where id = ? returning ${LEASE_COLUMNS}`, [
    now,
    leaseId,
  ]);
  return toLease(row);
}

/** A lease with nothing to charge is metered up to `now` all the same. */
export async function markMetered(em: EntityManager, leaseId: number, now: Date): Promise<void> {
  await sqlOf(em)(`update compute_leases set last_metered_at = ? where id = ?`, [now, leaseId]);
}

/** The goals of plans by id, in the order of `planIds` (null for one that does not exist). */
export async function planGoals(em: EntityManager, planIds: readonly number[]): Promise<(string | null)[]> {
  const rows = await sqlOf(em)<{ id: number; goal: string }>(`select id, goal from compute_plans where id = any(?)`, [planIds]);
  const goals = new Map(rows.map((row) => [row.id, row.goal]));
  return planIds.map((id) => goals.get(id) ?? null);
}

// Idle-clock refreshes

export async function recordIdleRefresh(em: EntityManager, leaseId: number, refresh: IdleRefresh): Promise<void> {
  await sqlOf(em)(`insert into lease_idle_refreshes (lease_id, source, at, idle_expires_at) values (?, ?, ?, ?)`, [
    leaseId,
    refresh.source,
    refresh.at,
    refresh.idleExpiresAt,
  ]);
}

/** The last `limit` refreshes of each lease's idle clock, newest first, in the order of `leaseIds`. */
export async function recentIdleRefreshes(em: EntityManager, leaseIds: readonly number[], limit: number): Promise<IdleRefresh[][]> {
  const rows = await sqlOf(em)<{ lease_id: number; source: string; at: string; idle_expires_at: string }>(
    `select lease_id, source, at, idle_expires_at from (
       select r.*, row_number() over (partition by lease_id order by id desc) as n from lease_idle_refreshes r where lease_id = any(?)) x
      where n <= ? order by lease_id, n`,
    [leaseIds, limit],
  );
  return leaseIds.map((id) =>
    rows
      .filter((r) => r.lease_id === id)
      .map((r) => ({ source: r.source, at: new Date(r.at), idleExpiresAt: new Date(r.idle_expires_at) })),
  );
}
