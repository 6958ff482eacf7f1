import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
  type RefObject,
} from 'react';
import { useClient, useMutation, useQuery, useSubscription } from 'urql';
import { graphql } from '../gql';
import type { ConsoleTrajectoryQuery } from '../gql/graphql';
import { parseRecord, type Block, type Turn } from '../records';
import { FigureView } from '../figure';
import { ErrorNote, Loading, When } from '../ui';
import { ExportPanel, SharePanel } from './trajectory-share';
import { CritiquePanel, DiscussPanel, SummaryPanel } from './trajectory-aids';
import { ReviewPanel } from './reviews';

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
        share
        requestReview
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

const Find = graphql(`
  query ConsoleTrajectoryFind($id: ID!, $text: String!) {
    trajectoryFind(sessionId: $id, text: $text) {
      seqs
      total
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

type Note = ConsoleTrajectoryQuery['trajectoryAnnotations']['items'][number];

/** Records fetched a page at a time, as the list scrolls to them. */
const PAGE = 200;
/** Characters of a tool's output shown before "Show all". */
const FOLD_AT = 2000;
/** Pixels under the transcript's end that still count as being at its end (follow-tail). */
const AT_END_SLACK = 48;

/** The records of a trajectory, loaded by pages as they come into view, and appended live. */
function useRecords(sessionId: string, initialCount: number | undefined, onAppend: (appended: number) => void) {
  const client = useClient();
  const [turns, setTurns] = useState<Map<number, Turn>>(new Map());
  // The count the page loaded with, or the one the latest append reported, whichever is larger.
  const [appendedCount, setAppendedCount] = useState(0);
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
    onAppend(records.length);
    setTurns((current) => {
      const next = new Map(current);
      records.forEach((text, index) => {
        const seq = total - records.length + index + 1;
        next.set(seq, parseRecord(seq, text));
      });
      return next;
    });
    setAppendedCount(total);
    return event;
  });

  return { turns, count, load, failed };
}

/** `?record=N` of the address, when N is a record's position. */
function recordParam(value: unknown): number | null {
  const seq = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(seq) && seq >= 1 ? seq : null;
}

/** A trajectory replayed as a conversation, with its review notes beside the records. */
export function TrajectoryPage() {
  const { trajectoryId } = useParams({ from: '/trajectories/$trajectoryId' });
  // A fresh view per trajectory: a fork opens on the same route with another id.
  return <TrajectoryView key={trajectoryId} trajectoryId={trajectoryId} />;
}

function TrajectoryView({ trajectoryId }: { trajectoryId: string }) {
  const navigate = useNavigate();
  const selected = recordParam((useSearch({ strict: false }) as { record?: unknown }).record);
  const [{ data, error, fetching }, reload] = useQuery({ query: Trajectory, variables: { id: trajectoryId } });

  const list = useRef<HTMLDivElement>(null);
  /**
   * Whether the reader is at the transcript's end (it is in the window), so new records are
   * followed. Not while they work in the panels below it: following would scroll those away.
   */
  const endInView = () => {
    const bottom = list.current?.getBoundingClientRect().bottom;
    const inPanels = document.activeElement?.closest('.aids') != null;
    return bottom !== undefined && bottom >= 0 && bottom <= window.innerHeight + AT_END_SLACK && !inPanels;
  };
  // What an append found (read before it is drawn): whether to follow it, and how many records it brought.
  const lastAppend = useRef<{ follow: boolean; appended: number } | null>(null);
  const headerReload = useRef<number | null>(null);
  const onAppend = (appended: number) => {
    lastAppend.current = {
      follow: endInView() || (lastAppend.current?.follow ?? false),
      appended: appended + (lastAppend.current?.appended ?? 0),
    };
    // The header (Updated, tokens, records) is read again shortly after, once for a burst of appends.
    if (headerReload.current === null)
      headerReload.current = window.setTimeout(() => {
        headerReload.current = null;
        reload({ requestPolicy: 'network-only' });
      }, 400);
  };
  useEffect(() => () => void (headerReload.current !== null && window.clearTimeout(headerReload.current)), []);
  const { turns, count, load, failed } = useRecords(trajectoryId, data?.trajectoryMeta.count, onAppend);

  const [annotating, annotate] = useMutation(Annotate);
  const [resolving, resolve] = useMutation(Resolve);
  const [forking, fork] = useMutation(Fork);
  const [changing, changeVisibility] = useMutation(SetVisibility);
  const [said, say] = useState('');

  // The page scrolls, not a box inside it: the list is placed in the window, below what comes before it.
  const findBar = useRef<HTMLFormElement>(null);
  const [listTop, setListTop] = useState(0);
  const [barHeight, setBarHeight] = useState(0);
  useLayoutEffect(() => {
    const top = list.current ? list.current.getBoundingClientRect().top + window.scrollY : 0;
    if (Math.abs(top - listTop) > 1) setListTop(top);
    const height = findBar.current?.offsetHeight ?? 0;
    if (height !== barHeight) setBarHeight(height);
  });
  const virtualizer = useWindowVirtualizer({
    count,
    estimateSize: () => 140,
    overscan: 4,
    scrollMargin: listTop,
    // A record scrolled to shows under the find bar, which stays at the top of the window.
    scrollPaddingStart: barHeight + 8,
  });
  const visible = virtualizer.getVirtualItems();
  const first = visible[0]?.index ?? 0;
  const last = visible[visible.length - 1]?.index ?? 0;
  useEffect(() => {
    if (count === 0) return;
    for (let page = Math.floor(first / PAGE); page <= Math.floor(last / PAGE); page++) load(page);
  }, [first, last, count, load]);
  const settle = useSettle(list, findBar, virtualizer.cancelScroll);
  /** To record `seq`, at the top of the window (and to the text found in it, `toMark`), however far and whether loaded yet. */
  const goTo = useCallback(
    (seq: number, toMark = false) => {
      virtualizer.scrollToIndex(seq - 1, { align: 'start' });
      settle({ seq, toMark });
    },
    [virtualizer, settle],
  );

  // Follow-tail: new records at the end the reader is at are followed; otherwise they are counted.
  const [unseen, setUnseen] = useState(0);
  const toEnd = useCallback(() => {
    setUnseen(0);
    // Near the end by the sizes known so far (not to the page's end: the panels come after the list).
    virtualizer.scrollToOffset(listTop + virtualizer.getTotalSize() - window.innerHeight + 16);
    settle({ seq: count, end: true });
  }, [virtualizer, settle, count, listTop]);
  useLayoutEffect(() => {
    const append = lastAppend.current;
    if (!append) return;
    lastAppend.current = null;
    if (append.follow) toEnd();
    // Records drawn where the reader already sees them are not news.
    else if ((list.current?.getBoundingClientRect().bottom ?? 0) > window.innerHeight) setUnseen((n) => n + append.appended);
  }, [turns, count, toEnd]); // every append sets turns, even one whose count the header had already read
  useEffect(() => {
    const onScroll = () => {
      const bottom = list.current?.getBoundingClientRect().bottom;
      if (bottom !== undefined && bottom <= window.innerHeight + AT_END_SLACK) setUnseen(0);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  // The record of the address (?record=N), scrolled to once its trajectory is known.
  const shownSelected = useRef(false);
  useEffect(() => {
    if (shownSelected.current || selected === null || count === 0 || listTop === 0) return;
    shownSelected.current = true;
    if (selected <= count) goTo(selected);
  }, [selected, count, listTop, goTo]);

  const find = useFind(trajectoryId, count, (seq) => goTo(seq, true));

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
            {meta.forkedFrom.parent && (
              <>
                {' · '}
                <Link to="/trajectories/$trajectoryId/compare" params={{ trajectoryId }}>
                  Compare with it
                </Link>
              </>
            )}
          </>
        )}
        {!meta.forkedFrom?.parent && (
          <>
            {' · '}
            <Link to="/trajectories/$trajectoryId/compare" params={{ trajectoryId }}>
              Compare with another
            </Link>
          </>
        )}
      </p>
      <dl className="facts">
        <dt>Owner</dt>
        <dd>{meta.owner.name}</dd>
        <dt>Records</dt>
        <dd>{count.toLocaleString()}</dd>
        <dt>Source</dt>
        <dd>{meta.source}</dd>
        <dt>Updated</dt>
        <dd data-fact="updated">
          <When at={meta.updatedAt} />
        </dd>
        <dt>Tokens</dt>
        <dd>
          {meta.tokens.input.toLocaleString()} in, {meta.tokens.output.toLocaleString()} out
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
      {selected !== null && count > 0 && selected > count && (
        <p className="note" role="status">
          This trajectory has {count.toLocaleString()} records: there is no record {selected.toLocaleString()}.
        </p>
      )}
      {count === 0 ? (
        <div className="empty">
          <p>No records yet. They appear here as the client syncs them, without reloading.</p>
        </div>
      ) : (
        <section className="transcript-section" aria-label="Transcript">
          <FindBar formRef={findBar} find={find} />
          <div ref={list} className="transcript" role="feed" aria-label="Records" aria-busy={turns.size === 0}>
            <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
              {visible.map((row) => {
                const seq = row.index + 1;
                const turn = turns.get(seq);
                const classes = ['turn', turn?.type ?? '', turn?.error ? 'failed' : '', seq === selected ? 'selected' : ''];
                if (find.current === seq) classes.push('match-current');
                return (
                  <article
                    key={row.key}
                    data-index={row.index}
                    ref={virtualizer.measureElement}
                    className={classes.filter(Boolean).join(' ')}
                    style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${row.start - listTop}px)` }}
                    aria-posinset={seq}
                    aria-setsize={count}
                    aria-label={`Record ${seq}`}
                    aria-current={seq === selected ? 'true' : undefined}
                    data-loading={turn ? undefined : true}
                  >
                    {turn ? (
                      <TurnView
                        sessionId={trajectoryId}
                        turn={turn}
                        find={find.active}
                        notes={turn.uuid ? (notes.get(turn.uuid) ?? []) : []}
                        me={data.me.id}
                        onNote={can.annotate ? addNote : undefined}
                        onResolve={can.resolve ? resolveNote : undefined}
                        onFork={can.fork && turn.uuid ? () => void forkAt(turn.uuid!) : undefined}
                      />
                    ) : (
                      <p className="muted">Loading record {seq}…</p>
                    )}
                  </article>
                );
              })}
            </div>
          </div>
          <div className="new-records" aria-live="polite">
            {unseen > 0 && (
              <button type="button" className="primary" onClick={toEnd}>
                {unseen === 1 ? '1 new record' : `${unseen.toLocaleString()} new records`} ↓
              </button>
            )}
          </div>
        </section>
      )}
      <div className="columns aids">
        <ReviewPanel sessionId={trajectoryId} labId={meta.labId ?? null} ownerId={meta.owner.userId} canRequest={can.requestReview} />
        <SummaryPanel sessionId={trajectoryId} canRefresh={can.refreshSummary} />
        <CritiquePanel sessionId={trajectoryId} onGoTo={(seq) => goTo(seq)} />
        <DiscussPanel sessionId={trajectoryId} />
        <ExportPanel sessionId={trajectoryId} />
        {can.share && <SharePanel sessionId={trajectoryId} />}
      </div>
    </>
  );
}

