import type { LanguageModelClient } from './llm/language-model';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { IncomingMessage } from 'node:http';
import type { Request, Response } from 'express';
import type { Blobs } from './blobs';
import type { ReceivedFile } from './blobs/receive';
import type { Config } from './config';
import type { JobQueue } from './jobs/queue';
import type { LocalComputeProvider } from './modules/compute/local-provider';
import type { Workspaces } from './modules/agent/workspace/workspace';
import type { WorkspaceJobs } from './modules/agent/workspace/workspace-jobs';
import type { Sealer } from './db/instance-keys';
import type { ActivityRecorder } from './modules/activity/activity.recorder';
import type { Orm } from './db/orm';
import { authenticateCaller } from './modules/auth/credentials';
import type { CredentialCache } from './modules/auth/credential-cache';
import type { SignInOrigin, StartedSession } from './modules/auth/session.service';
import type { SingleSignOn } from './modules/auth/oidc.service';
import { clearedSessionCookie, cookieName, readCookie, SESSION_COOKIE, sessionCookie } from './http/cookies';
import { foreignOriginRefusal } from './http/same-origin';
import { clientAddress, type AttemptLimit, type RateLimits } from './rate-limits';
import type { Viewer } from './modules/auth/viewer';
import { Loaders, makeLoaders } from './loaders';
import type { AppPubSub } from './pubsub';
import type { HostLookup } from './net/outbound';
import type { Mailer } from './mail';
import type { A2aCaller } from './modules/a2a/a2a-caller';

/** A fresh unit of work for work done outside a request (jobs, turns, waits): its own identity map. */
export const forkEm = (services: Pick<Services, 'orm'>): EntityManager => services.orm.em.fork();

/** Long-lived parts every request shares. */
export interface Services {
  config: Config;
  /** The configured language model; null without `LLM_PROVIDER` (model-backed features answer their no-provider form). */
  llm: LanguageModelClient | null;
  orm: Orm;
  sealer: Sealer;
  pubsub: AppPubSub;
  blobs: Blobs;
  /** Sandboxes of the `local` compute provider. */
  sandboxes: LocalComputeProvider;
  /** The analysis agent's code workspaces, their sandbox and background jobs (docs/api/workspace.md). */
  agent: { workspaces: Workspaces; jobs: WorkspaceJobs };
  /** The time compute, activity and stats run on; tests move it. */
  clock: { now(): Date };
  /** The tokens this instance keeps checked in memory, dropped as the database announces changes. */
  credentials: CredentialCache;
  /** This instance's activity recorder (the write-rate limiter in front of user_activity_days). */
  activity: ActivityRecorder;
  /** Durable background jobs (pg-boss on the same database). */
  jobs: JobQueue;
  /** Sends mail (set-password links) when `SMTP_URL` is set. */
  mailer: Mailer | null;
  /** Failed sign-ins per email: after 10 in 15 minutes, that email waits (429). */
  signInAttempts: AttemptLimit;
  /** The sign-in limit of the operations that declare it (`AUTH_LIMITED`), per address and per token. */
  authLimit: RateLimits['authLimit'];
  /** Single sign-on through the OpenID provider of `OIDC_ISSUER`; null when not configured. */
  sso: SingleSignOn | null;
  /** Work a request leaves running after its response (e.g. counting a download); shutdown waits for it. */
  background: Set<Promise<unknown>>;
  /** How outbound URL checks resolve host names; unset: the system resolver. Tests set it to say what a name resolves to. */
  outboundLookup?: HostLookup;
}

