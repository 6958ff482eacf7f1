import { Link, useParams, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import { parseRecord, type Block } from '../records';
import { count, ErrorNote, Loading, titleMatches, When } from '../ui';

const Parent = graphql(`
  query ConsoleCompareParent($id: ID!) {
    trajectoryMeta(sessionId: $id) {
      sessionId
      title
      forkedFrom {
        parent {
          sessionId
          title
        }
      }
    }
  }
`);

graphql(`
  fragment CompareSide on DiffSide {
    sessionId
    title
    records
    toolCalls
    errors
    tokens {
      input
      output
    }
  }
`);

const Diff = graphql(`
  query ConsoleTrajectoryDiff($base: ID!, $other: ID!, $from: Int, $first: Int) {
    trajectoryDiff(base: $base, other: $other, from: $from, first: $first) {
      total
      from
      hasMore
      counts {
        same
        changed
        removed
        added
      }
      divergence {
        index
        baseSeq
        otherSeq
      }
      base {
        ...CompareSide
      }
      other {
        ...CompareSide
      }
      rows {
        index
        kind
        baseSeq
        otherSeq
        baseText
        otherText
        segments {
          kind
          text
        }
      }
    }
  }
`);

const Candidates = graphql(`
  query ConsoleCompareCandidates {
    mine: trajectories(limit: 250) {
      ...CompareCandidates
    }
    shared: trajectories(sharedOnly: true, limit: 250) {
      ...CompareCandidates
    }
  }
  fragment CompareCandidates on TrajectoryPage {
    items {
      sessionId
      title
      owner {
        name
      }
      count
      updatedAt
    }
  }
`);

const PAGE = 50;
/** Trajectories the picker lists at once: the newest that match. */
const PICKS = 8;

/** `/trajectories/$id/compare?base=…`: this trajectory against `base`, by default the one it was forked from. */
export function TrajectoryComparePage() {
  const { trajectoryId } = useParams({ strict: false }) as { trajectoryId: string };
  const search = useSearch({ strict: false }) as { base?: unknown };
  const asked = typeof search.base === 'string' ? search.base : null;
  const [{ data, error }] = useQuery({ query: Parent, variables: { id: trajectoryId }, pause: asked !== null });
  const base = asked ?? data?.trajectoryMeta.forkedFrom?.parent?.sessionId ?? null;
  if (asked === null && !data) return error ? <ErrorNote error={error} /> : <Loading what="the trajectory" />;
  if (!base)
    return (
      <>
        <h1>Compare</h1>
        <p>{data?.trajectoryMeta.title ?? 'This trajectory'} is not a fork of one you can open: pick one to compare it with.</p>
        <ComparePicker current={trajectoryId} />
      </>
    );
  return <Comparison key={base} base={base} other={trajectoryId} />;
}

/**
 * Another trajectory to compare this one with (`?base=`): the reader's own and those shared with
 * their labs, newest first, filtered by title as the reader types.
 */
function ComparePicker({ current, base }: { current: string; base?: string }) {
  const [{ data, error }] = useQuery({ query: Candidates });
  const [text, setText] = useState('');
  if (!data) return error ? <ErrorNote error={error} /> : <Loading what="your trajectories" />;
  const byId = new Map([...data.mine.items, ...data.shared.items].map((item) => [item.sessionId, item]));
  const newestFirst = [...byId.values()].sort((a, b) => Date.parse(b.updatedAt as string) - Date.parse(a.updatedAt as string));
  const matching = newestFirst.filter((item) => item.sessionId !== current && item.sessionId !== base && titleMatches(item, text));
  return (
    <section className="panel compare-picker" aria-labelledby="compare-picker-title">
      <h2 id="compare-picker-title">Compare with</h2>
      <label>
        Title <input type="search" value={text} onChange={(event) => setText(event.target.value)} placeholder="Filter by title" />
      </label>
      {matching.length === 0 ? (
        <p className="muted">
          {text.trim() ? 'No other trajectory you can open has that in its title.' : 'No other trajectory you can open.'}
        </p>
      ) : (
        <ul className="compare-candidates">
          {matching.slice(0, PICKS).map((item) => (
            <li key={item.sessionId}>
              <Link to="/trajectories/$trajectoryId/compare" params={{ trajectoryId: current }} search={{ base: item.sessionId }}>
                {item.title ?? item.sessionId}
              </Link>{' '}
              <span className="muted">
                {item.owner.name} · {count(item.count, 'record')} · <When at={item.updatedAt} />
              </span>
            </li>
          ))}
        </ul>
      )}
      {matching.length > PICKS && <p className="muted">{(matching.length - PICKS).toLocaleString()} more: type to narrow.</p>}
    </section>
  );
}

function Comparison({ base, other }: { base: string; other: string }) {
  const [from, setFrom] = useState<number | null>(null);
  // The list of trajectories to pick from is asked for only once the reader opens it.
  const [picking, setPicking] = useState(false);
  const [{ data, error, fetching }] = useQuery({ query: Diff, variables: { base, other, from, first: PAGE } });
  if (!data) return fetching ? <Loading what="the comparison" /> : <ErrorNote error={error} />;
  const diff = data.trajectoryDiff;
  const name = (side: { title?: string | null; sessionId: string }) => side.title ?? side.sessionId;
  return (
    <>
      <p className="crumbs">
        <Link to="/trajectories">Trajectories</Link> /{' '}
        <Link to="/trajectories/$trajectoryId" params={{ trajectoryId: other }}>
          {name(diff.other)}
        </Link>{' '}
        /
      </p>
      <h1>Compare</h1>
      <details className="compare-another" onToggle={(event) => setPicking(event.currentTarget.open)}>
        <summary>Compare with another trajectory</summary>
        {picking && <ComparePicker current={other} base={base} />}
      </details>
      <div className="compare-sides">
        {(['base', 'other'] as const).map((which) => {
          const side = diff[which];
          return (
            <section key={which} className={`panel side-${which}`} aria-label={which === 'base' ? 'Base' : 'Compared'}>
              <h2>
                <Link to="/trajectories/$trajectoryId" params={{ trajectoryId: side.sessionId }}>
                  {name(side)}
                </Link>
              </h2>
              <p className="muted">
                {count(side.records, 'record')} · {count(side.toolCalls, 'tool call')} · {count(side.errors, 'failed tool result')} ·{' '}
                {side.tokens.input.toLocaleString()} tokens in, {side.tokens.output.toLocaleString()} out
              </p>
            </section>
          );
        })}
      </div>
      <p className="note" role="status">
        {diff.divergence
          ? `They part at ${diff.divergence.baseSeq ? `record ${diff.divergence.baseSeq} of ${name(diff.base)}` : `record ${diff.divergence.otherSeq} of ${name(diff.other)}`}: ${diff.counts.same} shared, ${diff.counts.changed} changed, ${diff.counts.removed} only in ${name(diff.base)}, ${diff.counts.added} only in ${name(diff.other)}.`
          : `The two hold the same ${count(diff.counts.same, 'record')}.`}
      </p>
      {diff.from > 0 && (
        <p>
          {diff.from > PAGE && (
            <>
              <button type="button" onClick={() => setFrom(diff.from - PAGE)}>
                Show earlier records
              </button>{' '}
            </>
          )}
          <button type="button" onClick={() => setFrom(0)}>
            From the start
          </button>
        </p>
      )}
      <ol className="compare-rows" start={diff.from + 1} aria-label="Records side by side">
        {diff.rows.map((row) => (
          <li key={row.index} className={`compare-row ${row.kind}`}>
            <div className="compare-cell base">
              {row.baseText !== null && row.baseSeq !== null && (
                <RecordText
                  seq={row.baseSeq}
                  text={row.baseText}
                  note={row.kind === 'removed' ? `only in ${name(diff.base)}` : undefined}
                />
              )}
            </div>
            <div className="compare-cell other">
              {row.kind === 'same' ? (
                <p className="muted">the same in both</p>
              ) : row.kind === 'changed' && row.segments ? (
                <>
                  <p className="compare-label">
                    #{row.otherSeq} in {name(diff.other)}, changed
                  </p>
                  <pre className="compare-diff">
                    {row.segments.map((part, index) =>
                      part.kind === 'same' ? (
                        <span key={index}>{part.text}</span>
                      ) : part.kind === 'added' ? (
                        <ins key={index}>{part.text}</ins>
                      ) : (
                        <del key={index}>{part.text}</del>
                      ),
                    )}
                  </pre>
                </>
              ) : (
                row.otherText !== null &&
                row.otherSeq !== null && <RecordText seq={row.otherSeq} text={row.otherText} note={`only in ${name(diff.other)}`} />
              )}
            </div>
          </li>
        ))}
      </ol>
      {diff.hasMore && (
        <p>
          <button type="button" onClick={() => setFrom(diff.from + diff.rows.length)}>
            Show the next records
          </button>
        </p>
      )}
    </>
  );
}

const blockText = (block: Block) =>
  block.kind === 'text'
    ? block.text
    : block.kind === 'tool_use'
      ? `Tool call ${block.name}: ${block.input}`
      : block.kind === 'tool_result'
        ? `${block.isError ? 'Tool error' : 'Tool result'}: ${block.text.length > 1500 ? `${block.text.slice(0, 1500)}…` : block.text}`
        : block.kind === 'image'
          ? `Figure ${block.path}`
          : block.text;

/** A record, compact: who, its position (and `note`: which side alone holds it), its blocks as text. */
function RecordText({ seq, text, note }: { seq: number; text: string; note?: string }) {
  const turn = parseRecord(seq, text);
  return (
    <>
      <p className="compare-label">
        <span className="who-said">{turn.type}</span> #{seq}
        {note && ` · ${note}`}
        {turn.error && <span className="badge error"> error</span>}
      </p>
      {turn.blocks.map((block, index) => (
        <pre key={index} className="compare-text">
          {blockText(block)}
        </pre>
      ))}
    </>
  );
}
