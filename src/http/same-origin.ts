import type { IncomingHttpHeaders } from 'node:http';
import { readCookie, SESSION_COOKIE } from './cookies';

// Cross-site request forgery (docs/api.md, "Browser sessions"): a browser attaches the session
// cookie to a request another site's page makes, so a request the cookie authenticates is
// trusted to change anything only when it says it comes from this service's own origin, or from
// an origin the operator allows (CORS_ALLOWED_ORIGINS). Bearer tokens are never attached by a
// browser on its own, so a request with an Authorization header is not concerned.

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Routes that begin a session without one: a forged sign-in would put the victim in the attacker's account. */
const SESSION_STARTS = new Set(['/api/auth/login', '/api/auth/password-link']);

/** The origin a browser says a request came from: `Origin`, else the origin of `Referer`. */
export function requestingOrigin(headers: IncomingHttpHeaders): string | undefined {
  if (typeof headers.origin === 'string' && headers.origin !== 'null') return headers.origin;
  if (typeof headers.referer !== 'string') return undefined;
  try {
    return new URL(headers.referer).origin;
  } catch {
    return undefined;
  }
}

/**
 * Why the request must be refused, or undefined when it may go on: an unsafe method (or a
 * WebSocket upgrade, `upgrade: true`) authenticated by the session cookie, or starting a
 * session, that names no origin of `trusted` (asked only then: most requests are safe reads). A sign-in with neither cookie nor `Origin` (curl,
 * a script) goes on: it cannot have been forged by a browser.
 */
export function crossSiteRefusal(
  request: { method?: string; path: string; headers: IncomingHttpHeaders; upgrade?: boolean },
  trusted: () => string[],
): string | undefined {
  if (!request.upgrade && SAFE_METHODS.has(request.method ?? 'GET')) return undefined;
  if (request.headers.authorization) return undefined;
  const cookie = readCookie(request.headers.cookie, SESSION_COOKIE) !== undefined;
  const origin = requestingOrigin(request.headers);
  if (!cookie && !(SESSION_STARTS.has(request.path) && origin !== undefined)) return undefined;
  if (origin !== undefined && trusted().includes(origin)) return undefined;
  return origin === undefined
    ? 'a request authenticated by the session cookie must say where it comes from (Origin or Referer)'
    : `a request authenticated by the session cookie from ${origin} is refused: only this service's own pages may make it`;
}
