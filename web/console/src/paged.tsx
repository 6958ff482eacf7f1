import { useState, type ReactNode } from 'react';
import { offsetOf, useUrlState } from './url-state';

/** Why a pager's button is disabled (its description, and a tooltip). */
const FIRST = 'This is the first page.';
const LAST = 'This is the last page.';

/**
 * A list shown a page at a time, with "Previous" and "Next" when it is longer than one page.
 * With `urlKey`, the page past the first is kept in the URL (`?members=2`), so that a reload and
 * back/forward come back to it.
 */
export function Paged<T>({
  items,
  size = 25,
  label,
  urlKey,
  children,
}: {
  items: T[];
  size?: number;
  label: string;
  urlKey?: string;
  children: (page: T[]) => ReactNode;
}) {
  const [localIndex, setLocalIndex] = useState(0);
  const [view, setView] = useUrlState(urlKey ? [urlKey] : []);
  // The URL counts pages from 1, as the pager says them.
  const index = urlKey ? Math.max(0, offsetOf(view[urlKey]) - 1) : localIndex;
  const setIndex = (next: number) => (urlKey ? setView({ [urlKey]: next > 0 ? next + 1 : 0 }) : setLocalIndex(next));
  const pages = Math.max(1, Math.ceil(items.length / size));
  const current = Math.min(index, pages - 1);
  return (
    <>
      {children(items.slice(current * size, (current + 1) * size))}
      {pages > 1 && (
        <nav className="pager" aria-label={`${label} pages`}>
          <button type="button" onClick={() => setIndex(current - 1)} disabled={current === 0} title={current === 0 ? FIRST : undefined}>
            Previous
          </button>
          <span>
            Page {current + 1} of {pages}
          </span>
          <button
            type="button"
            onClick={() => setIndex(current + 1)}
            disabled={current === pages - 1}
            title={current === pages - 1 ? LAST : undefined}
          >
            Next
          </button>
        </nav>
      )}
    </>
  );
}

/** "Previous" and "Next" over a list the server pages by offset (`total` items, `size` a page). */
export function OffsetPager({
  label,
  offset,
  size,
  shown,
  total,
  onMove,
}: {
  label: string;
  offset: number;
  size: number;
  shown: number;
  total: number;
  onMove: (offset: number) => void;
}) {
  return (
    <nav className="pager" aria-label={`${label} pages`}>
      <button
        type="button"
        disabled={offset === 0}
        title={offset === 0 ? FIRST : undefined}
        onClick={() => onMove(Math.max(0, offset - size))}
      >
        Previous
      </button>
      <span>
        {shown === 0 ? 0 : offset + 1}–{offset + shown} of {total}
      </span>
      <button
        type="button"
        disabled={offset + size >= total}
        title={offset + size >= total ? LAST : undefined}
        onClick={() => onMove(offset + size)}
      >
        Next
      </button>
    </nav>
  );
}
