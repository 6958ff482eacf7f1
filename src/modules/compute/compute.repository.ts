import type { EntityManager } from '@mikro-orm/postgresql';
import { type Selection, sql } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/database';
import { dateOf, sqlOf } from '../../db/sql';
import { condition, db, firstRowOf, float8Column, fragment, rowsOf } from '../../db/typed-sql';
import { LEASE_STATES, type LeaseState, PLAN_STATUSES, type PlanStatus } from './compute.entity';
import { DRAFTERS, type DraftedBy, type Machine, type Quote, type TokenCharge } from './planner';

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

/** A machine as its JSON column stores it (checked when read back). */
const MACHINE_JSON = z.object({ cpus: z.number(), memory_gb: z.number(), gpu: z.boolean(), rate_credits_per_minute: z.number() });
type MachineJson = z.infer<typeof MACHINE_JSON>;
const STEPS_JSON = z.array(z.string());
const TOKEN_CHARGE_JSON = z.object({ tokens_in: z.number(), tokens_out: z.number(), credits: z.number() });
/** The text columns a check constraint holds to these values. */
const PLAN_STATUS = z.enum(PLAN_STATUSES);
const LEASE_STATE = z.enum(LEASE_STATES);
const DRAFTED_BY = z.enum(DRAFTERS);

const machineJson = (m: Machine): string =>
  JSON.stringify({
    cpus: m.cpus,
    memory_gb: m.memoryGb,
    gpu: m.gpu,
    rate_credits_per_minute: m.rateCreditsPerMinute,
  } satisfies MachineJson);
const machineOfJson = (json: unknown): Machine => {
  const m = MACHINE_JSON.parse(json);
  return { cpus: m.cpus, memoryGb: m.memory_gb, gpu: m.gpu, rateCreditsPerMinute: m.rate_credits_per_minute };
};

// Numeric columns are read as float8: credits carry four decimals, well within a double.
const PLAN_COLUMNS = [
  'id',
  'user_id',
  'status',
  'goal',
  'steps',
  'machine',
  'estimated_minutes',
  float8Column('compute_plans', 'estimated_credits'),
  float8Column('compute_plans', 'spend_ceiling_credits'),
  'token_charge',
  'drafted_by',
  'created_at',
] as const;
const LEASE_COLUMNS = [
  'id',
  'user_id',
  'plan_id',
  'state',
  'provider',
  'machine',
  float8Column('compute_leases', 'rate_credits_per_minute'),
  float8Column('compute_leases', 'ceiling_credits'),
  float8Column('compute_leases', 'spent_credits'),
  'idle_expires_at',
  'bootstrap_deadline',
  'last_metered_at',
  'created_at',
  'released_at',
  'process_token_hash',
] as const;

/** Rows of `PLAN_COLUMNS` and `LEASE_COLUMNS`, as Kysely types them from the schema. */
type PlanColumns = Selection<Database, 'compute_plans', (typeof PLAN_COLUMNS)[number]>;
type LeaseColumns = Selection<Database, 'compute_leases', (typeof LEASE_COLUMNS)[number]>;

function toPlan(row: PlanColumns): Plan {
  const tokenCharge = TOKEN_CHARGE_JSON.parse(row.token_charge);
  return {
    id: row.id,
    userId: row.user_id,
    status: PLAN_STATUS.parse(row.status),
    goal: row.goal,
    steps: STEPS_JSON.parse(row.steps),
    machine: machineOfJson(row.machine),
    estimatedMinutes: row.estimated_minutes,
    estimatedCredits: row.estimated_credits,
    spendCeilingCredits: row.spend_ceiling_credits,
    tokenCharge: { tokensIn: tokenCharge.tokens_in, tokensOut: tokenCharge.tokens_out, credits: tokenCharge.credits },
    draftedBy: DRAFTED_BY.parse(row.drafted_by),
    createdAt: dateOf(row.created_at)!,
  };
}

