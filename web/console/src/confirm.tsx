import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A question to confirm before something that cannot be undone: a native modal <dialog> (focus
 * kept inside, Escape cancels, the page behind inert) with the role `alertdialog`, named by its
 * title and described by its text. "Cancel" has the focus, so that Enter does no harm; once it
 * is gone, the focus is back on what opened it.
 */
export function ConfirmDialog({
  title,
  children,
  confirm,
  busy = false,
  onConfirm,
  onCancel,
}: {
  title: string;
  children: ReactNode;
  /** The confirming button's words: "Sign out", "Revoke". */
  confirm: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const dialog = ref.current;
    // The dialog leaves the page rather than closing: focus goes back by hand to what opened it.
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      dialog?.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className="confirm-dialog"
      role="alertdialog"
      aria-modal="true"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 id={`${id}-title`}>{title}</h2>
      <div id={`${id}-text`}>{children}</div>
      <div className="buttons-row">
        <button type="button" onClick={onCancel} autoFocus>
          Cancel
        </button>
        <button type="button" className="danger" onClick={onConfirm} disabled={busy}>
          {confirm}
        </button>
      </div>
    </dialog>
  );
}
