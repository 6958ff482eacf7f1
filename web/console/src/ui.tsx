import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
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

/** What the API said went wrong, in words; a reader whose session ended is told so, with the way back. */
export function ErrorNote({ error }: { error: CombinedError | undefined }) {
  if (!error) return null;
  const codes = error.graphQLErrors.map((e) => e.extensions?.code);
  // The session ended (signed out elsewhere, expired): say so, and lead back here once signed in
  // again. A note being written is kept in this browser and comes back with the page.
  if (codes.includes('UNAUTHENTICATED'))
    return (
      <p className="note error" role="alert">
        Your session has ended. <a href={`/login?next=${encodeURIComponent(location.pathname + location.search)}`}>Sign in again</a> to go
        on; what you were writing is kept.
      </p>
    );
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

/** Whether a trajectory's title (or id) holds what the reader typed, in any case; anything when nothing is typed. */
export const titleMatches = (item: { title?: string | null; sessionId: string }, typed: string) => {
  const needle = typed.trim().toLowerCase();
  return !needle || (item.title ?? '').toLowerCase().includes(needle) || item.sessionId.toLowerCase().includes(needle);
};

/** `n` and the noun, plural unless one: "1 session", "3 sessions". */
export const count = (n: number, noun: string) => `${n.toLocaleString()} ${noun}${n === 1 ? '' : 's'}`;

const creditFigure = new Intl.NumberFormat(undefined, { minimumFractionDigits: 4, maximumFractionDigits: 4 });

/**
 * Credits, the one way the console writes them: in the reader's locale, always with the four
 * decimals the ledger keeps ("9.9993 credits", "10.0000 credits"), so that two figures side by
 * side never look alike when they differ, and a meter moving by 0.0007 is seen to move.
 * `unit: false` leaves out the word (for "0.0420 of 0.6000 credits").
 */
export const formatCredits = (value: number, { unit = true }: { unit?: boolean } = {}) =>
  unit ? `${creditFigure.format(value)} credits` : creditFigure.format(value);

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

/**
 * A table for every width. On a narrow screen (console.css) each row stacks its cells, each cell
 * led by its column's heading, copied here into `data-label` from the header row as rows come and
 * go. Whatever is still wider than its box scrolls sideways inside it, never the page; only then
 * is the box a focusable group, so that a keyboard can scroll it too.
 */
export function Table({ children, label = 'Table, scrolls sideways' }: { children: ReactNode; label?: string }) {
  const box = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);
  useLayoutEffect(() => {
    const element = box.current;
    const table = element?.querySelector('table');
    if (!element || !table) return;
    const measure = () => setScrolls(element.scrollWidth > element.clientWidth + 1);
    const labelCells = () => {
      const headings = [...table.querySelectorAll('thead th')].map((th) => th.textContent?.trim() ?? '');
      for (const row of table.querySelectorAll('tbody tr'))
        [...row.children].forEach((cell, index) => cell.setAttribute('data-label', headings[index] ?? ''));
    };
    labelCells();
    measure();
    const resized = new ResizeObserver(measure);
    resized.observe(element);
    resized.observe(table);
    const changed = new MutationObserver(labelCells);
    changed.observe(table, { childList: true, subtree: true });
    return () => {
      resized.disconnect();
      changed.disconnect();
    };
  }, []);
  return (
    <div
      ref={box}
      className="table-box"
      tabIndex={scrolls ? 0 : undefined}
      role={scrolls ? 'group' : undefined}
      aria-label={scrolls ? label : undefined}
    >
      <table>{children}</table>
    </div>
  );
}

/** An empty list, and what to do about it. */
export function Empty({ children }: { children: ReactNode }) {
  return <div className="empty">{children}</div>;
}

/**
 * The question before what cannot be undone: a modal alert dialog (a native <dialog>) that names
 * what will happen. Cancel has the focus, so Enter or Escape by reflex changes nothing; closing
 * it any way but the confirm button is a cancel.
 */
