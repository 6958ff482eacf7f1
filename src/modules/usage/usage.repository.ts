import type { Query, SqlPart } from '../../db/sql';
import { CATALOG_CREDITS_SQL } from '../catalog/catalog.repository';

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
  /** The A2A principal whose turn made the call (its key's token budget counts it). */
  a2aPrincipal?: string | null;
  /** The call's own id: its row is written once however often the write is sent. */
  callId: string;
}

/** A ledger row's insert (`?` placeholders): alone, or a data-modifying CTE of a caller's statement. */
export type LedgerInsert = SqlPart;

/**
 * The ledger row's insert, a no-op when the call's row is there already (`call_id`): a write
 * sent again after its connection was lost under it never bills the call twice. With `inDatabase` its credits are worked out by PostgreSQL from the
 * stored catalog (`CATALOG_CREDITS_SQL`: `row.credits` is then what the shipped catalog says, used
 * when none is stored), rather than taken from `row.credits`.
 */
export const modelCallInsert = (row: ModelCallRow, inDatabase?: { catalogModelId: string }): LedgerInsert => ({
  sql: `insert into usage_entries (user_id, lab_id, session_id, source, feature, model, tokens_in, tokens_out, credits, latency_ms, outcome, a2a_principal, call_id)
        values (?, ?, ?, 'model_call', ?, ?, ?, ?, ${inDatabase ? CATALOG_CREDITS_SQL : '?'}, ?, ?, ?, ?)
        on conflict (call_id) do nothing`,
  params: [
    row.userId,
    row.labId,
    row.sessionId,
    row.feature,
    row.model,
    row.tokensIn,
    row.tokensOut,
    ...(inDatabase ? [row.tokensIn, row.tokensOut, inDatabase.catalogModelId, row.credits] : [row.credits]),
    row.latencyMs,
    row.outcome,
    row.a2aPrincipal ?? null,
    row.callId,
  ],
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

/** One subject's limits at an admission: requests per minute and tokens per day (0: none). */
export interface SubjectLimits {
  subject: string;
  requestsPerMinute: number;
  tokensPerDay: number;
}

/** A subject's standing after an admission counted its request. */
export interface SubjectStanding extends SubjectLimits {
  /** Requests of this UTC minute, this one included (0 when requests are not limited). */
  requests: number;
  /** Tokens of this UTC day so far. */
  tokens: number;
}

/**
 * Counts one request in the current UTC minute of each subject with a request limit (an upsert,
 * atomic over instances) and reads each subject's tokens of the current UTC day, in one statement.
 */
export async function countRequest(q: Query, subjects: SubjectLimits[]): Promise<SubjectStanding[]> {
  return q<SubjectStanding>(
    `with asked as (
       select * from unnest(?::text[], ?::int[], ?::bigint[]) as a(subject, per_minute, per_day)
     ), counted as (
       insert into model_limits (subject, window_kind, window_start, requests)
       select subject, 'minute', date_trunc('minute', now() at time zone 'utc'), 1 from asked where per_minute > 0
       on conflict (subject, window_kind, window_start) do update set requests = model_limits.requests + 1
       returning subject, requests
     )
     select a.subject, a.per_minute as "requestsPerMinute", a.per_day::float8 as "tokensPerDay",
            coalesce(c.requests, 0) as requests, coalesce(d.tokens, 0)::float8 as tokens
       from asked a
       left join counted c on c.subject = a.subject
       left join model_limits d on d.subject = a.subject and d.window_kind = 'day' and d.window_start = date_trunc('day', now() at time zone 'utc')`,
    [subjects.map((s) => s.subject), subjects.map((s) => s.requestsPerMinute), subjects.map((s) => s.tokensPerDay)],
  );
}

/** Drops windows no limit reads any more: minutes older than an hour, days older than two. */
export async function dropOldLimitWindows(q: Query): Promise<void> {
  await q(
    `delete from model_limits
      where (window_kind = 'minute' and window_start < (now() at time zone 'utc') - interval '1 hour')
         or (window_kind = 'day' and window_start < (now() at time zone 'utc') - interval '2 days')`,
  );
}