/** Per-request context: a forked EntityManager, the viewer (resolved once, lazily) and loaders. */
export interface Ctx {
  services: Services;
  em: EntityManager;
  requestId: string;
  /** The `Authorization` header as given. */
  authorization?: string;
  /** The client's address as the rate limits count it (`clientAddress`), when the transport has one. */
  address?: string;
  /**
   * The request's credential checked again on `em`, for work that outlives the request
   * (subscriptions check it for every event): revoked, expired or disabled answers null.
   * @throws UNAUTHENTICATED for a bad `Authorization` header
   */
  reauthenticate(em: EntityManager): Promise<Viewer | null>;
  /** The browser's session cookie, on HTTP requests (REST and /graphql): signing in and out writes it. */
  browser?: BrowserSession;
  /** What the client says it is (`X-Client-Kind`: desktop, cli, cloud), when it says so. */
  clientKind?: string;
  /** Base of URLs handed to this caller: `PUBLIC_URL` when set, else the host the caller used. */
  baseUrl: string;
  /** The caller, or null when anonymous. @throws UNAUTHENTICATED for a bad credential. */
  viewer(): Promise<Viewer | null>;
  /** What `viewer()` settled on (null: anonymous), once it has; undefined before and while it is checked. */
  readonly settledViewer?: Viewer | null;
  loaders: Loaders;
  /** Aborted when the caller goes away before the answer is complete: costly work (model calls) stops. */
  callerGone?: AbortSignal;
  /** The A2A principal, on operations the A2A endpoint runs in-process only (see `A2aCaller`). */
  a2a?: A2aCaller;
  /**
   * Files the request's body brought, received by the facade (uploads), by the name it gave each:
   * the upload mutations take them from here, so no other request can name them.
   */
  received?: Map<string, ReceivedFile>;
}

/** Signing in and out from a browser: what `Set-Cookie` the answer carries. */
export interface BrowserSession {
  /** Where the sign-in comes from (for the sessions list). */
  origin: SignInOrigin;
  /** The session cookie the request carries, if any. */
  cookie?: string;
  /** Why a session must not begin from this request (it names another site as its origin), or undefined. */
  foreignOrigin(): string | undefined;
  /** The answer sets the cookie of a new session. */
  begin(session: StartedSession): void;
  /** The answer removes the cookie. */
  end(): void;
}

/** What a request brings to its context. */
export interface RequestFacts {
  authorization?: string;
  /** The client's address (`clientAddress`). */
  address?: string;
  /** The `labdesk_session` cookie's value. */
  session?: string;
  browser?: BrowserSession;
  clientKind?: string;
  requestId: string;
  /** `proto://host` the request was addressed to (forwarded by a proxy or direct), when well-formed. */
  origin?: string;
  callerGone?: AbortSignal;
  /** The A2A principal, when the A2A endpoint runs the operation (never from a request's own headers). */
  a2a?: A2aCaller;
  /** Told the user id once the credential is checked (the request log names the caller). */
  identified?: (userId: string) => void;
}

const CLIENT_KINDS = new Set(['desktop', 'cli', 'cloud']);

export function makeContext(services: Services, facts: RequestFacts): Ctx {
  // `callerGone` is left on `facts`: an HTTP request's is made on first use (few operations ask).
  const { authorization, address, session, browser, clientKind, requestId, origin, a2a, identified } = facts;
  // Forked on first use: operations whose services fork their own (the A2A rows) skip the cost.
  let forked: EntityManager | undefined;
  const emOf = () => (forked ??= services.orm.em.fork() as EntityManager);
  let viewer: Promise<Viewer | null> | undefined;
  // What `viewer()` settled on: undefined until it has.
  let settled: Viewer | null | undefined;
  let loaders: Loaders | undefined;
  // What the credential's lookup read about the caller spares the loaders a query for it.
  const primeWithViewer = (into: Loaders, found: Viewer) => into.inActiveLabByUserId.prime(found.user.id, found.inActiveLab);
  return {
    services,
    get em() {
      return emOf();
    },
    requestId,
    authorization,
    address,
    reauthenticate: (em) =>
      authenticateCaller(() => em, { authorization, session }, services.config.sessions, { cache: services.credentials }),
    browser,
    get callerGone() {
      return facts.callerGone;
    },
    a2a,
    clientKind: clientKind && CLIENT_KINDS.has(clientKind) ? clientKind : undefined,
    baseUrl: baseUrlOf(services.config, origin),
    viewer: () =>
      (viewer ??= authenticateCaller(emOf, { authorization, session }, services.config.sessions, {
        cache: services.credentials,
        activity: { recorder: services.activity, clock: services.clock },
      }).then((found) => {
        settled = found;
        if (found) identified?.(found.user.id);
        if (found && loaders) primeWithViewer(loaders, found);
        return found;
      })),
    get settledViewer() {
      return settled;
    },
    get loaders() {
      if (!loaders) {
        loaders = makeLoaders(emOf);
        if (settled) primeWithViewer(loaders, settled);
      }
      return loaders;
    },
  };
}

