import type { ReactNode } from 'react';
import type { CombinedError } from 'urql';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A time in the reader's locale and time zone; the exact instant on hover. */
export function When({ at }: { at: string | null | undefined }) {
  if (!at) return <>—</>;
  const date = new Date(at);
  return (
    <time dateTime={at} title={date.toISOString()}>
      {dateTime.format(date)}
    </time>
  );
}

/** What the API said went wrong, in words; a signed-out reader is sent to sign in. */
export function ErrorNote({ error }: { error: CombinedError | undefined }) {
  if (!error) return null;
  const codes = error.graphQLErrors.map((e) => e.extensions?.code);
  if (codes.includes('UNAUTHENTICATED')) {
    location.assign(`/login?next=${encodeURIComponent(location.pathname + location.search)}`);
    return null;
  }
  const text = error.networkError
    ? 'The service cannot be reached. Check your connection and try again.'
    : error.graphQLErrors.map((e) => e.message).join('; ');
  return (
    <p className="note error" role="alert">
      {text}
    </p>
  );
}

/** Whether a URL from the API may become a link: http(s), or a path of this site (never `javascript:` and the like). */
export const linkable = (url: string) => /^(https?:\/\/|\/(?![/\\]))/.test(url);

/** `n` and the noun, plural unless one: "1 session", "3 sessions". */
export const count = (n: number, noun: string) => `${n.toLocaleString()} ${noun}${n === 1 ? '' : 's'}`;

/** A size in bytes, in KiB, MiB or GiB. */
export const formatBytes = (bytes: number) =>
  bytes >= 1024 ** 3
    ? `${(bytes / 1024 ** 3).toFixed(2)} GiB`
    : bytes >= 1024 ** 2
      ? `${(bytes / 1024 ** 2).toFixed(1)} MiB`
      : `${(bytes / 1024).toFixed(1)} KiB`;

export function Loading({ what }: { what: string }) {
  return (
    <p className="loading" role="status">
      Loading {what}…
    </p>
  );
}

/** A console URL that names no page (the service answers such a URL with this page and 404). */
export function NotFound() {
  return (
    <>
      <h1>Not found</h1>
      <p>This page was not found: the address may be mistyped, or what it showed has moved. Pick a section from the navigation.</p>
    </>
  );
}

/** A page the reader may not open, said at once (rather than a page waiting for data that will not come). */
export function AccessDenied({ children }: { children: ReactNode }) {
  return (
    <>
      <h1>Access denied</h1>
      <p>{children}</p>
    </>
  );
}

/** An empty list, and what to do about it. */
export function Empty({ children }: { children: ReactNode }) {
  return <div className="empty">{children}</div>;
}

/** A credential's state cell: when it was revoked, or its "Revoke" button. */
export function RevokeCell({
  revokedAt,
  label,
  busy,
  onRevoke,
}: {
  revokedAt: string | null | undefined;
  /** The button's accessible name. */
  label: string;
  busy: boolean;
  onRevoke: () => void;
}) {
  if (revokedAt)
    return (
      <>
        revoked <When at={revokedAt} />
      </>
    );
  return (
    <button type="button" className="small danger" aria-label={label} disabled={busy} onClick={onRevoke}>
      Revoke
    </button>
  );
}
