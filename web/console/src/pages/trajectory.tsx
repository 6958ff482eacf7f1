import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useClient, useMutation, useQuery, useSubscription } from 'urql';
import { graphql } from '../gql';
import type { ConsoleTrajectoryQuery } from '../gql/graphql';
import { parseRecord, type Block, type Turn } from '../records';
import { ErrorNote, linkable, Loading, When } from '../ui';
import { CritiquePanel, DiscussPanel, SummaryPanel } from './trajectory-aids';

const Trajectory = graphql(`
  query ConsoleTrajectory($id: ID!) {
    me {
      id
    }
    trajectoryMeta(sessionId: $id) {
      sessionId
      title
      owner {
        userId
        name
      }
      viewerCan {
        annotate
        resolve
        fork
        changeVisibility
        refreshSummary
      }
      labId
      visibility
      count
      source
      createdAt
      updatedAt
      openAnnotations
      tokens {
        input
        output
      }
      forkedFrom {
        sessionId
        seq
        parent {
          sessionId
          title
          owner {
            name
          }
        }
      }
    }
    trajectoryAnnotations(sessionId: $id) {
      items {
        annotationId
        author {
          userId
          name
        }
        body
        createdAt
        recordUuid
        replyTo
        status
        resolvedAt
      }
    }
    labs {
      id
      name
    }
  }
`);

const Records = graphql(`
  query ConsoleTrajectoryRecords($id: ID!, $after: Int, $first: Int) {
    trajectoryRecords(sessionId: $id, after: $after, first: $first) {
      hasMore
      items {
        seq
        text
      }
    }
  }
`);

const Appended = graphql(`
  subscription ConsoleRecordsAppended($id: ID!) {
    trajectoryRecordsAppended(sessionId: $id) {
      count
      records
    }
  }
`);

const Annotate = graphql(`
  mutation ConsoleAnnotate($id: ID!, $input: AnnotationInput!) {
    trajectoryAnnotate(sessionId: $id, input: $input) {
      annotationId
    }
  }
`);

const Resolve = graphql(`
  mutation ConsoleAnnotationResolve($id: ID!, $annotationId: ID!) {
    trajectoryAnnotationResolve(sessionId: $id, annotationId: $annotationId) {
      annotationId
      status
    }
  }
`);

const Fork = graphql(`
  mutation ConsoleFork($id: ID!, $input: ForkInput!) {
    trajectoryFork(sessionId: $id, input: $input) {
      sessionId
    }
  }
`);

const SetVisibility = graphql(`
  mutation ConsoleVisibility($id: ID!, $input: VisibilityInput!) {
    trajectoryVisibilitySet(sessionId: $id, input: $input) {
      sessionId
      visibility
      labId
    }
  }
`);

const FigureUrl = graphql(`
  query ConsoleFigureUrl($id: ID!, $path: String!) {
    trajectoryFigureUrl(sessionId: $id, path: $path)
  }
`);

type Note = ConsoleTrajectoryQuery['trajectoryAnnotations']['items'][number];

/** Records fetched a page at a time, as the list scrolls to them. */
const PAGE = 200;
/** Characters of a tool's output shown before "Show all". */
const FOLD_AT = 2000;

/** The records of a trajectory, loaded by pages as they come into view, and appended live. */
function useRecords(sessionId: string, initialCount: number | undefined) {
  const client = useClient();
  const [turns, setTurns] = useState<Map<number, Turn>>(new Map());
  // The count the page loaded with, or the one the latest append reported, whichever is larger.
  const [appendedCount, setAppendedCount] = useState(0);
  /** Tokens of the records appended while the page is open (the total from the server predates them). */
  const [liveTokens, setLiveTokens] = useState({ input: 0, output: 0 });
  const count = Math.max(initialCount ?? 0, appendedCount);
  const [failed, setFailed] = useState<string | null>(null);
  const requested = useRef(new Set<number>());

  const load = useCallback(
    (page: number) => {
      if (requested.current.has(page)) return;
      requested.current.add(page);
      void client
        .query(Records, { id: sessionId, after: page * PAGE, first: PAGE }, { requestPolicy: 'network-only' })
        .toPromise()
        .then((result) => {
          if (result.error) {
            requested.current.delete(page);
            return setFailed(result.error.message);
          }
          setTurns((current) => {
            const next = new Map(current);
            for (const item of result.data!.trajectoryRecords.items) next.set(item.seq, parseRecord(item.seq, item.text));
            return next;
          });
        });
    },
    [client, sessionId],
  );

  useSubscription({ query: Appended, variables: { id: sessionId } }, (_previous, event) => {
    const { count: total, records } = event.trajectoryRecordsAppended;
    const appended = records.map((text, index) => parseRecord(total - records.length + index + 1, text));
    setTurns((current) => {
      const next = new Map(current);
      for (const turn of appended) next.set(turn.seq, turn);
      return next;
    });
    setAppendedCount(total);
    setLiveTokens((sum) => ({
      input: appended.reduce((n, turn) => n + turn.inputTokens, sum.input),
      output: appended.reduce((n, turn) => n + turn.outputTokens, sum.output),
    }));
    return event;
  });

  return { turns, count, load, failed, liveTokens };
}

