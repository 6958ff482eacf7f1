import { type Selection, sql } from 'kysely';
import type { Database } from '../../db/database';
import type { Query } from '../../db/sql';
import { condition, db, firstRowOf, fragment, rowsOf } from '../../db/typed-sql';
import { A2A_MESSAGE } from './a2a-task.repository';
import type { A2aMessage } from './a2a.types';

/** A push config as stored: the token and the credentials sealed (never in clear in the database). */
export interface PushConfigRow {
  taskId: string;
  id: string;
  url: string;
  tokenSealed: string | null;
  authScheme: string | null;
  authCredentialsSealed: string | null;
}

const CONFIG_COLUMNS = ['task_id', 'id', 'url', 'token_sealed', 'auth_scheme', 'auth_credentials_sealed'] as const;
type ConfigColumns = Selection<Database, 'a2a_push_configs', (typeof CONFIG_COLUMNS)[number]>;
const toConfig = (row: ConfigColumns): PushConfigRow => ({
  taskId: row.task_id,
  id: row.id,
  url: row.url,
  tokenSealed: row.token_sealed,
  authScheme: row.auth_scheme,
  authCredentialsSealed: row.auth_credentials_sealed,
});

/** Inserts the config, or replaces the one of the same task and id (the a2a-js store's upsert). Returns whether it was new. */
export async function upsertConfig(q: Query, config: PushConfigRow): Promise<boolean> {
  const [row] = await rowsOf(
    q,
    db
      .insertInto('a2a_push_configs')
      .values({
        task_id: config.taskId,
        id: config.id,
        url: config.url,
        token_sealed: config.tokenSealed,
        auth_scheme: config.authScheme,
        auth_credentials_sealed: config.authCredentialsSealed,
      })
      .onConflict((conflict) =>
        conflict.columns(['task_id', 'id']).doUpdateSet((eb) => ({
          url: eb.ref('excluded.url'),
          token_sealed: eb.ref('excluded.token_sealed'),
          auth_scheme: eb.ref('excluded.auth_scheme'),
          auth_credentials_sealed: eb.ref('excluded.auth_credentials_sealed'),
          updated_at: sql<string>`now()`,
        })),
      )
      // A row the insert made has no deleting transaction yet; one the update replaced has.
      .returning(sql<boolean>`(xmax = 0)`.as('inserted')),
  );
  return row.inserted;
}

export async function countConfigs(q: Query, taskId: string): Promise<number> {
  const [row] = await rowsOf(
    q,
    db
      .selectFrom('a2a_push_configs')
      .select(sql<number>`count(*)::int`.as('count'))
      .where('task_id', '=', taskId),
  );
  return row.count;
}

export async function configExists(q: Query, taskId: string, id: string): Promise<boolean> {
  const row = await firstRowOf(
    q,
    db.selectFrom('a2a_push_configs').select(sql.lit(1).as('one')).where('task_id', '=', taskId).where('id', '=', id),
  );
  return row !== undefined;
}

export async function findConfig(q: Query, taskId: string, id: string): Promise<PushConfigRow | null> {
  const row = await firstRowOf(
    q,
    db.selectFrom('a2a_push_configs').select(CONFIG_COLUMNS).where('task_id', '=', taskId).where('id', '=', id),
  );
  return row ? toConfig(row) : null;
}

/** A task's configs in id order, after `afterId`, at most `limit`. */
export async function listConfigs(q: Query, taskId: string, limit: number, afterId?: string): Promise<PushConfigRow[]> {
  const rows = await rowsOf(
    q,
    db
      .selectFrom('a2a_push_configs')
      .select(CONFIG_COLUMNS)
      .where('task_id', '=', taskId)
      .where(condition('?::text is null or id > ?', afterId ?? null, afterId ?? null))
      .orderBy('id')
      .limit(limit),
  );
  return rows.map(toConfig);
}

/** Deletes the config; its pending deliveries go with it (foreign key cascade), so it gets no more POSTs. */
export async function deleteConfig(q: Query, taskId: string, id: string): Promise<void> {
  await q(`delete from a2a_push_configs where task_id = ? and id = ?`, [taskId, id]);
}

/** Queues a delivery of the task's current status to one config (the trigger does this for a state change). */
export async function enqueueCurrentStatus(q: Query, taskId: string, configId: string): Promise<void> {
  await q(
    `insert into a2a_push_deliveries (task_id, config_id, state, status_message, status_at) select id, ?, state, status_message, status_at from a2a_tasks where id = ?`,
    [configId, taskId],
  );
}

/** A delivery still to make, with what it is sent to (read again before every attempt). */
export interface PendingDelivery {
  id: string;
  taskId: string;
  configId: string;
  state: string;
  statusMessage: A2aMessage | null;
  statusAt: Date;
  attempts: number;
}

/** Whether any delivery is due (one indexed look, outside any transaction: an idle outbox costs no claim lock). */
export async function anyDue(q: Query): Promise<boolean> {
  const [row] = await rowsOf(
    q,
    db.selectNoFrom(
      sql<boolean>`exists (select 1 from a2a_push_deliveries where outcome is null and next_attempt_at <= now() and (claimed_until is null or claimed_until <= now()))`.as(
        'due',
      ),
    ),
  );
  return row.due;
}

/**
 * Takes the claim lock until the transaction ends: one claimer at a time over all instances, so
 * the in-flight counts `claimDeliveries` reads (in its own statement, after the lock, so with a
 * snapshot that sees every claim committed before) cannot be outrun by another claimer's.
 */
export async function lockClaims(q: Query): Promise<void> {
  await q(`select pg_advisory_xact_lock(hashtext('a2a_push_deliveries'), hashtext('claim'))`);
}

