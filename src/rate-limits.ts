import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import net from 'node:net';
import type { NextFunction, Request, Response } from 'express';
import Redis from 'ioredis';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from './errors';
import type { Logger } from './logger';

/**
 * The general request limits (docs/operations.md, "Rate limits"): per bearer token and per
 * client address, each a number of requests per minute, stricter on the sign-in and code-guessing
 * endpoints. Counted in Redis when REDIS_URL is set (shared by every instance), else in this
 * process's memory. A store that fails falls back to memory for the moment (the `insurance`):
 * a Redis outage slows nobody down and opens nothing wide.
 */
export interface RateLimitSettings {
  /** Requests per minute per bearer token (0: no limit). */
  tokenPerMinute: number;
  /** Requests per minute per client address (IPv6: per /64; 0: no limit). */
  addressPerMinute: number;
  /** Requests per minute per address, and per token, to the `STRICT` endpoints (0: no limit). */
  authPerMinute: number;
}

/**
 * HTTP routes under the sign-in limit that run no operation (single sign-on). Operations declare
 * it themselves (`AUTH_LIMITED`, src/operation-rules.ts), so that it holds on every transport.
 */
const STRICT_PATHS = /^\/auth\/oidc\/(login|callback)$/;
/** Probes, and the pages' static assets. */
const EXEMPT = new Set(['/healthz', '/readyz']);

interface Rule {
  name: string;
  limiter: RateLimiterAbstract;
  perMinute: number;
}

/** What a request is counted by: its client address and bearer token, when it has them. */
interface Keys {
  address?: string;
  authorization?: string;
}

interface Outcome {
  rule: Rule;
  result: RateLimiterRes;
  refused: boolean;
}

export interface RateLimits {
  middleware: (req: Request, res: Response, next: NextFunction) => void;
  /** Counts a call of an `AUTH_LIMITED` operation. @throws RATE_LIMITED with Retry-After */
  authLimit: (keys: Keys) => Promise<void>;
  close(): Promise<void>;
}

/**
 * The limits: express middleware for the general ones, and the sign-in limit for the operations
 * that declare it. `refuse` answers a 429 in the path's own error shape.
 */
export function rateLimits(
  settings: RateLimitSettings,
  opts: { redisUrl?: string; trustProxy: boolean; logger: Logger; refuse(req: Request, res: Response, error: AppError): void },
): RateLimits {
  const redis = opts.redisUrl
    ? new Redis(opts.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false })
    : undefined;
  redis?.on('error', () => undefined); // the insurance limiter covers it; ioredis reconnects by itself
  let warned = false;
  const limiter = (prefix: string, points: number): RateLimiterAbstract => {
    const options = { keyPrefix: `labdesk:rl:${prefix}`, points, duration: 60 };
    if (!redis) return new RateLimiterMemory(options);
    return new RateLimiterRedis({
      ...options,
      storeClient: redis,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory(options),
    });
  };
  /** A rule counting `perMinute` requests per key; none when it is 0 (no limit). */
  const rule = (name: string, perMinute: number): Rule[] => (perMinute > 0 ? [{ name, perMinute, limiter: limiter(name, perMinute) }] : []);
  const general = [...rule('token', settings.tokenPerMinute), ...rule('address', settings.addressPerMinute)];
  const strict = [...rule('auth-token', settings.authPerMinute), ...rule('auth-address', settings.authPerMinute)];
  const keyOf = (rule: Rule, keys: Keys) => {
    if (rule.name.endsWith('address')) return keys.address;
    const bearer = /^Bearer\s+(\S+)/i.exec(keys.authorization ?? '')?.[1];
    return bearer && createHash('sha256').update(bearer).digest('base64url').slice(0, 22);
  };

  /** Counts one request against `rules`: the outcome of each rule that counted it. */
  const count = async (rules: Rule[], keys: Keys): Promise<Outcome[]> => {
    const outcomes = await Promise.all(
      rules.map((rule) => {
        const key = keyOf(rule, keys);
        if (key === undefined) return Promise.resolve(undefined);
        return rule.limiter.consume(key).then(
          (result) => ({ rule, result, refused: false }),
          (rejection: unknown) => {
            if (rejection instanceof RateLimiterRes) return { rule, result: rejection, refused: true };
            // Neither the store nor its insurance answered: let the request through, say so once.
            if (!warned) opts.logger.warn('rate limits not counted: the store failed', { error: String(rejection) });
            warned = true;
            return undefined;
          },
        );
      }),
    );
    return outcomes.filter((outcome) => outcome !== undefined);
  };
  /** The headers that tell of the tightest rule: the refusing one, else the one with the fewest requests left. */
  const headersOf = (counted: Outcome[]) => {
    const tightest = counted.reduce((a, b) => ((b.refused && !a.refused) || b.result.remainingPoints < a.result.remainingPoints ? b : a));
    const resetSeconds = Math.max(1, Math.ceil(tightest.result.msBeforeNext / 1000));
    return {
      resetSeconds,
      headers: {
        'RateLimit-Policy': `${tightest.rule.perMinute};w=60`,
        'RateLimit-Limit': String(tightest.rule.perMinute),
        'RateLimit-Remaining': String(Math.max(0, tightest.result.remainingPoints)),
        'RateLimit-Reset': String(resetSeconds),
      },
    };
  };
  const refusalOf = (counted: Outcome[]): AppError | undefined => {
    const refused = counted.find((outcome) => outcome.refused);
    if (!refused) return undefined;
    const { resetSeconds, headers } = headersOf(counted);
    const per = refused.rule.name.endsWith('token') ? 'token' : 'address';
    const where = refused.rule.name.startsWith('auth') ? ' to sign-in and code checks' : '';
    return new AppError(
      'RATE_LIMITED',
      `too many requests from this ${per} (${refused.rule.perMinute} a minute${where}); try again in ${resetSeconds} s`,
      undefined,
      undefined,
      { ...headers, 'Retry-After': String(resetSeconds) },
    );
  };

  return {
    middleware: (req, res, next) => {
      if (EXEMPT.has(req.path)) return next();
      const applied = STRICT_PATHS.test(req.path) ? [...general, ...strict] : general;
      if (applied.length === 0) return next();
      count(applied, { address: clientAddress(req, opts.trustProxy), authorization: req.headers.authorization }).then((counted) => {
        if (counted.length === 0) return next();
        res.set(headersOf(counted).headers);
        const refusal = refusalOf(counted);
        return refusal ? opts.refuse(req, res, refusal) : next();
      }, next);
    },
    authLimit: async (keys) => {
      const refusal = strict.length ? refusalOf(await count(strict, keys)) : undefined;
      if (refusal) throw refusal;
    },
    async close() {
      redis?.disconnect();
    },
  };
}

