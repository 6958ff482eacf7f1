import type { EntityManager } from '@mikro-orm/postgresql';
import type { ComputeProvider, Config, ModelLimits } from '../../config';
import { sqlOf } from '../../db/sql';
import { conflict, notFound, unauthenticated } from '../../errors';
import { digestsEqual, newSecret, sha256Hex } from '../../ids';
import { checks } from '../../validation';
import type { Viewer } from '../auth/viewer';
import { mintLoginPair } from '../auth/auth.service';
import { revokeLeaseTokens } from '../auth/token.repository';
import { User } from '../users/user.entity';
import type { LanguageModelClient } from '../../llm/language-model';
import { catalogModel } from '../catalog/catalog.service';
import { admitModelRequest } from '../usage/model-limits';
import { creditsOf, meteredCompletion } from '../usage/usage.service';
import type { LeaseState } from './compute.entity';
import * as store from './compute.repository';
import type { Lease, Plan } from './compute.repository';
import { insertEstimatorDraft, lockAccountRows, moveCredits, PLANNER_FEATURE } from './credits.repository';
import { availableCredits, credits, lockAccount, requireAvailable } from './credits.service';
import { draftQuote, Machine, machineOf, modelQuote, PlanInput, planRequest, Quote } from './planner';

export type { Lease, Plan } from './compute.repository';

/** How long leases wait and idle, who may start them and how many may be open (config `compute`). */
export type ComputeSettings = Pick<Config['compute'], 'idleMinutes' | 'bootstrapMinutes' | 'provider' | 'providers' | 'maxOpenLeases'>;

/** Below this share of the ceiling (or this many credits without one), heartbeats warn. */
const LOW_CREDIT_SHARE = 0.2;
const LOW_CREDIT_FLOOR = 1;
/** Claim tokens `ldk_ct_…`, process tokens `ldk_pt_…`: only their SHA-256 is stored. */
const CLAIM_PREFIX = 'ldk_ct_';
const PROCESS_PREFIX = 'ldk_pt_';

const minutesLater = (now: Date, minutes: number) => new Date(now.getTime() + minutes * 60_000);

/**
 * Drafts a plan (quote) for the caller. With a language model the model drafts it (steps,
 * machine, minutes), checked against the estimator's bounds: an answer that is malformed or out
 * of bounds gives the estimator's plan instead (`draftedBy` says which). Either way credits and
 * the ceiling are ours, from minutes and the machine's rate. The drafting is charged on the token
 * line: the model call's real usage at catalog prices (its ledger row in the plan's transaction),
 * or the estimator's nominal tokens without a model. The charge stands when the plan is declined.
 * A caller without free credits gets the estimator's plan: the model is called only for those
 * who can pay for it.
 * A draft supersedes the caller's undecided one, so there is never more than one (a partial
 * unique index holds that even under concurrent drafts).
 * @throws VALIDATION_FAILED; UNAVAILABLE when the model call failed (nothing drafted or charged);
 *   RATE_LIMITED beyond the caller's model limits (nothing drafted or charged)
 */
export async function draftPlan(
  em: EntityManager,
  llm: LanguageModelClient | null,
  limits: ModelLimits,
  viewer: Viewer,
  input: PlanInput,
  callerGone?: AbortSignal,
): Promise<Plan> {
  const estimate = draftQuote(input);
  if (!llm || (await availableCredits(em, viewer.user.id)) <= 0) {
    return em.transactional(async (tx) => {
      const plan = await storePlan(tx, viewer, input, estimate);
      await insertEstimatorDraft(tx, viewer.user.id, estimate.tokenCharge);
      return plan;
    });
  }
  await admitModelRequest(sqlOf(em), limits, { userId: viewer.user.id });
  const priced = await catalogModel(em, llm.model);
  const purpose = { userId: viewer.user.id, labId: null, sessionId: null, feature: PLANNER_FEATURE };
  return meteredCompletion(em, llm, priced, purpose, { ...planRequest(input, estimate), signal: callerGone }, async (tx, completion) => {
    const drafted = modelQuote(completion.text, input, estimate) ?? estimate;
    const tokenCharge = {
      tokensIn: completion.tokensIn,
      tokensOut: completion.tokensOut,
      credits: credits(creditsOf(priced, completion.tokensIn, completion.tokensOut)),
    };
    return storePlan(tx, viewer, input, { ...drafted, tokenCharge });
  });
}

