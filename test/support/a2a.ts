import { ClientFactory, createAuthenticatingFetchWithRetry, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { SendMessageRequest } from '@a2a-js/sdk';
import type { TestApp } from './app';
import { runLabdesk } from './cli';
import { until } from './until';

/** What answers HTTP calls as the tests make them: an in-process app or a child `labdesk serve`. */
type Caller = Pick<TestApp, 'call'>;

/** The service whose database `labdesk a2a …` changes: a test app, or any database by its URL. */
export type A2aTarget = Pick<TestApp, 'databaseUrl'>;

/** `labdesk a2a …` as an operator runs it, on the target's database. */
export const a2aCli = (target: A2aTarget, args: string[], env: Record<string, string> = {}) =>
  runLabdesk(['a2a', ...args], { DATABASE_URL: target.databaseUrl, LOG_LEVEL: 'silent', ...env });

/** `labdesk a2a enable` (`args`: say `['--owner', email]`). */
export async function enableA2a(target: A2aTarget, args: string[] = []) {
  expect(await a2aCli(target, ['enable', ...args])).toMatchObject({ status: 0 });
}

/** `labdesk a2a key create`: the key id and the plaintext it prints once. */
export async function createA2aKey(target: A2aTarget, label: string) {
  const run = await a2aCli(target, ['key', 'create', '--label', label]);
  expect(run).toMatchObject({ status: 0 });
  return { id: /^key id: +(\S+)$/m.exec(run.stdout)![1], plaintext: /^key: +(ldk_a2a_\S+)$/m.exec(run.stdout)![1] };
}

/** The official JS client with a bearer key, resolved from the app's card. */
export function officialClient(t: Pick<TestApp, 'url'>, key: string) {
  const authFetch = createAuthenticatingFetchWithRetry(fetch, {
    headers: async () => ({ Authorization: `Bearer ${key}` }),
    shouldRetryWithHeaders: async () => undefined,
  });
  return new ClientFactory({
    transports: [new JsonRpcTransportFactory({ fetchImpl: authFetch })],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl: authFetch }),
  }).createFromUrl(t.url);
}

export type A2aClient = Awaited<ReturnType<typeof officialClient>>;

/** A fresh message id, as a client makes one per message. */
export const newMessageId = () => `m-${Math.random().toString(36).slice(2)}`;

/** A user message on the wire (ProtoJSON). */
export const userMessage = (text: string, extra: Record<string, unknown> = {}) => ({
  messageId: newMessageId(),
  role: 'ROLE_USER',
  parts: [{ text }],
  ...extra,
});

/** A SendMessageRequest for the official client, built from wire JSON. */
export const sendRequest = (text: string, extra: Record<string, unknown> = {}, configuration?: Record<string, unknown>) =>
  SendMessageRequest.fromJSON({ message: userMessage(text, extra), ...(configuration ? { configuration } : {}) });

/** One JSON-RPC request object. */
export const rpcCall = (id: unknown, method: string, params?: unknown) => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params === undefined ? {} : { params }),
});

/** One JSON-RPC call to /a2a/v1 over real HTTP, as A2A 1.0. */
export function rpc(t: Caller, key: string | undefined, body: unknown, headers: Record<string, string> = {}) {
  return t.call('POST', '/a2a/v1', { token: key, headers: { 'A2A-Version': '1.0', ...headers }, body });
}

type Json = Record<string, any>;
const nonEmpty = (value: unknown) => typeof value === 'string' && value !== '';
const hasParts = (value: Json) => Array.isArray(value.parts) && value.parts.length > 0;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The members A2A requires of an object, by the key that holds it (checklist M4), and a part's
 * one content member (M5). An array under such a key is checked item by item.
 */
