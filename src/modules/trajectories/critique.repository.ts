import { z } from 'zod';
import type { Query } from '../../db/sql';
import { condition, db, firstRowOf, rowsOf } from '../../db/typed-sql';

/** The SQL of critique: which uuids a session holds, and the model's findings kept per session state. */

/** What a critique of the model was made on: the session's head and record count, and the model. */
export interface CritiqueKey {
  headUuid: string;
  recordCount: number;
  model: string;
}

/** A finding as `storeModelFindings` writes it to the jsonb column (checked when read back). */
const STORED_FINDINGS = z.array(z.object({ record_uuid: z.string(), severity: z.enum(['info', 'warning', 'error']), body: z.string() }));

export type StoredFinding = z.infer<typeof STORED_FINDINGS>[number];

/** Of `uuids`, those that are records of the session, with their positions (one query for all of them). */
export async function recordPositions(q: Query, sessionId: string, uuids: string[]): Promise<Map<string, number>> {
  if (uuids.length === 0) return new Map();
  const rows = await rowsOf(
    q,
    db
      .selectFrom('trajectory_records')
      .select(['uuid', 'seq'])
      .where('session_id', '=', sessionId)
      .where(condition('uuid = any(?)', [...new Set(uuids)])),
  );
  return new Map(rows.map((row) => [row.uuid, row.seq]));
}

/** The model's findings made on exactly this state of the session with this model, or null. */
export async function cachedModelFindings(q: Query, sessionId: string, key: CritiqueKey): Promise<StoredFinding[] | null> {
  const row = await firstRowOf(
    q,
    db
      .selectFrom('trajectory_critiques')
      .select('findings')
      .where('session_id', '=', sessionId)
      .where('head_uuid', '=', key.headUuid)
      .where('record_count', '=', key.recordCount)
      .where('model', '=', key.model),
  );
  return row ? STORED_FINDINGS.parse(row.findings) : null;
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
