import { createPubSub } from '@graphql-yoga/subscription';
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import Redis from 'ioredis';

/** A membership changed in a lab (published after the change committed). */
export interface LabMemberEvent {
  labId: string;
  memberUserId: string;
  action: string;
  status: string;
  role: string;
  at: string;
}

/** Records appended to a session (published after the commit). */
export interface RecordsAppended {
  sessionId: string;
  records: string[];
  headUuid: string | null;
  count: number;
}

/** A lease's state or spend changed (published after the commit). */
export interface LeaseChanged {
  leaseId: number;
  state: string;
  spentCredits: number;
  ceilingCredits: number | null;
  /** When the lease idles out unless its sandbox says it is active (ISO time). */
  idleExpiresAt: string;
  at: string;
}

/** An A2A task's state changed (published after the commit): wakes a waiting SendMessage and a running turn. */
export interface A2aTaskChanged {
  taskId: string;
  state: string;
}

/** Every topic and its payload. Payloads cross Redis as JSON: keep them plain data. */
export type Topics = {
  LAB_MEMBER: [labId: string, payload: LabMemberEvent];
  RECORDS_APPENDED: [sessionId: string, payload: RecordsAppended];
  LEASE_CHANGED: [leaseId: string, payload: LeaseChanged];
  A2A_TASK: [taskId: string, payload: A2aTaskChanged];
};

export type AppPubSub = ReturnType<typeof createPubSub<Topics>> & {
  close(): Promise<void>;
  /** Listeners held now, all topics together: back to where it was once subscribers leave. */
  listenerCount(): number;
};

type EventTargetOf = NonNullable<NonNullable<Parameters<typeof createPubSub<Topics>>[0]>['eventTarget']>;

/** `target`, keeping count of its listeners (each topic's callbacks), for `listenerCount`. */
function counting(target: EventTargetOf): { target: EventTargetOf; count: () => number } {
  const held = new Map<string, Set<unknown>>();
  const counted: EventTargetOf = {
    addEventListener(type, callback, options) {
      if (!held.has(type)) held.set(type, new Set());
      held.get(type)!.add(callback);
      target.addEventListener(type, callback, options);
    },
    removeEventListener(type, callback, options) {
      held.get(type)?.delete(callback);
      if (held.get(type)?.size === 0) held.delete(type);
      target.removeEventListener(type, callback, options);
    },
    dispatchEvent: (event) => target.dispatchEvent(event),
  };
  return { target: counted, count: () => [...held.values()].reduce((sum, callbacks) => sum + callbacks.size, 0) };
}

/**
 * In-process pub/sub for one instance; with `redisUrl`, events fan out through Redis so that a
 * subscriber on one instance sees what another instance published.
 */
export function makePubSub(redisUrl?: string): AppPubSub {
  if (!redisUrl) {
    const local = counting(new EventTarget());
    return Object.assign(createPubSub<Topics>({ eventTarget: local.target }), { close: async () => undefined, listenerCount: local.count });
  }
  const publishClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const subscribeClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const shared = counting(createRedisEventTarget({ publishClient, subscribeClient }));
  const pubSub = createPubSub<Topics>({ eventTarget: shared.target });
  return Object.assign(pubSub, {
    listenerCount: shared.count,
    close: async () => {
      publishClient.disconnect();
      subscribeClient.disconnect();
    },
  });
}