function toLease(row: LeaseColumns): Lease {
  return {
    id: row.id,
    userId: row.user_id,
    planId: row.plan_id,
    state: LEASE_STATE.parse(row.state),
    provider: row.provider,
    machine: machineOfJson(row.machine),
    rateCreditsPerMinute: row.rate_credits_per_minute,
    ceilingCredits: row.ceiling_credits,
    spentCredits: row.spent_credits,
    idleExpiresAt: dateOf(row.idle_expires_at)!,
    bootstrapDeadline: dateOf(row.bootstrap_deadline)!,
    lastMeteredAt: dateOf(row.last_metered_at)!,
    createdAt: dateOf(row.created_at)!,
    releasedAt: dateOf(row.released_at),
    processTokenHash: row.process_token_hash,
  };
}

const first = <Row, T>(rows: Row[], map: (row: Row) => T): T | null => (rows.length ? map(rows[0]) : null);

/** SQL: the lease is not over (`OPEN_LEASE_STATES`). */
const LEASE_OPEN = condition(`state in ${OPEN_STATES_SQL}`);

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
  const [row] = await rowsOf(
    sqlOf(em),
    db
      .insertInto('compute_plans')
      .values({
        user_id: userId,
        status: sql.lit('awaiting_decision'),
        goal: plan.goal,
        inputs: JSON.stringify(plan.inputs),
        machine: machineJson(quote.machine),
        steps: JSON.stringify(quote.steps),
        estimated_minutes: quote.estimatedMinutes,
        estimated_credits: quote.estimatedCredits,
        spend_ceiling_credits: quote.spendCeilingCredits,
        token_charge: JSON.stringify({
          tokens_in: quote.tokenCharge.tokensIn,
          tokens_out: quote.tokenCharge.tokensOut,
          credits: quote.tokenCharge.credits,
        }),
        drafted_by: quote.draftedBy,
      })
      .returning(PLAN_COLUMNS),
  );
  return toPlan(row);
}

/** The user's plan awaiting a decision, or null. */
export async function findUndecidedPlan(em: EntityManager, userId: string): Promise<Plan | null> {
  const row = await firstRowOf(
    sqlOf(em),
    db.selectFrom('compute_plans').select(PLAN_COLUMNS).where('user_id', '=', userId).where('status', '=', sql.lit('awaiting_decision')),
  );
  return row ? toPlan(row) : null;
}

/** The user's plan, its row locked for the rest of the transaction; null when it is not theirs. */
export async function lockPlan(em: EntityManager, planId: number, userId: string): Promise<Plan | null> {
  const row = await firstRowOf(
    sqlOf(em),
    db.selectFrom('compute_plans').select(PLAN_COLUMNS).where('id', '=', planId).where('user_id', '=', userId).forUpdate(),
  );
  return row ? toPlan(row) : null;
}

export async function decidePlan(em: EntityManager, planId: number, status: 'approved' | 'declined'): Promise<Plan> {
  const [row] = await rowsOf(
    sqlOf(em),
    db
      .updateTable('compute_plans')
      .set({ status, decided_at: sql<string>`now()` })
      .where('id', '=', planId)
      .returning(PLAN_COLUMNS),
  );
  return toPlan(row);
}

// Leases

