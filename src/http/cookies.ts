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
 * `Set-Cookie` for a session: not readable by script (`HttpOnly`), not sent on cross-site
 * requests but top-level navigations (`SameSite=Lax`), `Secure` when the service is reached over
 * https, kept by the browser until the session's absolute expiry.
 */
export function sessionCookie(value: string, opts: { expiresAt: Date; now: Date; secure: boolean }): string {
  const maxAge = Math.max(0, Math.floor((opts.expiresAt.getTime() - opts.now.getTime()) / 1000));
  return `${SESSION_COOKIE}=${value}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${opts.secure ? '; Secure' : ''}`;
}

/** `Set-Cookie` that removes the session cookie. */
export const clearedSessionCookie = (secure: boolean) =>
  `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;

/** A single sign-on in flight (sealed; docs/api.md, "Single sign-on"): sent back only to `/auth/oidc`. */
export const SIGN_ON_COOKIE = 'labdesk_oidc';

export const signOnCookie = (sealed: string, maxAgeSeconds: number, secure: boolean) =>
  `${SIGN_ON_COOKIE}=${sealed}; Path=/auth/oidc; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;

export const clearedSignOnCookie = (secure: boolean) =>
  `${SIGN_ON_COOKIE}=; Path=/auth/oidc; Max-Age=0; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
