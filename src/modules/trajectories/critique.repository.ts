import type { Query } from '../../db/sql';

/** The SQL of critique: which uuids a session holds, and the model's findings kept per session state. */

/** What a critique of the model was made on: the session's head and record count, and the model. */
export interface CritiqueKey {
  headUuid: string;
  recordCount: number;
  model: string;
}

export interface StoredFinding {
  record_uuid: string;
  severity: 'info' | 'warning' | 'error';
  body: string;
}

/** Of `uuids`, those that are records of the session, with their positions (one query for all of them). */
export async function recordPositions(q: Query, sessionId: string, uuids: string[]): Promise<Map<string, number>> {
  if (uuids.length === 0) return new Map();
  const rows = await q<{ uuid: string; seq: number }>(`select uuid, seq from trajectory_records where session_id = ? and uuid = any(?)`, [
    sessionId,
    [...new Set(uuids)],
  ]);
  return new Map(rows.map((row) => [row.uuid, row.seq]));
}

/** The model's findings made on exactly this state of the session with this model, or null. */
export async function cachedModelFindings(q: Query, sessionId: string, key: CritiqueKey): Promise<StoredFinding[] | null> {
  const [row] = await q<{ findings: StoredFinding[] }>(
    `select findings from trajectory_critiques where session_id = ? and head_uuid = ? and record_count = ? and model = ?`,
    [sessionId, key.headUuid, key.recordCount, key.model],
  );
  return row?.findings ?? null;
}

/**
 * Keeps the model's findings for this state of the session, replacing those of an earlier one
 * (nothing when the session was deleted meanwhile).
 */
export async function storeModelFindings(q: Query, sessionId: string, key: CritiqueKey, findings: StoredFinding[]): Promise<void> {
  await q(
    `insert into trajectory_critiques (session_id, head_uuid, record_count, model, findings)
     select id, ?, ?, ?, ? from trajectories where id = ?
     on conflict (session_id) do update set head_uuid = excluded.head_uuid, record_count = excluded.record_count, model = excluded.model,
       findings = excluded.findings, created_at = now()`,
    [key.headUuid, key.recordCount, key.model, JSON.stringify(findings), sessionId],
  );
}
