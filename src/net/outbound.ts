import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import os from 'node:os';
import { Agent, fetch as undiciFetch } from 'undici';
import { AppError } from '../errors';
import { canonicalAddress, classifyAddress, isIpAddress, isLoopbackAddress } from './addresses';

/**
 * The one way the service calls a URL a user gave it (A2A push webhooks, the outbound agent
 * registry): `checkOutboundUrl` refuses what must not be called, `guardedFetch` connects to the
 * very addresses that were checked (no second DNS answer can point it elsewhere), follows no
 * redirect, and bounds time and response size. docs/api/outbound-requests.md states the rules.
 *
 * undici (pinned in package.json) rather than the global fetch: its `Agent` takes the socket's
 * `lookup`, the one hook that fixes the address while the URL, Host header and TLS server name
 * keep the host name. The global fetch's own undici is not importable, and handing it an Agent
 * of another copy is not supported, so the fetch used is this package's too.
 */

/** An address a host resolved to, as `dns.lookup` reports it. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to all its addresses (injectable so tests can say what a name resolves to). */
export type HostLookup = (hostname: string) => Promise<ResolvedAddress[]>;

/** A URL that passed the check, with the addresses it resolved to: the only ones it will be connected to. */
export interface CheckedTarget {
  readonly url: URL;
  readonly addresses: readonly ResolvedAddress[];
}

export interface OutboundPolicy {
  /** Allow loopback, private, link-local and CGNAT addresses (metadata and non-routable ones stay refused). */
  allowPrivate?: boolean;
  /** The service's own origins: refused always, `allowPrivate` or not. */
  self?: ServiceOrigins;
  /** Default: the system resolver (`dns.lookup`, all addresses). */
  lookup?: HostLookup;
  /** Where the URL came from in the caller's input, for the refusal's issue path. Default `["url"]`. */
  field?: (string | number)[];
}

export interface OutboundLimits {
  /** For the whole exchange: connecting, the answer's head and reading its body. */
  timeoutMs: number;
  /** Bytes of the (decoded) response body read at most. */
  maxResponseBytes: number;
}

export const OUTBOUND_LIMITS: OutboundLimits = { timeoutMs: 10_000, maxResponseBytes: 1024 * 1024 };

const MAX_URL_LENGTH = 2048;
/** C0 controls, DEL and C1 controls (Unicode category Cc). */
const CONTROL_CHARACTER = /\p{Cc}/u;
const LOOKUP_TIMEOUT_MS = 5_000;

export type RefusalKind = 'url' | 'scheme' | 'credentials' | 'address' | 'self' | 'unresolvable' | 'redirect' | 'header';

/** The service will not make this request. A 422 (JSON-RPC -32602) with `reason` as the issue at `field`. */
export class OutboundRefused extends AppError {
  constructor(
    readonly kind: RefusalKind,
    readonly reason: string,
    field: (string | number)[] = ['url'],
  ) {
    super('VALIDATION_FAILED', reason, undefined, [{ path: field, msg: reason, type: `outbound_${kind}` }]);
    this.name = 'OutboundRefused';
  }
}

export type FailureKind = 'unreachable' | 'timeout' | 'tls' | 'too_large' | 'failed';

/** The request was allowed but did not complete: unreachable, timed out, TLS, too large. A 503 naming the origin and why. */
export class OutboundRequestFailed extends AppError {
  constructor(
    readonly kind: FailureKind,
    readonly reason: string,
    origin: string,
  ) {
    super('UNAVAILABLE', `request to ${origin} failed: ${reason}`);
    this.name = 'OutboundRequestFailed';
  }
}

/** Where this service itself answers; see `serviceOrigins`. */
export interface ServiceOrigins {
  /** Host names and canonical addresses, each with the port it answers on. */
  endpoints: { host: string; port: number }[];
  /** Bound to all interfaces: every loopback address reaches the service on this port. */
  anyLoopbackPort?: number;
}

