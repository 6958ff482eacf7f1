import { ClientFactory, createAuthenticatingFetchWithRetry, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { SendMessageRequest } from '@a2a-js/sdk';
import type { TestApp } from './app';
import { runLabdesk } from './cli';

/** `labdesk a2a enable` on a data directory. */
export async function enableA2a(dataDir: string, env: Record<string, string> = {}) {
  const run = await runLabdesk(['a2a', 'enable'], { DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env });
  expect(run).toMatchObject({ status: 0 });
}

/** `labdesk a2a key create`: the key id and the plaintext it prints once. */
export async function createA2aKey(dataDir: string, label: string) {
  const run = await runLabdesk(['a2a', 'key', 'create', '--label', label], { DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  expect(run).toMatchObject({ status: 0 });
  return { id: /^key id: +(\S+)$/m.exec(run.stdout)![1], plaintext: /^key: +(ldk_a2a_\S+)$/m.exec(run.stdout)![1] };
}

/** The official JS client with a bearer key, resolved from the app's card. */
export function officialClient(t: Pick<TestApp, 'url'>, key: string) {
  const authFetch = createAuthenticatingFetchWithRetry(fetch, { headers: async () => ({ Authorization: `Bearer ${key}` }), shouldRetryWithHeaders: async () => undefined });
  return new ClientFactory({ transports: [new JsonRpcTransportFactory({ fetchImpl: authFetch })], cardResolver: new DefaultAgentCardResolver({ fetchImpl: authFetch }) }).createFromUrl(t.url);
}

export type A2aClient = Awaited<ReturnType<typeof officialClient>>;

/** A user message on the wire (ProtoJSON). */
export const userMessage = (text: string, extra: Record<string, unknown> = {}) => ({ messageId: `m-${Math.random().toString(36).slice(2)}`, role: 'ROLE_USER', parts: [{ text }], ...extra });

/** A SendMessageRequest for the official client, built from wire JSON. */
export const sendRequest = (text: string, extra: Record<string, unknown> = {}, configuration?: Record<string, unknown>) =>
  SendMessageRequest.fromJSON({ message: userMessage(text, extra), ...(configuration ? { configuration } : {}) });

/** One JSON-RPC request object. */
export const rpcCall = (id: unknown, method: string, params?: unknown) => ({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });

/** One JSON-RPC call to /a2a/v1 over real HTTP, as A2A 1.0. */
export function rpc(t: TestApp, key: string | undefined, body: unknown, headers: Record<string, string> = {}) {
  return t.call('POST', '/a2a/v1', { token: key, headers: { 'A2A-Version': '1.0', ...headers }, body });
}
