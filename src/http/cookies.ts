/** The browser session's cookie (docs/api.md, "Browser sessions"). */
export const SESSION_COOKIE = 'labdesk_session';

/** The value of cookie `name` in a `Cookie` header, or undefined (the first, if sent twice). */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}

/**
 * A `Set-Cookie` value for labdesk's cookies: never readable by script (`HttpOnly`), not sent on
 * cross-site requests but top-level navigations (`SameSite=Lax`), `Secure` when the service is
 * reached over https. `maxAge` 0 removes the cookie.
 */
function cookie(name: string, value: string, opts: { path: string; maxAge: number; secure: boolean }): string {
  return `${name}=${value}; Path=${opts.path}; Max-Age=${opts.maxAge}; HttpOnly; SameSite=Lax${opts.secure ? '; Secure' : ''}`;
}

/** `Set-Cookie` for a session, kept by the browser until the session's absolute expiry. */
export function sessionCookie(value: string, opts: { expiresAt: Date; now: Date; secure: boolean }): string {
  const maxAge = Math.max(0, Math.floor((opts.expiresAt.getTime() - opts.now.getTime()) / 1000));
  return cookie(SESSION_COOKIE, value, { path: '/', maxAge, secure: opts.secure });
}

/** `Set-Cookie` that removes the session cookie. */
export const clearedSessionCookie = (secure: boolean) => cookie(SESSION_COOKIE, '', { path: '/', maxAge: 0, secure });

/** A single sign-on in flight (sealed; docs/api.md, "Single sign-on"): sent back only to `/auth/oidc`. */
export const SIGN_ON_COOKIE = 'labdesk_oidc';

export const signOnCookie = (sealed: string, maxAge: number, secure: boolean) =>
  cookie(SIGN_ON_COOKIE, sealed, { path: '/auth/oidc', maxAge, secure });

export const clearedSignOnCookie = (secure: boolean) => cookie(SIGN_ON_COOKIE, '', { path: '/auth/oidc', maxAge: 0, secure });