/**
 * Stores a drafted quote as the caller's plan awaiting a decision and debits its token charge,
 * as far as the free credits cover it (a draft is never refused for credits).
 */
async function storePlan(tx: EntityManager, viewer: Viewer, input: PlanInput, quote: Quote): Promise<Plan> {
  const account = await lockAccount(tx, viewer.user.id); // drafts of one user go one at a time
  await store.supersedeUndecidedPlan(tx, viewer.user.id);
  const plan = await store.insertPlan(tx, viewer.user.id, { goal: input.goal, inputs: input.inputs ?? [], quote });
  const charge = credits(Math.min(plan.tokenCharge.credits, account.available));
  if (charge > 0)
    await moveCredits(tx, viewer.user.id, { kind: 'token_charge', credits: -charge, planId: plan.id, reason: 'plan drafting' });
  return plan;
}

/** The caller's plan awaiting a decision, or null. */
export async function currentPlan(em: EntityManager, viewer: Viewer): Promise<Plan | null> {
  return store.findUndecidedPlan(em, viewer.user.id);
}

/** Locks the caller's plan awaiting a decision. @throws NOT_FOUND (not theirs), CONFLICT (decided) */
async function lockUndecided(em: EntityManager, viewer: Viewer, planId: number): Promise<Plan> {
  const plan = await store.lockPlan(em, planId, viewer.user.id);
  if (!plan) throw notFound('plan');
  if (plan.status !== 'awaiting_decision') throw conflict(`this plan is already ${plan.status}`, { status: plan.status });
  return plan;
}

export interface IssuedLease {
  lease: Lease;
  /** Shown once: the sandbox exchanges it at bootstrap. */
  claimToken: string;
}

/**
 * Approves a plan exactly once: its spend ceiling is reserved from the caller's credits (402
 * when they do not cover it) and frozen onto a new lease awaiting its sandbox, started by the
 * operator's `COMPUTE_PROVIDER`. At `COMPUTE_MAX_OPEN_LEASES` open leases the approval is refused (409).
 * @throws NOT_FOUND, CONFLICT, PAYMENT_REQUIRED
 */
export async function approvePlan(
  em: EntityManager,
  viewer: Viewer,
  planId: number,
  settings: ComputeSettings,
  now: Date,
): Promise<IssuedLease> {
  return em.transactional(async (tx) => {
    // Account first, then plan: the order drafting takes them in, so the two cannot deadlock.
    const account = await lockAccount(tx, viewer.user.id);
    const plan = await lockUndecided(tx, viewer, planId);
    requireAvailable(account, plan.spendCeilingCredits);
    await requireOpenLeaseRoom(tx, viewer.user.id, settings.maxOpenLeases);
    await store.decidePlan(tx, planId, 'approved');
    const issued = await issueLease(
      tx,
      viewer,
      { planId, provider: settings.provider, machine: plan.machine, ceiling: plan.spendCeilingCredits },
      settings,
      now,
    );
    await moveCredits(tx, viewer.user.id, {
      kind: 'reservation',
      credits: 0,
      reserved: plan.spendCeilingCredits,
      leaseId: issued.lease.id,
      reason: 'ceiling reserved',
    });
    return issued;
  });
}

/** Declines a plan exactly once; its drafting charge stands. @throws NOT_FOUND, CONFLICT */
export async function declinePlan(em: EntityManager, viewer: Viewer, planId: number): Promise<Plan> {
  return em.transactional(async (tx) => {
    await lockUndecided(tx, viewer, planId);
    return store.decidePlan(tx, planId, 'declined');
  });
}

