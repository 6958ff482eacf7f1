import { inTransaction, preparedOf, Query, sqlOf } from '../../db/sql';
import { A2aError, AppError } from '../../errors';
import { newId } from '../../ids';
import type { JobQueue } from '../../jobs/queue';
import type { Logger } from '../../logger';
import { forkEm, type Services } from '../../context';
import { startPeriodic } from '../../jobs/periodic';
import { admitModelRequest } from '../usage/model-limits';
import { agentMessage, AgentExecutor, decisionOf, NO_MODEL_MESSAGE, publishTask, TurnHandOff } from './a2a-executor';
import { finishTask, postgresTurnStore } from './a2a-turn-store';
import { taskNotFound, taskOf } from './a2a-task.wire';
import * as turns from './a2a-turn.repository';
import * as repo from './a2a-task.repository';
import { BACKSTOP_READ_MS, MAX_HISTORY_LENGTH, StoredMessageBody, TaskRow } from './a2a-task.repository';
import { SETTLED_STATES, TERMINAL_STATES } from './a2a-states';
import { checkMediaTypes, Rules } from './a2a-rules';
import type { A2aMessageSendInput, A2aTaskListInput } from './a2a.inputs';
import type { A2aMessage, A2aMessageSendPayload, A2aTask, A2aTaskList } from './a2a.types';
import type { A2aPrincipal } from './a2a-caller';
import { preparePushConfig, savePushConfig } from './a2a-push.service';

/** The job kind of one A2A turn (its key is the task id: one turn per task at a time, one more queued). */
export const A2A_TURN_JOB = 'a2a-turn';
/**
 * One turn's attempt limit, and one retry when an attempt is cut off (its instance stopped or it
 * timed out): the model layer retries provider failures itself, so those fail the task at once.
 */
const TURN_JOB = { timeoutSeconds: 900, retries: 1, retryDelaySeconds: 5 };

const DEFAULT_PAGE_SIZE = 50;
/** How often each instance looks for answers waiting on background jobs that have ended (a job whose instance died, say). */
const JOB_SWEEP_SECONDS = 15;

type TaskServices = Pick<Services, 'orm' | 'llm' | 'jobs' | 'pubsub' | 'config' | 'agent' | 'sealer' | 'outboundLookup'>;

/**
 * SendMessage: a message without `taskId` starts a task (in its `contextId`, or a new context);
 * with one, it is added to that task unless the task is terminal (-32004). To a task waiting for
 * an approval (INPUT_REQUIRED) the message must carry a data part `{decision}`: `allow_once` and
 * `allow_session` let the pending calls run (the latter every later one of the context too),
 * `deny` cancels the task. A turn job is then queued for the task (not after a deny), and the
 * call waits (unless `returnImmediately`) for the task to settle.
 * `configuration.taskPushNotificationConfig` is registered on the task in the same transaction.
 * @throws NOT_FOUND (TASK_NOT_FOUND) for an unknown or another principal's task; BAD_REQUEST
 *   (UNSUPPORTED_OPERATION) for a terminal one; VALIDATION_FAILED for a contextId not the task's,
 *   a task waiting for an approval without a decision, a decision to a task not waiting for one,
 *   or a push config refused (its URL, or the task has too many);
 *   UNAVAILABLE when the job queue refused the turn (the task is FAILED then); RATE_LIMITED beyond
 *   the key's requests a minute or the key's or owner's tokens a day (nothing stored)
 */