export async function countOpenLeases(em: EntityManager, userId: string): Promise<number> {
  const [{ open }] = await rowsOf(
    sqlOf(em),
    db
      .selectFrom('compute_leases')
      .select(sql<number>`count(*)::int`.as('open'))
      .where('user_id', '=', userId)
      .where(LEASE_OPEN),
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
  const [row] = await rowsOf(
    sqlOf(em),
    db
      .insertInto('compute_leases')
      .values({
        user_id: lease.userId,
        plan_id: lease.planId,
        state: sql.lit('awaiting_sandbox'),
        provider: lease.provider,
        machine: machineJson(lease.machine),
        rate_credits_per_minute: lease.machine.rateCreditsPerMinute,
        ceiling_credits: lease.ceilingCredits,
        claim_token_hash: lease.claimTokenHash,
        idle_expires_at: lease.idleExpiresAt,
        bootstrap_deadline: lease.bootstrapDeadline,
        last_metered_at: lease.createdAt,
        created_at: lease.createdAt,
      })
      .returning(LEASE_COLUMNS),
  );
  return toLease(row);
}

/** The user's lease, or null (also for someone else's). */
export async function findLease(em: EntityManager, leaseId: number, userId: string): Promise<Lease | null> {
  const row = await firstRowOf(
    sqlOf(em),
    db.selectFrom('compute_leases').select(LEASE_COLUMNS).where('id', '=', leaseId).where('user_id', '=', userId),
  );
  return row ? toLease(row) : null;
}

/** The lease (only when it is `userId`'s, if given), its row locked for the rest of the transaction. */
export async function lockLease(em: EntityManager, leaseId: number, userId?: string): Promise<Lease | null> {
  const lease = db.selectFrom('compute_leases').select(LEASE_COLUMNS).where('id', '=', leaseId);
  const rows = await rowsOf(sqlOf(em), (userId ? lease.where('user_id', '=', userId) : lease).forUpdate());
  return first(rows, toLease);
}

/** The user's leases that are not over, newest first. */
export async function findOpenLeases(em: EntityManager, userId: string, limit?: number): Promise<Lease[]> {
  const open = db.selectFrom('compute_leases').select(LEASE_COLUMNS).where('user_id', '=', userId).where(LEASE_OPEN).orderBy('id', 'desc');
  const rows = await rowsOf(sqlOf(em), limit ? open.limit(limit) : open);
  return rows.map(toLease);
}

/** One page of the user's leases that are over (released or expired), the newest ended first; and how many there are in all. */
export async function pageOfEndedLeases(
  em: EntityManager,
  userId: string,
  page: { limit: number; offset: number },
): Promise<{ leases: Lease[]; total: number }> {
  const q = sqlOf(em);
  const ended = condition(`state not in ${OPEN_STATES_SQL}`);
  const rows = await rowsOf(
    q,
    db
      .selectFrom('compute_leases')
      .select(LEASE_COLUMNS)
      .where('user_id', '=', userId)
      .where(ended)
      .orderBy(sql`released_at desc nulls last`)
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset),
  );
  const [{ total }] = await rowsOf(
    q,
    db
      .selectFrom('compute_leases')
      .select(sql<number>`count(*)::int`.as('total'))
      .where('user_id', '=', userId)
      .where(ended),
  );
  return { leases: rows.map(toLease), total };
}

/**
 * Whether the lease is open, holding its row (shared) until the transaction ends: ending the
 * lease waits for it.
 */
export async function holdOpenLease(em: EntityManager, leaseId: number): Promise<boolean> {
  const rows = await rowsOf(
    sqlOf(em),
    db.selectFrom('compute_leases').select(sql.lit(1).as('one')).where('id', '=', leaseId).where(LEASE_OPEN).forShare(),
  );
  return rows.length > 0;
}

/**
 * Up to `batch` open leases after `afterId` not metered up to `now`, by id, locked; leases
 * another transaction holds are skipped (SKIP LOCKED).
 */
export async function lockLeasesToMeter(em: EntityManager, afterId: number, now: Date, batch: number): Promise<Lease[]> {
  const rows = await rowsOf(
    sqlOf(em),
    db
      .selectFrom('compute_leases')
      .select(LEASE_COLUMNS)
      .where(LEASE_OPEN)
      .where('id', '>', afterId)
      .where(condition('last_metered_at < ?', now))
      .orderBy('id')
      .limit(batch)
      .forUpdate()
      .skipLocked(),
  );
  return rows.map(toLease);
}

/** Ends a lease: its claim token stops working (the process token stays, for heartbeats to answer `stop`). */
export async function markLeaseEnded(em: EntityManager, leaseId: number, state: 'released' | 'expired', now: Date): Promise<Lease> {
  const [row] = await rowsOf(
    sqlOf(em),
    db
      .updateTable('compute_leases')
      .set({ state, released_at: now, claim_token_hash: null })
      .where('id', '=', leaseId)
      .returning(LEASE_COLUMNS),
  );
  return toLease(row);
}

