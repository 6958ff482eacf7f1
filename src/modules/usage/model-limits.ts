import type { ModelLimits } from '../../config';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Query, sqlOf } from '../../db/sql';
import { AppError } from '../../errors';
import { startPeriodic } from '../../jobs/periodic';
import type { Logger } from '../../logger';
import { countRequest, dropOldLimitWindows, SubjectLimits, SubjectStanding } from './usage.repository';

/** How often an instance drops the windows no limit reads any more. */
const LIMIT_SWEEP_SECONDS = 600;

/**
 * Who a model-backed request is admitted for: the user (or A2A key) whose requests are counted,
 * and the user whose daily token budget pays (the owner of a summarised trajectory, the A2A owner).
 */
export type ModelRequester = { userId: string; payerId?: string } | { a2aPrincipal: string; ownerId: string };

/**
 * Admits one model-backed request before any work is done (docs/api/limits.md, "Model limits"): counts it
 * in the current UTC minute of its requester (a user, or an A2A key) and refuses it once that
 * minute has more than the requester's limit, or once the requester or the payer has used the
 * day's token budget. Counted in PostgreSQL, so every instance sees the same counts; a refused
 * request counts too (a client hammering stays refused).
 * @throws RATE_LIMITED with `Retry-After` (seconds until the window renews)
 */
export async function admitModelRequest(q: Query, limits: ModelLimits, who: ModelRequester, now = new Date()): Promise<void> {
  const subjects = subjectsOf(limits, who).filter((s) => s.requestsPerMinute > 0 || s.tokensPerDay > 0);
  if (subjects.length === 0) return;
  const standings = await countRequest(q, subjects);
  const labels = new Map(subjects.map((s) => [s.subject, s.label]));
  for (const standing of standings) {
    const refusal = refusalOf(standing, labels.get(standing.subject)!, now);
    if (refusal)
      throw new AppError('RATE_LIMITED', refusal.message, undefined, undefined, { 'Retry-After': String(refusal.retryAfterSeconds) });
  }
}

/** The subjects a request counts against, each named as a refusal names it. */
function subjectsOf(limits: ModelLimits, who: ModelRequester): (SubjectLimits & { label: string })[] {
  if ('a2aPrincipal' in who) {
    return [
      {
        subject: `a2a:${who.a2aPrincipal}`,
        label: 'this A2A key',
        requestsPerMinute: limits.keyRequestsPerMinute,
        tokensPerDay: limits.keyTokensPerDay,
      },
      { subject: `user:${who.ownerId}`, label: 'the A2A owner', requestsPerMinute: 0, tokensPerDay: limits.userTokensPerDay },
    ];
  }
  const payer = who.payerId ?? who.userId;
  if (payer === who.userId)
    return [
      {
        subject: `user:${who.userId}`,
        label: 'your account',
        requestsPerMinute: limits.userRequestsPerMinute,
        tokensPerDay: limits.userTokensPerDay,
      },
    ];
  return [
    { subject: `user:${who.userId}`, label: 'your account', requestsPerMinute: limits.userRequestsPerMinute, tokensPerDay: 0 },
    { subject: `user:${payer}`, label: 'the account that pays', requestsPerMinute: 0, tokensPerDay: limits.userTokensPerDay },
  ];
}

/** Why a subject's standing refuses the request, with the seconds until its window renews; null when it is admitted. */
function refusalOf(standing: SubjectStanding, whose: string, now: Date): { message: string; retryAfterSeconds: number } | null {
  if (standing.requestsPerMinute > 0 && standing.requests > standing.requestsPerMinute) {
    const retryAfterSeconds = 60 - now.getUTCSeconds();
    return {
      message: `too many model requests: ${whose} may make ${standing.requestsPerMinute} a minute; try again in ${retryAfterSeconds} s`,
      retryAfterSeconds,
    };
  }
  if (standing.tokensPerDay > 0 && standing.tokens >= standing.tokensPerDay) {
    const nextDay = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    const retryAfterSeconds = Math.ceil((nextDay - now.getTime()) / 1000);
    return {
      message: `the daily model token budget of ${whose} (${standing.tokensPerDay} tokens) is used up; it renews at 00:00 UTC, in ${retryAfterSeconds} s`,
      retryAfterSeconds,
    };
  }
  return null;
}

/** Drops old limit windows every LIMIT_SWEEP_SECONDS on this instance (any instance may; the delete is idempotent). */
export function startLimitSweep(em: () => EntityManager, logger: Logger): () => Promise<void> {
  return startPeriodic('model limit sweep', LIMIT_SWEEP_SECONDS, () => dropOldLimitWindows(sqlOf(em())), logger);
}