/**
 * Brings a record into place once the list has drawn it: records are measured as they are drawn
 * (and loaded by pages), so the virtualizer's first aim may land off. Checks every tenth of a
 * second for a few seconds and corrects by the rest, until the record stays put; stops at once
 * when the reader scrolls themselves.
 * `end`: the transcript's end at the bottom of the window; `toMark`: the first text found in
 * the record in view, should the record be taller than the window.
 */
function useSettle(list: RefObject<HTMLDivElement>, bar: RefObject<HTMLFormElement>, cancelVirtualScroll: () => void) {
  const timer = useRef<number | null>(null);
  const stop = useCallback(() => {
    if (timer.current !== null) window.clearInterval(timer.current);
    timer.current = null;
  }, []);
  useEffect(() => {
    const events = ['wheel', 'touchstart', 'mousedown'] as const;
    for (const name of events) window.addEventListener(name, stop, { passive: true });
    return () => {
      stop();
      for (const name of events) window.removeEventListener(name, stop);
    };
  }, [stop]);
  return useCallback(
    (target: { seq: number; end?: boolean; toMark?: boolean }) => {
      stop();
      const started = Date.now();
      let still = 0;
      timer.current = window.setInterval(() => {
        const article = list.current?.querySelector<HTMLElement>(`article[aria-posinset="${target.seq}"]`);
        if (Date.now() - started > 4000) return stop();
        if (!article || article.dataset.loading) return;
        // Drawn and loaded: from here this aims, the virtualizer's own aim would pull the other way.
        cancelVirtualScroll();
        const top = (bar.current?.offsetHeight ?? 0) + 8;
        let by = target.end
          ? list.current!.getBoundingClientRect().bottom - (window.innerHeight - 16)
          : article.getBoundingClientRect().top - top;
        const mark = target.toMark ? article.querySelector('mark')?.getBoundingClientRect() : undefined;
        if (mark && mark.bottom - by > window.innerHeight - 16) by = mark.top - window.innerHeight / 2;
        const before = window.scrollY;
        if (Math.abs(by) > 2) window.scrollBy(0, by);
        // In place, or as near as the page can scroll: done once it stays so.
        if (window.scrollY === before) {
          if (++still >= 3) stop();
        } else still = 0;
      }, 100);
    },
    [list, bar, stop, cancelVirtualScroll],
  );
}

