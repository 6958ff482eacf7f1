import type { Query, SqlPart } from '../db/sql';

/** The PostgreSQL schema pg-boss keeps its queues and jobs in (it creates and migrates it itself). */
export const JOB_SCHEMA = 'pgboss';

/**
 * The SQL the job queue adds to pg-boss 10 (pinned: these statements know its `job` table). Its
 * `stately` policy keeps one queued, one retrying and one running job per key with a unique
 * index; the queries here read that state and fetch around it.
 */

/**
 * Whether a job of kind `name` for `key` is queued, waiting for a retry or running (the states
 * the stately policy's unique index covers).
 */
export async function hasOpenJob(q: Query, name: string, key: string): Promise<boolean> {
  const [row] = await q<{ open: boolean }>(`select ${openJobExists('?')} as open`, [name, key]);
  return row.open;
}

/**
 * SQL: whether a job of the kind given by the next `?` parameter has an open job (queued, waiting
 * for its retry or running) keyed by `keySql` (a parameter or a column of the outer query).
 */
export const openJobExists = (keySql: string) =>
  `exists (select 1 from ${JOB_SCHEMA}.job j where j.name = ? and j.state <= 'active' and j.policy = 'stately' and coalesce(j.singleton_key, '') = ${keySql})`;

export interface FetchedJob {
  id: string;
  data: object;
  expireInSeconds: number;
  retryCount: number;
}

