import type { IncomingHttpHeaders } from 'node:http';
import { cookieName, plantedCookie, readCookie, SESSION_COOKIE } from './cookies';

// Cross-site request forgery (docs/api/browser-sessions.md, "CSRF"): a browser attaches the session
// cookie to a request another site's page makes, so a request the cookie authenticates is
// trusted to change anything only when it says it comes from this service's own origin, or from
// an origin the operator allows (CORS_ALLOWED_ORIGINS). Bearer tokens are never attached by a
// browser on its own, so a request with an Authorization header is not concerned.

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The origin a browser says a request came from: `Origin`, else the origin of `Referer`. An opaque
 * origin (`Origin: null`: a sandboxed frame, a `data:` page, a redirect across sites) is `null`,
 * an origin like any other and never a trusted one.
 */
export function requestingOrigin(headers: IncomingHttpHeaders): string | undefined {
  if (typeof headers.origin === 'string') return headers.origin;
  if (typeof headers.referer !== 'string') return undefined;
  try {
    return new URL(headers.referer).origin;
  } catch {
    return undefined;
  }
}

/**
 * Why the request must be refused, or undefined when it may go on: an unsafe method (or a
 * WebSocket upgrade, `upgrade: true`) authenticated by the session cookie that names no origin of
 * `trusted` (asked only then: most requests are safe reads), or any request carrying one of our
 * cookies twice (`plantedCookie`). Sign-ins, which carry no cookie yet, are the operations' own
 * rule (`foreignOriginRefusal`, `STARTS_SESSION`).
 */
export function crossSiteRefusal(
  request: { method?: string; headers: IncomingHttpHeaders; upgrade?: boolean },
  trusted: () => string[],
): string | undefined {
  const planted = plantedCookie(request.headers.cookie);
  if (planted)
    return `the ${planted} cookie was sent twice: another page of this host may have planted one; clear this site's cookies and sign in again`;
  if (!request.upgrade && SAFE_METHODS.has(request.method ?? 'GET')) return undefined;
  if (request.headers.authorization) return undefined;
  const cookies = request.headers.cookie;
  if ([false, true].every((secure) => readCookie(cookies, cookieName(SESSION_COOKIE, secure)) === undefined)) return undefined;
  const origin = requestingOrigin(request.headers);
  if (origin !== undefined && trusted().includes(origin)) return undefined;
  return origin === undefined
    ? 'a request authenticated by the session cookie must say where it comes from (Origin or Referer)'
    : `a request authenticated by the session cookie from ${origin} is refused: only this service's own pages may make it`;
}

/**
 * Why a session must not begin from a request, or undefined: it names an origin (`Origin`, else
 * `Referer`; `null` too) not in `trusted`. One that names none (curl, a script, the CLI) goes on:
 * a browser names the origin of every cross-site POST, so such a request cannot be a forgery.
 */
export function foreignOriginRefusal(headers: IncomingHttpHeaders, trusted: () => string[]): string | undefined {
  const origin = requestingOrigin(headers);
  if (origin === undefined || trusted().includes(origin)) return undefined;
  return `signing in from ${origin} is refused: only this service's own pages may start a session`;
}