/**
 * The service's own origins, which no outbound URL may point at (a webhook or agent entry
 * calling the service itself would loop): `PUBLIC_URL`'s host and port, and on the bind port the
 * bind host, `localhost`, 127.0.0.1 and ::1, and when bound to all interfaces (0.0.0.0 or ::)
 * also 0.0.0.0, :: and each address of this machine's interfaces.
 */
export function serviceOrigins(
  settings: { publicUrl: string; host: string; port: number },
  interfaceAddresses = machineAddresses(),
): ServiceOrigins {
  const publicUrl = new URL(settings.publicUrl);
  const bindHost = hostKey(settings.host.replace(/^\[|\]$/g, ''));
  const boundToAll = bindHost === '0.0.0.0' || bindHost === '::';
  const bindHosts = [bindHost, 'localhost', '127.0.0.1', '::1', ...(boundToAll ? ['0.0.0.0', '::', ...interfaceAddresses] : [])];
  return {
    endpoints: [
      { host: hostKey(urlHost(publicUrl)), port: portOf(publicUrl) },
      ...[...new Set(bindHosts.map(hostKey))].map((host) => ({ host, port: settings.port })),
    ],
    anyLoopbackPort: boundToAll ? settings.port : undefined,
  };
}

/**
 * The policy for a URL a user gave this service (a push webhook, an outbound agent): the
 * service's own origins refused, private addresses only with `allowPrivate`, the service's
 * resolver (tests give their own), refusals reported at `field`.
 */
export function userUrlPolicy(
  services: { config: { publicUrl: string; host: string; port: number }; outboundLookup?: HostLookup },
  allowPrivate: boolean,
  field: (string | number)[],
): OutboundPolicy {
  const { config } = services;
  return {
    allowPrivate,
    self: serviceOrigins({ publicUrl: config.publicUrl, host: config.host, port: config.port }),
    lookup: services.outboundLookup,
    field,
  };
}

/**
 * Checks a URL a user gave before anything is sent to it: http(s) only, no control character
 * (in the text as given), no user name or password in it, and every address its host resolves
 * to allowed by `policy` (a name with one public and one private address is refused). Resolves
 * once; connect with `guardedFetch` to the returned addresses so a second DNS answer cannot
 * redirect the request.
 * @throws OutboundRefused (VALIDATION_FAILED) saying why, in words a user can act on.
 */