const REQUIRED: Record<string, (value: Json) => boolean> = {
  task: (task) => nonEmpty(task.id) && nonEmpty(task.status?.state),
  tasks: (task) => REQUIRED.task(task),
  message: (message) => nonEmpty(message.messageId) && nonEmpty(message.role) && hasParts(message),
  history: (message) => REQUIRED.message(message),
  artifact: (artifact) => nonEmpty(artifact.artifactId) && hasParts(artifact),
  artifacts: (artifact) => REQUIRED.artifact(artifact),
  parts: (part) => {
    const content = ['text', 'raw', 'url', 'data'].filter((name) => part[name] !== undefined);
    return content.length === 1 && (part.raw === undefined || (BASE64.test(part.raw) && part.raw.length % 4 === 0));
  },
  statusUpdate: (update) => nonEmpty(update.taskId) && nonEmpty(update.contextId) && nonEmpty(update.status?.state),
  artifactUpdate: (update) => nonEmpty(update.taskId) && nonEmpty(update.contextId) && typeof update.artifact === 'object',
};

/**
 * The wire rules every A2A object follows (checklist M1–M7): camelCase keys only, no nulls (unset
 * members are omitted), enums as `TASK_STATE_*`/`ROLE_*` strings, RFC 3339 UTC timestamps, no
 * v0.3 members, the required members of tasks, messages, artifacts, parts and stream events.
 * Values under `data` and `metadata` are the caller's own JSON and are not walked.
 */
export function expectProtoJson(value: unknown, at = '$'): void {
  if (value === null) throw new Error(`${at} is null (an unset member is omitted)`);
  if (Array.isArray(value)) return value.forEach((item, index) => expectProtoJson(item, `${at}[${index}]`));
  if (typeof value !== 'object') return;
  for (const [key, item] of Object.entries(value as Json)) {
    expect({ at: `${at}.${key}`, snake: /_/.test(key), v03: ['kind', 'final', 'mimeType', 'file'].includes(key) }).toEqual({
      at: `${at}.${key}`,
      snake: false,
      v03: false,
    });
    if (key === 'state') expect(item).toMatch(/^TASK_STATE_[A-Z_]+$/);
    if (key === 'role') expect(item).toMatch(/^ROLE_(USER|AGENT)$/);
    if (key === 'timestamp') expect(item).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    const required = REQUIRED[key];
    if (required && item !== null && typeof item === 'object') {
      const items: [string, Json][] = Array.isArray(item)
        ? item.map((one, index) => [`${at}.${key}[${index}]`, one])
        : [[`${at}.${key}`, item]];
      for (const [where, one] of items) expect({ at: where, complete: required(one) }).toEqual({ at: where, complete: true });
    }
    if (key !== 'data' && key !== 'metadata') expectProtoJson(item, `${at}.${key}`);
  }
}

/** A body sent to /a2a/v1 as is, as A2A 1.0: for what is not JSON, or not by its Content-Type. */
export function rpcRaw(t: Caller, key: string | undefined, rawBody: string, headers: Record<string, string> = {}) {
  return t.call('POST', '/a2a/v1', { token: key, headers: { 'A2A-Version': '1.0', ...headers }, rawBody });
}

/** One A2A method called over real HTTP (request id 1 unless given): the whole reply, errors included. */
export const callA2a = (t: Caller, key: string | undefined, method: string, params?: unknown, id: string | number = 1) =>
  rpc(t, key, rpcCall(id, method, params));

/**
 * Polls GetTask until the task is in one of `states`, and returns it as wire JSON. Bounded like
 * `until` (20 s unless `seconds` says otherwise), failing with the state last seen.
 * @throws Error naming the task, the states awaited and the last answer once the bound has passed.
 */
export function waitForState(t: Caller, key: string | undefined, id: string, states: string[], { seconds }: { seconds?: number } = {}) {
  let last = 'nothing yet';
  return until(
    () => `task ${id} to reach ${states.join(' or ')} (last seen: ${last})`,
    async () => {
      const reply = await callA2a(t, key, 'GetTask', { id });
      const state: string | undefined = reply.body.result?.status?.state;
      last = state ?? JSON.stringify(reply.body).slice(0, 300);
      return state !== undefined && states.includes(state) && reply.body.result;
    },
    { seconds, intervalMs: 50 },
  );
}
