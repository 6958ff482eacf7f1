import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../../db/orm';
import { inTransaction, Query, sqlOf } from '../../../db/sql';
import { AppError, conflict, invalid, notFound } from '../../../errors';
import type { Logger } from '../../../logger';
import { SandboxProcess } from './jail';
import { RunRequest, Workspaces } from './workspace';
import {
  deleteJob,
  finishJob,
  findJob,
  heartbeatJobs,
  insertJobWithin,
  JobRow,
  JobState,
  listJobs,
  markStaleJobsLost,
} from './workspace-job.repository';

/** Where job logs go inside the workspace (the code can read them too). */
export const JOBS_DIR = 'jobs';
/** Bytes of a job's log its status carries. */
const OUTPUT_TAIL_BYTES = 4096;
const JOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A background job as any instance reports it. */
export interface JobStatus {
  id: string;
  workspace: string;
  state: JobState;
  exitCode: number | null;
  signal: string | null;
  startedAt: Date;
  finishedAt: Date | null;
  /** The log's path in the workspace, and its last 4 KiB (stdout and stderr interleaved). */
  logPath: string;
  outputTail: string;
}

export interface JobTiming {
  /** How often this instance refreshes its running jobs' heartbeat. */
  heartbeatSeconds: number;
  /** A running job not heartbeated for this long is `lost` (its instance died). */
  lostAfterSeconds: number;
}

export const DEFAULT_JOB_TIMING: JobTiming = { heartbeatSeconds: 15, lostAfterSeconds: 60 };

/**
 * Background jobs: code started in the sandbox apart from any request (same isolation and limits,
 * the wall time of `AGENT_JOB_TIMEOUT_SECONDS`), its output in a capped log in the workspace, its
 * state in PostgreSQL so that every instance can check it. The process belongs to the instance
 * that started it (bubblewrap's --die-with-parent): when that instance dies the job dies too, its
 * heartbeats stop, and any instance then reports it `lost`; it is never left `running`.
 */
export class WorkspaceJobs {
  /** This process's id in the jobs table. */
  readonly instanceId = randomUUID();
  private readonly live = new Map<string, { process: SandboxProcess; recorded: Promise<unknown> }>();
  private readonly listeners = new Set<(job: JobStatus) => void>();
  private readonly heartbeat: NodeJS.Timeout;
  private closing = false;

  constructor(
    private readonly workspaces: Workspaces,
    private readonly orm: Orm,
    private readonly logger: Logger,
    private readonly timing: JobTiming = DEFAULT_JOB_TIMING,
  ) {
    this.heartbeat = setInterval(() => {
      heartbeatJobs(this.sql(), this.instanceId, [...this.live.keys()]).catch((error: unknown) =>
        this.logger.warn('job heartbeat failed', { error: String(error) }),
      );
    }, timing.heartbeatSeconds * 1000);
    this.heartbeat.unref();
  }

  /**
   * Starts `request.code` as a background job of its workspace and answers it `running`. The
   * row is written first (within the workspace's job limit), then the sandbox started.
   * @throws as `Workspaces.run` (validation, the workspace cap, no sandbox or no free slot);
   *   CONFLICT when the workspace already runs `AGENT_JOBS_PER_WORKSPACE` jobs; UNAVAILABLE while shutting down.
   */
  async start(request: Omit<RunRequest, 'timeoutSeconds'>): Promise<JobStatus> {
    if (this.closing) throw new AppError('UNAVAILABLE', 'this instance is shutting down; start the job again shortly');
    const { config } = this.workspaces;
    const command = await this.workspaces.prepare(request, config.jobSeconds, config.jobSeconds);
    const id = randomUUID();
    const logPath = `${JOBS_DIR}/${id}.log`;
    const job = await inTransaction(this.orm.em.fork() as EntityManager, (q) =>
      insertJobWithin(
        q,
        { id, contextId: request.workspace, instanceId: this.instanceId, language: request.language, logPath },
        { maxRunning: config.jobsPerWorkspace, staleSeconds: this.timing.lostAfterSeconds },
      ),
    );
    if (!job)
      throw conflict(
        `this workspace already runs ${config.jobsPerWorkspace} background jobs; check them, and start another once one has finished`,
      );
    let handle: fsp.FileHandle | undefined;
    let child: SandboxProcess;
    try {
      // Through the confined open: earlier code may have made jobs/ a link to elsewhere.
      handle = await this.workspaces.openFile(
        request.workspace,
        logPath,
        fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL,
        { createParents: true, followLast: false },
      );
      const owner = this.workspaces.sandbox.switchTo;
      if (owner) await handle.chown(owner.uid, owner.gid);
      child = this.workspaces.sandbox.start(command);
    } catch (error) {
      if (handle) {
        await handle.close();
        await this.workspaces.remove(request.workspace, logPath).catch(() => undefined);
      }
      await deleteJob(this.sql(), id);
      throw error;
    }
    // Stops by itself when the job ends; a job killed for the cap ends `failed` (SIGKILL).
    this.workspaces.guardDisk(request.workspace, child);
    const log = handle;
    const logged = captureLog(child, fs.createWriteStream('', { fd: log.fd, autoClose: false }), config.jobLogBytes).finally(() =>
      log.close(),
    );
    const recorded = (async () => {
      const exit = await child.exited;
      await logged;
      const state: JobState = this.closing ? 'lost' : exit.timedOut ? 'timed_out' : exit.exitCode === 0 ? 'succeeded' : 'failed';
      const row = await finishJob(this.sql(), id, this.instanceId, { state, exitCode: exit.exitCode, signal: exit.signal });
      if (row) this.announce(await this.statusOf(row, request.workspace));
    })()
      .catch((error: unknown) => this.logger.error('recording a job failed', { jobId: id, error: String(error) }))
      .finally(() => this.live.delete(id));
    this.live.set(id, { process: child, recorded });
    return this.statusOf(job, request.workspace);
  }

