import type { Query } from '../db/sql';

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
  const [row] = await q<{ open: boolean }>(
    `select exists (select 1 from ${JOB_SCHEMA}.job
       where name = ? and state <= 'active' and policy = 'stately' and coalesce(singleton_key, '') = ?) as open`,
    [name, key],
  );
  return row.open;
}

export interface FetchedJob {
  id: string;
  data: object;
  expireInSeconds: number;
  retryCount: number;
}

/** pg-boss's own connection: statements with `$n` parameters. */
export interface JobDb {
  executeSql(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * Marks up to `limit` jobs of kind `name` that are due as running and answers them, oldest
 * first, one per key, skipping keys that already have a running job. pg-boss 10's own fetch
 * does not skip those: it takes the oldest due job, and when that one's key is running the
 * unique index fails the whole statement, so every other key waits behind it. Two instances
 * racing for one key still meet that index: the loser's statement fails (unique violation) and
 * it fetches again later. Retries count as pg-boss counts them (a job started before).
 */
export async function fetchDueJobs(db: JobDb, name: string, limit: number): Promise<FetchedJob[]> {
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
        set state = 'active', started_on = now(),
            retry_count = case when j.started_on is not null then j.retry_count + 1 else j.retry_count end
       from firsts
      where j.name = $1 and j.id = firsts.id and firsts.nth = 1
     returning j.id, j.data, extract(epoch from j.expire_in)::int as "expireInSeconds", j.retry_count as "retryCount"`,
    [name, limit],
  );
  return rows as FetchedJob[];
}