export async function checkOutboundUrl(input: string | URL, policy: OutboundPolicy = {}): Promise<CheckedTarget> {
  const refuse = (kind: RefusalKind, reason: string) => new OutboundRefused(kind, reason, policy.field);
  const text = String(input);
  if (text.length > MAX_URL_LENGTH) throw refuse('url', `the URL is longer than ${MAX_URL_LENGTH} characters`);
  // The WHATWG parser drops tabs and line breaks and trims other control characters, so such a
  // URL would pass as another one and then be stored and shown with them (a header or log line split).
  if (CONTROL_CHARACTER.test(text)) throw refuse('url', 'the URL must not contain control characters (CR, LF, tab, NUL and the like)');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refuse('url', 'not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse('scheme', 'only http and https URLs are allowed');
  if (url.username || url.password)
    throw refuse('credentials', 'the URL must not contain a user name or password; send credentials in a header');
  const host = urlHost(url);
  if (!host) throw refuse('url', 'the URL has no host');
  const lookup = policy.lookup ?? systemLookup;
  const addresses = await resolve(host, lookup).catch((error: unknown) => {
    throw refuse(
      'unresolvable',
      `could not resolve ${host}${error instanceof LookupTimedOut ? ` within ${LOOKUP_TIMEOUT_MS / 1000} s` : ''}`,
    );
  });
  if (await pointsAtSelf(url, addresses, policy.self, lookup)) throw refuse('self', 'the URL points at this service itself');
  for (const { address } of addresses) {
    const { use, what, embedded } = classifyAddress(address);
    if (use === 'never' || (use === 'local' && !policy.allowPrivate)) {
      const via = embedded ? ` (which embeds ${embedded})` : '';
      throw refuse('address', isIpAddress(host) ? `${address}${via} is ${what}` : `${host} resolves to ${address}${via}, ${what}`);
    }
  }
  return { url, addresses };
}

/**
 * Sends a request to a checked target, connecting only to the addresses the check approved
 * (the URL keeps its host name, so the Host header and the TLS server name stay the original).
 * Redirects are not followed; the whole exchange is bounded by `limits.timeoutMs`, and the
 * body, which the caller reads as a stream, fails once it passes `limits.maxResponseBytes`.
 * Header values with CR, LF or NUL are refused, not cleaned.
 * @throws OutboundRefused (VALIDATION_FAILED): a bad header, or the server answered with a redirect.
 * @throws OutboundRequestFailed (UNAVAILABLE): unreachable, timed out, TLS failure, too large.
 * A caller's own `init.signal` aborting rejects with that signal's reason.
 */
export async function guardedFetch(
  target: CheckedTarget,
  init: RequestInit = {},
  limits: OutboundLimits = OUTBOUND_LIMITS,
): Promise<Response> {
  checkOutboundHeaders(init.headers);
  const origin = target.url.origin;
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
  // One agent per request: a pooled connection must never serve a target checked for another address.
  const agent = new Agent({ connect: { lookup: pinnedLookup(target.addresses) } });
  const closeConnection = () => void agent.destroy().catch(() => undefined);
  const fail = (error: unknown) => {
    closeConnection();
    return failureOf(error, { timeout, callerSignal: init.signal ?? undefined, limits, origin });
  };
  let response: Awaited<ReturnType<typeof undiciFetch>>;
  try {
    response = await undiciFetch(target.url, { ...init, redirect: 'manual', signal, dispatcher: agent });
  } catch (error) {
    throw fail(error);
  }
  const discard = () => {
    void response.body?.cancel().catch(() => undefined);
    closeConnection();
  };
  // Node's fetch hands back the 3xx itself; a spec-following one would say `opaqueredirect` (status 0).
  if ((response.status >= 300 && response.status < 400) || response.type === 'opaqueredirect') {
    discard();
    throw new OutboundRefused('redirect', 'the server answered with a redirect, which is not followed');
  }
  const declared = Number(response.headers.get('content-length'));
  if (declared > limits.maxResponseBytes) {
    discard();
    throw new OutboundRequestFailed('too_large', tooLargeReason(limits), origin);
  }
  const body =
    response.body && !NULL_BODY_STATUSES.has(response.status)
      ? boundedBody(response.body, limits.maxResponseBytes, fail, closeConnection)
      : null;
  if (!body) discard();
  const answer = new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  // As fetch reports it (a constructed Response has an empty url); there was no redirect to follow.
  Object.defineProperty(answer, 'url', { value: response.url });
  return answer;
}

/**
 * A `fetch` that checks every URL it is given with `policy` and sends it with `guardedFetch`,
 * for clients that take a fetch implementation (the `@a2a-js/sdk` client's `fetchImpl`).
 * `onTarget` is told each checked target before it is connected to: its addresses are the only
 * ones the request can reach, which a caller judges by rather than by the URL's text (the
 * registry does not describe what answered at a private address).
 */
export function guardedFetchImpl(
  policy: OutboundPolicy,
  limits: OutboundLimits = OUTBOUND_LIMITS,
  onTarget?: (target: CheckedTarget) => void,
): typeof fetch {
  return async (input, init) => {
    const target = await checkOutboundUrl(input instanceof Request ? input.url : input, policy);
    onTarget?.(target);
    if (input instanceof Request) {
      const fromRequest: RequestInit = { method: input.method, headers: input.headers, body: input.body, signal: input.signal };
      // A streamed request body needs half duplex (fetch's rule), which the DOM types do not declare.
      return guardedFetch(target, { ...fromRequest, ...(input.body ? { duplex: 'half' } : {}), ...init }, limits);
    }
    return guardedFetch(target, init, limits);
  };
}

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Refuses header names that are not HTTP tokens and values with CR, LF or NUL (fetch would trim
 * or reject them on its own terms). `guardedFetch` applies it to every request; a feature storing
 * credentials calls it when they are registered, with the field they came in.
 * @throws OutboundRefused (VALIDATION_FAILED) naming the header, never its value.
 */
export function checkOutboundHeaders(headers: RequestInit['headers'], field: (string | number)[] = ['headers']): void {
  if (!headers) return;
  // Any Headers class (the global one or undici's) and any list of pairs iterate as [name, value].
  const iterable = typeof (headers as Partial<Iterable<unknown>>)[Symbol.iterator] === 'function';
  const pairs = iterable ? [...(headers as Iterable<[string, string]>)] : Object.entries(headers as Record<string, string>);
  for (const [name, value] of pairs) {
    if (!HEADER_NAME.test(name)) throw new OutboundRefused('header', `"${name.slice(0, 40)}" is not a valid header name`, field);
    if (/[\r\n\0]/.test(String(value)))
      throw new OutboundRefused('header', `the value of header ${name} contains a line break or NUL`, [...field, name]);
  }
}

/** Reads `source` on, failing once more than `maxBytes` came (the rest is not read); `done` runs once it ends either way. */
function boundedBody(
  source: ReadableStream<Uint8Array>,
  maxBytes: number,
  fail: (error: unknown) => Error,
  done: () => void,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let received = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await reader.read();
        if (chunk.done) {
          controller.close();
          done();
          return;
        }
        received += chunk.value.byteLength;
        if (received > maxBytes) throw new ResponseTooLarge();
        controller.enqueue(chunk.value);
      } catch (error) {
        void reader.cancel().catch(() => undefined);
        controller.error(fail(error));
      }
    },
    cancel(reason) {
      done();
      return reader.cancel(reason);
    },
  });
}