/**
 * Claims up to `limit` due deliveries for attempt `claim` until `leaseSeconds` from now, and
 * answers their ids. A delivery is due when its retry time has come, no live claim holds it, and
 * it is its config's oldest pending one (a later one waits while an earlier one is in flight or
 * waits for its retry). A2A keys (the task's principal) take turns: each key's oldest due
 * delivery first, then each key's second, and so on, and a key gets no more than `perKey`
 * deliveries in flight (live claims, over all instances) counting those it holds already.
 * Call it under `lockClaims`.
 */
export async function claimDeliveries(
  q: Query,
  claim: { id: string; perKey: number; limit: number; leaseSeconds: number },
): Promise<string[]> {
  const rows = await rowsOf(
    q,
    db
      .with(
        'in_flight',
        () =>
          sql`(select t.principal, count(*)::int as n from a2a_push_deliveries d join a2a_tasks t on t.id = d.task_id
                where d.outcome is null and d.claimed_until > now() group by t.principal)`,
      )
      .with(
        'due',
        () =>
          sql`(select d.id, t.principal, row_number() over (partition by t.principal order by d.id) as nth
                 from a2a_push_deliveries d join a2a_tasks t on t.id = d.task_id
                where d.outcome is null and d.next_attempt_at <= now() and (d.claimed_until is null or d.claimed_until <= now())
                  and not exists (select 1 from a2a_push_deliveries e where e.task_id = d.task_id and e.config_id = d.config_id and e.outcome is null and e.id < d.id))`,
      )
      .with('chosen', () =>
        fragment<{ id: string }>(
          `(select due.id from due left join in_flight f on f.principal = due.principal
             where due.nth + coalesce(f.n, 0) <= ?
             order by due.nth, due.id limit ?)`,
          claim.perKey,
          claim.limit,
        ),
      )
      .updateTable('a2a_push_deliveries as d')
      .set({
        claim: fragment<string>('?::uuid', claim.id),
        claimed_until: fragment<string>('now() + make_interval(secs => ?)', claim.leaseSeconds),
      })
      .from('chosen')
      .where(
        sql<boolean>`d.id = chosen.id and d.outcome is null and d.next_attempt_at <= now() and (d.claimed_until is null or d.claimed_until <= now())`,
      )
      // A bigint: as text, which the driver answers for it anyway.
      .returning(sql<string>`d.id::text`.as('id')),
  );
  return rows.map((row) => row.id);
}

/**
 * The delivery with its config, while `claim` still holds it (a lapsed claim may have passed it
 * to another attempt) and both still exist (a deleted config takes its deliveries along).
 */
export async function deliveryWithConfig(
  q: Query,
  id: string,
  claim: string,
): Promise<{ delivery: PendingDelivery; config: PushConfigRow } | null> {
  const row = await firstRowOf(
    q,
    db
      .selectFrom('a2a_push_deliveries as d')
      .innerJoin('a2a_push_configs as c', (join) => join.onRef('c.task_id', '=', 'd.task_id').onRef('c.id', '=', 'd.config_id'))
      .select([
        // A bigint: as text, which the driver answers for it anyway.
        sql<string>`d.id::text`.as('id'),
        'd.task_id',
        'd.config_id',
        'd.state',
        'd.status_message',
        'd.status_at',
        'd.attempts',
        'c.url',
        'c.token_sealed',
        'c.auth_scheme',
        'c.auth_credentials_sealed',
      ])
      .where('d.id', '=', id)
      .where(condition('d.claim = ?::uuid', claim))
      .where('d.outcome', 'is', null),
  );
  if (!row) return null;
  return {
    delivery: {
      id: row.id,
      taskId: row.task_id,
      configId: row.config_id,
      state: row.state,
      statusMessage: row.status_message === null ? null : A2A_MESSAGE.parse(row.status_message),
      statusAt: new Date(row.status_at),
      attempts: row.attempts,
    },
    config: {
      taskId: row.task_id,
      id: row.config_id,
      url: row.url,
      tokenSealed: row.token_sealed,
      authScheme: row.auth_scheme,
      authCredentialsSealed: row.auth_credentials_sealed,
    },
  };
}

/**
 * Records one attempt of the delivery `claim` holds, and lets it go: delivered, failed for good,
 * or to be tried again after `retryInSeconds`. Nothing happens when the claim lapsed and another
 * attempt took the delivery over: that one's record counts.
 */
export async function recordAttempt(
  q: Query,
  id: string,
  claim: string,
  result: { outcome: 'delivered' | 'failed' | null; error: string | null; retryInSeconds?: number },
): Promise<void> {
  await q(
    `update a2a_push_deliveries set attempts = attempts + 1, last_error = ?, outcome = ?::text,
       finished_at = case when ?::text is null then null else now() end,
       next_attempt_at = now() + make_interval(secs => ?), claim = null, claimed_until = null
     where id = ? and claim = ?::uuid and outcome is null`,
    [result.error, result.outcome, result.outcome, result.retryInSeconds ?? 0, id, claim],
  );
}

/** Lets a claimed delivery go without an attempt (it was cut off): it is due again at once, for any instance. */
export async function releaseClaim(q: Query, id: string, claim: string): Promise<void> {
  await q(`update a2a_push_deliveries set claim = null, claimed_until = null where id = ? and claim = ?::uuid`, [id, claim]);
}

/** Removes deliveries that finished (delivered, or failed for good) more than `keepDays` ago: the outbox is a queue, not a log. */
export async function deleteFinishedDeliveries(q: Query, keepDays: number): Promise<number> {
  const rows = await rowsOf(
    q,
    db.deleteFrom('a2a_push_deliveries').where(condition('finished_at < now() - make_interval(days => ?)', keepDays)).returning('id'),
  );
  return rows.length;
}