  /**
   * A job of the workspace as it stands (a job whose instance stopped heartbeating is `lost`).
   * @throws NOT_FOUND when the workspace has no such job; VALIDATION_FAILED for a malformed id.
   */
  async check(contextId: string, jobId: string): Promise<JobStatus> {
    if (typeof jobId !== 'string' || !JOB_ID.test(jobId))
      throw invalid([{ path: ['jobId'], msg: 'a job id (a UUID)', type: 'value_error' }]);
    await this.workspaces.open(contextId);
    await markStaleJobsLost(this.sql(), contextId, this.timing.lostAfterSeconds);
    const row = await findJob(this.sql(), contextId, jobId);
    if (!row) throw notFound('job');
    return this.statusOf(row, contextId);
  }

  /** The workspace's jobs still running, on any instance: the A2A task stays WORKING while there are some. */
  async running(contextId: string): Promise<JobStatus[]> {
    await this.workspaces.open(contextId);
    await markStaleJobsLost(this.sql(), contextId, this.timing.lostAfterSeconds);
    return Promise.all((await listJobs(this.sql(), contextId, 'running')).map((row) => this.statusOf(row, contextId)));
  }

  /**
   * Calls `listener` when a job this instance runs ends (after its state is stored): the hook for
   * the completion push. Jobs of other instances are seen by `check`/`running`. Answers the unsubscribe.
   */
  onFinish(listener: (job: JobStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Shutdown: stops heartbeats and kills this instance's jobs, recorded as `lost` (they did not finish). */
  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.heartbeat);
    const jobs = [...this.live.values()];
    for (const job of jobs) job.process.kill();
    await Promise.all(jobs.map((job) => job.recorded));
  }

  private sql(): Query {
    return sqlOf(this.orm.em.fork());
  }

  private announce(job: JobStatus): void {
    for (const listener of this.listeners) {
      try {
        listener(job);
      } catch (error) {
        this.logger.error('job listener failed', { jobId: job.id, error: String(error) });
      }
    }
  }

  /** The last `bytes` of a workspace file as text ('' when it is gone or not a plain file inside: the code may remove or replace its log). */
  private async readTail(contextId: string, relPath: string, bytes: number): Promise<string> {
    const handle = await this.workspaces.openFile(contextId, relPath, fs.constants.O_RDONLY, { followLast: false }).catch(() => undefined);
    if (!handle) return '';
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) return '';
      const length = Math.min(bytes, stat.size);
      const buffer = Buffer.alloc(length);
      await handle.read(buffer, 0, length, stat.size - length);
      return buffer.toString('utf8');
    } finally {
      await handle.close();
    }
  }

  private async statusOf(row: JobRow, contextId: string): Promise<JobStatus> {
    return {
      id: row.id,
      workspace: row.contextId,
      state: row.state,
      exitCode: row.exitCode,
      signal: row.signal,
      startedAt: row.startedAt,
      finishedAt: row.finishedAt,
      logPath: row.logPath,
      outputTail: await this.readTail(contextId, row.logPath, OUTPUT_TAIL_BYTES),
    };
  }
}

/**
 * Writes the job's stdout and stderr to its log as they come, up to `limit` bytes; the rest is
 * counted and a last line says how much was dropped. Resolves once the log is closed.
 */
function captureLog(child: SandboxProcess, log: fs.WriteStream, limit: number): Promise<void> {
  let written = 0;
  let dropped = 0;
  const write = (chunk: Buffer) => {
    const room = Math.max(0, limit - written);
    if (room > 0) log.write(chunk.subarray(0, room));
    written += Math.min(room, chunk.length);
    dropped += Math.max(0, chunk.length - room);
  };
  child.stdout.on('data', write);
  child.stderr.on('data', write);
  return child.exited.then(
    () =>
      new Promise<void>((resolve) => {
        log.on('error', () => resolve());
        log.end(dropped > 0 ? `\n[… ${dropped} bytes of output dropped: the log keeps ${limit} bytes]\n` : '', () => resolve());
      }),
  );
}
