import { createPubSub } from '@graphql-yoga/subscription';
import Redis from 'ioredis';
import type { Logger } from './logger';

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
 * subscriber on one instance sees what another instance published. While Redis does not answer,
 * events are dropped (subscribers miss them; a waiting A2A request re-reads its task anyway) and
 * nothing else fails: the outage is logged once, and its end.
 */
export function makePubSub(redisUrl?: string, logger?: Logger): AppPubSub {
  if (!redisUrl) {
    const local = counting(new EventTarget());
    return Object.assign(createPubSub<Topics>({ eventTarget: local.target }), { close: async () => undefined, listenerCount: local.count });
  }
  const publishClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const subscribeClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  let down = false;
  const failed = (error: unknown) => {
    if (!down) logger?.warn('Redis does not answer: subscription events are dropped until it does', { error: String(error) });
    down = true;
  };
  for (const client of [publishClient, subscribeClient]) {
    client.on('error', failed);
    client.on('ready', () => {
      if (down) logger?.info('Redis answers again: subscription events cross instances');
      down = false;
    });
  }
  const shared = counting(redisEventTarget(publishClient, subscribeClient, failed));
  const pubSub = createPubSub<Topics>({ eventTarget: shared.target });
  return Object.assign(pubSub, {
    listenerCount: shared.count,
    close: async () => {
      publishClient.disconnect();
      subscribeClient.disconnect();
    },
  });
}

type Callback = (event: CustomEvent) => void;
type Listener = Callback | { handleEvent: Callback } | null;
const callbackOf = (listener: Listener): Callback | undefined =>
  listener == null ? undefined : 'handleEvent' in listener ? (event) => listener.handleEvent(event) : listener;

/**
 * Topics (`A2A_TASK:<task id>`) that go through one Redis channel per kind (`A2A_TASK`), which
 * every instance subscribes to once, rather than one channel per id: each A2A turn and each
 * waiting SendMessage listens to its task for a moment, and a SUBSCRIBE and UNSUBSCRIBE round
 * trip for each would cost more than every instance hearing every task's (small) event.
 */
const SHARED_CHANNELS = new Set<string>(['A2A_TASK']);
/** The shared channel of `topic`, if its kind has one. */
const sharedChannelOf = (topic: string) => {
  const kind = topic.slice(0, topic.indexOf(':'));
  return SHARED_CHANNELS.has(kind) ? kind : undefined;
};

/**
 * Events through Redis channels, one per topic (as @graphql-yoga/redis-event-target does) but for
 * `SHARED_CHANNELS`, with Redis's refusals handled: that package leaves PUBLISH and SUBSCRIBE's
 * promises unhandled, so a refusal while Redis is down ended the process, and a SUBSCRIBE refused
 * then was never sent again.
 */
function redisEventTarget(publisher: Redis, subscriber: Redis, failed: (error: unknown) => void): EventTargetOf {
  const callbacksForTopic = new Map<string, Set<Callback>>();
  const unsent = new Set<string>();
  const subscribe = (topic: string) =>
    subscriber.subscribe(topic).catch((error: unknown) => {
      failed(error);
      unsent.add(topic);
    });
  // ioredis subscribes again to what it had subscribed to; these it never had.
  subscriber.on('ready', () => {
    for (const topic of unsent) {
      unsent.delete(topic);
      if (callbacksForTopic.has(topic) || SHARED_CHANNELS.has(topic)) void subscribe(topic);
    }
  });
  for (const channel of SHARED_CHANNELS) void subscribe(channel);
  const deliver = (topic: string, detail: unknown) => {
    const callbacks = callbacksForTopic.get(topic);
    if (!callbacks) return;
    const event = new CustomEvent(topic, { detail });
    for (const callback of callbacks) callback(event);
  };
  subscriber.on('message', (channel: string, message: string) => {
    if (!SHARED_CHANNELS.has(channel)) return deliver(channel, message === '' ? null : (JSON.parse(message) as unknown));
    const { topic, detail } = JSON.parse(message) as { topic: string; detail: unknown };
    deliver(topic, detail ?? null);
  });
  const target = {
    addEventListener(topic: string, listener: Listener) {
      const callback = callbackOf(listener);
      if (!callback) return;
      let callbacks = callbacksForTopic.get(topic);
      if (!callbacks) {
        callbacksForTopic.set(topic, (callbacks = new Set()));
        if (!sharedChannelOf(topic)) void subscribe(topic);
      }
      callbacks.add(callback);
    },
    removeEventListener(topic: string, listener: Listener) {
      const callbacks = callbacksForTopic.get(topic);
      const callback = callbackOf(listener);
      if (!callbacks || !callback) return;
      callbacks.delete(callback);
      if (callbacks.size > 0) return;
      callbacksForTopic.delete(topic);
      if (sharedChannelOf(topic)) return;
      unsent.delete(topic);
      void subscriber.unsubscribe(topic).catch(failed);
    },
    dispatchEvent(event: CustomEvent) {
      const shared = sharedChannelOf(event.type);
      const detail: unknown = event.detail;
      const message = shared
        ? JSON.stringify({ topic: event.type, detail: detail ?? null })
        : event.detail === undefined
          ? ''
          : JSON.stringify(event.detail);
      void publisher.publish(shared ?? event.type, message).catch(failed);
      return true;
    },
  };
  return target;
}
