import type { EntityManager } from '@mikro-orm/postgresql';
import { inTransaction, Query, sqlOf } from '../../db/sql';

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
    const [row] = await q<{ kept: boolean }>(
      `with used as (
         select coalesce(sum(bytes), 0) as owner_bytes, coalesce(sum(bytes) filter (where workspace = ?), 0) as workspace_bytes
           from a2a_artifact_files where owner_id = ?
       ), kept as (
         insert into a2a_artifact_files (task_id, idx, owner_id, workspace, bytes)
         select ?, ?, ?, ?, ? from used where used.owner_bytes + ? <= ? and used.workspace_bytes + ? <= ?
         on conflict (task_id, idx) do update set bytes = excluded.bytes
         returning 1
       )
       select exists (select from kept) as kept`,
      [
        file.workspace,
        file.ownerId,
        file.taskId,
        file.idx,
        file.ownerId,
        file.workspace,
        file.bytes,
        file.bytes,
        budgets.perOwner,
        file.bytes,
        budgets.perWorkspace,
      ],
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
  return q<ExpiredContext>(
    `select principal, context_id as "contextId", array_agg(id) as "taskIds" from a2a_tasks
      group by principal, context_id
     having bool_and(state = any(?::text[])) and max(status_at) < now() - make_interval(days => ?)
      limit ?`,
    [terminalStates, days, limit],
  );
}

/** Deletes the tasks (their messages, artifacts, turns, push configs and artifact files go with them). */
export async function deleteTasks(q: Query, taskIds: string[]): Promise<void> {
  await q(`delete from a2a_tasks where id = any(?::text[])`, [taskIds]);
}
