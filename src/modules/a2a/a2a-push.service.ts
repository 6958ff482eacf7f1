import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { randomString } from '../../ids';
import { inTransaction, preparedOf, Query, sqlOf } from '../../db/sql';
import { A2aError, invalid, notFound } from '../../errors';
import type { Logger } from '../../logger';
import { countPushAttempt } from '../../metrics';
import { forkEm, type Services } from '../../context';
import { checkOutboundUrl, guardedFetch, OutboundRefused, OutboundRequestFailed, userUrlPolicy } from '../../net/outbound';
import * as repo from './a2a-push.repository';
import { PushConfigRow } from './a2a-push.repository';
import { retryDelaySeconds, verdictOf } from './a2a-push.policy';
import * as taskRepo from './a2a-task.repository';
import { taskNotFound, taskOf } from './a2a-task.wire';
import { protoJson } from './a2a-proto-json';
import { MAX_CONFIGS_PER_TASK, Rules } from './a2a-rules';
import { SETTLED_STATES } from './a2a-states';
import type { A2aPushConfig, A2aPushConfigList } from './a2a.types';
import type { A2aPushConfigInput } from './a2a.inputs';
import type { A2aPrincipal } from './a2a-caller';

/**
 * Deliveries (POSTs) one instance makes at once, over all A2A keys. One key has at most
 * A2A_PUSH_CONCURRENCY_PER_KEY in flight over all instances (at most 8, half of these), so one
 * key's slow receivers never take every slot: the other keys' deliveries go on beside them.
 */
const DELIVERY_SLOTS = 16;
/**
 * How long a claim holds a delivery: far beyond what an attempt takes (its host resolved in at
 * most 5 s, the POST at most 10 s), so only the claim of an instance that died or stalled lapses;
 * the delivery is then due again for any instance (at least once: a stalled attempt may still POST).
 */
const CLAIM_SECONDS = 60;
/** How often an instance with a free slot looks for due deliveries (a state change, a retry coming due, a claim lapsed). */
const POLL_MS = 1000;
/** Finished deliveries are kept this long (for an operator to look at), then removed; looked for this often. */
export const FINISHED_DELIVERY_KEEP_DAYS = 7;
const CLEANUP_EVERY_MS = 3600_000;
/** Per POST: A2A recommends 10–30 s; the receiver's answer body is not needed, so little of it is read. */
const PUSH_LIMITS = { timeoutMs: 10_000, maxResponseBytes: 64 * 1024 };

type PushServices = Pick<Services, 'orm' | 'config' | 'sealer' | 'outboundLookup'>;

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

const configNotFound = () => new A2aError('TASK_NOT_FOUND', 'push notification config not found');

/** The guard's policy for webhook URLs: private addresses only with A2A_PUSH_ALLOW_PRIVATE (metadata and the service itself never). */
const pushPolicy = (services: PushServices, field: (string | number)[]) =>
  userUrlPolicy(services, services.config.a2aPushAllowPrivate, field);

/**
 * Checks a config's URL with the outbound guard (resolving its host once) and seals its token
 * and credentials, before any transaction is opened. A host that does not resolve now is
 * accepted (a receiver behind split DNS, a resolver down for a moment): every delivery runs the
 * guard again, and one that still cannot resolve it is retried like an unreachable receiver.
 * @throws VALIDATION_FAILED (JSON-RPC -32602) with an issue at `field` + `url` when the guard refuses the URL
 */
