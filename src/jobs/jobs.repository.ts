import type { Query } from '../db/sql';
import { JOB_SCHEMA } from './queue';

/**
 * Whether a job of kind `name` for `key` is queued, waiting for a retry or running (pg-boss's
 * job table; the stately policy's unique index covers exactly these states and this lookup).
 */
export async function hasOpenJob(q: Query, name: string, key: string): Promise<boolean> {
  const [row] = await q<{ open: boolean }>(
    `select exists (select 1 from ${JOB_SCHEMA}.job
       where name = ? and state <= 'active' and policy = 'stately' and coalesce(singleton_key, '') = ?) as open`,
    [name, key],
  );
  return row.open;
}