/** Raises the ceiling and resets the idle clock; a paused lease runs again, metered from `now`. */
export async function raiseCeiling(em: EntityManager, leaseId: number, raise: number, now: Date, idleExpiresAt: Date): Promise<Lease> {
  const [row] = await rowsOf(
    sqlOf(em),
    db
      .updateTable('compute_leases')
      .set({
        ceiling_credits: fragment<string>('ceiling_credits + ?', raise),
        state: sql<string>`case when state = 'paused' then 'ready' else state end`,
        last_metered_at: fragment<string>(`case when state = 'paused' then ? else last_metered_at end`, now),
        idle_expires_at: idleExpiresAt,
      })
      .where('id', '=', leaseId)
      .returning(LEASE_COLUMNS),
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
  const rows = await rowsOf(
    sqlOf(em),
    db
      .updateTable('compute_leases')
      .set({
        claim_token_hash: null,
        process_token_hash: claim.processTokenHash,
        state: sql.lit('ready'),
        last_metered_at: claim.now,
        idle_expires_at: claim.idleExpiresAt,
      })
      .where('claim_token_hash', '=', claim.claimTokenHash)
      .where('state', '=', sql.lit('awaiting_sandbox'))
      .where(condition('bootstrap_deadline >= ?', claim.now))
      .returning(LEASE_COLUMNS),
  );
  return first(rows, toLease);
}

export async function setIdleExpiry(em: EntityManager, leaseId: number, idleExpiresAt: Date): Promise<Lease> {
  const [row] = await rowsOf(
    sqlOf(em),
    db.updateTable('compute_leases').set({ idle_expires_at: idleExpiresAt }).where('id', '=', leaseId).returning(LEASE_COLUMNS),
  );
  return toLease(row);
}

/** Records a meter pass over a lease: `charge` spent, metered up to `now`, in `state`. */
export async function recordMetering(
  em: EntityManager,
  leaseId: number,
  update: { charge: number; now: Date; state: 'ready' | 'paused' },
): Promise<Lease> {
  const [row] = await rowsOf(
    sqlOf(em),
    db
      .updateTable('compute_leases')
      .set({ spent_credits: fragment<string>('spent_credits + ?', update.charge), last_metered_at: update.now, state: update.state })
      .where('id', '=', leaseId)
      .returning(LEASE_COLUMNS),
  );
  return toLease(row);
}

/** A paused lease runs again, metered from `now`. */
export async function resumeLease(em: EntityManager, leaseId: number, now: Date): Promise<Lease> {
  const [row] = await rowsOf(
    sqlOf(em),
    db
      .updateTable('compute_leases')
      .set({ state: sql.lit('ready'), last_metered_at: now })
      .where('id', '=', leaseId)
      .returning(LEASE_COLUMNS),
  );
  return toLease(row);
}

/** A lease with nothing to charge is metered up to `now` all the same. */
export async function markMetered(em: EntityManager, leaseId: number, now: Date): Promise<void> {
  await sqlOf(em)(`update compute_leases set last_metered_at = ? where id = ?`, [now, leaseId]);
}

/** The goals of plans by id, in the order of `planIds` (null for one that does not exist). */
export async function planGoals(em: EntityManager, planIds: readonly number[]): Promise<(string | null)[]> {
  const rows = await rowsOf(sqlOf(em), db.selectFrom('compute_plans').select(['id', 'goal']).where(condition('id = any(?)', planIds)));
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
  const rows = await rowsOf(
    sqlOf(em),
    db
      .selectFrom(
        db
          .selectFrom('lease_idle_refreshes as r')
          .selectAll('r')
          // A bigint: the driver answers text (compared in SQL only).
          .select(sql<string>`row_number() over (partition by lease_id order by id desc)`.as('n'))
          .where(condition('lease_id = any(?)', leaseIds))
          .as('x'),
      )
      .select(['lease_id', 'source', 'at', 'idle_expires_at'])
      .where(condition('n <= ?', limit))
      .orderBy('lease_id')
      .orderBy('n'),
  );
  return leaseIds.map((id) =>
    rows
      .filter((r) => r.lease_id === id)
      .map((r) => ({ source: r.source, at: new Date(r.at), idleExpiresAt: new Date(r.idle_expires_at) })),
  );
}