function ConfirmDialog({
  question,
  detail,
  confirm,
  onConfirm,
  onClose,
}: {
  question: string;
  detail: ReactNode;
  confirm: string;
  onConfirm: () => void;
  /** Called once the dialog is closed, after `onConfirm` when it was confirmed. */
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const id = useId();
  useEffect(() => {
    if (dialog.current?.open) return;
    dialog.current?.showModal();
    cancel.current?.focus();
  }, []);
  const close = () => dialog.current?.close();
  return (
    <dialog
      ref={dialog}
      role="alertdialog"
      aria-modal="true"
      aria-labelledby={`${id}-question`}
      aria-describedby={`${id}-detail`}
      className="confirm"
      // Escape and close() both end here; the dialog leaves the page with its state.
      onClose={onClose}
    >
      <h2 id={`${id}-question`}>{question}</h2>
      <p id={`${id}-detail`}>{detail}</p>
      <div className="buttons-row">
        <button type="button" ref={cancel} onClick={close}>
          Cancel
        </button>
        <button
          type="button"
          className="danger"
          onClick={() => {
            close();
            onConfirm();
          }}
        >
          {confirm}
        </button>
      </div>
    </dialog>
  );
}

/** A button for what cannot be undone: it asks first (ConfirmDialog), naming what will happen. */
export function ConfirmButton({
  children,
  label,
  question,
  detail,
  confirm,
  className = 'danger',
  disabled,
  describedBy,
  onConfirm,
}: {
  /** The button's text. */
  children: ReactNode;
  /** The button's accessible name, when its text alone is ambiguous ("Revoke Rita"). */
  label?: string;
  /** What will happen, as a question: "Release lease 12?". */
  question: string;
  /** Its consequences: "The sandbox stops and is charged up to now." */
  detail: ReactNode;
  /** The dialog's button that does it: "Release lease". */
  confirm: string;
  className?: string;
  disabled?: boolean;
  /** The id of the text saying why the button is disabled (or what it will do). */
  describedBy?: string;
  onConfirm: () => void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className={className}
        aria-label={label}
        aria-haspopup="dialog"
        aria-describedby={describedBy}
        disabled={disabled}
        onClick={() => setOpen(true)}
      >
        {children}
      </button>
      {open && <ConfirmDialog question={question} detail={detail} confirm={confirm} onConfirm={onConfirm} onClose={() => setOpen(false)} />}
    </>
  );
}

/**
 * A select whose change acts at once on something hard to undo (a lab's status, a plan): a new
 * choice is shown while the dialog asks (`ask` words it), applied only when confirmed, and the
 * select goes back to `value` when cancelled.
 */
export function ConfirmSelect<T extends string>({
  value,
  options,
  label,
  disabled,
  ask,
  onConfirm,
}: {
  value: T;
  /** Each choice and its words. */
  options: readonly (readonly [T, string])[];
  /** The select's accessible name: "Status of Genomics Lab". */
  label: string;
  disabled?: boolean;
  /** The dialog for a change to `next`: its question, consequences and confirm button. */
  ask: (next: T) => { question: string; detail: ReactNode; confirm: string };
  /** Makes the change; resolves whether it was made. */
  onConfirm: (next: T) => Promise<boolean>;
}) {
  const [pending, setPending] = useState<T | null>(null);
  // A confirmed choice stays shown until the page reads it back (or the change fails), not the old value meanwhile.
  const [chosen, setChosen] = useState<T | null>(null);
  useEffect(() => setChosen(null), [value]);
  const asked = pending === null ? null : ask(pending);
  const confirm = (next: T) => {
    setChosen(next);
    void onConfirm(next).then((made) => !made && setChosen(null));
  };
  return (
    <>
      <select
        aria-label={label}
        value={pending ?? chosen ?? value}
        disabled={disabled}
        onChange={(event) => event.target.value !== value && setPending(event.target.value as T)}
      >
        {options.map(([option, words]) => (
          <option key={option} value={option}>
            {words}
          </option>
        ))}
      </select>
      {pending !== null && asked && <ConfirmDialog {...asked} onConfirm={() => confirm(pending)} onClose={() => setPending(null)} />}
    </>
  );
}

/** A credential's state cell: when it was revoked, or its "Revoke" button, which asks first. */
export function RevokeCell({
  revokedAt,
  label,
  detail,
  confirm,
  busy,
  onRevoke,
}: {
  revokedAt: string | null | undefined;
  /** The button's accessible name, and the dialog's question with "?": "Revoke the key of stats agent". */
  label: string;
  /** What revoking does: "Agents calling with it are refused at once." */
  detail: string;
  /** The dialog's button: "Revoke key". */
  confirm: string;
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
    <ConfirmButton
      className="small danger"
      label={label}
      question={`${label}?`}
      detail={detail}
      confirm={confirm}
      disabled={busy}
      onConfirm={onRevoke}
    >
      Revoke
    </ConfirmButton>
  );
}
