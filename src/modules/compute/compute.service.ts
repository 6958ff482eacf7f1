import type { EntityManager } from '@mikro-orm/postgresql';
import type { ComputeProvider, Config } from '../../config';
import { Query, sqlOf, withDates } from '../../db/sql';
import { conflict, notFound, unauthenticated } from '../../errors';
import { digestsEqual, newSecret, sha256Hex } from '../../ids';
import { checks } from '../../validation';
import type { Viewer } from '../auth/auth.service';
import { mintLoginPair, revokeLeaseTokens } from '../auth/auth.service';
import { User } from '../users/user.entity';
import { availableCredits, credits, lockAccount, moveCredits, requireAvailable } from './credits.service';
import type { LeaseState } from './compute.entity';
import { draftQuote, Machine, machineOf, PlanInput } from './planner';

/** How long leases wait and idle, who may start them and how many may be open (config `compute`). */
export type ComputeSettings = Pick<Config['compute'], 'idleMinutes' | 'bootstrapMinutes' | 'provider' | 'providers' | 'maxOpenLeases'>;

/** The states of a lease that is not over: each counts against `COMPUTE_MAX_OPEN_LEASES`. */
const OPEN_STATES = `('awaiting_sandbox', 'ready', 'paused')`;
/** Below this share of the ceiling (or this many credits without one), heartbeats warn. */
const LOW_CREDIT_SHARE = 0.2;
const LOW_CREDIT_FLOOR = 1;
/** Claim tokens `ldk_ct_…`, process tokens `ldk_pt_…`: only their SHA-256 is stored. */
const CLAIM_PREFIX = 'ldk_ct_';
const PROCESS_PREFIX = 'ldk_pt_';

export interface PlanRow {
  id: number;
  user_id: string;
  status: string;
  goal: string;
  steps: string[];
  machine: Machine;
  estimated_minutes: number;
  estimated_credits: number;
  spend_ceiling_credits: number;
  token_charge: { tokens_in: number; tokens_out: number; credits: number };
  created_at: Date;
}