/**
 * A lease without a plan and without a ceiling (the manual-provider dev flow): the budget
 * guardrail skips it, but it never spends credits the caller does not have. The caller chooses
 * among the providers the operator enabled (`COMPUTE_PROVIDERS`; unsaid: `COMPUTE_PROVIDER`):
 * `local` starts a process on the server, so a request never enables it by itself.
 * @throws VALIDATION_FAILED, PAYMENT_REQUIRED, CONFLICT (at `COMPUTE_MAX_OPEN_LEASES` open leases)
 */
export async function createDirectLease(
  em: EntityManager,
  viewer: Viewer,
  input: { provider?: string | null; machine?: PlanInput['machine'] },
  settings: ComputeSettings,
  now: Date,
): Promise<IssuedLease> {
  const enabled = settings.providers as readonly string[];
  const c = checks();
  if (input.provider != null && !enabled.includes(input.provider)) {
    c.add(['input', 'provider'], `must be one of ${enabled.join(', ')} (the providers this server enables)`, 'enum');
  }
  c.done();
  const provider = (input.provider ?? settings.provider) as ComputeProvider;
  const machine = machineOf(input.machine, ['input', 'machine']);
  return em.transactional(async (tx) => {
    requireAvailable(await lockAccount(tx, viewer.user.id), 0.0001);
    await requireOpenLeaseRoom(tx, viewer.user.id, settings.maxOpenLeases);
    return issueLease(tx, viewer, { planId: null, provider, machine, ceiling: null }, settings, now);
  });
}

/**
 * Refuses a new lease once the user holds `max` open ones. The caller holds the user's credit
 * account row locked (every lease is created under it), so concurrent requests count one at a time.
 * @throws CONFLICT
 */
async function requireOpenLeaseRoom(em: EntityManager, userId: string, max: number) {
  const open = await store.countOpenLeases(em, userId);
  if (open >= max) {
    throw conflict(`you have ${open} open compute sessions, the most this server allows; release one first`, {
      open_leases: open,
      max_open_leases: max,
    });
  }
}

/** A new lease awaiting its sandbox, with the claim token its sandbox bootstraps with. */
async function issueLease(
  em: EntityManager,
  viewer: Viewer,
  lease: { planId: number | null; provider: ComputeProvider; machine: Machine; ceiling: number | null },
  settings: ComputeSettings,
  now: Date,
): Promise<IssuedLease> {
  const claimToken = `${CLAIM_PREFIX}${newSecret(40)}`;
  const idleExpiresAt = minutesLater(now, settings.idleMinutes);
  const issued = await store.insertLease(em, {
    userId: viewer.user.id,
    planId: lease.planId,
    provider: lease.provider,
    machine: lease.machine,
    ceilingCredits: lease.ceiling,
    claimTokenHash: sha256Hex(claimToken),
    idleExpiresAt,
    bootstrapDeadline: minutesLater(now, settings.bootstrapMinutes),
    createdAt: now,
  });
  // `session` is the source's wire name for a lease created without a plan.
  await store.recordIdleRefresh(em, issued.id, { source: lease.planId === null ? 'session' : 'approve', at: now, idleExpiresAt });
  return { lease: issued, claimToken };
}

/** The caller's lease. @throws NOT_FOUND (also for someone else's) */
export async function getLease(em: EntityManager, viewer: Viewer, leaseId: number): Promise<Lease> {
  const lease = await store.findLease(em, leaseId, viewer.user.id);
  if (!lease) throw notFound('lease');
  return lease;
}

/** The caller's newest lease that is not over (released or expired), or null. */
export async function currentLease(em: EntityManager, viewer: Viewer): Promise<Lease | null> {
  const [lease] = await store.findOpenLeases(em, viewer.user.id, 1);
  return lease ?? null;
}

