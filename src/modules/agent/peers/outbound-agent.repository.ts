import { dateOf, Query } from '../../../db/sql';

/** An outbound agent entry as stored: its key sealed (never in clear in the database). */
export interface OutboundAgentRow {
  id: string;
  name: string;
  url: string;
  apiKeySealed: string | null;
  enabled: boolean;
  allowPrivate: boolean;
  status: 'pending' | 'ok' | 'failed';
  error: string | null;
  checkedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What a write sets; status goes back to pending when `resetStatus`. */
export type OutboundAgentWrite = Pick<OutboundAgentRow, 'id' | 'name' | 'url' | 'apiKeySealed' | 'enabled' | 'allowPrivate'> & {
  resetStatus: boolean;
};

const COLUMNS = `id, name, url, api_key_sealed as "apiKeySealed", enabled, allow_private as "allowPrivate", status, error, checked_at as "checkedAt", created_at as "createdAt", updated_at as "updatedAt"`;

const rowOf = (row: Record<string, unknown>): OutboundAgentRow =>
  ({ ...row, checkedAt: dateOf(row.checkedAt), createdAt: dateOf(row.createdAt), updatedAt: dateOf(row.updatedAt) }) as OutboundAgentRow;

/** Locks the owner's row: every write of one user's registry takes it first, so its count holds across instances. */
export async function lockOwner(q: Query, userId: string): Promise<void> {
  await q(`select 1 from users where id = ? for update`, [userId]);
}

/** The user's entries in id order. */
export async function listAgents(q: Query, userId: string): Promise<OutboundAgentRow[]> {
  return (await q(`select ${COLUMNS} from a2a_agents where user_id = ? order by id`, [userId])).map(rowOf);
}

/** The user's enabled entries in id order: what their agent is offered as tools. */
export async function listEnabledAgents(q: Query, userId: string): Promise<OutboundAgentRow[]> {
  return (await q(`select ${COLUMNS} from a2a_agents where user_id = ? and enabled order by id`, [userId])).map(rowOf);
}

export async function findAgent(q: Query, userId: string, id: string): Promise<OutboundAgentRow | null> {
  const [row] = await q(`select ${COLUMNS} from a2a_agents where user_id = ? and id = ?`, [userId, id]);
  return row ? rowOf(row) : null;
}

export async function countAgents(q: Query, userId: string): Promise<number> {
  const [row] = await q<{ count: number }>(`select count(*)::int as count from a2a_agents where user_id = ?`, [userId]);
  return row.count;
}

/** Inserts the entry or replaces the user's entry of that id (its creation time and, unless `resetStatus`, its last test stay). */
/** Inserts or replaces the user's entry `entry.id`; answers it as stored. */
export async function saveAgent(q: Query, userId: string, entry: OutboundAgentWrite): Promise<OutboundAgentRow> {
  const [row] = await q(
    `insert into a2a_agents (user_id, id, name, url, api_key_sealed, enabled, allow_private) values (?, ?, ?, ?, ?, ?, ?)
     on conflict (user_id, id) do update set name = excluded.name, url = excluded.url, api_key_sealed = excluded.api_key_sealed,
       enabled = excluded.enabled, allow_private = excluded.allow_private, updated_at = now(),
       status = case when ? then 'pending' else a2a_agents.status end,
       error = case when ? then null else a2a_agents.error end,
       checked_at = case when ? then null else a2a_agents.checked_at end
     returning ${COLUMNS}`,
    [
      userId,
      entry.id,
      entry.name,
      entry.url,
      entry.apiKeySealed,
      entry.enabled,
      entry.allowPrivate,
      entry.resetStatus,
      entry.resetStatus,
      entry.resetStatus,
    ],
  );
  return rowOf(row);
}

/** Deletes the entry; whether there was one. */
export async function deleteAgent(q: Query, userId: string, id: string): Promise<boolean> {
  return (await q(`delete from a2a_agents where user_id = ? and id = ? returning id`, [userId, id])).length > 0;
}

/** Tests of the user's entries in flight now (their lease not run out). */
export async function countTestsInFlight(q: Query, userId: string): Promise<number> {
  const [row] = await q<{ count: number }>(`select count(*)::int as count from a2a_agents where user_id = ? and test_until > now()`, [
    userId,
  ]);
  return row.count;
}

/**
 * Takes the entry's test lease for `seconds` unless a test of it holds one: the entry as it is
 * tested, or null when it is absent or already being tested (`busy`).
 */
export async function claimTest(q: Query, userId: string, id: string, seconds: number): Promise<OutboundAgentRow | null> {
  const [row] = await q(
    `update a2a_agents set test_until = now() + make_interval(secs => ?) where user_id = ? and id = ? and (test_until is null or test_until <= now()) returning ${COLUMNS}`,
    [seconds, userId, id],
  );
  return row ? rowOf(row) : null;
}

/**
 * Ends the entry's test lease and records the outcome, unless what the test depends on (the URL
 * and `allow_private`) changed while it ran: the outcome of another address is not this entry's.
 */
export async function recordTest(
  q: Query,
  userId: string,
  tested: { id: string; url: string; allowPrivate: boolean },
  outcome: { ok: boolean; error: string | null },
): Promise<void> {
  await q(
    `update a2a_agents set test_until = null,
       status = case when same then ? else status end,
       error = case when same then ? else error end,
       checked_at = case when same then now() else checked_at end
     from (select url = ? and allow_private = ? as same from a2a_agents where user_id = ? and id = ?) as before
     where user_id = ? and id = ?`,
    [
      outcome.ok ? 'ok' : 'failed',
      outcome.ok ? null : outcome.error,
      tested.url,
      tested.allowPrivate,
      userId,
      tested.id,
      userId,
      tested.id,
    ],
  );
}