export async function sendMessage(
  services: TaskServices,
  principal: A2aPrincipal,
  input: A2aMessageSendInput,
  callerGone?: AbortSignal,
  baseUrl = services.config.publicUrl,
): Promise<A2aMessageSendPayload> {
  const configuration = input.configuration ?? {};
  const blocking = !configuration.returnImmediately;
  const { task, turnHere, handOff } = await beginMessage(services, principal, input, blocking);
  const q = preparedOf(forkEm(services));
  const details = () => taskWithDetails(q, principal.id, task.id, configuration.historyLength, baseUrl);
  if (!blocking) return { task: await details() };
  const deadline = Date.now() + services.config.a2aWaitSeconds * 1000;
  if (turnHere) {
    // The turn runs in this process: its end is the wake-up, with no queue hop and no polling read;
    // a turn that knows the whole task it completed hands it over, so it is not read back either.
    const ended = await settles(turnHere, deadline, callerGone);
    const known = ended ? handOff?.answered : undefined;
    if (known) {
      const limit = configuration.historyLength ?? MAX_HISTORY_LENGTH;
      return { task: taskOf(known.task, limit === 0 ? undefined : known.history.slice(-limit), known.artifacts, baseUrl) };
    }
    const answered = ended ? await details() : undefined;
    if (answered && SETTLED_STATES.includes(answered.status.state)) return { task: answered };
  }
  await waitUntilSettled(services, principal, task.id, Math.max(0, deadline - Date.now()) / 1000, callerGone);
  return { task: await details() };
}

/** Whether `work` ended (either way) before `deadline` and before the caller left. */
async function settles(work: Promise<void>, deadline: number, callerGone?: AbortSignal): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  let onGone: (() => void) | undefined;
  try {
    return await Promise.race([
      work.then(
        () => true,
        () => true,
      ),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now())))),
      new Promise<boolean>((resolve) => callerGone?.addEventListener('abort', (onGone = () => resolve(false)), { once: true })),
    ]);
  } finally {
    clearTimeout(timer);
    if (onGone) callerGone?.removeEventListener('abort', onGone);
  }
}

/**
 * SendMessage up to the turn queued, without waiting: the task the message started or was added
 * to, as it is then (SendStreamingMessage streams from there).
 * @throws as `sendMessage`
 */
export async function startMessage(services: TaskServices, principal: A2aPrincipal, input: A2aMessageSendInput): Promise<TaskRow> {
  return (await beginMessage(services, principal, input, false)).task;
}

/**
 * `startMessage`, and with `here` (a blocking SendMessage) the task's turn run in this
 * process at once when a slot is free (`JobQueue.runHere`: claimed durably, failed over like a
 * queued one): `turnHere` is its end. Otherwise, or with no slot free, the turn is queued.
 */
