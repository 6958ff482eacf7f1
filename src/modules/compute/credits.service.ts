import type { EntityManager } from '@mikro-orm/postgresql';
import { Query, sqlOf } from '../../db/sql';
import { AppError, notFound } from '../../errors';
import { checks } from '../../validation';
import { CREDIT_ALLOWANCE_BY_PLAN, PlanCode } from '../users/plans';

/** Credits carry four decimals (numeric(14,4)); arithmetic in JS is rounded back to them. */
export const credits = (value: number) => Math.round(value * 1e4) / 1e4;

export type EntryKind = 'allowance' | 'grant' | 'reservation' | 'lease_spend' | 'token_charge';

/**
 * Moves credits: one ledger entry and the account's balance (and reservation) in the same
 * statement. The account row is the lock: movements of one user go one at a time, and the
 * check constraint (balance ≥ reserved ≥ 0) refuses anything that would overdraw.
 */
export async function moveCredits(
  q: Query,
  userId: string,
  entry: { kind: EntryKind; credits: number; reserved?: number; leaseId?: number | null; planId?: number | null; reason?: string | null },
) {
  await q(
    `with moved as (
       update credit_accounts set balance = balance + ?, reserved = reserved + ? where user_id = ? returning user_id)
     insert into credit_entries (user_id, kind, credits, reserved, lease_id, plan_id, reason)
     select user_id, ?, ?, ?, ?, ?, ? from moved`,
    [entry.credits, entry.reserved ?? 0, userId, entry.kind, entry.credits, entry.reserved ?? 0, entry.leaseId ?? null, entry.planId ?? null, entry.reason ?? null],
  );
}

/** The account with its row locked for the rest of the transaction. */
export async function lockAccount(q: Query, userId: string) {
  const [account] = await q<{ balance: number; reserved: number }>(
    `select balance::float8 as balance, reserved::float8 as reserved from credit_accounts where user_id = ? for update`,
    [userId],
  );
  if (!account) throw notFound('credit account');
  return { ...account, available: credits(account.balance - account.reserved) };
}

/** Credits not reserved by ceilings, without locking the account. */
export async function availableCredits(q: Query, userId: string): Promise<number> {
  const [row] = await q<{ available: number }>(`select (balance - reserved)::float8 as available from credit_accounts where user_id = ?`, [userId]);
  if (!row) throw notFound('credit account');
  return row.available;
}

/** @throws PAYMENT_REQUIRED when fewer than `needed` credits are free (not reserved). */
export function requireAvailable(account: { available: number }, needed: number) {
  if (account.available < needed) {
    throw new AppError('PAYMENT_REQUIRED', `not enough credits: ${needed} needed, ${account.available} available`, { balance_credits: account.available });
  }
}

/** Opens a new user's account with their plan's allowance (in the transaction creating the user). */
export async function openAccount(em: EntityManager, userId: string, planCode: string) {
  const q = sqlOf(em);
  await q(`insert into credit_accounts (user_id) values (?) on conflict do nothing`, [userId]);
  await moveCredits(q, userId, { kind: 'allowance', credits: CREDIT_ALLOWANCE_BY_PLAN[planCode as PlanCode], reason: `${planCode} plan allowance` });
}

/** A plan change brings the new plan's allowance. */
export async function grantPlanAllowance(em: EntityManager, userId: string, planCode: string) {
  await moveCredits(sqlOf(em), userId, { kind: 'allowance', credits: CREDIT_ALLOWANCE_BY_PLAN[planCode as PlanCode], reason: `${planCode} plan allowance` });
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
    const q = sqlOf(tx);
    await lockAccount(q, userId);
    await moveCredits(q, userId, { kind: 'grant', credits: credits(input.credits), reason: input.reason ?? `granted by ${adminId}` });
    return creditSummary(tx, userId);
  });
}

export interface CreditSummary {
  balanceCredits: number;
  reservedCredits: number;
  tokenLine: { tokensIn: number; tokensOut: number; credits: number };
}

export async function creditSummary(em: EntityManager, userId: string): Promise<CreditSummary> {
  const [row] = await sqlOf(em)<{ balance: number; reserved: number; tokens_in: number; tokens_out: number; token_credits: number }>(
    `select balance::float8 as balance, reserved::float8 as reserved, tokens_in::float8 as tokens_in, tokens_out::float8 as tokens_out,
            token_credits::float8 as token_credits from credit_accounts where user_id = ?`,
    [userId],
  );
  if (!row) throw notFound('credit account');
  return {
    balanceCredits: row.balance,
    reservedCredits: row.reserved,
    tokenLine: { tokensIn: row.tokens_in, tokensOut: row.tokens_out, credits: row.token_credits },
  };
}
