import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { inTransaction, Query, sqlOf } from '../../db/sql';
import { cteBody, db, fragment, rowsOf } from '../../db/typed-sql';

/** One file artifact to be attached: its task, index, owner, workspace and apparent size. */
export interface ArtifactFile {
  taskId: string;
  idx: number;
  ownerId: string;
  workspace: string;
  bytes: number;
}

/** The artifact budgets: bytes of file artifacts one workspace, and one A2A owner, may hold. */
export interface ArtifactBudgets {
  perWorkspace: number;
  perOwner: number;
}

/**
 * Records `file` when its bytes fit both budgets, under the owner's advisory lock (two turns of
 * one owner cannot both take the last room); answers false, recording nothing, when they do not.
 */
export async function reserveArtifactFile(em: EntityManager, file: ArtifactFile, budgets: ArtifactBudgets): Promise<boolean> {
  return inTransaction(em, async (q: Query) => {
    await q(`select pg_advisory_xact_lock(hashtext('a2a_artifact_files'), hashtext(?))`, [file.ownerId]);
    const [row] = await rowsOf(
      q,
      db
        .with('used', (creator) =>
          creator
            .selectFrom('a2a_artifact_files')
            // Sums of bigints: numeric, compared in SQL only.
            .select([
              sql<string>`coalesce(sum(bytes), 0)`.as('owner_bytes'),
              fragment<string>('coalesce(sum(bytes) filter (where workspace = ?), 0)', file.workspace).as('workspace_bytes'),
            ])
            .where('owner_id', '=', file.ownerId),
        )
        .with('kept', () =>
          cteBody(
            `insert into a2a_artifact_files (task_id, idx, owner_id, workspace, bytes)
             select @taskId, @idx, @ownerId, @workspace, @bytes from used where used.owner_bytes + @bytes <= @perOwner and used.workspace_bytes + @bytes <= @perWorkspace
             on conflict (task_id, idx) do update set bytes = excluded.bytes
             returning 1`,
            { ...file, perOwner: budgets.perOwner, perWorkspace: budgets.perWorkspace },
          ),
        )
        .selectNoFrom(sql<boolean>`exists (select from kept)`.as('kept')),
    );
    return row.kept;
  });
}

/** Forgets a recorded file that was not attached after all. */
export async function releaseArtifactFile(em: EntityManager, file: Pick<ArtifactFile, 'taskId' | 'idx'>): Promise<void> {
  await sqlOf(em)(`delete from a2a_artifact_files where task_id = ? and idx = ?`, [file.taskId, file.idx]);
}

/** A context whose tasks have all ended, the newest more than the retention period ago. */
export interface ExpiredContext {
  principal: string;
  contextId: string;
  taskIds: string[];
}

/** Up to `limit` contexts whose every task is in `terminalStates` and whose newest status is older than `days` days. */
export async function expiredContexts(q: Query, terminalStates: readonly string[], days: number, limit: number): Promise<ExpiredContext[]> {
  const rows = await rowsOf(
    q,
    db
      .selectFrom('a2a_tasks')
      .select((eb) => ['principal', 'context_id', eb.fn.agg<string[]>('array_agg', ['id']).as('task_ids')])
      .groupBy(['principal', 'context_id'])
      .having(
        fragment<boolean>('bool_and(state = any(?::text[])) and max(status_at) < now() - make_interval(days => ?)', terminalStates, days),
      )
      .limit(limit),
  );
  return rows.map((row) => ({ principal: row.principal, contextId: row.context_id, taskIds: row.task_ids }));
}

/** Deletes the tasks (their messages, artifacts, turns, push configs and artifact files go with them). */
export async function deleteTasks(q: Query, taskIds: string[]): Promise<void> {
  await q(`delete from a2a_tasks where id = any(?::text[])`, [taskIds]);
}