export interface LeaseRow {
  id: number;
  user_id: string;
  plan_id: number | null;
  state: LeaseState;
  provider: string;
  machine: Machine;
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

const PLAN_COLUMNS = `id, user_id, status, goal, steps, machine, estimated_minutes, estimated_credits::float8 as estimated_credits,
  spend_ceiling_credits::float8 as spend_ceiling_credits, token_charge, created_at`;
const LEASE_COLUMNS = `id, user_id, plan_id, state, provider, machine, rate_credits_per_minute::float8 as rate_credits_per_minute,
  ceiling_credits::float8 as ceiling_credits, spent_credits::float8 as spent_credits, idle_expires_at, bootstrap_deadline,
  last_metered_at, created_at, released_at, process_token_hash`;

const toPlan = (row: Record<string, unknown>) => withDates<PlanRow>(row, 'created_at');
const toLease = (row: Record<string, unknown>) =>
  withDates<LeaseRow>(row, 'idle_expires_at', 'bootstrap_deadline', 'last_metered_at', 'created_at', 'released_at');

const minutesLater = (now: Date, minutes: number) => new Date(now.getTime() + minutes * 60_000);

/**
 * Drafts a plan (quote) for the caller. The drafting is charged on the token line (and stands
 * when the plan is declined); a draft supersedes the caller's undecided one, so there is never
 * more than one (a partial unique index holds that even under concurrent drafts).
 * @throws VALIDATION_FAILED
 */
export async function draftPlan(em: EntityManager, viewer: Viewer, input: PlanInput): Promise<PlanRow> {
  const quote = draftQuote(input);
  return em.transactional(async (tx) => {
    const q = sqlOf(tx);
    const account = await lockAccount(q, viewer.user.id); // drafts of one user go one at a time
    await q(`update compute_plans set status = 'superseded', decided_at = now() where user_id = ? and status = 'awaiting_decision'`, [viewer.user.id]);
    const [row] = await q(
      `insert into compute_plans (user_id, status, goal, inputs, machine, steps, estimated_minutes, estimated_credits, spend_ceiling_credits, token_charge)
       values (?, 'awaiting_decision', ?, ?, ?, ?, ?, ?, ?, ?) returning ${PLAN_COLUMNS}`,
      [
        viewer.user.id,
        input.goal,
        JSON.stringify(input.inputs ?? []),
        JSON.stringify(quote.machine),
        JSON.stringify(quote.steps),
        quote.estimatedMinutes,
        quote.estimatedCredits,
        quote.spendCeilingCredits,
        JSON.stringify(quote.tokenCharge),
      ],
    );
    const plan = toPlan(row);
    await chargeTokenLine(q, viewer.user.id, plan, account.available);
    return plan;
  });
}

/**
 * The planner's work on the token line: the usage ledger gets the token counts and the credit
 * ledger the charge, as far as the `available` credits cover it (a draft is never refused for credits).
 */
async function chargeTokenLine(q: Query, userId: string, plan: PlanRow, available: number) {
  const { tokens_in, tokens_out } = plan.token_charge;
  await q(`insert into usage_entries (user_id, source, tokens_in, tokens_out) values (?, 'planner', ?, ?)`, [userId, tokens_in, tokens_out]);
  const charge = credits(Math.min(plan.token_charge.credits, available));
  await q(`update credit_accounts set tokens_in = tokens_in + ?, tokens_out = tokens_out + ?, token_credits = token_credits + ? where user_id = ?`, [
    tokens_in,
    tokens_out,
    charge,
    userId,
  ]);
  if (charge > 0) await moveCredits(q, userId, { kind: 'token_charge', credits: -charge, planId: plan.id, reason: 'plan drafting' });
}

/** The caller's plan awaiting a decision, or null. */
export async function currentPlan(em: EntityManager, viewer: Viewer): Promise<PlanRow | null> {
  const [row] = await sqlOf(em)(`select ${PLAN_COLUMNS} from compute_plans where user_id = ? and status = 'awaiting_decision'`, [viewer.user.id]);
  return row ? toPlan(row) : null;
}

/** Locks the caller's plan awaiting a decision. @throws NOT_FOUND (not theirs), CONFLICT (decided) */
async function lockUndecided(q: Query, viewer: Viewer, planId: number): Promise<PlanRow> {
  const [row] = await q(`select ${PLAN_COLUMNS} from compute_plans where id = ? and user_id = ? for update`, [planId, viewer.user.id]);
  if (!row) throw notFound('plan');
  if (row.status !== 'awaiting_decision') throw conflict(`this plan is already ${row.status}`, { status: row.status });
  return toPlan(row);
}

export interface IssuedLease {
  lease: LeaseRow;
  /** Shown once: the sandbox exchanges it at bootstrap. */
  claimToken: string;
}

/**
 * Approves a plan exactly once: its spend ceiling is reserved from the caller's credits (402
 * when they do not cover it) and frozen onto a new lease awaiting its sandbox, started by the
 * operator's `COMPUTE_PROVIDER`. At `COMPUTE_MAX_OPEN_LEASES` open leases the approval is refused (409).
 * @throws NOT_FOUND, CONFLICT, PAYMENT_REQUIRED
 */
export async function approvePlan(em: EntityManager, viewer: Viewer, planId: number, settings: ComputeSettings, now: Date): Promise<IssuedLease> {
  return em.transactional(async (tx) => {
    const q = sqlOf(tx);
    // Account first, then plan: the order drafting takes them in, so the two cannot deadlock.
    const account = await lockAccount(q, viewer.user.id);
    const plan = await lockUndecided(q, viewer, planId);
    requireAvailable(account, plan.spend_ceiling_credits);
    await requireOpenLeaseRoom(q, viewer.user.id, settings.maxOpenLeases);
    await q(`update compute_plans set status = 'approved', decided_at = now() where id = ?`, [planId]);
    const issued = await insertLease(q, viewer, { planId, provider: settings.provider, machine: plan.machine, ceiling: plan.spend_ceiling_credits }, settings, now);
    await moveCredits(q, viewer.user.id, { kind: 'reservation', credits: 0, reserved: plan.spend_ceiling_credits, leaseId: issued.lease.id, reason: 'ceiling reserved' });
    return issued;
  });
}

/** Declines a plan exactly once; its drafting charge stands. @throws NOT_FOUND, CONFLICT */
export async function declinePlan(em: EntityManager, viewer: Viewer, planId: number): Promise<PlanRow> {
  return em.transactional(async (tx) => {
    const q = sqlOf(tx);
    await lockUndecided(q, viewer, planId);
    const [row] = await q(`update compute_plans set status = 'declined', decided_at = now() where id = ? returning ${PLAN_COLUMNS}`, [planId]);
    return toPlan(row);
  });
}

/**
 * A lease without a plan and without a ceiling (the manual-provider dev flow): the budget
 * guardrail skips it, but it never spends credits the caller does not have. The caller chooses
 * among the providers the operator enabled (`COMPUTE_PROVIDERS`; unsaid: `COMPUTE_PROVIDER`):
 * `local` starts a process on the server, so a request never enables it by itself.
 * @throws VALIDATION_FAILED, PAYMENT_REQUIRED, CONFLICT (at `COMPUTE_MAX_OPEN_LEASES` open leases)
 */
export async function createDirectLease(em: EntityManager, viewer: Viewer, input: { provider?: string | null; machine?: PlanInput['machine'] }, settings: ComputeSettings, now: Date): Promise<IssuedLease> {
  const enabled = settings.providers as readonly string[];
  const c = checks();
  if (input.provider != null && !enabled.includes(input.provider)) {
    c.add(['input', 'provider'], `must be one of ${enabled.join(', ')} (the providers this server enables)`, 'enum');
  }
  c.done();
  const provider = (input.provider ?? settings.provider) as ComputeProvider;
  const machine = machineOf(input.machine, ['input', 'machine']);
  return em.transactional(async (tx) => {
    const q = sqlOf(tx);
    requireAvailable(await lockAccount(q, viewer.user.id), 0.0001);
    await requireOpenLeaseRoom(q, viewer.user.id, settings.maxOpenLeases);
    return insertLease(q, viewer, { planId: null, provider, machine, ceiling: null }, settings, now);
  });
}

/**
 * Refuses a new lease once the user holds `max` open ones. The caller holds the user's credit
 * account row locked (every lease is created under it), so concurrent requests count one at a time.
 * @throws CONFLICT
 */
async function requireOpenLeaseRoom(q: Query, userId: string, max: number) {
  const [{ open }] = await q<{ open: number }>(`select count(*)::int as open from compute_leases where user_id = ? and state in ${OPEN_STATES}`, [userId]);
  if (open >= max) {
    throw conflict(`you have ${open} open compute sessions, the most this server allows; release one first`, { open_leases: open, max_open_leases: max });
  }
}

async function insertLease(
  q: Query,
  viewer: Viewer,
  lease: { planId: number | null; provider: ComputeProvider; machine: Machine; ceiling: number | null },
  settings: ComputeSettings,
  now: Date,
): Promise<IssuedLease> {
  const claimToken = `${CLAIM_PREFIX}${newSecret(40)}`;
  const idleExpiresAt = minutesLater(now, settings.idleMinutes);
  const [row] = await q(
    `insert into compute_leases (user_id, plan_id, state, provider, machine, rate_credits_per_minute, ceiling_credits, claim_token_hash,
                                 idle_expires_at, bootstrap_deadline, last_metered_at, created_at)
     values (?, ?, 'awaiting_sandbox', ?, ?, ?, ?, ?, ?, ?, ?, ?) returning ${LEASE_COLUMNS}`,
    [
      viewer.user.id,
      lease.planId,
      lease.provider,
      JSON.stringify(lease.machine),
      lease.machine.rate_credits_per_minute,
      lease.ceiling,
      sha256Hex(claimToken),
      idleExpiresAt,
      minutesLater(now, settings.bootstrapMinutes),
      now,
      now,
    ],
  );
  const issued = toLease(row);
  await recordIdleRefresh(q, issued.id, lease.planId === null ? 'session' : 'approve', now, idleExpiresAt);
  return { lease: issued, claimToken };
}

async function recordIdleRefresh(q: Query, leaseId: number, source: string, at: Date, idleExpiresAt: Date) {
  await q(`insert into lease_idle_refreshes (lease_id, source, at, idle_expires_at) values (?, ?, ?, ?)`, [leaseId, source, at, idleExpiresAt]);
}

/** The caller's lease. @throws NOT_FOUND (also for someone else's) */
export async function getLease(em: EntityManager, viewer: Viewer, leaseId: number): Promise<LeaseRow> {
  const [row] = await sqlOf(em)(`select ${LEASE_COLUMNS} from compute_leases where id = ? and user_id = ?`, [leaseId, viewer.user.id]);
  if (!row) throw notFound('session');
  return toLease(row);
}

/** The caller's newest lease that is not over (released or expired), or null. */
export async function currentLease(em: EntityManager, viewer: Viewer): Promise<LeaseRow | null> {
  const [row] = await sqlOf(em)(
    `select ${LEASE_COLUMNS} from compute_leases where user_id = ? and state in ${OPEN_STATES} order by id desc limit 1`,
    [viewer.user.id],
  );
  return row ? toLease(row) : null;
}

/** The caller's leases that are not over, newest first. */
export async function openLeases(em: EntityManager, viewer: Viewer): Promise<LeaseRow[]> {
  const rows = await sqlOf(em)(
    `select ${LEASE_COLUMNS} from compute_leases where user_id = ? and state in ${OPEN_STATES} order by id desc`,
    [viewer.user.id],
  );
  return rows.map(toLease);
}

/** The last `limit` refreshes of each lease's idle clock, newest first: why it is still alive. */
export async function idleRefreshes(em: EntityManager, leaseIds: readonly number[], limit = 10) {
  const rows = await sqlOf(em)<{ lease_id: number; source: string; at: string; idle_expires_at: string }>(
    `select lease_id, source, at, idle_expires_at from (
       select r.*, row_number() over (partition by lease_id order by id desc) as n from lease_idle_refreshes r where lease_id = any(?)) x
      where n <= ? order by lease_id, n`,
    [leaseIds, limit],
  );
  return leaseIds.map((id) =>
    rows.filter((r) => r.lease_id === id).map((r) => ({ source: r.source, at: new Date(r.at), idleExpiresAt: new Date(r.idle_expires_at) })),
  );
}

async function lockLease(q: Query, leaseId: number, userId?: string): Promise<LeaseRow> {
  const [row] = await q(`select ${LEASE_COLUMNS} from compute_leases where id = ?${userId ? ' and user_id = ?' : ''} for update`, userId ? [leaseId, userId] : [leaseId]);
  if (!row) throw notFound('session');
  return toLease(row);
}

const isOver = (state: LeaseState) => state === 'released' || state === 'expired';

/** Ends a lease (idempotent): its unspent reservation goes back to the caller's credits. */
export async function releaseLease(em: EntityManager, viewer: Viewer, leaseId: number, now: Date): Promise<LeaseRow> {
  return em.transactional(async (tx) => {
    const q = sqlOf(tx);
    const found = await lockLease(q, leaseId, viewer.user.id);
    if (isOver(found.state)) return found;
    // The time run since the last meter pass is charged before the lease ends.
    await lockAccount(q, found.user_id);
    const report: MeterReport = { charged: 0, paused: 0, expired: 0, changed: [] };
    await meterLease(q, found, now, report);
    const lease = await lockLease(q, leaseId);
    return isOver(lease.state) ? lease : endLease(q, lease, 'released', now);
  });
}

/**
 * Moves a lease to `state` (released/expired), returning its unspent reservation and revoking
 * its sandbox's logins. Every end of a lease goes through here.
 */
async function endLease(q: Query, lease: LeaseRow, state: 'released' | 'expired', now: Date): Promise<LeaseRow> {
  await revokeLeaseTokens(q, lease.id);
  const [row] = await q(
    // The process token stays valid for heartbeats, which then answer `stop`.
    `update compute_leases set state = ?, released_at = ?, claim_token_hash = null where id = ? returning ${LEASE_COLUMNS}`,
    [state, now, lease.id],
  );
  const unspent = lease.ceiling_credits === null ? 0 : credits(lease.ceiling_credits - lease.spent_credits);
  if (unspent > 0) await moveCredits(q, lease.user_id, { kind: 'reservation', credits: 0, reserved: -unspent, leaseId: lease.id, reason: `${state}: reservation returned` });
  return toLease(row);
}

/**
 * Raises a lease's ceiling by `credits` (reserved from the caller's credits, 402 when they do not
 * cover it); a paused lease resumes. A lease without a ceiling has nothing to raise (409).
 * @throws VALIDATION_FAILED, NOT_FOUND, CONFLICT, PAYMENT_REQUIRED
 */
export async function topUp(em: EntityManager, viewer: Viewer, leaseId: number, amount: number, settings: ComputeSettings, now: Date): Promise<LeaseRow> {
  checks().int(['input', 'credits'], amount, { min: 0.0001, max: 1_000_000 }).done();
  const raise = credits(amount);
  return em.transactional(async (tx) => {
    const q = sqlOf(tx);
    const lease = await lockLease(q, leaseId, viewer.user.id);
    if (isOver(lease.state)) throw conflict(`this session is ${lease.state}`);
    if (lease.ceiling_credits === null) throw conflict('this session has no spend ceiling to raise');
    requireAvailable(await lockAccount(q, viewer.user.id), raise);
    await moveCredits(q, viewer.user.id, { kind: 'reservation', credits: 0, reserved: raise, leaseId, reason: 'top-up reserved' });
    const idleExpiresAt = minutesLater(now, settings.idleMinutes);
    // The meter does not charge paused time: a resumed lease is metered from now.
    const [row] = await q(
      `update compute_leases set ceiling_credits = ceiling_credits + ?, state = case when state = 'paused' then 'ready' else state end,
              last_metered_at = case when state = 'paused' then ? else last_metered_at end, idle_expires_at = ?
        where id = ? returning ${LEASE_COLUMNS}`,
      [raise, now, idleExpiresAt, leaseId],
    );
    await recordIdleRefresh(q, leaseId, 'topup', now, idleExpiresAt);
    return toLease(row);
  });
}

export interface Bootstrapped {
  lease: LeaseRow;
  leaseId: number;
  processToken: string;
  accessToken: string;
  refreshToken: string;
  tokenType: 'bearer';
  expiresIn: number;
}

/**
 * Exchanges a claim token, once. One conditional UPDATE consumes it, so a replay or a
 * concurrent second attempt finds nothing; unknown, used and released tokens are refused alike.
 * @throws UNAUTHENTICATED
 */
export async function bootstrap(em: EntityManager, claimToken: string, settings: ComputeSettings, now: Date): Promise<Bootstrapped> {
  const refused = () => unauthenticated('invalid or used claim token');
  if (typeof claimToken !== 'string' || !claimToken.startsWith(CLAIM_PREFIX) || claimToken.length > 200) throw refused();
  const processToken = `${PROCESS_PREFIX}${newSecret(40)}`;
  return em.transactional(async (tx) => {
    const q = sqlOf(tx);
    const idleExpiresAt = minutesLater(now, settings.idleMinutes);
    const [row] = await q(
      `update compute_leases set claim_token_hash = null, process_token_hash = ?, state = 'ready', last_metered_at = ?, idle_expires_at = ?
        where claim_token_hash = ? and state = 'awaiting_sandbox' and bootstrap_deadline >= ? returning ${LEASE_COLUMNS}`,
      [sha256Hex(processToken), now, idleExpiresAt, sha256Hex(claimToken), now],
    );
    if (!row) throw refused();
    const lease = toLease(row);
    await recordIdleRefresh(q, lease.id, 'bootstrap', now, idleExpiresAt);
    const user = await tx.findOneOrFail(User, { id: lease.user_id });
    if (user.disabled) throw refused();
    // The sandbox's login is bound to the lease: it ends with it (endLease) and is no admin (token.policy).
    const pair = mintLoginPair(tx, user, `lease_${lease.id}_${newSecret(8)}`, lease.id);
    await tx.flush();
    return { lease, leaseId: lease.id, processToken, ...pair };
  });
}

export type HeartbeatAction = 'continue' | 'checkpoint_and_pause' | 'stop';

export interface HeartbeatAnswer {
  lease: LeaseRow;
  balanceCredits: number;
  lowCredit: boolean;
  action: HeartbeatAction;
}

/**
 * A sandbox's heartbeat. The process token authorizes only its own lease (401 for anything else,
 * without saying whether the lease exists). `active` refreshes the idle clock of a running lease.
 * @throws UNAUTHENTICATED
 */
export async function heartbeat(em: EntityManager, leaseId: number, processToken: string | undefined, active: boolean, settings: ComputeSettings, now: Date): Promise<HeartbeatAnswer> {
  const refused = () => unauthenticated('invalid process token for this session');
  if (!processToken || !processToken.startsWith(PROCESS_PREFIX)) throw refused();
  return em.transactional(async (tx) => {
    const q = sqlOf(tx);
    const [found] = await q(`select ${LEASE_COLUMNS} from compute_leases where id = ? for update`, [leaseId]);
    const lease = found && toLease(found);
    if (!lease || !lease.process_token_hash || !digestsEqual(lease.process_token_hash, sha256Hex(processToken))) throw refused();
    let current = lease;
    const available = await availableCredits(q, lease.user_id);
    // Past its idle deadline a lease is over even before the meter records it: no revival.
    if (lease.state === 'ready' && lease.idle_expires_at <= now) return answerFor({ ...lease, state: 'expired' }, available);
    if (active && lease.state === 'ready') {
      const idleExpiresAt = minutesLater(now, settings.idleMinutes);
      const [row] = await q(`update compute_leases set idle_expires_at = ? where id = ? returning ${LEASE_COLUMNS}`, [idleExpiresAt, leaseId]);
      current = toLease(row);
      await recordIdleRefresh(q, leaseId, 'heartbeat', now, idleExpiresAt);
    }
    return answerFor(current, available);
  });
}

function answerFor(lease: LeaseRow, available: number): HeartbeatAnswer {
  const left = lease.ceiling_credits === null ? available : credits(lease.ceiling_credits - lease.spent_credits);
  const lowCredit = lease.ceiling_credits === null ? left < LOW_CREDIT_FLOOR : left < Math.max(LOW_CREDIT_FLOOR, lease.ceiling_credits * LOW_CREDIT_SHARE);
  const action: HeartbeatAction = lease.state === 'paused' ? 'checkpoint_and_pause' : lease.state === 'ready' ? 'continue' : 'stop';
  return { lease, balanceCredits: available, lowCredit, action };
}

export interface MeterReport {
  charged: number;
  paused: number;
  expired: number;
  /** Leases whose state or spend moved, as they are now (for live viewers). */
  changed: LeaseRow[];
}

/**
 * One meter pass at time `now`, safe to run on several instances at once: each lease is taken
 * with SKIP LOCKED and metered from its own `last_metered_at`, so a period is charged once.
 * Running leases pay their machine rate, capped at the ceiling (then they pause) or, without
 * one, at the credits left; leases idle past their clock or never bootstrapped expire.
 */
export async function meterOnce(em: EntityManager, now: Date, batch = 100): Promise<MeterReport> {
  const report: MeterReport = { charged: 0, paused: 0, expired: 0, changed: [] };
  let after = 0;
  for (;;) {
    const done = await em.transactional(async (tx) => {
      const q = sqlOf(tx);
      const leases = (
        await q(
          `select ${LEASE_COLUMNS} from compute_leases where state in ${OPEN_STATES} and id > ? and last_metered_at < ?
            order by id limit ? for update skip locked`,
          [after, now, batch],
        )
      ).map(toLease);
      // Owners' accounts in one order (by user) before any charge: two passes cannot deadlock.
      const owners = [...new Set(leases.map((lease) => lease.user_id))].sort();
      await q(`select 1 from credit_accounts where user_id = any(?) order by user_id for update`, [owners]);
      for (const lease of leases) await meterLease(q, lease, now, report);
      if (leases.length) after = leases[leases.length - 1].id;
      return leases.length < batch;
    });
    if (done) return report;
  }
}

async function meterLease(q: Query, metered: LeaseRow, now: Date, report: MeterReport) {
  let lease = metered;
  if (lease.state === 'awaiting_sandbox') {
    if (now > lease.bootstrap_deadline) {
      report.changed.push(await endLease(q, lease, 'expired', now));
      report.expired++;
    }
    return;
  }
  // Running time is charged up to the idle deadline at most: an idle lease stops costing then.
  const until = lease.idle_expires_at < now ? lease.idle_expires_at : now;
  if (lease.state === 'ready' && until > lease.last_metered_at) {
    const due = credits(((until.getTime() - lease.last_metered_at.getTime()) / 60_000) * lease.rate_credits_per_minute);
    const account = await lockAccount(q, lease.user_id);
    const cap = lease.ceiling_credits === null ? account.available : credits(lease.ceiling_credits - lease.spent_credits);
    const charge = Math.min(due, cap);
    const exhausted = due >= cap;
    if (charge > 0) {
      // A ceiling lease spends its own reservation; a lease without one spends free credits.
      await moveCredits(q, lease.user_id, { kind: 'lease_spend', credits: -charge, reserved: lease.ceiling_credits === null ? 0 : -charge, leaseId: lease.id, reason: 'metered' });
      report.charged++;
    }
    const [row] = await q(`update compute_leases set spent_credits = spent_credits + ?, last_metered_at = ?, state = ? where id = ? returning ${LEASE_COLUMNS}`, [
      charge,
      now,
      exhausted ? 'paused' : 'ready',
      lease.id,
    ]);
    lease = toLease(row);
    if (charge > 0 || exhausted) report.changed.push(lease);
    if (exhausted) report.paused++;
  } else if (lease.state === 'paused' && lease.ceiling_credits === null && (await lockAccount(q, lease.user_id)).available > 0) {
    // A lease without a ceiling paused only for want of credits: a grant lets it run again.
    const [row] = await q(`update compute_leases set state = 'ready', last_metered_at = ? where id = ? returning ${LEASE_COLUMNS}`, [now, lease.id]);
    lease = toLease(row);
    report.changed.push(lease);
  } else {
    await q(`update compute_leases set last_metered_at = ? where id = ?`, [now, lease.id]);
  }
  // Only running leases idle out; a paused one waits for a top-up or a release (never killed).
  if (metered.state === 'ready' && lease.state === 'ready' && lease.idle_expires_at <= now) {
    report.changed.push(await endLease(q, lease, 'expired', now));
    report.expired++;
  }
}