/** The caller's leases that are not over, newest first. */
export async function openLeases(em: EntityManager, viewer: Viewer): Promise<Lease[]> {
  return store.findOpenLeases(em, viewer.user.id);
}

/** The caller's leases that are over, the newest ended first, a page at a time; someone else's are never among them. */
export async function pastLeases(em: EntityManager, viewer: Viewer, page: { limit: number; offset: number }) {
  return store.pageOfEndedLeases(em, viewer.user.id, page);
}

/** Why a lease ended, or null while it is open. */
export type LeaseEndReason = 'released' | 'unclaimed' | 'idle';

/**
 * Why a lease is over: released by its owner; expired before any sandbox claimed it (only a
 * lease awaiting its sandbox expires without a process token); or expired idle, its sandbox
 * claimed but silent past the idle clock.
 */
export function endReasonOf(lease: Lease): LeaseEndReason | null {
  if (lease.state === 'released') return 'released';
  if (lease.state === 'expired') return lease.processTokenHash === null ? 'unclaimed' : 'idle';
  return null;
}

/** The lease (only when it is `userId`'s, if given), locked. @throws NOT_FOUND */
async function lockLease(em: EntityManager, leaseId: number, userId?: string): Promise<Lease> {
  const lease = await store.lockLease(em, leaseId, userId);
  if (!lease) throw notFound('lease');
  return lease;
}

/** Released or expired: not one of the open states. */
const isOver = (state: LeaseState) => !(store.OPEN_LEASE_STATES as readonly LeaseState[]).includes(state);

/** Ends a lease (idempotent): its unspent reservation goes back to the caller's credits. */
export async function releaseLease(em: EntityManager, viewer: Viewer, leaseId: number, now: Date): Promise<Lease> {
  return em.transactional(async (tx) => {
    const found = await lockLease(tx, leaseId, viewer.user.id);
    if (isOver(found.state)) return found;
    // The time run since the last meter pass is charged before the lease ends.
    await lockAccount(tx, found.userId);
    const report: MeterReport = { charged: 0, paused: 0, expired: 0, changed: [] };
    await meterLease(tx, found, now, report);
    const lease = await lockLease(tx, leaseId);
    return isOver(lease.state) ? lease : endLease(tx, lease, 'released', now);
  });
}

/**
 * Moves a lease to `state` (released/expired), returning its unspent reservation and revoking
 * its sandbox's logins. Every end of a lease goes through here.
 */
async function endLease(em: EntityManager, lease: Lease, state: 'released' | 'expired', now: Date): Promise<Lease> {
  await revokeLeaseTokens(em, lease.id);
  const ended = await store.markLeaseEnded(em, lease.id, state, now);
  const unspent = lease.ceilingCredits === null ? 0 : credits(lease.ceilingCredits - lease.spentCredits);
  if (unspent > 0)
    await moveCredits(em, lease.userId, {
      kind: 'reservation',
      credits: 0,
      reserved: -unspent,
      leaseId: lease.id,
      reason: `${state}: reservation returned`,
    });
  return ended;
}

/**
 * Raises a lease's ceiling by `credits` (reserved from the caller's credits, 402 when they do not
 * cover it); a paused lease resumes. A lease without a ceiling has nothing to raise (409).
 * @throws VALIDATION_FAILED, NOT_FOUND, CONFLICT, PAYMENT_REQUIRED
 */
