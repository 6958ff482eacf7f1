import { sql } from 'kysely';
import { dateOf, type Query } from '../../db/sql';
import { condition, db, rowsOf } from '../../db/typed-sql';

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
  const rows = await rowsOf(
    q,
    db
      .selectFrom('a2a_tasks as t')
      .leftJoin('a2a_keys as k', (join) => join.on(sql<boolean>`t.principal = 'key:' || k.id`))
      .leftJoin('users as u', 'u.id', 't.owner_id')
      .select(['t.id', 't.principal', 'k.label', 'k.revoked_at', 'u.name'])
      .where(condition('t.id = any(?::text[])', [...taskIds])),
  );
  const byId = new Map(
    rows.map((row) => [
      row.id,
      { taskId: row.id, principal: row.principal, keyLabel: row.label, keyRevokedAt: dateOf(row.revoked_at), ownerName: row.name },
    ]),
  );
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
  const rows = await rowsOf(
    q,
    db
      .selectFrom('a2a_messages as m')
      .select((eb) => ['m.task_id', sql<string>`m.message->>'messageId'`.as('message_id'), eb.fn.min('m.created_at').as('at')])
      .where(
        condition(
          `m.task_id = any(?::text[]) and m.message->>'messageId' = any(?::text[])`,
          [...new Set(keys.map((key) => key.taskId))],
          [...new Set(keys.map((key) => key.messageId))],
        ),
      )
      .groupBy(sql`1, 2`),
  );
  const at = new Map(rows.map((row) => [`${row.task_id} ${row.message_id}`, dateOf(row.at)]));
  return keys.map((key) => at.get(`${key.taskId} ${key.messageId}`) ?? null);
}