/** The parts of an HTTP request the domain context uses. */
export function requestFacts(req: Request, res: Response, config: Config): RequestFacts {
  const clientKind = req.headers['x-client-kind'];
  let gone: AbortController | undefined;
  const origin = originOf(req, config.trustProxy);
  const secure = baseUrlOf(config, origin).startsWith('https:');
  const session = readCookie(req.headers.cookie, cookieName(SESSION_COOKIE, secure));
  const address = clientAddress(req, config.trustProxy);
  return {
    authorization: req.headers.authorization,
    address,
    session,
    browser: {
      cookie: session,
      get origin() {
        return { userAgent: req.headers['user-agent'], address };
      },
      foreignOrigin: () => foreignOriginRefusal(req.headers, () => trustedOrigins(config, req)),
      begin: (started) =>
        void res.append('Set-Cookie', sessionCookie(started.token, { expiresAt: started.expiresAt, now: new Date(), secure })),
      end: () => void res.append('Set-Cookie', clearedSessionCookie(secure)),
    },
    clientKind: typeof clientKind === 'string' ? clientKind : undefined,
    requestId: res.locals.requestId as string,
    origin,
    get callerGone() {
      if (!gone) {
        const signal = (gone = new AbortController());
        const abortUnlessAnswered = () => {
          if (!res.writableFinished) signal.abort();
        };
        if (res.closed) abortUnlessAnswered();
        else res.once('close', abortUnlessAnswered);
      }
      return gone.signal;
    },
    identified: (userId) => void (res.locals.caller = userId),
  };
}

/** The service's URL for this request: `PUBLIC_URL` when set, else the origin the caller addressed. */
export const baseUrlOf = (config: Pick<Config, 'publicUrl' | 'publicUrlFromEnv'>, origin: string | undefined) =>
  config.publicUrlFromEnv ? config.publicUrl : (origin ?? config.publicUrl);

/** The browser session cookie of a request (named for https or not, see `cookieName`). */
export const sessionCookieOf = (config: Config, req: Pick<IncomingMessage, 'headers' | 'socket'>) =>
  readCookie(req.headers.cookie, cookieName(SESSION_COOKIE, baseUrlOf(config, originOf(req, config.trustProxy)).startsWith('https:')));

const HOST = /^([A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/;

/**
 * The origin the caller addressed: `Host`, or a proxy's `X-Forwarded-Proto`/`-Host` when the
 * operator said a proxy is trusted (`TRUST_PROXY`). Anyone can send forwarded headers, so by
 * default they are ignored: otherwise a caller picks the host of the URLs we hand out.
 */
export function originOf(req: Pick<IncomingMessage, 'headers' | 'socket'>, trustProxy: boolean): string | undefined {
  const first = (value: string | string[] | undefined) =>
    trustProxy && typeof value === 'string' ? value.split(',')[0].trim() : undefined;
  const host = first(req.headers['x-forwarded-host']) ?? req.headers.host;
  const proto = first(req.headers['x-forwarded-proto']) ?? (req.socket && 'encrypted' in req.socket ? 'https' : 'http');
  if (!host || !HOST.test(host) || (proto !== 'http' && proto !== 'https')) return undefined;
  return `${proto}://${host}`;
}

/** The origins a cookie-authenticated change or a sign-in may come from: this service's own, and those allowed. */
export function trustedOrigins(config: Config, req: Pick<IncomingMessage, 'headers' | 'socket'>): string[] {
  const own = [originOf(req, config.trustProxy), config.publicUrlFromEnv ? new URL(config.publicUrl).origin : undefined];
  return [...own.filter((origin) => origin !== undefined), ...config.corsAllowedOrigins];
}

/**
 * A response holding URLs built for the caller's origin (no `PUBLIC_URL`) must not be shared
 * by a cache across the headers that origin came from.
 */
export function varyByOrigin(res: Response, config: Config): void {
  if (config.publicUrlFromEnv) return;
  res.vary('Host');
  if (config.trustProxy) res.vary('X-Forwarded-Host').vary('X-Forwarded-Proto');
}