/**
 * The address a request's limits count against: the peer, or with TRUST_PROXY the address the
 * proxy in front saw (the last X-Forwarded-For hop: earlier ones are the client's to invent).
 * IPv4-mapped IPv6 is IPv4; IPv6 counts per /64, which one subscriber usually holds whole.
 */
export function clientAddress(req: Pick<IncomingMessage, 'headers' | 'socket'>, trustProxy: boolean): string {
  const forwarded =
    trustProxy && typeof req.headers['x-forwarded-for'] === 'string'
      ? req.headers['x-forwarded-for']
          .split(',')
          .map((hop) => hop.trim())
          .filter(Boolean)
          .at(-1)
      : undefined;
  let address = forwarded ?? req.socket.remoteAddress ?? 'unknown';
  if (address.startsWith('::ffff:') && net.isIPv4(address.slice(7))) address = address.slice(7);
  if (!net.isIPv6(address)) return address;
  const groups = expandIpv6(address);
  return groups ? `${groups.slice(0, 4).join(':')}::/64` : address;
}

/** The eight 16-bit groups of an IPv6 address, or undefined when it is not one. */
function expandIpv6(address: string): string[] | undefined {
  const [head, tail] = address.split('%')[0].split('::');
  const left = head ? head.split(':') : [];
  const right = tail === undefined ? [] : tail ? tail.split(':') : [];
  if (right.some((group) => group.includes('.')) || left.some((group) => group.includes('.'))) return undefined;
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 0) return undefined;
  return [...left, ...Array<string>(missing).fill('0'), ...right].map((group) => group.toLowerCase().replace(/^0+(?=.)/, ''));
}

/**
 * Counts attempts per key (an email's sign-ins) until one succeeds: after `attempts` within
 * `windowSeconds` the key waits out the window. Each attempt is counted before it is checked, in
 * one atomic step, so that concurrent attempts cannot all pass a check made before any of them
 * was counted. In Redis when REDIS_URL is set (every instance counts together), else in this
 * process's memory; a failing store lets attempts through rather than lock people out.
 */
export interface AttemptLimit {
  /** Counts an attempt: 0 when it may go on, else the seconds the key must wait (not counted). */
  attempt(key: string): Promise<number>;
  /** A success forgets the key's attempts. */
  succeeded(key: string): Promise<void>;
  /** Gives back an attempt that was not a guess (the check itself could not be made). */
  notCounted(key: string): Promise<void>;
  close(): Promise<void>;
}

export function attemptLimit(name: string, attempts: number, windowSeconds: number, redisUrl?: string): AttemptLimit {
  const redis = redisUrl ? new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 }) : undefined;
  redis?.on('error', () => undefined);
  const options = { keyPrefix: `labdesk:fl:${name}`, points: attempts, duration: windowSeconds };
  const limiter: RateLimiterAbstract = redis
    ? new RateLimiterRedis({
        ...options,
        storeClient: redis,
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory(options),
      })
    : new RateLimiterMemory(options);
  const keyOf = (key: string) => createHash('sha256').update(key).digest('base64url').slice(0, 22);
  return {
    async attempt(key) {
      return limiter.consume(keyOf(key)).then(
        () => 0,
        (rejection: unknown) => (rejection instanceof RateLimiterRes ? Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) : 0),
      );
    },
    async succeeded(key) {
      await limiter.delete(keyOf(key)).catch(() => undefined);
    },
    async notCounted(key) {
      await limiter.reward(keyOf(key), 1).catch(() => undefined);
    },
    async close() {
      redis?.disconnect();
    },
  };
}
