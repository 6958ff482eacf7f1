/** The browser session's cookie (docs/api/browser-sessions.md). */
export const SESSION_COOKIE = 'labdesk_session';
/** A single sign-on in flight (sealed; docs/api/single-sign-on.md). */
export const SIGN_ON_COOKIE = 'labdesk_oidc';

/**
 * A cookie's name as the service sets and reads it: on https with the `__Host-` prefix, which a
 * browser accepts only from a secure page of this very host, `Secure`, `Path=/` and without
 * `Domain`, so a plain-http page on another port of the host or a subdomain cannot plant one.
 */
export const cookieName = (name: string, secure: boolean) => (secure ? `__Host-${name}` : name);

/** The values of cookie `name` in a `Cookie` header, in the order sent. */
function cookieValues(header: string | undefined, name: string): string[] {
  const values: string[] = [];
  for (const pair of header?.split(';') ?? []) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) values.push(pair.slice(at + 1).trim());
  }
  return values;
}

/** The value of cookie `name` in a `Cookie` header, or undefined (the first, if sent twice: see `plantedCookie`). */
export const readCookie = (header: string | undefined, name: string): string | undefined => cookieValues(header, name)[0];

/**
 * The name of a labdesk cookie the request carries twice, or undefined. The service sets each
 * once, on one path; a second one (a more specific `Path`, or set without `__Host-`) was planted
 * by another page of the host, "cookie tossing", and whichever the service read, the browser
 * could be acting as someone else. Such a request is refused.
 */
export function plantedCookie(header: string | undefined): string | undefined {
  if (!header) return undefined;
  return [SESSION_COOKIE, SIGN_ON_COOKIE].flatMap((name) => [name, `__Host-${name}`]).find((name) => cookieValues(header, name).length > 1);
}

/**
 * A `Set-Cookie` value for labdesk's cookies: never readable by script (`HttpOnly`), not sent on
 * cross-site requests but top-level navigations (`SameSite=Lax`), `Secure` when the service is
 * reached over https. `maxAge` 0 removes the cookie.
 */
function cookie(name: string, value: string, opts: { path: string; maxAge: number; secure: boolean }): string {
  // `__Host-` requires `Path=/`.
  const path = opts.secure ? '/' : opts.path;
  return `${cookieName(name, opts.secure)}=${value}; Path=${path}; Max-Age=${opts.maxAge}; HttpOnly; SameSite=Lax${opts.secure ? '; Secure' : ''}`;
}

/** `Set-Cookie` for a session, kept by the browser until the session's absolute expiry. */
export function sessionCookie(value: string, opts: { expiresAt: Date; now: Date; secure: boolean }): string {
  const maxAge = Math.max(0, Math.floor((opts.expiresAt.getTime() - opts.now.getTime()) / 1000));
  return cookie(SESSION_COOKIE, value, { path: '/', maxAge, secure: opts.secure });
}

/** `Set-Cookie` that removes the session cookie. */
export const clearedSessionCookie = (secure: boolean) => cookie(SESSION_COOKIE, '', { path: '/', maxAge: 0, secure });

/** The sign-on cookie is sent back only to `/auth/oidc` (on https, where `__Host-` needs `Path=/`, everywhere). */
export const signOnCookie = (sealed: string, maxAge: number, secure: boolean) =>
  cookie(SIGN_ON_COOKIE, sealed, { path: '/auth/oidc', maxAge, secure });

export const clearedSignOnCookie = (secure: boolean) => cookie(SIGN_ON_COOKIE, '', { path: '/auth/oidc', maxAge: 0, secure });
