import { Link } from '@tanstack/react-router';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import { OffsetPager } from '../paged';
import { ErrorNote, Loading } from '../ui';
import { offsetOf, useUrlState } from '../url-state';

const Search = graphql(`
  query ConsoleTrajectorySearch($q: String!, $offset: Int) {
    trajectorySearch(q: $q, limit: 20, offset: $offset) {
      total
      offset
      items {
        sessionId
        title
        ownerName
        seq
        uuid
        snippet
      }
    }
  }
`);

/** `text` with each word of the query marked, for the eye (the server matched whole words). */
function marked(text: string, query: string): ReactNode[] {
  const words = query
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 1 && word !== 'or');
  if (!words.length) return [text];
  const pattern = new RegExp(`(${words.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`, 'giu');
  return text.split(pattern).map((part, i) => (i % 2 ? <mark key={i}>{part}</mark> : part));
}

/**
 * Search across the trajectories the reader can read: titles and record text (PostgreSQL
 * full-text search on the server: whole words, "a phrase", -word, or).
 */
export function TrajectorySearch() {
  // The query and its page live in the URL (`/trajectories?q=…`), beside the list's filters: a
  // search can be reloaded, shared, and gone back to.
  const [view, setView] = useUrlState(['q', 'offset'] as const);
  const q = view.q.slice(0, 200);
  const offset = offsetOf(view.offset);
  const setQ = (next: string) => setView({ q: next, offset: 0 });
  const setOffset = (next: number) => setView({ offset: next });
  const [draft, setDraft] = useState(q);
  // Back and forward change the query under the field: the field follows.
  useEffect(() => setDraft(q), [q]);
  const [{ data, error, fetching }] = useQuery({ query: Search, variables: { q, offset }, pause: !q });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setQ(draft.trim());
  };
  const page = data?.trajectorySearch;
  return (
    <section aria-label="Matches" className="search">
      <form role="search" className="filters" onSubmit={onSubmit}>
        <label>
          Search
          <input
            type="search"
            value={draft}
            maxLength={200}
            onChange={(event) => setDraft(event.target.value)}
            placeholder='Words in titles and records, "a phrase", -word'
          />
        </label>
        <button type="submit" disabled={!draft.trim()}>
          Search
        </button>
        {q && (
          <button type="button" onClick={() => (setDraft(''), setQ(''))}>
            Clear
          </button>
        )}
      </form>
      <ErrorNote error={error} />
      {q && fetching && !page && <Loading what="matches" />}
      {q && page && (
        <>
          <p aria-live="polite">
            {page.total
              ? `${page.total.toLocaleString()} ${page.total === 1 ? 'match' : 'matches'} for “${q}”`
              : `Nothing matches “${q}” in the trajectories you can read.`}
          </p>
          <ol className="hits">
            {page.items.map((hit) => (
              <li key={`${hit.sessionId} ${hit.seq ?? 'title'}`}>
                <Link to="/trajectories/$trajectoryId" params={{ trajectoryId: hit.sessionId }}>
                  {marked(hit.title ?? hit.sessionId, q)}
                </Link>{' '}
                <span className="muted">
                  {hit.ownerName}’s run{hit.seq !== null ? `, record ${hit.seq}` : ', title'}
                </span>
                {hit.seq !== null && <p className="snippet">{marked(hit.snippet, q)}</p>}
              </li>
            ))}
          </ol>
          {page.total > page.items.length && (
            <OffsetPager label="Search" offset={offset} size={20} shown={page.items.length} total={page.total} onMove={setOffset} />
          )}
        </>
      )}
    </section>
  );
}
