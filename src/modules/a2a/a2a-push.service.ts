import type { EntityManager } from '@mikro-orm/postgresql';
import { randomString } from '../../ids';
import { inTransaction, Query, sqlOf } from '../../db/sql';
import { AppError, invalid, notFound } from '../../errors';
import type { JobQueue, JobRun } from '../../jobs/queue';
import { startPeriodic } from '../../jobs/periodic';
import type { Logger } from '../../logger';
import { forkEm, type Services } from '../../context';
import { checkOutboundUrl, guardedFetch, OutboundRefused, OutboundRequestFailed, userUrlPolicy } from '../../net/outbound';
import * as repo from './a2a-push.repository';
import { PushConfigRow } from './a2a-push.repository';
import { AttemptVerdict, retryDelaySeconds, verdictOf } from './a2a-push.policy';
import * as taskRepo from './a2a-task.repository';
import { taskNotFound, wireTask } from './a2a-task.service';
import type { A2aPrincipal } from './a2a-gate.service';
import { canUseA2aWebTools } from './a2a.policy';
import type { Viewer } from '../auth/auth.service';

/** The job kind that drains a task's push deliveries (its key is the task id: one task's deliveries in order, one instance at a time). */
export const A2A_PUSH_JOB = 'a2a-push';
/**
 * Deliveries of each config one job run attempts at most: with at most 10 configs, 20 POSTs of
 * at most 10 s each, well inside the run's time-out; the dispatcher queues the rest next.
 */
const DELIVERIES_PER_CONFIG_PER_RUN = 2;
/** A cut-off run (instance stopped, time-out) is tried again; a delivery's own retries are the outbox's (`next_attempt_at`). */
const PUSH_JOB = { timeoutSeconds: 300, retries: 2, retryDelaySeconds: 5, concurrency: 4 };
/** How often each instance looks for due deliveries without a job (a state change, a retry coming due, a job lost). */
const DISPATCH_SECONDS = 1;
/** Finished deliveries are kept this long (for an operator to look at), then removed; looked for this often. */
export const FINISHED_DELIVERY_KEEP_DAYS = 7;
const CLEANUP_EVERY_MS = 3600_000;
/** Per POST: A2A recommends 10–30 s; the receiver's answer body is not needed, so little of it is read. */
const PUSH_LIMITS = { timeoutMs: 10_000, maxResponseBytes: 64 * 1024 };
/** Configs one task may have (counted under the task's row lock). */
export const MAX_CONFIGS_PER_TASK = 10;

type PushServices = Pick<Services, 'orm' | 'config' | 'sealer' | 'jobs' | 'outboundLookup'>;
type Wire = Record<string, unknown>;

/** A config the caller sent, validated by the facade (`facade/rpc.ts`): the members the methods read. */
export interface PushConfigInput {
  id?: string;
  url: string;
  token?: string;
  authentication?: { scheme: string; credentials?: string };
}

/** A config whose URL passed the guard, with its secrets sealed: ready to be stored on a task. */
export interface PreparedPushConfig {
  id: string | undefined;
  url: string;
  tokenSealed: string | null;
  authScheme: string | null;
  authCredentialsSealed: string | null;
  /** What the caller gets back (the credentials never). */
  token: string | undefined;
}

const configNotFound = () => new AppError('NOT_FOUND', 'push notification config not found', { a2aReason: 'TASK_NOT_FOUND' });

/** The guard's policy for webhook URLs: private addresses only with A2A_PUSH_ALLOW_PRIVATE (metadata and the service itself never). */
const pushPolicy = (services: PushServices, field: (string | number)[]) => userUrlPolicy(services, services.config.a2aPushAllowPrivate, field);

/**
 * Checks a config's URL with the outbound guard (resolving its host once) and seals its token
 * and credentials, before any transaction is opened.
 * @throws VALIDATION_FAILED (JSON-RPC -32602) with an issue at `field` + `url` when the guard refuses the URL
 */