async function beginMessage(
  services: TaskServices,
  principal: A2aPrincipal,
  input: A2aMessageSendInput,
  here: boolean,
): Promise<{ task: TaskRow; turnHere?: Promise<void>; handOff?: TurnHandOff }> {
  const { message } = input;
  const configuration = input.configuration ?? {};
  const rules = new Rules();
  rules.message(message, ['message']);
  rules.historyLength(configuration.historyLength, ['configuration', 'historyLength']);
  if (configuration.taskPushNotificationConfig)
    rules.pushConfig(configuration.taskPushNotificationConfig, ['configuration', 'taskPushNotificationConfig']);
  rules.check();
  checkMediaTypes(message);
  const decision = decisionOf(message);
  const em = forkEm(services);
  // Counted before anything is stored or resolved: every message but a deny may make model calls, which the owner pays.
  if (decision !== 'deny')
    await admitModelRequest(preparedOf(em), services.config.modelLimits, { a2aPrincipal: principal.id, ownerId: principal.ownerId });
  const pushField = ['configuration', 'taskPushNotificationConfig'];
  // Checked (its host resolved) before the transaction, which then only stores it.
  const push =
    configuration.taskPushNotificationConfig && (await preparePushConfig(services, configuration.taskPushNotificationConfig, pushField));
  if (decision && !message.taskId) throw decisionIssue('a decision answers a task waiting for an approval: give its message.taskId');
  /** A new task with the message as its first (its ids made here). */
  const newTask = () => {
    const id = newId('turn');
    const contextId = message.contextId ?? newId('ctx');
    const row = { id, contextId, principal: principal.id, ownerId: principal.ownerId, state: 'TASK_STATE_SUBMITTED' };
    return { row, first: { ...message, taskId: id, contextId } };
  };
  if (!message.taskId && !push && !repo.hasPayloads(message)) {
    // One statement, atomic on its own (no transaction round trips); run here, the turn's job is claimed in it too.
    // A message with file parts stores their payloads apart, so it takes the transaction below.
    const { row, first } = newTask();
    const slot = here && services.llm ? services.jobs.takeSlot(A2A_TURN_JOB, row.id, { taskId: row.id }) : null;
    const created = await repo.createClaimedTask(preparedOf(em), row, first, slot?.claim).catch((error: unknown) => {
      slot?.giveBack();
      throw error;
    });
    if (slot && created.job) {
      const handOff = handOffOf(principal, created.task, first, !message.contextId);
      return { task: created.task, turnHere: slot.run(created.job, handOff), handOff };
    }
    slot?.giveBack();
    return turnFor(services, created.task, here);
  }
  const { task, moved, queue } = await inTransaction(em, async (q) => {
    if (message.taskId) {
      const existing = await repo.findTask(q, principal.id, message.taskId, true);
      if (!existing) throw taskNotFound(message.taskId);
      if (TERMINAL_STATES.includes(existing.state))
        throw new A2aError('UNSUPPORTED_OPERATION', `task ${existing.id} is ${existing.state}: it accepts no more messages`);
      if (message.contextId && message.contextId !== existing.contextId) {
        throw new AppError('VALIDATION_FAILED', 'message.contextId: is not the context of message.taskId', undefined, [
          { path: ['message', 'contextId'], msg: 'is not the context of message.taskId', type: 'value_error' },
        ]);
      }
      const waiting = existing.state === 'TASK_STATE_INPUT_REQUIRED';
      if (waiting && !decision)
        throw decisionIssue(
          `task ${existing.id} waits for an approval: send a data part {"decision": "allow_once" | "allow_session" | "deny"}`,
        );
      if (!waiting && decision) throw decisionIssue(`task ${existing.id} is not waiting for an approval (${existing.state})`);
      await repo.appendMessage(q, existing.id, { ...message, contextId: existing.contextId });
      if (push) await savePushConfig(q, existing, push, { deliverCurrentState: false, field: pushField });
      if (!decision) return { task: existing, moved: null, queue: true };
      if (decision === 'deny') {
        await turns.deleteTurn(q, existing.id);
        const denied = await repo.moveTask(
          q,
          existing.id,
          'TASK_STATE_CANCELED',
          agentMessage(existing, `the operation was denied: ${summaryOf(existing)}`),
        );
        return { task: denied!, moved: denied, queue: false };
      }
      await turns.setDecision(q, existing.id, decision);
      if (decision === 'allow_session') await turns.grantContext(q, existing.principal, existing.contextId);
      const resumed = await repo.moveTask(q, existing.id, 'TASK_STATE_WORKING', null);
      return { task: resumed!, moved: resumed, queue: true };
    }
    const { row: fresh, first } = newTask();
    const row = await repo.createTask(q, fresh, first);
    if (push) await savePushConfig(q, row, push, { deliverCurrentState: false, field: pushField });
    return { task: row, moved: null, queue: true };
  });
  if (moved) publishTask(services, moved);
  return queue ? turnFor(services, task, here) : { task };
}

/**
 * The turn of a task a message was stored for: run here (`here`, a slot free: claimed in a
 * statement of its own) or queued; without a model, the task FAILED at once.
 * @throws UNAVAILABLE when the job queue refused the turn (the task is FAILED then)
 */
