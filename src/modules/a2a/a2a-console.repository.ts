import { dateOf, type Query } from '../../db/sql';

// Reads only the console shows: who gave a task and when each message was stored. They are not
// part of the A2A model, so the A2A answers (GetTask, streams, pushes) never pay for them.

/** Who gave a task: the key it came with (none for the open loopback endpoint) and the A2A owner it ran for. */
export interface TaskCallerRow {
  taskId: string;
  principal: string;
  keyLabel: string | null;
  keyRevokedAt: Date | null;
  ownerName: string | null;
}

/** The callers of `taskIds`, in that order (null for a task that does not exist). */
export async function taskCallers(q: Query, taskIds: readonly string[]): Promise<(TaskCallerRow | null)[]> {
  const rows = await q<Omit<TaskCallerRow, 'keyRevokedAt'> & { keyRevokedAt: string | null }>(
    `select t.id as "taskId", t.principal, k.label as "keyLabel", k.revoked_at as "keyRevokedAt", u.name as "ownerName"
       from a2a_tasks t
       left join a2a_keys k on t.principal = 'key:' || k.id
       left join users u on u.id = t.owner_id
      where t.id = any(?::text[])`,
    [[...taskIds]],
  );
  const byId = new Map(rows.map((row) => [row.taskId, { ...row, keyRevokedAt: dateOf(row.keyRevokedAt) }]));
  return taskIds.map((id) => byId.get(id) ?? null);
}

/** A message of a task, by the id its sender chose. */
export interface MessageKey {
  taskId: string;
  messageId: string;
}

/**
 * When each message was stored (null when there is no such message). A sender may reuse a
 * message id within a task: the first one stored answers.
 */
export async function messageTimes(q: Query, keys: readonly MessageKey[]): Promise<(Date | null)[]> {
  const rows = await q<{ taskId: string; messageId: string; at: string }>(
    `select m.task_id as "taskId", m.message->>'messageId' as "messageId", min(m.created_at) as at
       from a2a_messages m
      where m.task_id = any(?::text[]) and m.message->>'messageId' = any(?::text[])
      group by 1, 2`,
    [[...new Set(keys.map((key) => key.taskId))], [...new Set(keys.map((key) => key.messageId))]],
  );
  const at = new Map(rows.map((row) => [`${row.taskId} ${row.messageId}`, dateOf(row.at)]));
  return keys.map((key) => at.get(`${key.taskId} ${key.messageId}`) ?? null);
}