/** A trajectory replayed as a conversation, with its review notes beside the records. */
export function TrajectoryPage() {
  const { trajectoryId } = useParams({ from: '/trajectories/$trajectoryId' });
  // A fresh view per trajectory: a fork opens on the same route with another id.
  return <TrajectoryView key={trajectoryId} trajectoryId={trajectoryId} />;
}

function TrajectoryView({ trajectoryId }: { trajectoryId: string }) {
  const navigate = useNavigate();
  const [{ data, error, fetching }, reload] = useQuery({ query: Trajectory, variables: { id: trajectoryId } });
  const { turns, count, load, failed, liveTokens } = useRecords(trajectoryId, data?.trajectoryMeta.count);
  const [annotating, annotate] = useMutation(Annotate);
  const [resolving, resolve] = useMutation(Resolve);
  const [forking, fork] = useMutation(Fork);
  const [changing, changeVisibility] = useMutation(SetVisibility);
  const [said, say] = useState('');

  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count, getScrollElement: () => scroller.current, estimateSize: () => 140, overscan: 4 });
  const visible = virtualizer.getVirtualItems();
  const first = visible[0]?.index ?? 0;
  const last = visible[visible.length - 1]?.index ?? 0;
  useEffect(() => {
    if (count === 0) return;
    for (let page = Math.floor(first / PAGE); page <= Math.floor(last / PAGE); page++) load(page);
  }, [first, last, count, load]);

  const notes = useMemo(() => {
    const byRecord = new Map<string, Note[]>();
    for (const note of data?.trajectoryAnnotations.items ?? [])
      byRecord.set(note.recordUuid, [...(byRecord.get(note.recordUuid) ?? []), note]);
    return byRecord;
  }, [data]);

  if (!data) return fetching ? <Loading what="the trajectory" /> : <ErrorNote error={error} />;
  const meta = data.trajectoryMeta;
  const can = meta.viewerCan;
  const mine = meta.owner.userId === data.me.id;

  const addNote = async (recordUuid: string, body: string, replyTo?: string) => {
    const result = await annotate({ id: trajectoryId, input: { recordUuid, body, replyTo } });
    if (!result.error) {
      say(replyTo ? 'Replied.' : 'Comment added.');
      reload({ requestPolicy: 'network-only' });
    }
    return !result.error;
  };
  const resolveNote = async (annotationId: string) => {
    const result = await resolve({ id: trajectoryId, annotationId });
    if (!result.error) {
      say('Resolved.');
      reload({ requestPolicy: 'network-only' });
    }
  };
  const forkAt = async (headUuid: string) => {
    const result = await fork({ id: trajectoryId, input: { headUuid } });
    if (result.data) await navigate({ to: '/trajectories/$trajectoryId', params: { trajectoryId: result.data.trajectoryFork.sessionId } });
  };

  return (
    <>
      <p className="crumbs">
        <Link to="/trajectories">Trajectories</Link> /
      </p>
      <h1>{meta.title ?? 'Untitled trajectory'}</h1>
      <p className="byline">
        {mine ? 'Your run' : `${meta.owner.name}’s run`}
        {meta.forkedFrom && (
          <>
            , forked from{' '}
            {meta.forkedFrom.parent ? (
              <Link to="/trajectories/$trajectoryId" params={{ trajectoryId: meta.forkedFrom.parent.sessionId }}>
                {meta.forkedFrom.parent.title ?? 'an untitled trajectory'}
              </Link>
            ) : (
              'a trajectory you cannot open'
            )}
            {meta.forkedFrom.parent && meta.forkedFrom.parent.owner.name !== meta.owner.name && ` (${meta.forkedFrom.parent.owner.name}’s)`}
            {meta.forkedFrom.seq !== null && meta.forkedFrom.seq !== undefined && ` at record ${meta.forkedFrom.seq}`}
          </>
        )}
      </p>
      <dl className="facts">
        <dt>Owner</dt>
        <dd>{meta.owner.name}</dd>
        <dt>Records</dt>
        <dd>{count}</dd>
        <dt>Source</dt>
        <dd>{meta.source}</dd>
        <dt>Updated</dt>
        <dd>
          <When at={meta.updatedAt} />
        </dd>
        <dt>Tokens</dt>
        <dd>
          {(meta.tokens.input + liveTokens.input).toLocaleString()} in, {(meta.tokens.output + liveTokens.output).toLocaleString()} out
        </dd>
        <dt>
          <label htmlFor="visibility">Visibility</label>
        </dt>
        <dd>
          {can.changeVisibility ? (
            <select
              id="visibility"
              value={meta.visibility === 'lab' ? `lab:${meta.labId}` : 'private'}
              disabled={changing.fetching}
              onChange={(event) => {
                const value = event.target.value;
                void changeVisibility({
                  id: trajectoryId,
                  input: value === 'private' ? { visibility: 'private' } : { visibility: 'lab', labId: value.slice(4) },
                }).then((result) => !result.error && say('Visibility changed.'));
              }}
            >
              <option value="private">private</option>
              {data.labs.map((lab) => (
                <option key={lab.id} value={`lab:${lab.id}`}>
                  shared with {lab.name}
                </option>
              ))}
            </select>
          ) : (
            <span id="visibility">{meta.visibility}</span>
          )}
        </dd>
      </dl>
      <ErrorNote error={annotating.error ?? resolving.error ?? forking.error ?? changing.error} />
      {failed && (
        <p className="note error" role="alert">
          Some records could not be loaded: {failed}
        </p>
      )}
      <p className="note ok" role="status">
        {said}
      </p>
      {count === 0 ? (
        <div className="empty">
          <p>No records yet. They appear here as the client syncs them, without reloading.</p>
        </div>
      ) : (
        <div ref={scroller} className="transcript" role="feed" aria-label="Records" aria-busy={turns.size === 0}>
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {visible.map((row) => {
              const turn = turns.get(row.index + 1);
              return (
                <article
                  key={row.key}
                  data-index={row.index}
                  ref={virtualizer.measureElement}
                  className={`turn ${turn?.type ?? ''}${turn?.error ? ' failed' : ''}`}
                  style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${row.start}px)` }}
                  aria-posinset={row.index + 1}
                  aria-setsize={count}
                  aria-label={`Record ${row.index + 1}`}
                >
                  {turn ? (
                    <TurnView
                      sessionId={trajectoryId}
                      turn={turn}
                      notes={turn.uuid ? (notes.get(turn.uuid) ?? []) : []}
                      me={data.me.id}
                      onNote={can.annotate ? addNote : undefined}
                      onResolve={can.resolve ? resolveNote : undefined}
                      onFork={can.fork && turn.uuid ? () => void forkAt(turn.uuid!) : undefined}
                    />
                  ) : (
                    <p className="muted">Loading record {row.index + 1}…</p>
                  )}
                </article>
              );
            })}
          </div>
        </div>
      )}
      <div className="columns aids">
        <SummaryPanel sessionId={trajectoryId} canRefresh={can.refreshSummary} />
        <CritiquePanel sessionId={trajectoryId} onGoTo={(seq) => virtualizer.scrollToIndex(seq - 1, { align: 'start' })} />
        <DiscussPanel sessionId={trajectoryId} />
      </div>
    </>
  );
}

function TurnView({
  sessionId,
  turn,
  notes,
  me,
  onNote,
  onResolve,
  onFork,
}: {
  sessionId: string;
  turn: Turn;
  notes: Note[];
  me: string;
  /** Unset: the viewer may not annotate (no Comment, no Reply). */
  onNote?: (recordUuid: string, body: string, replyTo?: string) => Promise<boolean>;
  /** Unset: the viewer may not resolve notes. */
  onResolve?: (annotationId: string) => Promise<void>;
  onFork?: () => void;
}) {
  const commentDraft = turn.uuid ? draftKey(sessionId, turn.uuid) : undefined;
  // A comment left half-written (the session ended, the page was closed) opens again with its text.
  const [writing, setWriting] = useState(() => commentDraft !== undefined && readDraft(commentDraft) !== '');
  const threads = notes.filter((note) => !note.replyTo);
  return (
    <div className="turn-grid">
      <div className="turn-body">
        <header className="turn-head">
          <span className="who-said">{turn.type}</span>
          <span className="muted">#{turn.seq}</span>
          {turn.error && <span className="badge error">error</span>}
          {(turn.inputTokens > 0 || turn.outputTokens > 0) && (
            <span className="muted">
              {turn.inputTokens.toLocaleString()} in · {turn.outputTokens.toLocaleString()} out
            </span>
          )}
          <span className="turn-actions">
            {turn.uuid && onNote && (
              <button type="button" className="small" onClick={() => setWriting(true)}>
                Comment
              </button>
            )}
            {onFork && (
              <button type="button" className="small" onClick={onFork}>
                Fork from here
              </button>
            )}
          </span>
        </header>
        {turn.blocks.map((block, index) => (
          <BlockView key={index} block={block} sessionId={sessionId} />
        ))}
      </div>
      {(threads.length > 0 || writing) && turn.uuid && (
        <aside className="notes" aria-label={`Review notes on record ${turn.seq}`}>
          {threads.map((note) => (
            <Thread
              key={note.annotationId}
              root={note}
              replies={notes.filter((reply) => reply.replyTo === note.annotationId)}
              me={me}
              onReply={onNote && ((body) => onNote(turn.uuid!, body, note.annotationId))}
              replyDraft={draftKey(sessionId, turn.uuid!, note.annotationId)}
              onResolve={onResolve}
            />
          ))}
          {writing && onNote && (
            <NoteForm
              label={`Comment on record ${turn.seq}`}
              draft={commentDraft}
              onSubmit={(body) => onNote(turn.uuid!, body).then((ok) => (ok && setWriting(false), ok))}
              onCancel={() => setWriting(false)}
            />
          )}
        </aside>
      )}
    </div>
  );
}

function Thread({
  root,
  replies,
  me,
  onReply,
  onResolve,
  replyDraft,
}: {
  root: Note;
  replies: Note[];
  me: string;
  onReply?: (body: string) => Promise<boolean>;
  onResolve?: (id: string) => Promise<void>;
  replyDraft: string;
}) {
  const [replying, setReplying] = useState(() => readDraft(replyDraft) !== '');
  const author = (note: Note) => (note.author.userId === me ? `${note.author.name} (you)` : note.author.name);
  return (
    <div className={`thread ${root.status}`}>
      {[root, ...replies].map((note) => (
        <p key={note.annotationId} className="note-body">
          <strong>{author(note)}</strong> <When at={note.createdAt} />
          <br />
          {note.body}
        </p>
      ))}
      {root.status === 'resolved' ? (
        <p className="muted">
          Resolved <When at={root.resolvedAt} />
        </p>
      ) : (
        (onReply || onResolve) && (
          <p className="thread-actions">
            {onReply && (
              <button type="button" className="small" onClick={() => setReplying(true)}>
                Reply
              </button>
            )}
            {onResolve && (
              <button type="button" className="small" onClick={() => void onResolve(root.annotationId)}>
                Resolve
              </button>
            )}
          </p>
        )
      )}
      {replying && onReply && (
        <NoteForm
          label="Reply"
          draft={replyDraft}
          onSubmit={(body) => onReply(body).then((ok) => (ok && setReplying(false), ok))}
          onCancel={() => setReplying(false)}
        />
      )}
    </div>
  );
}

/**
 * Where a note being written is kept in this browser as it is typed, so that it outlives the
 * session ending (or the tab closing) and comes back when the page opens again.
 */
const draftKey = (sessionId: string, recordUuid: string, replyTo?: string) =>
  `labdesk:draft:${sessionId}:${recordUuid}${replyTo ? `:${replyTo}` : ''}`;
function readDraft(key: string): string {
  try {
    return localStorage.getItem(key) ?? '';
  } catch {
    return ''; // storage refused (private mode): the draft lives in the page only
  }
}
function keepDraft(key: string, body: string) {
  try {
    if (body) localStorage.setItem(key, body);
    else localStorage.removeItem(key);
  } catch {
    // storage refused or full: the draft lives in the page only
  }
}

function NoteForm({
  label,
  draft,
  onSubmit,
  onCancel,
}: {
  label: string;
  /** Where the text is kept as it is typed (`draftKey`); dropped once posted or cancelled. */
  draft?: string;
  onSubmit: (body: string) => Promise<boolean>;
  onCancel: () => void;
}) {
  const [body, setBodyState] = useState(() => (draft ? readDraft(draft) : ''));
  const setBody = (next: string) => {
    setBodyState(next);
    if (draft) keepDraft(draft, next);
  };
  const [sending, setSending] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSending(true);
    if (await onSubmit(body.trim())) setBody('');
    setSending(false);
  };
  return (
    <form className="note-form" onSubmit={(event) => void submit(event)}>
      <label>
        {label}
        <textarea value={body} onChange={(event) => setBody(event.target.value)} required maxLength={10000} rows={3} autoFocus />
      </label>
      <button type="submit" className="primary small" disabled={sending || !body.trim()}>
        Post
      </button>{' '}
      <button type="button" className="small" onClick={() => (setBody(''), onCancel())}>
        Cancel
      </button>
    </form>
  );
}

function BlockView({ block, sessionId }: { block: Block; sessionId: string }) {
  const [open, setOpen] = useState(false);
  switch (block.kind) {
    case 'text':
      return <div className="text">{block.text}</div>;
    case 'tool_use':
      return (
        <details className="tool">
          <summary>Tool call: {block.name}</summary>
          <pre>{block.input}</pre>
        </details>
      );
    case 'tool_result': {
      const long = block.text.length > FOLD_AT;
      return (
        <details className={`tool result${block.isError ? ' failed' : ''}`} open={block.isError}>
          <summary>
            {block.isError ? 'Tool error' : 'Tool result'} ({block.text.length.toLocaleString()} characters)
          </summary>
          <pre>{long && !open ? `${block.text.slice(0, FOLD_AT)}…` : block.text}</pre>
          {long && (
            <button type="button" className="small" onClick={() => setOpen(!open)}>
              {open ? 'Fold' : `Show all ${block.text.length.toLocaleString()} characters`}
            </button>
          )}
        </details>
      );
    }
    case 'image':
      return <FigureView sessionId={sessionId} path={block.path} />;
    default:
      return <pre className="raw">{block.text}</pre>;
  }
}

/**
 * A figure of the record, by its path in the session's figure map, shown inline from the
 * short-lived URL GraphQL gives (this service, the S3 store or an allowed CDN, all of which the
 * console's CSP lets images come from). If the image cannot be shown, a link to it instead.
 */
function FigureView({ sessionId, path }: { sessionId: string; path: string }) {
  const [{ data, error }] = useQuery({ query: FigureUrl, variables: { id: sessionId, path }, pause: !path, requestPolicy: 'network-only' });
  const [broken, setBroken] = useState(false);
  if (!path || error)
    return (
      <p className="muted">
        Figure {path || '(no path)'}: not available{error ? ` (${error.graphQLErrors[0]?.message ?? 'unavailable'})` : ''}.
      </p>
    );
  if (!data) return <p className="muted">Loading figure {path}…</p>;
  const url = data.trajectoryFigureUrl;
  if (!linkable(url)) return <p className="muted">Figure {path}</p>;
  if (broken)
    return (
      <p>
        <a href={url} target="_blank" rel="noopener noreferrer">
          Open figure {path}
        </a>
      </p>
    );
  return (
    <figure className="figure">
      <img src={url} alt={`Figure ${path}`} loading="lazy" onError={() => setBroken(true)} />
      <figcaption>{path}</figcaption>
    </figure>
  );
}