async function turnFor(services: TaskServices, task: TaskRow, here: boolean): Promise<{ task: TaskRow; turnHere?: Promise<void> }> {
  const q = sqlOf(forkEm(services));
  if (!services.llm) {
    // No model here, so no turn job either: the task says so at once.
    const failed = await repo.moveTask(q, task.id, 'TASK_STATE_FAILED', agentMessage(task, NO_MODEL_MESSAGE));
    if (failed) publishTask(services, failed);
    return { task };
  }
  try {
    const running = here ? await services.jobs.runHere(A2A_TURN_JOB, task.id, { taskId: task.id }) : null;
    if (running) return { task, turnHere: running.ended };
    await services.jobs.send(A2A_TURN_JOB, task.id, { taskId: task.id });
    return { task };
  } catch (error) {
    // Not queued, so no turn will ever run: the task says so rather than staying SUBMITTED.
    const failed = await repo.moveTask(
      q,
      task.id,
      'TASK_STATE_FAILED',
      agentMessage(task, 'the turn could not be queued; send the message again'),
    );
    if (failed) publishTask(services, failed);
    throw error;
  }
}

/**
 * What a turn claimed with its new task starts from, handed over in memory (`TurnHandOff`): the
 * task as created; in a context this message began (no `contextId` sent), its whole
 * conversation, that one message, when it holds no file (a file part's payload is read apart);
 * whether the gate saw the owner without outbound agents.
 */
function handOffOf(principal: A2aPrincipal, task: TaskRow, first: A2aMessage, newContext: boolean): TurnHandOff {
  const plain = first.parts.every((part) => part.raw === undefined && part.url === undefined && !('rawBytes' in part));
  const stored = JSON.parse(JSON.stringify(first)) as StoredMessageBody;
  return {
    task,
    context: newContext && plain ? [{ taskId: task.id, seq: 1, message: stored }] : undefined,
    noPeers: principal.ownerAgents === false,
    first: plain ? stored : undefined,
  };
}

const decisionIssue = (msg: string) =>
  new AppError('VALIDATION_FAILED', `message.parts: ${msg}`, undefined, [{ path: ['message', 'parts'], msg, type: 'value_error' }]);

/** What the approval request of a waiting task said would run. */
function summaryOf(task: TaskRow): string {
  const parts = task.statusMessage?.parts ?? [];
  const data = parts.find((part) => typeof part.data === 'object' && part.data !== null)?.data as { summary?: unknown } | undefined;
  return typeof data?.summary === 'string' ? data.summary : 'the requested code run';
}

/**
 * Waits until the task is terminal or interrupted, `seconds` pass or the caller leaves, woken by
 * the task's publications (subscribed before the first read, so no change falls between them).
 * A publication of a state that does not settle is not read again (the state it carries is enough
 * to go on waiting); a settling one is, as is the task after a backstop interval without word.
 */
async function waitUntilSettled(
  services: TaskServices,
  principal: A2aPrincipal,
  taskId: string,
  seconds: number,
  callerGone?: AbortSignal,
): Promise<void> {
  const q = preparedOf(forkEm(services));
  const events = services.pubsub.subscribe('A2A_TASK', taskId)[Symbol.asyncIterator]();
  let woken = events.next();
  const deadline = Date.now() + seconds * 1000;
  try {
    let state = (await repo.findTask(q, principal.id, taskId))?.state;
    if (!state) throw taskNotFound(taskId);
    while (!SETTLED_STATES.includes(state) && Date.now() < deadline && !callerGone?.aborted) {
      let timer: NodeJS.Timeout | undefined;
      let onGone: (() => void) | undefined;
      const woke = await Promise.race([
        woken,
        new Promise<'time'>(
          (resolve) => (timer = setTimeout(() => resolve('time'), Math.max(0, Math.min(BACKSTOP_READ_MS, deadline - Date.now())))),
        ),
        new Promise<'gone'>((resolve) => callerGone?.addEventListener('abort', (onGone = () => resolve('gone')), { once: true })),
      ]);
      clearTimeout(timer);
      if (onGone) callerGone?.removeEventListener('abort', onGone);
      if (typeof woke === 'object') {
        // Once the subscription has ended (the service is stopping), only the backstop reads are left.
        woken = woke.done ? new Promise<never>(() => undefined) : events.next();
        if (!woke.done) {
          // A settling publication is the answer (the caller reads the task with its details next).
          if (SETTLED_STATES.includes(woke.value.state)) return;
          state = woke.value.state;
          continue;
        }
      }
      state = (await repo.findTask(q, principal.id, taskId))?.state ?? state;
    }
  } finally {
    await events.return?.();
  }
}

