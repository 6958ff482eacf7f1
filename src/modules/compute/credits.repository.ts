import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { sqlOf } from '../../db/sql';
import { asFloat8, db, firstRowOf, float8Column } from '../../db/typed-sql';

/*
 * All SQL of credit accounts, the credit ledger and the token line. Every function runs in
 * `em`'s transaction when it is in one; the rules are in credits.service.ts.
 */

export type EntryKind = 'allowance' | 'grant' | 'reservation' | 'lease_spend' | 'token_charge';

export interface CreditEntryInput {
  kind: EntryKind;
  /** Signed: positive adds to the balance. */
  credits: number;
  /** Signed change of the reserved part of the balance. */
  reserved?: number;
  leaseId?: number | null;
  planId?: number | null;
  reason?: string | null;
}

/** An account's balance and the part of it reserved by lease ceilings. */
export interface AccountBalance {
  balance: number;
  reserved: number;
}

export interface AccountSummary extends AccountBalance {
  tokensIn: number;
  tokensOut: number;
  tokenCredits: number;
}

/**
 * One ledger entry and the account's balance (and reservation) in the same statement. The check
 * constraint (balance ≥ reserved ≥ 0) refuses anything that would overdraw.
 */
export async function moveCredits(em: EntityManager, userId: string, entry: CreditEntryInput): Promise<void> {
  await sqlOf(em)(
    `with moved as (
       update credit_accounts set balance = balance + ?, reserved = reserved + ? where user_id = ? returning user_id)
     insert into credit_entries (user_id, kind, credits, reserved, lease_id, plan_id, reason)
     select user_id, ?, ?, ?, ?, ?, ? from moved`,
    [
      entry.credits,
      entry.reserved ?? 0,
      userId,
      entry.kind,
      entry.credits,
      entry.reserved ?? 0,
      entry.leaseId ?? null,
      entry.planId ?? null,
      entry.reason ?? null,
    ],
  );
}

/** The account, its row locked for the rest of the transaction; null when there is none. */
export async function lockAccountRow(em: EntityManager, userId: string): Promise<AccountBalance | null> {
  const row = await firstRowOf(
    sqlOf(em),
    db
      .selectFrom('credit_accounts')
      .select([float8Column('credit_accounts', 'balance'), float8Column('credit_accounts', 'reserved')])
      .where('user_id', '=', userId)
      .forUpdate(),
  );
  return row ?? null;
}

/** Locks the accounts of `userIds` in one order (by user), so two lockers cannot deadlock. */
export async function lockAccountRows(em: EntityManager, userIds: readonly string[]): Promise<void> {
  await sqlOf(em)(`select 1 from credit_accounts where user_id = any(?) order by user_id for update`, [userIds]);
}

/** Credits not reserved by ceilings, without locking; null when there is no account. */
export async function findAvailable(em: EntityManager, userId: string): Promise<number | null> {
  const row = await firstRowOf(
    sqlOf(em),
    db
      .selectFrom('credit_accounts')
      .select((eb) => asFloat8(eb('balance', '-', eb.ref('reserved'))).as('available'))
      .where('user_id', '=', userId),
  );
  return row ? row.available : null;
}

/** The usage ledger's `feature` of plan drafting: the token line is the sum of these rows. */
export const PLANNER_FEATURE = 'plan';

/**
 * Balance, reservation and the token line, read from the ledgers: the tokens of the user's plan
 * drafting rows in the usage ledger (real model calls, or the estimator's nominal counts) and the
 * credits of their `token_charge` entries in the credit ledger (what the balance was debited).
 */
export async function findAccountSummary(em: EntityManager, userId: string): Promise<AccountSummary | null> {
  const row = await firstRowOf(
    sqlOf(em),
    db
      .selectFrom('credit_accounts as a')
      .crossJoinLateral((eb) =>
        eb
          .selectFrom('usage_entries')
          // Sums of bigints: numeric, which the driver answers as text.
          .select([sql<string>`coalesce(sum(tokens_in), 0)`.as('tokens_in'), sql<string>`coalesce(sum(tokens_out), 0)`.as('tokens_out')])
          .whereRef('user_id', '=', 'a.user_id')
          .where('feature', '=', PLANNER_FEATURE)
          .as('u'),
      )
      .select((eb) => [
        asFloat8(eb.ref('a.balance')).as('balance'),
        asFloat8(eb.ref('a.reserved')).as('reserved'),
        asFloat8(eb.ref('u.tokens_in')).as('tokensIn'),
        asFloat8(eb.ref('u.tokens_out')).as('tokensOut'),
        sql<number>`(select coalesce(-sum(e.credits), 0)::float8 from credit_entries e where e.user_id = a.user_id and e.kind = 'token_charge')`.as(
          'tokenCredits',
        ),
      ])
      .where('a.user_id', '=', userId),
  );
  return row ?? null;
}

/** An empty account (kept as it is when the user has one). */
export async function insertAccount(em: EntityManager, userId: string): Promise<void> {
  await sqlOf(em)(`insert into credit_accounts (user_id) values (?) on conflict do nothing`, [userId]);
}

/**
 * The estimator's drafting on the usage ledger: no model was called, so the row holds the nominal
 * token counts and their nominal price (a model's drafting is its own `meteredCompletion` row).
 */
export async function insertEstimatorDraft(
  em: EntityManager,
  userId: string,
  line: { tokensIn: number; tokensOut: number; credits: number },
): Promise<void> {
  await sqlOf(em)(
    `insert into usage_entries (user_id, source, feature, tokens_in, tokens_out, credits) values (?, 'planner', ?, ?, ?, ?)`,
    [userId, PLANNER_FEATURE, line.tokensIn, line.tokensOut, line.credits],
  );
}