export async function preparePushConfig(
  services: PushServices,
  input: A2aPushConfigInput,
  field: string[] = [],
): Promise<PreparedPushConfig> {
  await checkOutboundUrl(input.url, pushPolicy(services, [...field, 'url'])).catch((refused: unknown) => {
    if (!(refused instanceof OutboundRefused && refused.kind === 'unresolvable')) throw refused;
  });
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
export async function savePushConfig(
  q: Query,
  task: { id: string; state: string },
  prepared: PreparedPushConfig,
  options: { deliverCurrentState: boolean; field?: string[] },
): Promise<A2aPushConfig> {
  const id = prepared.id ?? `pnc_${randomString(24)}`;
  if (!(await repo.configExists(q, task.id, id)) && (await repo.countConfigs(q, task.id)) >= MAX_CONFIGS_PER_TASK) {
    throw invalid([
      {
        path: [...(options.field ?? []), 'taskId'],
        msg: `the task has ${MAX_CONFIGS_PER_TASK} push notification configs already; delete one first`,
        type: 'value_error',
      },
    ]);
  }
  const row: PushConfigRow = {
    taskId: task.id,
    id,
    url: prepared.url,
    tokenSealed: prepared.tokenSealed,
    authScheme: prepared.authScheme,
    authCredentialsSealed: prepared.authCredentialsSealed,
  };
  await repo.upsertConfig(q, row);
  if (options.deliverCurrentState && SETTLED_STATES.includes(task.state)) await repo.enqueueCurrentStatus(q, task.id, id);
  return configOf(row, prepared.token);
}

/** A config as A2A shows it (`TaskPushNotificationConfig`): the token as registered, the credentials never. */
function configOf(row: PushConfigRow, token: string | undefined): A2aPushConfig {
  return { id: row.id, taskId: row.taskId, url: row.url, token, authentication: row.authScheme ? { scheme: row.authScheme } : null };
}

function storedConfigOf(services: PushServices, row: PushConfigRow): A2aPushConfig {
  return configOf(row, row.tokenSealed ? services.sealer.open(row.tokenSealed) : undefined);
}

/** The principal's task, or the same NOT_FOUND for an unknown and a stranger's. */
async function requireTask(q: Query, principal: A2aPrincipal, taskId: string): Promise<void> {
  if (!(await taskRepo.findTask(q, principal.id, taskId))) throw taskNotFound(taskId);
}

/**
 * CreateTaskPushNotificationConfig: registers (or, for a known id, replaces) a config on the
 * principal's task. A task already terminal or interrupted gets one delivery of that state.
 * @throws NOT_FOUND (TASK_NOT_FOUND) for an unknown or another principal's task; VALIDATION_FAILED for a refused URL or too many configs
 */
export async function createPushConfig(services: PushServices, principal: A2aPrincipal, input: A2aPushConfigInput): Promise<A2aPushConfig> {
  const rules = new Rules();
  rules.id(input.taskId, ['taskId'], 'a task id', true);
  rules.pushConfig(input, []);
  rules.check();
  const taskId = input.taskId!;
  // Whose task it is first: a stranger's task costs no DNS lookup and tells nothing.
  await requireTask(sqlOf(forkEm(services)), principal, taskId);
  const prepared = await preparePushConfig(services, input);
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
export async function getPushConfig(services: PushServices, principal: A2aPrincipal, taskId: string, id: string): Promise<A2aPushConfig> {
  const q = sqlOf(forkEm(services));
  await requireTask(q, principal, taskId);
  const row = await repo.findConfig(q, taskId, id);
  if (!row) throw configNotFound();
  return storedConfigOf(services, row);
}

const pageTokenOf = (id: string) => Buffer.from(id, 'utf8').toString('base64url');

/**
 * ListTaskPushNotificationConfigs: the task's configs in id order, `pageSize` at a time (all by
 * default; 0, the proto's default, is all too).
 * @throws NOT_FOUND (TASK_NOT_FOUND) for an unknown or foreign task; VALIDATION_FAILED for a page size out of range
 */
export async function listPushConfigs(
  services: PushServices,
  principal: A2aPrincipal,
  taskId: string,
  pageSize: number | null | undefined,
  pageToken: string | null | undefined,
): Promise<A2aPushConfigList> {
  const rules = new Rules();
  rules.range(pageSize, ['pageSize'], [0, MAX_CONFIGS_PER_TASK]);
  rules.check();
  const q = sqlOf(forkEm(services));
  await requireTask(q, principal, taskId);
  const size = pageSize || MAX_CONFIGS_PER_TASK;
  const after = pageToken ? Buffer.from(pageToken, 'base64url').toString('utf8') : undefined;
  const rows = await repo.listConfigs(q, taskId, size + 1, after);
  const page = rows.slice(0, size);
  return {
    configs: page.map((row) => storedConfigOf(services, row)),
    nextPageToken: rows.length > size ? pageTokenOf(page[page.length - 1].id) : '',
  };
}

/**
 * DeleteTaskPushNotificationConfig: the config and its pending deliveries go. Idempotent: an
 * unknown config id on the principal's task answers as a deleted one.
 * @throws NOT_FOUND (TASK_NOT_FOUND) for an unknown or foreign task
 */
export async function deletePushConfig(services: PushServices, principal: A2aPrincipal, taskId: string, id: string): Promise<void> {
  const q = sqlOf(forkEm(services));
  await requireTask(q, principal, taskId);
  await repo.deleteConfig(q, taskId, id);
}

/**
 * A task's configs for the A2A owner's web tools (GraphQL `a2aTaskPushConfigs`): whether a
 * token is set and the scheme, never the token or the credentials.
 * The caller authorizes first (`mayUseWebTools`).
 * @throws NOT_FOUND for an unknown task
 */
export async function ownerPushConfigs(
  em: EntityManager,
  taskId: string,
): Promise<{ id: string; taskId: string; url: string; hasToken: boolean; authScheme: string | null }[]> {
  const q = sqlOf(em);
  const task = await taskRepo.findTaskById(q, taskId);
  if (!task) throw notFound('task');
  const rows = await repo.listConfigs(q, taskId, MAX_CONFIGS_PER_TASK);
  return rows.map((row) => ({
    id: row.id,
    taskId: row.taskId,
    url: row.url,
    hasToken: row.tokenSealed !== null,
    authScheme: row.authScheme,
  }));
}

/**
 * Starts this instance's push deliveries where a model is configured (only turns move tasks, and
 * A2A may be enabled at any time), and answers their stop. They are not jobs of the queue: each
 * instance claims due deliveries from the outbox itself, so that what is in flight per A2A key is
 * counted in the database, over all instances.
 */
export function startPushDeliveries(services: Services, logger: Logger): () => Promise<void> {
  return services.llm ? startDeliveries(services, logger) : async () => undefined;
}

/**
 * The delivery loop of one instance: while a slot is free it claims due deliveries (fairly
 * between keys, each key under its limit: `repo.claimDeliveries`) and attempts each in a slot of
 * its own; else it waits for a slot, or POLL_MS. Once an hour (the first pass included) it
 * removes old finished deliveries. The returned stop cuts off the attempts in flight (their
 * claims are let go, so any instance takes them again now) and waits for them.
 */
function startDeliveries(services: Services, logger: Logger): () => Promise<void> {
  const stopping = new AbortController();
  const inFlight = new Set<Promise<void>>();
  // A slot freed or the stop since the last claim: look again at once rather than after POLL_MS.
  let nudged = false;
  let endPause: (() => void) | undefined;
  const nudge = () => {
    nudged = true;
    endPause?.();
  };
  const pause = () =>
    new Promise<void>((resolve) => {
      if (nudged) return resolve();
      const timer = setTimeout(nudge, POLL_MS);
      endPause = () => {
        clearTimeout(timer);
        endPause = undefined;
        resolve();
      };
    });
  let cleanedAt = 0;
  const loop = (async () => {
    while (!stopping.signal.aborted) {
      nudged = false;
      if (Date.now() - cleanedAt >= CLEANUP_EVERY_MS) {
        cleanedAt = Date.now();
        await repo
          .deleteFinishedDeliveries(sqlOf(forkEm(services)), FINISHED_DELIVERY_KEEP_DAYS)
          .catch((error: unknown) => logger.error('A2A push clean-up failed', { error: String(error) }));
      }
      const free = DELIVERY_SLOTS - inFlight.size;
      if (free > 0) {
        const { claim, ids } = await claimDue(services, free).catch((error: unknown) => {
          logger.error('A2A push claim failed', { error: String(error) });
          return { claim: '', ids: [] };
        });
        for (const id of ids) {
          const attempt: Promise<void> = deliverClaimed(services, id, claim, stopping.signal, logger).finally(() => {
            inFlight.delete(attempt);
            nudge();
          });
          inFlight.add(attempt);
        }
        if (ids.length === free) continue;
      }
      await pause();
    }
    await Promise.allSettled(inFlight);
  })();
  return async () => {
    stopping.abort(new Error('the service stopped before the delivery finished'));
    nudge();
    await loop;
  };
}

/** Claims up to `slots` due deliveries under the claim lock (one claimer at a time over all instances, so each key's count holds). */
async function claimDue(services: Services, slots: number): Promise<{ claim: string; ids: string[] }> {
  const claim = randomUUID();
  if (!(await repo.anyDue(preparedOf(forkEm(services))))) return { claim, ids: [] };
  const ids = await inTransaction(forkEm(services), async (q) => {
    await repo.lockClaims(q);
    return repo.claimDeliveries(q, {
      id: claim,
      perKey: services.config.a2aPushConcurrencyPerKey,
      limit: slots,
      leaseSeconds: CLAIM_SECONDS,
    });
  });
  return { claim, ids };
}

/**
 * Attempts one claimed delivery. Cut off by the stop, it is let go without an attempt, due again
 * at once; any other failure (the database) leaves the claim to lapse, so a failing delivery is
 * not taken again in a tight loop.
 */
async function deliverClaimed(services: Services, id: string, claim: string, signal: AbortSignal, logger: Logger): Promise<void> {
  const q = sqlOf(forkEm(services));
  try {
    await attemptDelivery(services, q, id, claim, signal, logger);
  } catch (failure) {
    if (signal.aborted) await repo.releaseClaim(q, id, claim).catch(() => undefined);
    else logger.error('A2A push attempt failed', { deliveryId: id, error: failure instanceof Error ? failure.stack : String(failure) });
  }
}

/**
 * POSTs one delivery `claim` holds (config and task read again: a config deleted meanwhile is not
 * called) through the guard, checked again now, and records the attempt.
 * @throws when `signal` cut it off (not an attempt), or the database failed
 */
async function attemptDelivery(
  services: Services,
  q: Query,
  deliveryId: string,
  claim: string,
  signal: AbortSignal,
  logger: Logger,
): Promise<void> {
  const found = await repo.deliveryWithConfig(q, deliveryId, claim);
  const task = found && (await taskRepo.findTaskById(q, found.delivery.taskId));
  if (!found || !task) return; // its config was deleted, or its claim lapsed and another attempt took it over
  const { delivery, config } = found;
  const artifacts = (await taskRepo.artifactsOf(q, [task.id])).get(task.id);
  // The status the task entered (a later change has its own delivery); artifacts as they are now.
  const body = protoJson({
    task: taskOf(
      { ...task, state: delivery.state, statusMessage: delivery.statusMessage, statusAt: delivery.statusAt },
      undefined,
      artifacts,
      services.config.publicUrl,
    ),
  });
  let outcome: Parameters<typeof verdictOf>[0];
  let error: string | null = null;
  try {
    const headers: Record<string, string> = { 'content-type': 'application/a2a+json' };
    if (config.tokenSealed) headers['x-a2a-notification-token'] = services.sealer.open(config.tokenSealed);
    if (config.authScheme)
      headers.authorization = [config.authScheme, config.authCredentialsSealed ? services.sealer.open(config.authCredentialsSealed) : '']
        .join(' ')
        .trim();
    const target = await checkOutboundUrl(config.url, pushPolicy(services, ['url']));
    const response = await guardedFetch(target, { method: 'POST', headers, body: JSON.stringify(body), signal }, PUSH_LIMITS);
    await response.body?.cancel().catch(() => undefined);
    outcome = { status: response.status };
    if (response.status < 200 || response.status >= 300) error = `the receiver answered HTTP ${response.status}`;
  } catch (failure) {
    if (signal.aborted) throw failure; // cut off: not an attempt; the delivery is let go
    if (failure instanceof OutboundRefused && failure.kind === 'unresolvable') {
      outcome = { unreachable: true };
      error = failure.reason;
    } else if (failure instanceof OutboundRefused) {
      outcome = { refused: true };
      error = failure.reason;
    } else if (failure instanceof OutboundRequestFailed) {
      outcome = { unreachable: true };
      error = failure.message;
    } else {
      logger.error('A2A push delivery failed', { deliveryId, error: failure instanceof Error ? failure.stack : String(failure) });
      outcome = { refused: true };
      error = 'the delivery failed on an internal error';
    }
  }
  const attempts = delivery.attempts + 1;
  const verdict = verdictOf(outcome, attempts);
  countPushAttempt(verdict);
  await repo.recordAttempt(q, delivery.id, claim, {
    outcome: verdict === 'retry' ? null : verdict,
    error,
    retryInSeconds: verdict === 'retry' ? retryDelaySeconds(attempts) : 0,
  });
}