/**
 * GetTask: the principal's task with its most recent `historyLength` messages.
 * @throws NOT_FOUND (TASK_NOT_FOUND) for an unknown or another principal's task; VALIDATION_FAILED for a negative historyLength
 */
export async function getTask(
  services: TaskServices,
  principal: A2aPrincipal,
  id: string,
  historyLength: number | null | undefined,
  baseUrl = services.config.publicUrl,
): Promise<A2aTask> {
  checkHistoryLength(historyLength);
  return taskWithDetails(preparedOf(forkEm(services)), principal.id, id, historyLength, baseUrl);
}

/** @throws VALIDATION_FAILED for a negative `historyLength` */
export function checkHistoryLength(historyLength: number | null | undefined): void {
  const rules = new Rules();
  rules.historyLength(historyLength, ['historyLength']);
  rules.check();
}

/**
 * The principal's task (any principal's with null: the web tools) with its artifacts and most
 * recent `historyLength` messages (default: all; 0: no history), within the history byte budget,
 * read in one statement.
 * @throws NOT_FOUND (TASK_NOT_FOUND) for an unknown or another principal's task
 */
export async function taskWithDetails(
  q: Query,
  principal: string | null,
  taskId: string,
  historyLength: number | null | undefined,
  baseUrl: string,
): Promise<A2aTask> {
  const limit = historyLength ?? MAX_HISTORY_LENGTH;
  const found = await repo.findTaskWithDetails(q, principal, taskId, limit);
  if (!found) throw taskNotFound(taskId);
  return taskOf(found.task, limit === 0 ? undefined : found.history, found.artifacts, baseUrl);
}

const tokenOf = (task: TaskRow) => Buffer.from(JSON.stringify([task.statusAt.toISOString(), task.id])).toString('base64url');

function keysetOf(token: string): { statusAt: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown[];
    if (typeof at === 'string' && typeof id === 'string' && !Number.isNaN(Date.parse(at))) return { statusAt: new Date(at), id };
  } catch {
    // answered below
  }
  throw new AppError('VALIDATION_FAILED', 'pageToken: is not a token this server gave', undefined, [
    { path: ['pageToken'], msg: 'is not a token this server gave', type: 'value_error' },
  ]);
}

/**
 * ListTasks: the principal's tasks, newest status first, by pages (a keyset on status time and
 * id). History only with `historyLength` (at most that many per task), artifacts only with
 * `includeArtifacts`.
 * @throws VALIDATION_FAILED for a filter or page out of range, or a pageToken this server did not give
 */
export async function listTasks(
  services: TaskServices,
  principal: A2aPrincipal,
  input: A2aTaskListInput,
  baseUrl = services.config.publicUrl,
): Promise<A2aTaskList> {
  const rules = new Rules();
  rules.id(input.contextId, ['contextId'], 'a context id');
  rules.range(input.pageSize, ['pageSize'], [1, 100]);
  rules.historyLength(input.historyLength, ['historyLength']);
  rules.timestamp(input.statusTimestampAfter, ['statusTimestampAfter']);
  rules.check();
  const q = sqlOf(forkEm(services));
  const pageSize = input.pageSize ?? DEFAULT_PAGE_SIZE;
  const after = input.pageToken ? keysetOf(input.pageToken) : undefined;
  const filter = {
    principal: principal.id,
    contextId: input.contextId ?? undefined,
    state: input.status ?? undefined,
    statusAfter: input.statusTimestampAfter ? new Date(input.statusTimestampAfter) : undefined,
  };
  // One more than the page: whether a next page exists without a second query.
  const { rows, total } = await repo.listTasks(q, filter, pageSize + 1, after);
  const page = rows.slice(0, pageSize);
  const ids = page.map((task) => task.id);
  const [histories, artifacts] = await Promise.all([
    input.historyLength ? repo.historiesOf(q, ids, input.historyLength) : undefined,
    input.includeArtifacts ? repo.artifactsOf(q, ids) : undefined,
  ]);
  return {
    tasks: page.map((task) => taskOf(task, histories?.get(task.id), artifacts?.get(task.id), baseUrl)),
    nextPageToken: rows.length > pageSize ? tokenOf(page[page.length - 1]) : '',
    pageSize,
    totalSize: total,
  };
}