/** Waits this long after the last keystroke before asking the server (Enter asks at once). */
const FIND_DELAY_MS = 250;

/**
 * Find in the transcript: the server says which records hold the text (they may not be loaded
 * yet), the page steps through them and marks the text in the records drawn.
 */
function useFind(sessionId: string, count: number, goTo: (seq: number) => void) {
  const [draft, setDraft] = useState('');
  // The text asked about: the draft once typing paused, or at once on Enter.
  const [asked, setAsked] = useState('');
  const [index, setIndex] = useState(0);
  useEffect(() => {
    const timer = window.setTimeout(() => setAsked(draft), FIND_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [draft]);
  const text = asked.trim() ? asked : '';
  const [{ data, error, operation }, again] = useQuery({
    query: Find,
    variables: { id: sessionId, text },
    pause: !text,
    requestPolicy: 'network-only',
  });
  // Records appended while finding may hold the text too: asked again when the count moves.
  const askedAtCount = useRef(count);
  useEffect(() => {
    if (askedAtCount.current === count) return;
    askedAtCount.current = count;
    if (text) again({ requestPolicy: 'network-only' });
  }, [count, text, again]);
  // The answer for the text asked now (not the one before it, still shown while this one comes).
  const result = text && operation?.variables.text === text ? data?.trajectoryFind : undefined;
  const seqs = result?.seqs ?? [];
  // A new text starts at its first match, and goes there.
  const jumpOnResult = useRef(false);
  useEffect(() => {
    jumpOnResult.current = true;
    setIndex(0);
  }, [text]);
  useEffect(() => {
    if (!jumpOnResult.current || !result) return;
    jumpOnResult.current = false;
    if (result.seqs.length) goTo(result.seqs[0]);
  }, [result, goTo]);
  const step = (by: number) => {
    if (!seqs.length) return;
    const next = (index + by + seqs.length) % seqs.length;
    setIndex(next);
    goTo(seqs[next]);
  };
  const submit = (backwards: boolean) => {
    if (draft !== asked) setAsked(draft);
    else step(backwards ? -1 : 1);
  };
  return {
    draft,
    setDraft,
    /** The text marked in the records. */
    active: result ? text : '',
    current: seqs.length ? seqs[Math.min(index, seqs.length - 1)] : null,
    position: Math.min(index, Math.max(seqs.length - 1, 0)),
    result,
    error,
    step,
    submit,
  };
}

function FindBar({ find, formRef }: { find: ReturnType<typeof useFind>; formRef: RefObject<HTMLFormElement> }) {
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    find.submit(event.shiftKey);
  };
  const result = find.result;
  const status = !find.draft.trim()
    ? ''
    : find.error
      ? (find.error.graphQLErrors[0]?.message ?? 'Find failed')
      : !result
        ? 'Finding…'
        : result.total === 0
          ? 'No matches'
          : `${(find.position + 1).toLocaleString()} of ${result.total.toLocaleString()}`;
  return (
    <form ref={formRef} role="search" className="find-bar" onSubmit={(event: FormEvent) => event.preventDefault()}>
      <label htmlFor="transcript-find">Find in transcript</label>
      <input
        id="transcript-find"
        type="search"
        value={find.draft}
        maxLength={200}
        autoComplete="off"
        onChange={(event) => find.setDraft(event.target.value)}
        onKeyDown={onKeyDown}
        aria-describedby="transcript-find-count"
      />
      <output id="transcript-find-count" aria-live="polite" title={result && result.total > 0 ? 'Records that hold the text' : undefined}>
        {status}
      </output>
      <span className="find-steps">
        <button type="button" className="small" disabled={!result?.seqs.length} onClick={() => find.step(-1)} aria-label="Previous match">
          <span aria-hidden="true">↑</span>
          <span className="step-word"> Previous</span>
        </button>
        <button type="button" className="small" disabled={!result?.seqs.length} onClick={() => find.step(1)} aria-label="Next match">
          <span aria-hidden="true">↓</span>
          <span className="step-word"> Next</span>
        </button>
      </span>
    </form>
  );
}

/**
 * A record's own time, short in the reader's locale: the time alone today, with the day this
 * year, else with the full date; in full on hover.
 */
const timeOnly = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
const dayAndTime = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
const dateAndTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const inFull = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'long' });
function RecordTime({ at }: { at: string }) {
  const date = new Date(at);
  const now = new Date();
  const format =
    date.toDateString() === now.toDateString() ? timeOnly : date.getFullYear() === now.getFullYear() ? dayAndTime : dateAndTime;
  return (
    <time dateTime={at} title={inFull.format(date)}>
      {format.format(date)}
    </time>
  );
}