export async function preparePushConfig(services: PushServices, input: PushConfigInput, field: string[] = []): Promise<PreparedPushConfig> {
  await checkOutboundUrl(input.url, pushPolicy(services, [...field, 'url']));
  const token = input.token ? input.token : undefined;
  const credentials = input.authentication?.credentials || undefined;
  return {
    id: input.id || undefined,
    url: input.url,
    tokenSealed: token === undefined ? null : services.sealer.seal(token),
    authScheme: input.authentication?.scheme ?? null,
    authCredentialsSealed: credentials === undefined ? null : services.sealer.seal(credentials),
    token,
  };
}

/**
 * Stores a prepared config on a task whose row the caller has locked (so the count holds),
 * replacing the task's config of the same id. With `deliverCurrentState`, a task already in a
 * pushed state (terminal or interrupted) gets one delivery of that state to this config, so a
 * config registered after the change still hears of it.
 * @throws VALIDATION_FAILED when the task has MAX_CONFIGS_PER_TASK configs already
 */
export async function savePushConfig(q: Query, task: { id: string; state: string }, prepared: PreparedPushConfig, options: { deliverCurrentState: boolean; field?: string[] }): Promise<Wire> {
  const id = prepared.id ?? `pnc_${randomString(24)}`;
  if (!(await repo.configExists(q, task.id, id)) && (await repo.countConfigs(q, task.id)) >= MAX_CONFIGS_PER_TASK) {
    throw invalid([{ path: [...(options.field ?? []), 'taskId'], msg: `the task has ${MAX_CONFIGS_PER_TASK} push notification configs already; delete one first`, type: 'value_error' }]);
  }
  const row: PushConfigRow = { taskId: task.id, id, url: prepared.url, tokenSealed: prepared.tokenSealed, authScheme: prepared.authScheme, authCredentialsSealed: prepared.authCredentialsSealed };
  await repo.upsertConfig(q, row);
  if (options.deliverCurrentState && taskRepo.SETTLED_STATES.includes(task.state)) await repo.enqueueCurrentStatus(q, task.id, id);
  return wireConfig(row, prepared.token);
}

/** A config on the wire (A2A `TaskPushNotificationConfig`): the token as registered, the credentials never. */
function wireConfig(row: PushConfigRow, token: string | undefined): Wire {
  return { id: row.id, taskId: row.taskId, url: row.url, ...(token ? { token } : {}), ...(row.authScheme ? { authentication: { scheme: row.authScheme } } : {}) };
}

function wireStored(services: PushServices, row: PushConfigRow): Wire {
  return wireConfig(row, row.tokenSealed ? services.sealer.open(row.tokenSealed) : undefined);
}

/**
 * CreateTaskPushNotificationConfig: registers (or, for a known id, replaces) a config on the
 * principal's task. A task already terminal or interrupted gets one delivery of that state.
 * @throws NOT_FOUND (TASK_NOT_FOUND) for an unknown or another principal's task; VALIDATION_FAILED for a refused URL or too many configs
 */
export async function createPushConfig(services: PushServices, principal: A2aPrincipal, params: Wire): Promise<Wire> {
  const taskId = params.taskId as string;
  // Whose task it is first: a stranger's task costs no DNS lookup and tells nothing.
  if (!(await taskRepo.findTask(sqlOf(forkEm(services)), principal.id, taskId))) throw taskNotFound(taskId);
  const prepared = await preparePushConfig(services, params as unknown as PushConfigInput);
  return inTransaction(forkEm(services), async (q) => {
    const task = await taskRepo.findTask(q, principal.id, taskId, true);
    if (!task) throw taskNotFound(taskId);
    return savePushConfig(q, task, prepared, { deliverCurrentState: true });
  });
}

/**
 * GetTaskPushNotificationConfig.
 * @throws NOT_FOUND (TASK_NOT_FOUND) for an unknown or foreign task, or an unknown config
 */
