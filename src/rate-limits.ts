import { createHash } from 'node:crypto';
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

/** Sign-in, token exchange and invitation codes: where guessing is the attack. */
const STRICT = [
  /^\/api\/auth\/(cli\/start|cli\/approve|cli\/deny|refresh|login|password-link)$/,
  /^\/api\/admin\/users\/[^/]+\/tokens$/,
  /^\/api\/labs\/(preview|join)$/,
  /^\/auth\/oidc\/(login|callback)$/,
];
/** Probes, and the pages' static assets. */
const EXEMPT = new Set(['/healthz', '/readyz']);

interface Rule {
  name: string;
  limiter: RateLimiterAbstract;
  perMinute: number;
  keyOf(req: Request): string | undefined;
}

export interface RateLimits {
  middleware: (req: Request, res: Response, next: NextFunction) => void;
  close(): Promise<void>;
}

/**
 * The limits as express middleware. `refuse` answers a 429 in the path's own error shape.
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
  const tokenKey = (req: Request) => {
    const bearer = /^Bearer\s+(\S+)/i.exec(req.headers.authorization ?? '')?.[1];
    return bearer && createHash('sha256').update(bearer).digest('base64url').slice(0, 22);
  };
  const addressKey = (req: Request) => clientAddress(req, opts.trustProxy);
  /** A rule counting `perMinute` requests per key; none when it is 0 (no limit). */
  const rule = (name: string, perMinute: number, keyOf: Rule['keyOf']): Rule[] =>
    perMinute > 0 ? [{ name, perMinute, keyOf, limiter: limiter(name, perMinute) }] : [];
  const rules = [...rule('token', settings.tokenPerMinute, tokenKey), ...rule('address', settings.addressPerMinute, addressKey)];
  const strict = [...rule('auth-token', settings.authPerMinute, tokenKey), ...rule('auth-address', settings.authPerMinute, addressKey)];

  return {
    middleware: (req, res, next) => {
      if (EXEMPT.has(req.path) || (rules.length === 0 && strict.length === 0)) return next();
      const applied = req.method === 'POST' && STRICT.some((pattern) => pattern.test(req.path)) ? [...rules, ...strict] : rules;
      const consumed = applied.flatMap((rule) => {
        const key = rule.keyOf(req);
        return key === undefined
          ? []
          : [
              rule.limiter.consume(key).then(
                (result) => ({ rule, result, refused: false }),
                (rejection: unknown) => {
                  if (rejection instanceof RateLimiterRes) return { rule, result: rejection, refused: true };
                  // Neither the store nor its insurance answered: let the request through, say so once.
                  if (!warned) opts.logger.warn('rate limits not counted: the store failed', { error: String(rejection) });
                  warned = true;
                  return undefined;
                },
              ),
            ];
      });
      Promise.all(consumed).then((outcomes) => {
        const counted = outcomes.filter((outcome) => outcome !== undefined);
        if (counted.length === 0) return next();
        // The headers tell of the tightest rule: the one with the fewest requests left.
        const tightest = counted.reduce((a, b) =>
          (b.refused && !a.refused) || b.result.remainingPoints < a.result.remainingPoints ? b : a,
        );
        const resetSeconds = Math.max(1, Math.ceil(tightest.result.msBeforeNext / 1000));
        res.setHeader('RateLimit-Policy', `${tightest.rule.perMinute};w=60`);
        res.setHeader('RateLimit-Limit', String(tightest.rule.perMinute));
        res.setHeader('RateLimit-Remaining', String(Math.max(0, tightest.result.remainingPoints)));
        res.setHeader('RateLimit-Reset', String(resetSeconds));
        const refused = counted.find((outcome) => outcome.refused);
        if (!refused) return next();
        const per = refused.rule.name.endsWith('token') ? 'token' : 'address';
        opts.refuse(
          req,
          res,
          new AppError(
            'RATE_LIMITED',
            `too many requests from this ${per} (${refused.rule.perMinute} a minute${refused.rule.name.startsWith('auth') ? ' here' : ''}); try again in ${resetSeconds} s`,
            undefined,
            undefined,
            { 'Retry-After': String(resetSeconds) },
          ),
        );
      }, next);
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
export function clientAddress(req: Request, trustProxy: boolean): string {
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
 * Counts failures per key (an email's sign-ins): after `failures` within `windowSeconds` the key
 * waits out the window. In Redis when REDIS_URL is set (every instance counts together), else in
 * this process's memory; a failing store lets attempts through rather than lock people out.
 */
export interface FailureLimit {
  /** Seconds the key must wait before trying again, or 0. */
  waitSeconds(key: string): Promise<number>;
  failed(key: string): Promise<void>;
  /** A success forgets the key's failures. */
  succeeded(key: string): Promise<void>;
  close(): Promise<void>;
}

export function failureLimit(name: string, failures: number, windowSeconds: number, redisUrl?: string): FailureLimit {
  const redis = redisUrl ? new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 }) : undefined;
  redis?.on('error', () => undefined);
  const options = { keyPrefix: `labdesk:fl:${name}`, points: failures, duration: windowSeconds };
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
    async waitSeconds(key) {
      const state = await limiter.get(keyOf(key)).catch(() => null);
      return state && state.consumedPoints >= failures ? Math.max(1, Math.ceil(state.msBeforeNext / 1000)) : 0;
    },
    async failed(key) {
      await limiter.penalty(keyOf(key), 1).catch(() => undefined);
    },
    async succeeded(key) {
      await limiter.delete(keyOf(key)).catch(() => undefined);
    },
    async close() {
      redis?.disconnect();
    },
  };
}
