import type { Query } from '../../../db/sql';
import { dateOf } from '../../../db/sql';

export const JOB_STATES = ['running', 'succeeded', 'failed', 'timed_out', 'lost'] as const;
export type JobState = (typeof JOB_STATES)[number];

/** A background job as stored: who runs it and how it ended. */
export interface JobRow {
  id: string;
  contextId: string;
  instanceId: string;
  language: string;
  state: JobState;
  exitCode: number | null;
  signal: string | null;
  /** The job's log, relative to its workspace. */
  logPath: string;
  startedAt: Date;
  heartbeatAt: Date;
  finishedAt: Date | null;
}

const COLUMNS = `id, context_id, instance_id, language, state, exit_code, signal, log_path, started_at, heartbeat_at, finished_at`;

const toJob = (row: Record<string, unknown>): JobRow => ({
  id: row.id as string,
  contextId: row.context_id as string,
  instanceId: row.instance_id as string,
  language: row.language as string,
  state: row.state as JobState,
  exitCode: row.exit_code as number | null,
  signal: row.signal as string | null,
  logPath: row.log_path as string,
  startedAt: dateOf(row.started_at)!,
  heartbeatAt: dateOf(row.heartbeat_at)!,
  finishedAt: dateOf(row.finished_at),
});

/**
 * Inserts a running job unless its context already has `maxRunning` running (stale ones are
 * marked lost first). The context's advisory lock, held to the transaction's end, makes the
 * count and the insert one step for every instance. Answers undefined when at the limit.
 */
export async function insertJobWithin(
  q: Query,
  job: { id: string; contextId: string; instanceId: string; language: string; logPath: string },
  limits: { maxRunning: number; staleSeconds: number },
): Promise<JobRow | undefined> {
  await q(`select pg_advisory_xact_lock(hashtext('agent_workspace_jobs'), hashtext(?))`, [job.contextId]);
  await markStaleJobsLost(q, job.contextId, limits.staleSeconds);
  const [{ running }] = await q<{ running: number }>(
    `select count(*)::int as running from agent_workspace_jobs where context_id = ? and state = 'running'`,
    [job.contextId],
  );
  if (running >= limits.maxRunning) return undefined;
  const [row] = await q(
    `insert into agent_workspace_jobs (id, context_id, instance_id, language, log_path) values (?, ?, ?, ?, ?) returning ${COLUMNS}`,
    [job.id, job.contextId, job.instanceId, job.language, job.logPath],
  );
  return toJob(row);
}

/** Forgets a job whose sandbox could not be started (no slot free): it never ran. */
export async function deleteJob(q: Query, id: string): Promise<void> {
  await q(`delete from agent_workspace_jobs where id = ?`, [id]);
}

/**
 * Records how a job ended. Only the instance that ran it does; its outcome replaces a `lost`
 * another instance concluded while heartbeats were late.
 */
export async function finishJob(
  q: Query,
  id: string,
  instanceId: string,
  end: { state: JobState; exitCode: number | null; signal: string | null },
): Promise<JobRow | undefined> {
  const [row] = await q(
    `update agent_workspace_jobs set state = ?, exit_code = ?, signal = ?, finished_at = now()
      where id = ? and instance_id = ? and state in ('running', 'lost') returning ${COLUMNS}`,
    [end.state, end.exitCode, end.signal, id, instanceId],
  );
  return row ? toJob(row) : undefined;
}

/** Keeps this instance's running jobs alive in everyone's eyes. */
export async function heartbeatJobs(q: Query, instanceId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await q(`update agent_workspace_jobs set heartbeat_at = now() where instance_id = ? and state = 'running' and id = any(?::uuid[])`, [
    instanceId,
    ids,
  ]);
}

/** Running jobs of a context whose instance stopped heartbeating `staleSeconds` ago become `lost`, in one statement. */
export async function markStaleJobsLost(q: Query, contextId: string, staleSeconds: number): Promise<void> {
  await q(
    `update agent_workspace_jobs set state = 'lost', finished_at = now()
      where context_id = ? and state = 'running' and heartbeat_at < now() - make_interval(secs => ?)`,
    [contextId, staleSeconds],
  );
}

export async function findJob(q: Query, contextId: string, id: string): Promise<JobRow | undefined> {
  const [row] = await q(`select ${COLUMNS} from agent_workspace_jobs where context_id = ? and id = ?`, [contextId, id]);
  return row ? toJob(row) : undefined;
}

export async function listJobs(q: Query, contextId: string, state?: JobState): Promise<JobRow[]> {
  const rows = await q(
    `select ${COLUMNS} from agent_workspace_jobs where context_id = ? and (?::text is null or state = ?) order by started_at, id limit 1000`,
    [contextId, state ?? null, state ?? null],
  );
  return rows.map(toJob);
}