export async function getPushConfig(services: PushServices, principal: A2aPrincipal, params: Wire): Promise<Wire> {
  const q = sqlOf(forkEm(services));
  if (!(await taskRepo.findTask(q, principal.id, params.taskId as string))) throw taskNotFound(params.taskId as string);
  const row = await repo.findConfig(q, params.taskId as string, params.id as string);
  if (!row) throw configNotFound();
  return wireStored(services, row);
}

const pageTokenOf = (id: string) => Buffer.from(id, 'utf8').toString('base64url');

/**
 * ListTaskPushNotificationConfigs: the task's configs in id order, `pageSize` at a time (all by default).
 * @throws NOT_FOUND (TASK_NOT_FOUND) for an unknown or foreign task
 */
export async function listPushConfigs(services: PushServices, principal: A2aPrincipal, params: Wire): Promise<Wire> {
  const q = sqlOf(forkEm(services));
  if (!(await taskRepo.findTask(q, principal.id, params.taskId as string))) throw taskNotFound(params.taskId as string);
  const pageSize = (params.pageSize as number | undefined) || MAX_CONFIGS_PER_TASK;
  const after = typeof params.pageToken === 'string' && params.pageToken !== '' ? Buffer.from(params.pageToken, 'base64url').toString('utf8') : undefined;
  const rows = await repo.listConfigs(q, params.taskId as string, pageSize + 1, after);
  const page = rows.slice(0, pageSize);
  return { configs: page.map((row) => wireStored(services, row)), nextPageToken: rows.length > pageSize ? pageTokenOf(page[page.length - 1].id) : '' };
}

/**
 * DeleteTaskPushNotificationConfig: the config and its pending deliveries go. Idempotent: an
 * unknown config id on the principal's task answers as a deleted one.
 * @throws NOT_FOUND (TASK_NOT_FOUND) for an unknown or foreign task
 */
export async function deletePushConfig(services: PushServices, principal: A2aPrincipal, params: Wire): Promise<null> {
  const q = sqlOf(forkEm(services));
  if (!(await taskRepo.findTask(q, principal.id, params.taskId as string))) throw taskNotFound(params.taskId as string);
  await repo.deleteConfig(q, params.taskId as string, params.id as string);
  return null;
}

/**
 * A task's configs for the A2A owner's web tools (GraphQL `a2aTaskPushConfigs`): whether a
 * token is set and the scheme, never the token or the credentials.
 * @throws NOT_FOUND for an unknown task, and for every task when the viewer may not use the web tools
 */
export async function ownerPushConfigs(em: EntityManager, viewer: Viewer, owner: string | null, taskId: string): Promise<{ id: string; taskId: string; url: string; hasToken: boolean; authScheme: string | null }[]> {
  const q = sqlOf(em);
  const task = await taskRepo.findTaskById(q, taskId);
  if (!task || !canUseA2aWebTools(viewer, owner)) throw notFound('task');
  const rows = await repo.listConfigs(q, taskId, MAX_CONFIGS_PER_TASK);
  return rows.map((row) => ({ id: row.id, taskId: row.taskId, url: row.url, hasToken: row.tokenSealed !== null, authScheme: row.authScheme }));
}

/**
 * Registers the delivery job where A2A is enabled, and starts this instance's dispatcher: every
 * second it queues a job for each task with a due delivery and no job (pg-boss keeps one per
 * task, so whichever instance fetches it is the only one delivering). Returns the dispatcher's stop.
 */
export function registerA2aPushJobs(queue: JobQueue, services: Services, enabled: boolean, logger: Logger): { startDispatcher(): () => Promise<void> } {
  if (!enabled) return { startDispatcher: () => async () => undefined };
  queue.register<{ taskId: string }>(A2A_PUSH_JOB, PUSH_JOB, (data, run) => deliverPending(services, data.taskId, run, logger));
  // The first tick of each instance cleans up; then once an hour (each instance: the delete is idempotent).
  let cleanedAt = 0;
  return {
    startDispatcher: () =>
      startPeriodic('A2A push dispatch', DISPATCH_SECONDS, async () => {
        const q = sqlOf(forkEm(services));
        for (const taskId of await repo.tasksToDispatch(q, A2A_PUSH_JOB, 100)) await services.jobs.send(A2A_PUSH_JOB, taskId, { taskId });
        if (Date.now() - cleanedAt >= CLEANUP_EVERY_MS) {
          cleanedAt = Date.now();
          await repo.deleteFinishedDeliveries(q, FINISHED_DELIVERY_KEEP_DAYS);
        }
      }, logger),
  };
}

