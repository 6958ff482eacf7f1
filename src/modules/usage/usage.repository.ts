import type { Query } from '../../db/sql';

/** One call this service made to a language model, as the ledger keeps it (token counts only, never content). */
export interface ModelCallRow {
  userId: string;
  labId: string | null;
  sessionId: string | null;
  feature: string;
  model: string;
  tokensIn: number;
  tokensOut: number;
  credits: number;
  latencyMs: number;
  outcome: 'ok' | 'error';
}

/** A ledger row's insert as SQL (`?` placeholders) and its parameters: alone, or a data-modifying CTE of a caller's statement. */
export interface LedgerInsert {
  sql: string;
  params: unknown[];
}

export const modelCallInsert = (row: ModelCallRow): LedgerInsert => ({
  sql: `insert into usage_entries (user_id, lab_id, session_id, source, feature, model, tokens_in, tokens_out, credits, latency_ms, outcome)
        values (?, ?, ?, 'model_call', ?, ?, ?, ?, ?, ?, ?)`,
  params: [row.userId, row.labId, row.sessionId, row.feature, row.model, row.tokensIn, row.tokensOut, row.credits, row.latencyMs, row.outcome],
});

export async function insertModelCall(q: Query, row: ModelCallRow): Promise<void> {
  const { sql, params } = modelCallInsert(row);
  await q(sql, params);
}

/** Model calls for `feature` the user made since `hoursAgo` hours, failed ones included (ledger index on user and time). */
export async function countRecentModelCalls(q: Query, userId: string, feature: string, hoursAgo: number): Promise<number> {
  const [row] = await q<{ calls: number }>(
    `select count(*)::int as calls from usage_entries
      where user_id = ? and created_at > now() - make_interval(hours => ?) and source = 'model_call' and feature = ?`,
    [userId, hoursAgo, feature],
  );
  return row.calls;
}