/** pg-boss's own connection: statements with `$n` parameters. */
export interface JobDb {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * Marks up to `limit` jobs of kind `name` that are due as running and answers them, oldest
 * first, one per key, skipping keys that already have a running job. pg-boss 10's own fetch
 * does not skip those: it takes the oldest due job, and when that one's key is running the
 * unique index fails the whole statement, so every other key waits behind it. Two instances
 * racing for one key still meet that index: the loser's statement fails (unique violation) and
 * it fetches again later. Retries count as pg-boss counts them (a job started before).
 */
export async function fetchDueJobs(db: JobDb, name: string, limit: number, instanceId: string): Promise<FetchedJob[]> {
  const { rows } = await db.executeSql(
    `with due as (
       select j.id, j.singleton_key, j.priority, j.created_on from ${JOB_SCHEMA}.job j
        where j.name = $1 and j.state < 'active' and j.start_after < now()
          and not exists (select 1 from ${JOB_SCHEMA}.job a
                           where a.name = $1 and a.state = 'active' and a.policy = 'stately'
                             and coalesce(a.singleton_key, '') = coalesce(j.singleton_key, ''))
        order by j.priority desc, j.created_on, j.id
        limit $2
        for update skip locked
     ), firsts as (
       select id, row_number() over (partition by coalesce(singleton_key, '') order by priority desc, created_on, id) as nth from due
     )
     update ${JOB_SCHEMA}.job j
        set state = 'active', started_on = now(), output = jsonb_build_object('instance', $3::text),
            retry_count = case when j.started_on is not null then j.retry_count + 1 else j.retry_count end
       from firsts
      where j.name = $1 and j.id = firsts.id and firsts.nth = 1
     returning j.id, j.data, extract(epoch from j.expire_in)::int as "expireInSeconds", j.retry_count as "retryCount"`,
    [name, limit, instanceId],
  );
  return rows as FetchedJob[];
}

/**
 * SQL inserting a job of kind `name` for `key` already running on `instanceId` (as
 * `fetchDueJobs` would have marked it), with the queue's retry and time-out settings, as
 * pg-boss's own insert takes them: the durable claim of a job this instance runs at once. It
 * returns the job's `FetchedJob` columns, or no row when a job of that key is running already
 * (the stately policy's unique index), so the caller queues it instead. A statement of its own
 * or a CTE in the caller's (`?` parameters).
 */
export const claimJobSql = (name: string, key: string, data: object, instanceId: string): SqlPart => ({
  sql: `insert into ${JOB_SCHEMA}.job (name, data, singleton_key, state, started_on, output, expire_in, keep_until, retry_limit, retry_delay, retry_backoff, policy)
     select q.name, ?::jsonb, ?, 'active', now(), jsonb_build_object('instance', ?::text),
            coalesce(q.expire_seconds, 900) * interval '1 second',
            now() + coalesce(q.retention_minutes * 60, 14 * 86400) * interval '1 second',
            coalesce(q.retry_limit, 2),
            case when coalesce(q.retry_backoff, false) then greatest(coalesce(q.retry_delay, 0), 1) else coalesce(q.retry_delay, 0) end,
            coalesce(q.retry_backoff, false), q.policy
       from ${JOB_SCHEMA}.queue q where q.name = ?
     on conflict do nothing
     returning id, data, extract(epoch from expire_in)::int as "expireInSeconds", retry_count as "retryCount"`,
  params: [JSON.stringify(data), key, instanceId, name],
});

/**
 * SQL marking a running job completed (as pg-boss's `complete` does), for the statement that
 * records what the job did: the job ends with its work's commit, in one.
 */
export const completeJobSql = (name: string, id: string): SqlPart => ({
  sql: `update ${JOB_SCHEMA}.job set completed_on = now(), state = 'completed' where name = ? and id = ?::uuid and state = 'active'`,
  params: [name, id],
});

/** Records that the instance is alive (its heartbeat). */
export async function beatInstance(db: JobDb, instanceId: string): Promise<void> {
  await db.executeSql(`insert into public.job_instances (id) values ($1) on conflict (id) do update set seen_at = now()`, [instanceId]);
}

/** An instance that stops cleanly leaves no row (its running attempts were aborted and recorded); rows of long-dead instances go too. */
export async function forgetInstance(db: JobDb, instanceId: string): Promise<void> {
  await db.executeSql(`delete from public.job_instances where id = $1 or seen_at < now() - interval '1 day'`, [instanceId]);
}

export interface OrphanedJob {
  id: string;
  name: string;
  data: object;
  /** What the job became: `retry` (it runs again) or `failed` (no attempt left). */
  state: string;
}

/** The columns of pg-boss 10's `job` table a failed-over job keeps (all but its state, start, end and output). */
const KEPT_JOB_COLUMNS =
  'id, name, priority, data, retry_limit, retry_count, retry_delay, retry_backoff, started_on, singleton_key, singleton_on, expire_in, created_on, keep_until, dead_letter, policy';

/**
 * Fails over the running jobs of kinds `names` whose instance has not beaten for `staleSeconds`
 * (the instance recorded in the job's `output` at fetch), in one statement, as pg-boss 10's
 * maintenance fails a job that timed out: one with an attempt left is retried (after its delay,
 * with backoff), one without, or whose key has a retry waiting already (the stately policy's
 * unique index), is failed, and a failed job with a dead-letter queue is copied there. Like
 * pg-boss, it deletes the row and inserts it again in its new state, so that the unique index
 * decides between retry and failure. Two sweeping instances do not both take a job: the second
 * finds its row deleted. A job taken meanwhile by a live instance carries that instance and is
 * left alone.
 */
export async function failOverOrphanedJobs(db: JobDb, names: string[], staleSeconds: number): Promise<OrphanedJob[]> {
  const output = `'{"value": {"message": "job failed over: its instance stopped"}}'::jsonb`;
  const { rows } = await db.executeSql(
    `with orphaned as (
       delete from ${JOB_SCHEMA}.job j
        where j.name = any($1) and j.state = 'active' and j.output ? 'instance'
          and not exists (select 1 from public.job_instances i where i.id::text = j.output->>'instance' and i.seen_at > now() - make_interval(secs => $2))
        returning j.*
     ), retried as (
       insert into ${JOB_SCHEMA}.job (${KEPT_JOB_COLUMNS}, state, start_after, completed_on, output)
       select ${KEPT_JOB_COLUMNS}, 'retry',
              case when not retry_backoff then now() + retry_delay * interval '1 second'
                   else now() + (retry_delay * 2 ^ least(16, retry_count + 1) / 2
                                 + retry_delay * 2 ^ least(16, retry_count + 1) / 2 * random()) * interval '1 second' end,
              null, ${output}
         from orphaned where retry_count < retry_limit
       on conflict do nothing
       returning id, name, data, state
     ), failed as (
       insert into ${JOB_SCHEMA}.job (${KEPT_JOB_COLUMNS}, state, start_after, completed_on, output)
       select ${KEPT_JOB_COLUMNS}, 'failed', start_after, now(), ${output}
         from orphaned where id not in (select id from retried)
       returning id, name, data, state, dead_letter, retry_limit, keep_until, start_after
     ), dead_lettered as (
       insert into ${JOB_SCHEMA}.job (name, data, output, retry_limit, keep_until)
       select dead_letter, data, ${output}, retry_limit, keep_until + (keep_until - start_after)
         from failed where dead_letter is not null and name <> dead_letter
     )
     select id, name, data, state::text from retried union all select id, name, data, state::text from failed`,
    [names, staleSeconds],
  );
  return rows as OrphanedJob[];
}

/** Jobs by kind and state (queued: created or waiting for a retry), for the metrics; none before pg-boss made its schema. */
export async function jobCounts(q: Query): Promise<{ queue: string; state: string; count: number }[]> {
  const [{ exists }] = await q<{ exists: boolean }>(`select to_regclass('${JOB_SCHEMA}.job') is not null as exists`);
  if (!exists) return [];
  return q(
    `select name as queue, case when state in ('created', 'retry') then 'queued' else state::text end as state, count(*)::int as count
     from ${JOB_SCHEMA}.job where state in ('created', 'retry', 'active', 'failed') group by 1, 2`,
  );
}