/**
 * One run for a task: each config's pending deliveries in order, stopping at the first that
 * must wait (its retry not yet due, or it failed now and waits for its retry), so one receiver
 * never sees a later state before an earlier one.
 */
async function deliverPending(services: Services, taskId: string, run: JobRun, logger: Logger): Promise<void> {
  const q = sqlOf(forkEm(services));
  const byConfig = new Map<string, repo.PendingDelivery[]>();
  for (const delivery of await repo.pendingDeliveries(q, taskId, DELIVERIES_PER_CONFIG_PER_RUN)) {
    byConfig.set(delivery.configId, [...(byConfig.get(delivery.configId) ?? []), delivery]);
  }
  for (const deliveries of byConfig.values()) {
    for (const delivery of deliveries) {
      if (!delivery.due || (await attemptDelivery(services, q, delivery.id, run, logger)) === 'retry') break;
    }
  }
}

/**
 * POSTs one delivery (config and task read again: a config deleted meanwhile is not called)
 * through the guard, checked again now, and records the attempt.
 */
async function attemptDelivery(services: Services, q: Query, deliveryId: string, run: JobRun, logger: Logger): Promise<AttemptVerdict | 'gone'> {
  const found = await repo.deliveryWithConfig(q, deliveryId);
  const task = found && (await taskRepo.findTaskById(q, found.delivery.taskId));
  if (!found || !task) return 'gone';
  const { delivery, config } = found;
  const artifacts = (await taskRepo.artifactsOf(q, [task.id])).get(task.id);
  // The status the task entered (a later change has its own delivery); artifacts as they are now.
  const body = { task: wireTask({ ...task, state: delivery.state, statusMessage: delivery.statusMessage, statusAt: delivery.statusAt }, undefined, artifacts, services.config.publicUrl) };
  let outcome: Parameters<typeof verdictOf>[0];
  let error: string | null = null;
  try {
    const headers: Record<string, string> = { 'content-type': 'application/a2a+json' };
    if (config.tokenSealed) headers['x-a2a-notification-token'] = services.sealer.open(config.tokenSealed);
    if (config.authScheme) headers.authorization = [config.authScheme, config.authCredentialsSealed ? services.sealer.open(config.authCredentialsSealed) : ''].join(' ').trim();
    const target = await checkOutboundUrl(config.url, pushPolicy(services, ['url']));
    const response = await guardedFetch(target, { method: 'POST', headers, body: JSON.stringify(body), signal: run.signal }, PUSH_LIMITS);
    await response.body?.cancel().catch(() => undefined);
    outcome = { status: response.status };
    if (response.status < 200 || response.status >= 300) error = `the receiver answered HTTP ${response.status}`;
  } catch (failure) {
    if (run.signal.aborted) throw failure; // cut off: not an attempt; the run is retried
    if (failure instanceof OutboundRefused) (outcome = { refused: true }), (error = failure.reason);
    else if (failure instanceof OutboundRequestFailed) (outcome = { unreachable: true }), (error = failure.message);
    else {
      logger.error('A2A push delivery failed', { deliveryId, error: failure instanceof Error ? failure.stack : String(failure) });
      (outcome = { refused: true }), (error = 'the delivery failed on an internal error');
    }
  }
  const attempts = delivery.attempts + 1;
  const verdict = verdictOf(outcome, attempts);
  await repo.recordAttempt(q, delivery.id, { outcome: verdict === 'retry' ? null : verdict, error, retryInSeconds: verdict === 'retry' ? retryDelaySeconds(attempts) : 0 });
  return verdict;
}