export async function topUp(
  em: EntityManager,
  viewer: Viewer,
  leaseId: number,
  amount: number,
  settings: ComputeSettings,
  now: Date,
): Promise<Lease> {
  checks().int(['input', 'credits'], amount, { min: 0.0001, max: 1_000_000 }).done();
  const raise = credits(amount);
  return em.transactional(async (tx) => {
    const lease = await lockLease(tx, leaseId, viewer.user.id);
    if (isOver(lease.state)) throw conflict(`this lease is ${lease.state}`);
    if (lease.ceilingCredits === null) throw conflict('this lease has no spend ceiling to raise');
    requireAvailable(await lockAccount(tx, viewer.user.id), raise);
    await moveCredits(tx, viewer.user.id, { kind: 'reservation', credits: 0, reserved: raise, leaseId, reason: 'top-up reserved' });
    const idleExpiresAt = minutesLater(now, settings.idleMinutes);
    // The meter does not charge paused time: a resumed lease is metered from now.
    const raised = await store.raiseCeiling(tx, leaseId, raise, now, idleExpiresAt);
    await store.recordIdleRefresh(tx, leaseId, { source: 'topup', at: now, idleExpiresAt });
    return raised;
  });
}

export interface Bootstrapped {
  lease: Lease;
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
    const idleExpiresAt = minutesLater(now, settings.idleMinutes);
    const lease = await store.claimLease(tx, {
      claimTokenHash: sha256Hex(claimToken),
      processTokenHash: sha256Hex(processToken),
      now,
      idleExpiresAt,
    });
    if (!lease) throw refused();
    await store.recordIdleRefresh(tx, lease.id, { source: 'bootstrap', at: now, idleExpiresAt });
    const user = await tx.findOneOrFail(User, { id: lease.userId });
    if (user.disabled) throw refused();
    // The sandbox's login is bound to the lease: it ends with it (endLease) and is no admin (token.policy).
    const pair = mintLoginPair(tx, user, `lease_${lease.id}_${newSecret(8)}`, lease.id);
    await tx.flush();
    return { lease, leaseId: lease.id, processToken, ...pair };
  });
}

export type HeartbeatAction = 'continue' | 'checkpoint_and_pause' | 'stop';

export interface HeartbeatAnswer {
  lease: Lease;
  balanceCredits: number;
  lowCredit: boolean;
  action: HeartbeatAction;
}

/**
 * A sandbox's heartbeat. The process token authorizes only its own lease (401 for anything else,
 * without saying whether the lease exists). `active` refreshes the idle clock of a running lease.
 * @throws UNAUTHENTICATED
 */
export async function heartbeat(
  em: EntityManager,
  leaseId: number,
  processToken: string | undefined,
  active: boolean,
  settings: ComputeSettings,
  now: Date,
): Promise<HeartbeatAnswer> {
  const refused = () => unauthenticated('invalid process token for this lease');
  if (!processToken || !processToken.startsWith(PROCESS_PREFIX)) throw refused();
  return em.transactional(async (tx) => {
    const lease = await store.lockLease(tx, leaseId);
    if (!lease || !lease.processTokenHash || !digestsEqual(lease.processTokenHash, sha256Hex(processToken))) throw refused();
    let current = lease;
    const available = await availableCredits(tx, lease.userId);
    // Past its idle deadline a lease is over even before the meter records it: no revival.
    if (lease.state === 'ready' && lease.idleExpiresAt <= now) return answerFor({ ...lease, state: 'expired' }, available);
    if (active && lease.state === 'ready') {
      const idleExpiresAt = minutesLater(now, settings.idleMinutes);
      current = await store.setIdleExpiry(tx, leaseId, idleExpiresAt);
      await store.recordIdleRefresh(tx, leaseId, { source: 'heartbeat', at: now, idleExpiresAt });
    }
    return answerFor(current, available);
  });
}

function answerFor(lease: Lease, available: number): HeartbeatAnswer {
  const left = lease.ceilingCredits === null ? available : credits(lease.ceilingCredits - lease.spentCredits);
  const lowCredit =
    lease.ceilingCredits === null ? left < LOW_CREDIT_FLOOR : left < Math.max(LOW_CREDIT_FLOOR, lease.ceilingCredits * LOW_CREDIT_SHARE);
  const action: HeartbeatAction = lease.state === 'paused' ? 'checkpoint_and_pause' : lease.state === 'ready' ? 'continue' : 'stop';
  return { lease, balanceCredits: available, lowCredit, action };
}

