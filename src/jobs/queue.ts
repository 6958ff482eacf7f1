import { randomUUID } from 'node:crypto';
import { context, type Context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import PgBoss from 'pg-boss';
import type { JobSettings } from '../config';
import { AppError, isUniqueViolation } from '../errors';
import type { Logger } from '../logger';
import { numbered, type SqlPart } from '../db/sql';
import {
  beatInstance,
  claimJobSql,
  completeJobSql,
  failOverOrphanedJobs,
  FetchedJob,
  fetchDueJobs,
  forgetInstance,
  JOB_SCHEMA,
} from './jobs.repository';

/** pg-boss's own connections per instance (fetching, completing and sending jobs), beside DATABASE_POOL_SIZE. */
export const JOB_POOL_SIZE = 2;
/** How often an idle instance asks for work; a send on the same instance wakes it at once. */
const POLL_SECONDS = 2;
/** How often (at most; less when a job kind's time-out is shorter) one of the instances fails over the jobs of dead instances and archives old ones. */
const MAINTENANCE_SECONDS = 60;
/**
 * The member of a job's data that carries the trace context (W3C `traceparent`) of the request
 * that queued it, when traces are on (docs/operations.md, "Traces"): the job's attempts, on any
 * instance, are spans of that request's trace. The handlers never see it.
 */
const TRACE_CONTEXT = '_trace';
/** The OpenTelemetry API without a registered SDK (traces off) makes no spans and injects nothing. */
const tracer = trace.getTracer('labdesk');

export interface JobRun {
  id: string;
  /** 1 for the first attempt. */
  attempt: number;
  /** Aborted at the attempt's time-out and when this instance stops: the work must end then. */
  signal: AbortSignal;
  /** SQL marking the job completed, for the statement that records the work's end; call `completed` once that committed. */
  completion: SqlPart;
  /** The work's last statement completed the job (`completion`): the queue does not complete it again. */
  completed(): void;
  /**
   * What the request that claimed the job here handed its attempt in memory (`LocalSlot.run`),
   * so the work need not read back what that request just wrote; absent in a fetched attempt
   * (a queued job, a retry, a takeover), which reads its state from the database.
   */
  handOff?: unknown;
}

/** A slot taken on this instance for one job (`JobQueue.takeSlot`). */
export interface LocalSlot {
  /** A CTE body (`?` parameters) inserting the job running here; it returns the `FetchedJob` columns, or no row when a job of its key is running. */
  claim: SqlPart;
  /** Runs the claimed job, its attempt handed `handOff` (`JobRun.handOff`); its end. */
  run(job: FetchedJob, handOff?: unknown): Promise<void>;
  /** Gives the slot back unused. */
  giveBack(): void;
}

export interface QueueOptions extends JobSettings {
  /** Jobs of this kind one instance runs at once. */
  concurrency: number;
}

type Handler<T> = (data: T, run: JobRun) => Promise<void>;
/** Told that a job's last attempt died with its instance (no handler ran to record it): what the job was for must say so. */
type LostHandler<T> = (data: T) => Promise<void>;

/**
 * Durable background jobs on PostgreSQL (pg-boss): a named kind has one handler; a job is sent
 * with a key, and at most one job per key runs at a time, with at most one more queued behind it
 * (and one waiting for its retry): pg-boss's `stately` policy, enforced by a unique index, and a
 * fetch that skips keys with a running job. Jobs survive restarts and run on whichever instance
 * fetches them first; a failed attempt is retried with exponential backoff, then the job is
 * dead (`failed`). An attempt is cancelled (its signal aborted) at its time-out or when this
 * instance stops. Each instance beats in `job_instances`; the attempts of an instance that
 * stopped beating for `instanceTimeoutSeconds` (killed, frozen, cut off) are failed over by any
 * other instance, so they are retried (or, with no attempt left, reported to the kind's `lost`
 * handler) within about that time rather than at their time-out.
 */
export class JobQueue {
  private boss!: PgBoss;
  /** This process's id in `job_instances` and in the jobs it runs. */
  readonly instanceId = randomUUID();
  private readonly kinds = new Map<string, { options: QueueOptions; handler: Handler<never>; lost?: LostHandler<never> }>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly running = new Set<AbortController>();
  /** Attempts running on this instance per kind, fetched or claimed (`runHere`): what the kind's concurrency bounds. */
  private readonly busy = new Map<string, number>();
  private readonly wakers = new Map<string, () => void>();
  /** Kinds sent to since their loop last fetched: a send during a fetch must not wait for the poll. */
  private readonly sentSinceFetch = new Set<string>();
  private loops: Promise<void>[] = [];
  private started = false;
  private stopping = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly logger: Logger,
    /** How long an instance may go without a heartbeat before its running jobs are failed over (`JOB_INSTANCE_TIMEOUT_SECONDS`). */
    private readonly instanceTimeoutSeconds = 60,
  ) {}

  /** Names the handler of a kind of job, and what to do when a job's last attempt died with its instance; before `start`. */
  register<T extends object>(name: string, options: QueueOptions, handler: Handler<T>, lost?: LostHandler<T>): void {
    if (this.started) throw new Error(`job kind ${name} registered after the queue started`);
    this.kinds.set(name, { options, handler: handler, lost: lost });
  }

  /** Creates pg-boss's schema (or migrates it) and the queues, then works on them until `stop`. */
  async start(): Promise<void> {
    if (this.kinds.size === 0) return; // nothing to run here: no pool, no schema, no polling
    const timeouts = [...this.kinds.values()].map(({ options }) => options.timeoutSeconds);
    this.boss = new PgBoss({
      connectionString: this.databaseUrl,
      schema: JOB_SCHEMA,
      max: JOB_POOL_SIZE,
      schedule: false, // no cron jobs: no timekeeper polling
      // A dead instance's job is failed over once its time-out has passed, at the next maintenance.
      maintenanceIntervalSeconds: Math.min(MAINTENANCE_SECONDS, ...timeouts),
    });
    this.boss.on('error', (error) => this.logger.warn('job queue error', { error: String(error) }));
    await this.boss.start();
    await beatInstance(this.boss.getDb(), this.instanceId);
    this.started = true;
    this.every(this.instanceTimeoutSeconds / 6, () => beatInstance(this.boss.getDb(), this.instanceId), 'job heartbeat failed');
    this.every(this.instanceTimeoutSeconds / 2, () => this.failOverDeadInstances(), 'failing over the jobs of dead instances failed');
    for (const [name, { options }] of this.kinds) {
      await this.boss.createQueue(name, { name, policy: 'stately', ...this.retryPolicy(options) });
      this.loops.push(this.work(name));
    }
  }

  /**
   * Queues a job of kind `name` for `key`. False when one is already queued for that key (it
   * will run after any running one and sees the same state, so nothing is lost).
   * @throws UNAVAILABLE when the database did not take it
   */
  async send(name: string, key: string, data: object): Promise<boolean> {
    const kind = this.kinds.get(name);
    if (!kind) throw new Error(`no handler for job kind ${name}`);
    const id = await this.boss
      .send(name, withTraceContext(data), { singletonKey: key, ...this.retryPolicy(kind.options) })
      .catch((error: unknown) => {
        this.logger.error('job could not be queued', { queue: name, error: String(error) });
        throw new AppError('UNAVAILABLE', 'the job queue is unavailable; try again');
      });
    this.sentSinceFetch.add(name);
    this.wakers.get(name)?.();
    return id !== null;
  }

  /**
   * A slot of kind `name` taken on this instance for a job of `key`, to run it here at once
   * without the queue's round trip: `claim` inserts the job running here (put it in the statement
   * that stores what the job is for, so both commit together), then `run` runs it with the row
   * the claim returned (its outcome recorded as for a fetched job; if this instance dies the job
   * is failed over and retried elsewhere, with the registered handler). Null, with nothing
   * taken, when the kind's slots here are all busy. The slot is held until `run` ends or
   * `giveBack` (the claim's statement failed or returned no row: a job of `key` is running).
   */
  takeSlot(name: string, key: string, data: object): LocalSlot | null {
    const kind = this.kinds.get(name);
    if (!kind) throw new Error(`no handler for job kind ${name}`);
    if (!this.started || this.stopping || (this.busy.get(name) ?? 0) >= kind.options.concurrency) return null;
    this.busy.set(name, (this.busy.get(name) ?? 0) + 1);
    let held = true;
    const giveBack = () => {
      if (held) this.freeSlot(name);
      held = false;
    };
    return {
      claim: claimJobSql(name, key, withTraceContext(data), this.instanceId),
      run: (job, handOff) => {
        if (!held) throw new Error('a job slot runs one job');
        held = false;
        return this.attempt(name, job, kind.handler, true, handOff);
      },
      giveBack,
    };
  }

  /**
   * `takeSlot` with the claim as a statement of its own: the job running here, or null (nothing
   * run or stored) when no slot is free or a job of `key` is running: `send` it then.
   * @throws UNAVAILABLE when the database did not take the claim
   */
  async runHere(name: string, key: string, data: object): Promise<{ ended: Promise<void> } | null> {
    const slot = this.takeSlot(name, key, data);
    if (!slot) return null;
    const claimed = await this.boss
      .getDb()
      .executeSql(numbered(slot.claim.sql), slot.claim.params)
      .catch((error: unknown) => {
        slot.giveBack();
        this.logger.error('job could not be claimed', { queue: name, error: String(error) });
        throw new AppError('UNAVAILABLE', 'the job queue is unavailable; try again');
      });
    const job = claimed.rows[0] as FetchedJob | undefined;
    if (!job) slot.giveBack();
    return job ? { ended: slot.run(job) } : null;
  }

  /** Stops fetching, aborts running attempts (they are retried, here after a restart or elsewhere), then closes the pool. */
  async stop(): Promise<void> {
    if (this.stopping || !this.started) return;
    this.stopping = true;
    for (const wake of this.wakers.values()) wake();
    for (const timer of this.timers) clearInterval(timer);
    for (const controller of this.running) controller.abort(new Error('the service stopped before the job finished'));
    await Promise.allSettled(this.loops);
    await forgetInstance(this.boss.getDb(), this.instanceId).catch((error: unknown) =>
      this.logger.warn('job instance row not removed', { error: String(error) }),
    );
    await this.boss.stop({ graceful: false, close: true });
  }

  private every(seconds: number, work: () => Promise<unknown>, failure: string): void {
    const timer = setInterval(
      () => void work().catch((error: unknown) => this.logger.warn(failure, { error: String(error) })),
      Math.max(1000, seconds * 1000),
    );
    timer.unref();
    this.timers.push(timer);
  }

  /** Retries (or reports lost) the jobs of instances that stopped beating. */
  private async failOverDeadInstances(): Promise<void> {
    const jobs = await failOverOrphanedJobs(this.boss.getDb(), [...this.kinds.keys()], this.instanceTimeoutSeconds);
    for (const job of jobs) {
      this.logger.warn('job failed over: its instance stopped', { queue: job.name, job: job.id, now: job.state });
      const lost = this.kinds.get(job.name)?.lost;
      if (job.state === 'failed' && lost)
        await lost(traceContextOf(job.data).data as never).catch((error: unknown) =>
          this.logger.error('recording a lost job failed', { queue: job.name, job: job.id, error: String(error) }),
        );
    }
  }

  private retryPolicy(options: QueueOptions) {
    return {
      retryLimit: options.retries,
      retryDelay: options.retryDelaySeconds,
      retryBackoff: true,
      expireInSeconds: options.timeoutSeconds,
    };
  }

  /**
   * One loop per kind on each instance: fetch while a slot is free, else wait for a slot, a send
   * or the poll interval. A fetch that fills fewer slots than it asked for found all that was
   * due: the loop waits then rather than asking again at once (a send made meanwhile still
   * fetches at once).
   */
  private async work(name: string): Promise<void> {
    const { options, handler } = this.kinds.get(name)!;
    const active = new Set<Promise<void>>();
    while (!this.stopping) {
      // Slots taken by jobs run here at once (`runHere`) count too.
      const wanted = options.concurrency - (this.busy.get(name) ?? 0);
      if (wanted > 0) {
        this.sentSinceFetch.delete(name);
        const jobs = await fetchDueJobs(this.boss.getDb(), name, wanted, this.instanceId).catch((error: unknown) => {
          // A unique violation is another instance that took a job of the same key at the same moment.
          if (!isUniqueViolation(error)) this.logger.warn('job fetch failed', { queue: name, error: String(error) });
          return [];
        });
        for (const job of jobs) {
          const run: Promise<void> = this.attempt(name, job, handler).finally(() => active.delete(run));
          active.add(run);
        }
        if (jobs.length === wanted || (this.sentSinceFetch.has(name) && (this.busy.get(name) ?? 0) < options.concurrency)) continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, POLL_SECONDS * 1000);
        this.wakers.set(name, () => {
          clearTimeout(timer);
          resolve();
        });
        void Promise.race(active).then(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    await Promise.allSettled(active);
  }

  /**
   * Runs one attempt of `job` in a slot of its kind (`slotTaken`: by `takeSlot`, else taken here),
   * as a span `job <name>` in the trace of the request that queued the job, if any.
   */
  private attempt(name: string, job: FetchedJob, handler: Handler<never>, slotTaken = false, handOff?: unknown): Promise<void> {
    const { data, parent } = traceContextOf(job.data);
    const attributes = { 'labdesk.job.queue': name, 'labdesk.job.id': job.id, 'labdesk.job.attempt': job.retryCount + 1 };
    return tracer.startActiveSpan(`job ${name}`, { kind: SpanKind.CONSUMER, attributes }, parent, async (span) => {
      try {
        if (!(await this.runAttempt(name, { ...job, data }, handler, slotTaken, handOff)))
          span.setStatus({ code: SpanStatusCode.ERROR, message: 'the attempt failed' });
      } finally {
        span.end();
      }
    });
  }

  /** `attempt` itself: whether the attempt succeeded (a failure is recorded on the job, for a retry or for good). */
  private async runAttempt(
    name: string,
    job: FetchedJob,
    handler: Handler<never>,
    slotTaken: boolean,
    handOff?: unknown,
  ): Promise<boolean> {
    const controller = new AbortController();
    const expiresAt = Date.now() + job.expireInSeconds * 1000;
    // Cancelled a little before its row expires, so that it is failed here (once) rather than by maintenance.
    const timer = setTimeout(
      () => controller.abort(new Error('the job timed out')),
      job.expireInSeconds * 1000 - Math.min(5000, job.expireInSeconds * 100),
    );
    this.running.add(controller);
    if (!slotTaken) this.busy.set(name, (this.busy.get(name) ?? 0) + 1);
    let completedWithWork = false;
    let outcome: { failed?: string } | undefined;
    try {
      await handler(job.data as never, {
        id: job.id,
        attempt: job.retryCount + 1,
        signal: controller.signal,
        completion: completeJobSql(name, job.id),
        completed: () => (completedWithWork = true),
        handOff,
      });
      if (!completedWithWork) outcome = {};
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.logger.warn('job attempt failed', { queue: name, job: job.id, attempt: job.retryCount + 1, error: message });
      // The handler's own record of the failure is what callers see; pg-boss keeps the message for operators.
      outcome = { failed: message };
    } finally {
      clearTimeout(timer);
      this.running.delete(controller);
    }
    try {
      if (outcome) await this.recordOutcome(name, job.id, outcome, expiresAt);
    } finally {
      this.freeSlot(name);
    }
    return outcome?.failed === undefined;
  }

  /**
   * Marks the attempt completed or failed (then pg-boss retries it). While the database does not
   * answer (a restart) it tries again until the job's row would expire: an attempt that ended is
   * not left active until then (15 minutes for an A2A turn, its task WORKING all along).
   */
  private async recordOutcome(name: string, id: string, outcome: { failed?: string }, expiresAt: number): Promise<void> {
    for (let waitMs = 250; ; waitMs = Math.min(waitMs * 2, 5000)) {
      try {
        if (outcome.failed === undefined) await this.boss.complete(name, id);
        else await this.boss.fail(name, id, { message: outcome.failed });
        return;
      } catch (error) {
        if (this.stopping || Date.now() + waitMs >= expiresAt) {
          this.logger.error('job outcome could not be recorded (it expires and is retried)', {
            queue: name,
            job: id,
            error: String(error),
          });
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, waitMs));
      }
    }
  }

  private freeSlot(name: string): void {
    const wasFull = this.busy.get(name)! >= this.kinds.get(name)!.options.concurrency;
    this.busy.set(name, this.busy.get(name)! - 1);
    // The kind's loop waits on its own attempts only: when all slots were taken, one came free for it.
    if (wasFull) this.wakers.get(name)?.();
  }
}

/** `data` with the active trace context, when traces are on and a span is active (a request's, a job's); else `data` itself. */
function withTraceContext(data: object): object {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return Object.keys(carrier).length ? { ...data, [TRACE_CONTEXT]: carrier } : data;
}

/**
 * A job's data as its handler reads it, and the context its attempt's span starts in: the trace
 * context the data carries, else the active one (a job run here at once runs in its request).
 */
function traceContextOf(jobData: object): { data: object; parent: Context } {
  if (!(TRACE_CONTEXT in jobData)) return { data: jobData, parent: context.active() };
  const { [TRACE_CONTEXT]: carrier, ...data } = jobData as Record<string, unknown>;
  const parent = carrier && typeof carrier === 'object' ? propagation.extract(ROOT_CONTEXT, carrier) : context.active();
  return { data, parent };
}