class ResponseTooLarge extends Error {}

const tooLargeReason = (limits: OutboundLimits) => `the response is larger than ${limits.maxResponseBytes} bytes`;

/** TLS verification failures as OpenSSL and Node name them. */
const CERTIFICATE_CODES =
  /^(CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_(GET_ISSUER_CERT|VERIFY_LEAF_SIGNATURE|DECRYPT_CERT_SIGNATURE)|ERR_TLS_CERT_ALTNAME_INVALID|HOSTNAME_MISMATCH)/;

const CONNECTION_FAILURES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'the connection was closed',
  UND_ERR_SOCKET: 'the connection was closed by the server',
  UND_ERR_CLOSED: 'the connection was closed',
};

/** What went wrong, in words, as the named error; a caller's own abort passes through as its reason. */
function failureOf(
  error: unknown,
  at: { timeout: AbortSignal; callerSignal?: AbortSignal; limits: OutboundLimits; origin: string },
): Error {
  if (error instanceof AppError) return error;
  const failed = (kind: FailureKind, reason: string) => new OutboundRequestFailed(kind, reason, at.origin);
  if (error instanceof ResponseTooLarge) return failed('too_large', tooLargeReason(at.limits));
  if (at.callerSignal?.aborted) return at.callerSignal.reason instanceof Error ? at.callerSignal.reason : new Error('aborted');
  if (at.timeout.aborted) return failed('timeout', `timed out after ${at.limits.timeoutMs / 1000} s`);
  const cause = ((error as { cause?: unknown })?.cause ?? error) as { code?: unknown; message?: unknown };
  const code = typeof cause?.code === 'string' ? cause.code : '';
  if (CONNECTION_FAILURES[code]) return failed('unreachable', CONNECTION_FAILURES[code]);
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return failed('timeout', 'timed out connecting');
  if (CERTIFICATE_CODES.test(code)) return failed('tls', `TLS certificate error: ${String(cause.message)}`);
  if (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_')) return failed('tls', `TLS error: ${String(cause.message)}`);
  if (code === 'UND_ERR_HEADERS_OVERFLOW') return failed('too_large', 'the response headers are too large');
  // undici's own network errors (e.g. fetch's "bad port" for SMTP's 25 and the like) have a message but no code.
  const detail = code || (typeof cause?.message === 'string' ? cause.message : '');
  return failed('failed', detail ? `the request failed (${detail})` : 'the request failed');
}

/** A `lookup` for net/tls.connect answering only the checked addresses, never asking DNS again. */
function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : Number(options.family ?? 0);
    const usable = addresses.filter((a) => !family || a.family === family);
    if (usable.length === 0)
      return callback(Object.assign(new Error('no checked address of the requested family'), { code: 'ENOTFOUND' }), '');
    if (options.all)
      return callback(
        null,
        usable.map(({ address, family }) => ({ address, family })),
      );
    return callback(null, usable[0].address, usable[0].family);
  };
}