/**
 * CancelTask: a task that is not terminal becomes CANCELED (a running turn sees the publication
 * and aborts its model call). The row lock makes one of concurrent cancels win.
 * @throws NOT_FOUND (TASK_NOT_FOUND) for an unknown or another principal's task; CONFLICT (TASK_NOT_CANCELABLE) for a terminal one
 */
export async function cancelTask(
  services: TaskServices,
  principal: A2aPrincipal,
  id: string,
  baseUrl = services.config.publicUrl,
): Promise<A2aTask> {
  const em = forkEm(services);
  const canceled = await inTransaction(em, async (q) => {
    const task = await repo.findTask(q, principal.id, id, true);
    if (!task) throw taskNotFound(id);
    if (TERMINAL_STATES.includes(task.state))
      throw new A2aError('TASK_NOT_CANCELABLE', `task ${task.id} is ${task.state}: it cannot be canceled`);
    await turns.deleteTurn(q, task.id);
    return (await repo.moveTask(q, task.id, 'TASK_STATE_CANCELED', null))!;
  });
  publishTask(services, canceled);
  return taskWithDetails(preparedOf(em), principal.id, canceled.id, undefined, baseUrl);
}

/**
 * Registers the turn job where a model is configured (so the queue starts for it; without one a
 * turn fails at once, see `sendMessage`), and what brings back an
 * answer waiting on background jobs: the end of a job this instance ran, and a sweep every
 * JOB_SWEEP_SECONDS (a job that ended on an instance that died, or a wake-up lost). Both only
 * queue the task's turn job, which checks the jobs again. `agent` runs the turns. Answers the sweep's stop.
 */
export function registerA2aJobs(queue: JobQueue, services: Services, logger: Logger, agent: AgentExecutor): () => Promise<void> {
  if (!services.llm) return async () => undefined;
  queue.register<{ taskId: string }>(
    A2A_TURN_JOB,
    { ...TURN_JOB, concurrency: services.config.a2aTurnsPerInstance },
    (data, run) => agent.execute(data.taskId, run, run.attempt <= TURN_JOB.retries),
    // Its last attempt died with its instance: no turn will run, so the task says so rather than staying WORKING.
    async (data) => {
      const task = await repo.findTaskById(sqlOf(forkEm(services)), data.taskId);
      if (task)
        await finishTask(
          services,
          postgresTurnStore(services),
          task,
          'TASK_STATE_FAILED',
          'the turn did not finish: the instance running it stopped; send the message again',
        );
    },
  );
  const wake = async (jobId?: string) => {
    for (const taskId of await turns.turnsAwaitingJobs(sqlOf(forkEm(services)), jobId))
      await services.jobs.send(A2A_TURN_JOB, taskId, { taskId });
  };
  services.agent.jobs.onFinish(
    (job) => void wake(job.id).catch((error: unknown) => logger.warn('waking an A2A turn failed', { jobId: job.id, error: String(error) })),
  );
  return startPeriodic('A2A job sweep', JOB_SWEEP_SECONDS, () => wake(), logger);
}
