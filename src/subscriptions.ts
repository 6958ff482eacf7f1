import type { EntityManager } from '@mikro-orm/postgresql';
import type { Ctx } from './context';
import type { Viewer } from './modules/auth/viewer';

/**
 * Passes events through while the subscriber may still receive them. A subscription outlives
 * any request: for every event the credential is authenticated again (revoked, expired or
 * disabled ends it) and `check` runs on a fresh EntityManager; the first refusal ends the stream.
 * Not an async generator: a subscriber who leaves calls `return()` while a read waits for the
 * next event, and a generator would queue that behind the read, keeping the source's listener
 * until the topic's next event (a quiet session's page visited 11 times: 11 listeners).
 * `return()` reaches the source at once.
 */
export function whileAllowed<T>(
  ctx: Ctx,
  events: AsyncIterable<T>,
  check: (em: EntityManager, viewer: Viewer) => Promise<unknown>,
): AsyncIterableIterator<T> {
  const source = events[Symbol.asyncIterator]();
  let ended = false;
  const end = async (): Promise<IteratorResult<T>> => {
    if (!ended) {
      ended = true;
      await source.return?.();
    }
    return { done: true, value: undefined };
  };
  return {
    async next(): Promise<IteratorResult<T>> {
      if (ended) return { done: true, value: undefined };
      const result = await source.next();
      if (result.done || ended) return end();
      const em = ctx.services.orm.em.fork() as EntityManager;
      try {
        const viewer = await ctx.reauthenticate(em);
        if (!viewer) return end();
        await check(em, viewer);
      } catch {
        return end();
      }
      return { done: false, value: result.value };
    },
    return: end,
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

/** A failure of a subscription's source, passed on as its last event. */
export interface SourceFailure {
  failed: unknown;
}

/**
 * Passes events through; an error the source throws becomes one last `{failed}` event, for the
 * field resolver to throw. The subscriber then gets it as a GraphQL error in a `next` message,
 * and the subscription completes (graphql-ws would otherwise close the whole socket).
 * `return()` reaches the source at once, even while a read is pending (an async generator
 * would queue it behind that read), so a source can cancel the work the read waits on.
 */
export function failureAsLastEvent<T>(events: AsyncIterator<T>): AsyncIterableIterator<T | SourceFailure> {
  let ended = false;
  const iterator: AsyncIterableIterator<T | SourceFailure> = {
    async next(): Promise<IteratorResult<T | SourceFailure>> {
      if (ended) return { done: true, value: undefined };
      try {
        const result = await events.next();
        ended = result.done === true;
        return result;
      } catch (error) {
        ended = true;
        return { done: false, value: { failed: error } };
      }
    },
    async return(): Promise<IteratorResult<T | SourceFailure>> {
      ended = true;
      await events.return?.();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}