/** `text` with every case-insensitive occurrence of `find` marked. */
function Marked({ text, find }: { text: string; find: string }) {
  if (!find) return <>{text}</>;
  const parts = text.split(new RegExp(`(${find.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})`, 'giu'));
  return <>{parts.map((part, index) => (index % 2 ? <mark key={index}>{part}</mark> : part))}</>;
}
const holds = (text: string, find: string) => !!find && text.toLocaleLowerCase().includes(find.toLocaleLowerCase());

function TurnView({
  sessionId,
  turn,
  find,
  notes,
  me,
  onNote,
  onResolve,
  onFork,
}: {
  sessionId: string;
  turn: Turn;
  /** The text marked (find in transcript); empty: none. */
  find: string;
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
          {/* The record's own address (?record=N): kept on reload, and shareable. */}
          <Link
            to="/trajectories/$trajectoryId"
            params={{ trajectoryId: sessionId }}
            search={{ record: turn.seq } as never}
            replace
            resetScroll={false}
            className="record-link"
            title={`Link to record ${turn.seq}`}
          >
            #{turn.seq}
            {turn.at && (
              <>
                {' · '}
                <RecordTime at={turn.at} />
              </>
            )}
          </Link>
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
          <BlockView key={index} block={block} sessionId={sessionId} find={find} />
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

function BlockView({ block, sessionId, find }: { block: Block; sessionId: string; find: string }) {
  const [open, setOpen] = useState(false);
  switch (block.kind) {
    case 'text':
      return (
        <div className="text">
          <Marked text={block.text} find={find} />
        </div>
      );
    case 'tool_use':
      // A call that holds the text found opens, so the mark is seen.
      return (
        <details className="tool" open={holds(block.input, find) || undefined}>
          <summary>
            Tool call: <Marked text={block.name} find={find} />
          </summary>
          <pre>
            <Marked text={block.input} find={find} />
          </pre>
        </details>
      );
    case 'tool_result': {
      const long = block.text.length > FOLD_AT;
      // Unfolded when the text found is only past the fold.
      const folded = long && !open && !(holds(block.text, find) && !holds(block.text.slice(0, FOLD_AT), find));
      return (
        <details className={`tool result${block.isError ? ' failed' : ''}`} open={block.isError || holds(block.text, find) || undefined}>
          <summary>
            {block.isError ? 'Tool error' : 'Tool result'} ({block.text.length.toLocaleString()} characters)
          </summary>
          <pre>
            <Marked text={folded ? `${block.text.slice(0, FOLD_AT)}…` : block.text} find={find} />
          </pre>
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
      return (
        <pre className="raw">
          <Marked text={block.text} find={find} />
        </pre>
      );
  }
}
