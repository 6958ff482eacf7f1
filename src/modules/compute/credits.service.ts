import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, notFound } from '../../errors';
import { checks } from '../../validation';
import { CREDIT_ALLOWANCE_BY_PLAN, PlanCode } from '../users/plans';
import * as accounts from './credits.repository';

/** Credits carry four decimals (numeric(14,4)); arithmetic in JS is rounded back to them. */
export const credits = (value: number) => Math.round(value * 1e4) / 1e4;

/**
 * The account with its row locked for the rest of the transaction. The account row is the lock:
 * movements of one user's credits go one at a time.
 * @throws NOT_FOUND
 */
export async function lockAccount(em: EntityManager, userId: string) {
  const account = await accounts.lockAccountRow(em, userId);
  if (!account) throw notFound('credit account');
  return { ...account, available: credits(account.balance - account.reserved) };
}

/** Credits not reserved by ceilings, without locking the account. @throws NOT_FOUND */
export async function availableCredits(em: EntityManager, userId: string): Promise<number> {
  const available = await accounts.findAvailable(em, userId);
  if (available === null) throw notFound('credit account');
  return available;
}

/** @throws PAYMENT_REQUIRED when fewer than `needed` credits are free (not reserved). */
export function requireAvailable(account: { available: number }, needed: number) {
  if (account.available < needed) {
    throw new AppError('PAYMENT_REQUIRED', `not enough credits: ${needed} needed, ${account.available} available`, {
      balance_credits: account.available,
    });
  }
}

/** A plan's allowance, as a ledger entry. */
const allowance = (planCode: string): accounts.CreditEntryInput => ({
  kind: 'allowance',
  credits: CREDIT_ALLOWANCE_BY_PLAN[planCode as PlanCode],
  reason: `${planCode} plan allowance`,
});

/** Opens a new user's account with their plan's allowance (in the transaction creating the user). */
export async function openAccount(em: EntityManager, userId: string, planCode: string) {
  await accounts.insertAccount(em, userId);
  await accounts.moveCredits(em, userId, allowance(planCode));
}

/** A plan change brings the new plan's allowance. */
export async function grantPlanAllowance(em: EntityManager, userId: string, planCode: string) {
  await accounts.moveCredits(em, userId, allowance(planCode));
}

/**
 * Admins grant credits (`POST /api/admin/users/{user_id}/credits`).
 * @throws VALIDATION_FAILED, NOT_FOUND
 */
export async function grantCredits(em: EntityManager, adminId: string, userId: string, input: { credits: number; reason?: string | null }) {
  checks()
    .int(['input', 'credits'], input.credits, { min: 0.0001, max: 1_000_000 })
    .text(['input', 'reason'], input.reason, { max: 500 })
    .done();
  return em.transactional(async (tx) => {
    await lockAccount(tx, userId);
    await accounts.moveCredits(tx, userId, {
      kind: 'grant',
      credits: credits(input.credits),
      reason: input.reason ?? `granted by ${adminId}`,
    });
    return creditSummary(tx, userId);
  });
}

export interface CreditSummary {
  balanceCredits: number;
  reservedCredits: number;
  tokenLine: { tokensIn: number; tokensOut: number; credits: number };
}

/** @throws NOT_FOUND */
export async function creditSummary(em: EntityManager, userId: string): Promise<CreditSummary> {
  const account = await accounts.findAccountSummary(em, userId);
  if (!account) throw notFound('credit account');
  return {
    balanceCredits: account.balance,
    reservedCredits: account.reserved,
    tokenLine: { tokensIn: account.tokensIn, tokensOut: account.tokensOut, credits: account.tokenCredits },
  };
}