const systemLookup: HostLookup = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/** The URL's host without IPv6 brackets or a trailing dot (`LOCALHOST.` is `localhost`). */
const urlHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');

const portOf = (url: URL) => Number(url.port || (url.protocol === 'https:' ? 443 : 80));

/** Host names lower-case, addresses in one spelling, so that equal hosts compare equal. */
const hostKey = (host: string) => (isIpAddress(host) ? canonicalAddress(host) : host.toLowerCase().replace(/\.$/, ''));

/** `localhost` and its subdomains are loopback by definition (RFC 6761) and never asked of DNS. */
const isLocalhostName = (host: string) => host === 'localhost' || host.endsWith('.localhost');

class LookupTimedOut extends Error {}

/** An address literal is its own answer; a name is asked once, within a time limit. */
async function resolve(host: string, lookup: HostLookup): Promise<ResolvedAddress[]> {
  if (isIpAddress(host)) return [{ address: host, family: host.includes(':') ? 6 : 4 }];
  if (isLocalhostName(host))
    return [
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ];
  let timer: NodeJS.Timeout | undefined;
  const slow = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new LookupTimedOut()), LOOKUP_TIMEOUT_MS);
  });
  try {
    const answers = await Promise.race([lookup(host), slow]);
    // Fail closed: an empty or odd answer is no answer.
    if (answers.length === 0 || !answers.every((a) => isIpAddress(a.address))) throw new Error('no usable address');
    return answers.map(({ address }) => ({ address, family: address.includes(':') ? 6 : 4 }));
  } finally {
    clearTimeout(timer);
  }
}

/** Whether the URL reaches this service: its host, or an address it resolved to, on one of the service's own ports. */
async function pointsAtSelf(
  url: URL,
  addresses: ResolvedAddress[],
  self: ServiceOrigins | undefined,
  lookup: HostLookup,
): Promise<boolean> {
  if (!self) return false;
  const port = portOf(url);
  const mine = self.endpoints.filter((e) => e.port === port);
  const keys = new Set([hostKey(urlHost(url)), ...addresses.map((a) => canonicalAddress(a.address))]);
  if (mine.some((e) => keys.has(e.host))) return true;
  if (self.anyLoopbackPort === port && addresses.some((a) => isLoopbackAddress(a.address))) return true;
  // A name among our own (PUBLIC_URL's) is compared by what it resolves to now; if it does not resolve, nothing matches.
  for (const { host } of mine.filter((e) => !isIpAddress(e.host) && !isLocalhostName(e.host))) {
    const own = await resolve(host, lookup).catch(() => []);
    if (own.some((a) => keys.has(canonicalAddress(a.address)))) return true;
  }
  return false;
}

/** This machine's interface addresses (for a service bound to all of them). */
function machineAddresses(): string[] {
  return Object.values(os.networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
}