export interface MeterReport {
  charged: number;
  paused: number;
  expired: number;
  /** Leases whose state or spend moved, as they are now (for live viewers). */
  changed: Lease[];
}

/**
 * One meter pass at time `now`, safe to run on several instances at once: each lease is taken
 * with SKIP LOCKED and metered from its own `last_metered_at`, so a period is charged once.
 * `committed` hears the leases each batch changed as soon as that batch committed.
 * Running leases pay their machine rate, capped at the ceiling (then they pause) or, without
 * one, at the credits left; leases idle past their clock or never bootstrapped expire.
 */
export async function meterOnce(
  em: EntityManager,
  now: Date,
  batch = 100,
  committed: (changed: Lease[]) => void = () => undefined,
): Promise<MeterReport> {
  const report: MeterReport = { charged: 0, paused: 0, expired: 0, changed: [] };
  let after = 0;
  for (;;) {
    // A batch counts once its transaction committed: a later batch that fails takes nothing back.
    const part: MeterReport = { charged: 0, paused: 0, expired: 0, changed: [] };
    const done = await em.transactional(async (tx) => {
      const leases = await store.lockLeasesToMeter(tx, after, now, batch);
      // Owners' accounts in one order (by user) before any charge: two passes cannot deadlock.
      await lockAccountRows(tx, [...new Set(leases.map((lease) => lease.userId))]);
      for (const lease of leases) await meterLease(tx, lease, now, part);
      if (leases.length) after = leases[leases.length - 1].id;
      return leases.length < batch;
    });
    report.charged += part.charged;
    report.paused += part.paused;
    report.expired += part.expired;
    report.changed.push(...part.changed);
    committed(part.changed);
    if (done) return report;
  }
}

async function meterLease(em: EntityManager, metered: Lease, now: Date, report: MeterReport) {
  let lease = metered;
  if (lease.state === 'awaiting_sandbox') {
    if (now > lease.bootstrapDeadline) {
      report.changed.push(await endLease(em, lease, 'expired', now));
      report.expired++;
    }
    return;
  }
  // Running time is charged up to the idle deadline at most: an idle lease stops costing then.
  const until = lease.idleExpiresAt < now ? lease.idleExpiresAt : now;
  if (lease.state === 'ready' && until > lease.lastMeteredAt) {
    const due = credits(((until.getTime() - lease.lastMeteredAt.getTime()) / 60_000) * lease.rateCreditsPerMinute);
    const account = await lockAccount(em, lease.userId);
    const cap = lease.ceilingCredits === null ? account.available : credits(lease.ceilingCredits - lease.spentCredits);
    const charge = Math.min(due, cap);
    const exhausted = due >= cap;
    if (charge > 0) {
      // A ceiling lease spends its own reservation; a lease without one spends free credits.
      await moveCredits(em, lease.userId, {
        kind: 'lease_spend',
        credits: -charge,
        reserved: lease.ceilingCredits === null ? 0 : -charge,
        leaseId: lease.id,
        reason: 'metered',
      });
      report.charged++;
    }
    lease = await store.recordMetering(em, lease.id, { charge, now, state: exhausted ? 'paused' : 'ready' });
    if (charge > 0 || exhausted) report.changed.push(lease);
    if (exhausted) report.paused++;
  } else if (lease.state === 'paused' && lease.ceilingCredits === null && (await lockAccount(em, lease.userId)).available > 0) {
    // A lease without a ceiling paused only for want of credits: a grant lets it run again.
    lease = await store.resumeLease(em, lease.id, now);
    report.changed.push(lease);
  } else {
    await store.markMetered(em, lease.id, now);
  }
  // Only running leases idle out; a paused one waits for a top-up or a release (never killed).
  if (metered.state === 'ready' && lease.state === 'ready' && lease.idleExpiresAt <= now) {
    report.changed.push(await endLease(em, lease, 'expired', now));
    report.expired++;
  }
}
