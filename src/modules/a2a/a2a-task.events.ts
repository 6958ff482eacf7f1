import type { EntityManager } from '@mikro-orm/postgresql';
import { Query, sqlOf } from '../../db/sql';
import { A2aError } from '../../errors';
import { forkEm, type Services } from '../../context';
import * as repo from './a2a-task.repository';
import { BACKSTOP_READ_MS, TaskRow } from './a2a-task.repository';
import { TERMINAL_STATES } from './a2a-states';
import { withAbsoluteUrls } from './a2a-artifacts';
import { statusOf, taskNotFound, taskOf } from './a2a-task.wire';
import type { A2aStreamResponse } from './a2a.types';

/** One A2A StreamResponse: exactly one member is set (A2A §3.1.2). */
export type StreamResponse = A2aStreamResponse;

/** Who reads a task's events, decided once by the caller's credential and checked again at every wake-up. */
export interface TaskReader {
  /** The A2A principal whose tasks these are; null for the A2A owner's web tools (every principal's task). */
  principal: string | null;
  /** The base of the absolute URLs (artifact downloads) this reader is given. */
  baseUrl: string;
  /** Throws when the reader lost access since the stream began (a revoked key, a tier that dropped). */
  stillAllowed(em: EntityManager): Promise<void>;
}

export interface TaskEventOptions {
  /** Refuse a task that is terminal already (UNSUPPORTED_OPERATION), as A2A SubscribeToTask does. */
  refuseTerminal?: boolean;
  /** Messages in the first event's task (the most recent); none by default, so the snapshot stays small. */
  historyLength?: number;
}

const readTask = (q: Query, reader: TaskReader, taskId: string): Promise<TaskRow | null> =>
  reader.principal === null ? repo.findTaskById(q, taskId) : repo.findTask(q, reader.principal, taskId);

/** A status change is its state and its time (moveTask stamps every move), so the same change is never sent twice. */
const changeOf = (task: TaskRow) => `${task.state}@${task.statusAt.toISOString()}`;

/**
 * The events of one task as A2A StreamResponses: first the task as it is now, then a
 * `statusUpdate` for each status change and an `artifactUpdate` for each new artifact, ending
 * after a terminal state. PostgreSQL is the source of every event: a publication on `A2A_TASK`
 * (from any instance, through Redis) only wakes the reader, which reads the task again, as does
 * a backstop timer, so a dropped publication delays an event but never loses or reorders one.
 * States passed through between two reads are coalesced into the latest. `return()` stops the
 * stream at once, even while it waits for a wake-up.
 * @throws NOT_FOUND (TASK_NOT_FOUND) for an unknown task or another principal's (also if it goes
 *   away later); BAD_REQUEST (UNSUPPORTED_OPERATION) for a terminal one with `refuseTerminal`;
 *   whatever `stillAllowed` throws
 */
export function taskEvents(
  services: Pick<Services, 'orm' | 'pubsub'>,
  reader: TaskReader,
  taskId: string,
  options: TaskEventOptions = {},
): AsyncIterableIterator<StreamResponse> {
  const stop = new AbortController();
  const events = readEvents(services, reader, taskId, options, stop.signal);
  const iterator: AsyncIterableIterator<StreamResponse> = {
    next: () => events.next(),
    async return() {
      stop.abort();
      await events.return(undefined);
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

async function* readEvents(
  services: Pick<Services, 'orm' | 'pubsub'>,
  reader: TaskReader,
  taskId: string,
  options: TaskEventOptions,
  stop: AbortSignal,
): AsyncGenerator<StreamResponse> {
  const fresh = () => sqlOf(forkEm(services));
  // Subscribed before the first read, so no change falls between the snapshot and the wake-ups.
  const publications = services.pubsub.subscribe('A2A_TASK', taskId)[Symbol.asyncIterator]();
  let woken = false;
  let wakeUp: (() => void) | undefined;
  const wake = () => {
    woken = true;
    wakeUp?.();
  };
  const listening = (async () => {
    try {
      while (!(await publications.next()).done) wake();
    } catch {
      // A broken subscription leaves the backstop timer to notice changes.
    }
  })();
  stop.addEventListener('abort', wake);
  try {
    const q = fresh();
    let task = await readTask(q, reader, taskId);
    if (!task) throw taskNotFound(taskId);
    if (options.refuseTerminal && TERMINAL_STATES.includes(task.state)) {
      throw new A2aError('UNSUPPORTED_OPERATION', `task ${task.id} is ${task.state}: there is nothing more to stream`);
    }
    const [histories, artifacts] = await Promise.all([
      options.historyLength ? repo.historiesOf(q, [task.id], options.historyLength) : undefined,
      repo.artifactsOf(q, [task.id]),
    ]);
    const seen = (artifacts.get(task.id) ?? []).map((artifact) => artifact.artifactId);
    let sent = changeOf(task);
    yield { task: taskOf(task, histories?.get(task.id), artifacts.get(task.id), reader.baseUrl) };
    while (!TERMINAL_STATES.includes(task.state)) {
      if (!woken) {
        let timer: NodeJS.Timeout | undefined;
        await new Promise<void>((resolve) => {
          wakeUp = resolve;
          timer = setTimeout(resolve, BACKSTOP_READ_MS);
        });
        clearTimeout(timer);
      }
      woken = false;
      wakeUp = undefined;
      if (stop.aborted) return;
      const em = forkEm(services);
      await reader.stillAllowed(em);
      const now = await readTask(sqlOf(em), reader, taskId);
      if (!now) throw taskNotFound(taskId);
      task = now;
      // Artifacts first: a turn stores its answer in the transaction that completes the task.
      for (const row of await repo.artifactsNotIn(sqlOf(em), task.id, seen)) {
        if (!row.artifact) continue;
        seen.push(row.artifactId);
        yield {
          artifactUpdate: {
            taskId: task.id,
            contextId: task.contextId,
            artifact: withAbsoluteUrls([row.artifact], reader.baseUrl)![0],
            append: false,
            lastChunk: true,
          },
        };
      }
      if (changeOf(task) !== sent) {
        sent = changeOf(task);
        yield { statusUpdate: { taskId: task.id, contextId: task.contextId, status: statusOf(task) } };
      }
    }
  } finally {
    stop.removeEventListener('abort', wake);
    await publications.return?.();
    await listening;
  }
}
