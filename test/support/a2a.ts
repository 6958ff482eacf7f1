import { ClientFactory, createAuthenticatingFetchWithRetry, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { SendMessageRequest } from '@a2a-js/sdk';
import type { TestApp } from './app';
import { runLabdeskIn } from './cli';
import { until } from './until';

/** What answers HTTP calls as the tests make them: an in-process app or a child `labdesk serve`. */
type Caller = Pick<TestApp, 'call'>;

/** `labdesk a2a enable` on a data directory. */
export async function enableA2a(dataDir: string, env: Record<string, string> = {}) {
  const run = await runLabdeskIn(dataDir, ['a2a', 'enable'], env);
  expect(run).toMatchObject({ status: 0 });
}

/** `labdesk a2a key create`: the key id and the plaintext it prints once. */
export async function createA2aKey(dataDir: string, label: string) {
  const run = await runLabdeskIn(dataDir, ['a2a', 'key', 'create', '--label', label]);
  expect(run).toMatchObject({ status: 0 });
  return { id: /^key id: +(\S+)$/m.exec(run.stdout)![1], plaintext: /^key: +(ldk_a2a_\S+)$/m.exec(run.stdout)![1] };
}

/** The official JS client with a bearer key, resolved from the app's card. */
export function officialClient(t: Pick<TestApp, 'url'>, key: string) {
  const authFetch = createAuthenticatingFetchWithRetry(fetch, { headers: async () => ({ Authorization: `Bearer ${key}` }), shouldRetryWithHeaders: async () => undefined });
  return new ClientFactory({ transports: [new JsonRpcTransportFactory({ fetchImpl: authFetch })], cardResolver: new DefaultAgentCardResolver({ fetchImpl: authFetch }) }).createFromUrl(t.url);
}

export type A2aClient = Awaited<ReturnType<typeof officialClient>>;

/** A fresh message id, as a client makes one per message. */
export const newMessageId = () => `m-${Math.random().toString(36).slice(2)}`;

/** A user message on the wire (ProtoJSON). */
export const userMessage = (text: string, extra: Record<string, unknown> = {}) => ({ messageId: newMessageId(), role: 'ROLE_USER', parts: [{ text }], ...extra });

/** A SendMessageRequest for the official client, built from wire JSON. */
export const sendRequest = (text: string, extra: Record<string, unknown> = {}, configuration?: Record<string, unknown>) =>
  SendMessageRequest.fromJSON({ message: userMessage(text, extra), ...(configuration ? { configuration } : {}) });

/** One JSON-RPC request object. */
export const rpcCall = (id: unknown, method: string, params?: unknown) => ({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });

/** One JSON-RPC call to /a2a/v1 over real HTTP, as A2A 1.0. */
export function rpc(t: Caller, key: string | undefined, body: unknown, headers: Record<string, string> = {}) {
  return t.call('POST', '/a2a/v1', { token: key, headers: { 'A2A-Version': '1.0', ...headers }, body });
}

/** A body sent to /a2a/v1 as is, as A2A 1.0: for what is not JSON, or not by its Content-Type. */
export function rpcRaw(t: Caller, key: string | undefined, rawBody: string, headers: Record<string, string> = {}) {
  return t.call('POST', '/a2a/v1', { token: key, headers: { 'A2A-Version': '1.0', ...headers }, rawBody });
}

/** One A2A method called over real HTTP (request id 1 unless given): the whole reply, errors included. */
export const callA2a = (t: Caller, key: string | undefined, method: string, params?: unknown, id: string | number = 1) => rpc(t, key, rpcCall(id, method, params));

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
