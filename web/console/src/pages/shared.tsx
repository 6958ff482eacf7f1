import { Fragment, useCallback, useEffect, useState } from 'react';
import { useClient, useQuery } from 'urql';
import { Figure, FigureView } from '../figure';
import { graphql } from '../gql';
import { parseRecord, type Block, type Turn } from '../records';
import { count, Loading, When } from '../ui';

const Shared = graphql(`
  query ConsoleShared($token: String!) {
    sharedTrajectory(token: $token) {
      ...ConsoleSharedFacts
    }
  }
  fragment ConsoleSharedFacts on SharedTrajectory {
    title
    source
    recordCount
    createdAt
    updatedAt
    expiresAt
    maskEmails
    includeFigures
  }
`);

const SharedRecords = graphql(`
  query ConsoleSharedRecords($token: String!, $after: Int, $first: Int) {
    sharedTrajectoryRecords(token: $token, after: $after, first: $first) {
      ...ConsoleSharedPage
    }
  }
  fragment ConsoleSharedPage on SharedRecordPage {
    hasMore
    items {
      seq
      text
      masked
    }
  }
`);

const SharedFigureUrl = graphql(`
  query ConsoleSharedFigureUrl($token: String!, $path: String!) {
    sharedTrajectoryFigureUrl(token: $token, path: $path)
  }
`);

const Preview = graphql(`
  query ConsoleSharedPreview($id: ID!, $maskEmails: Boolean, $includeFigures: Boolean) {
    sharedTrajectoryPreview(sessionId: $id, maskEmails: $maskEmails, includeFigures: $includeFigures) {
      ...ConsoleSharedFacts
    }
  }
`);

const PreviewRecords = graphql(`
  query ConsoleSharedPreviewRecords($id: ID!, $maskEmails: Boolean, $after: Int, $first: Int) {
    sharedTrajectoryPreviewRecords(sessionId: $id, maskEmails: $maskEmails, after: $after, first: $first) {
      ...ConsoleSharedPage
    }
  }
`);

const PAGE = 100;
/** How a masked span reads in a record (src/modules/sharing/secret-masking.ts, `maskOf`). */
const MASKED = /(⟦masked: [^⟧]{1,60}⟧)/;

/** The link's token: after `#`, so it never reaches the server with the page or sits in its logs. */
const tokenOfAddress = () => decodeURIComponent(window.location.hash.slice(1));

/** `?preview=<trajectory id>[&emails=1][&figures=1]`: what a link would show, for whoever may make one, before making it. */
const previewOfAddress = () => {
  const search = new URLSearchParams(window.location.search);
  const sessionId = search.get('preview');
  return sessionId ? { sessionId, maskEmails: search.get('emails') === '1', includeFigures: search.get('figures') === '1' } : null;
};

/** Where the page's figures come from: the link, or (previewing) the trajectory its viewer may read. */
type FigureSource = { token: string } | { sessionId: string };

/**
 * What a share link opens (docs/api/sharing.md): the trajectory's title and its records, read-only,
 * every secret masked by the server and marked here; its figures only when the link includes them.
 * No account, no navigation. As a preview (`?preview=`), the same page from the same masking,
 * before any link is made.
 */
export function SharedPage() {
  const [token] = useState(tokenOfAddress);
  const [preview] = useState(previewOfAddress);
  const client = useClient();
  const [linked] = useQuery({ query: Shared, variables: { token }, pause: !token || !!preview, requestPolicy: 'network-only' });
  const [previewed] = useQuery({
    query: Preview,
    variables: { id: preview?.sessionId ?? '', maskEmails: preview?.maskEmails, includeFigures: preview?.includeFigures },
    pause: !preview,
    requestPolicy: 'network-only',
  });
  const { error, fetching } = preview ? previewed : linked;
  const data = preview
    ? previewed.data && { sharedTrajectory: previewed.data.sharedTrajectoryPreview }
    : linked.data && { sharedTrajectory: linked.data.sharedTrajectory };
  const [turns, setTurns] = useState<(Turn & { masked: number })[]>([]);
  const [more, setMore] = useState(false);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const load = useCallback(
    async (after: number) => {
      setLoading(true);
      const result = preview
        ? await client
            .query(
              PreviewRecords,
              { id: preview.sessionId, maskEmails: preview.maskEmails, after, first: PAGE },
              { requestPolicy: 'network-only' },
            )
            .toPromise()
        : await client.query(SharedRecords, { token, after, first: PAGE }, { requestPolicy: 'network-only' }).toPromise();
      setLoading(false);
      const page =
        result.data &&
        ('sharedTrajectoryRecords' in result.data ? result.data.sharedTrajectoryRecords : result.data.sharedTrajectoryPreviewRecords);
      if (!page) return setFailed(result.error?.graphQLErrors[0]?.message ?? 'the records could not be loaded');
      setTurns((current) => [...current, ...page.items.map((item) => ({ ...parseRecord(item.seq, item.text), masked: item.masked }))]);
      setMore(page.hasMore);
    },
    [client, token, preview],
  );
  const opened = !!data?.sharedTrajectory;
  useEffect(() => {
    if (opened) void load(0);
  }, [opened, load]);

  useEffect(() => {
    if (data) document.title = `${data.sharedTrajectory.title} · shared · labdesk`;
  }, [data]);
  // Another link pasted into this tab changes only what follows `#`: open that one afresh.
  useEffect(() => {
    const reopen = () => window.location.reload();
    window.addEventListener('hashchange', reopen);
    return () => window.removeEventListener('hashchange', reopen);
  }, []);

  if ((!token && !preview) || (error && !data))
    return (
      <>
        <h1>This link does not open</h1>
        <p>
          {error && !error.graphQLErrors.some((e) => e.extensions?.code === 'NOT_FOUND')
            ? `The trajectory could not be loaded: ${error.graphQLErrors[0]?.message ?? error.message}. Try again in a moment.`
            : 'It may have been revoked or have expired, or the address was cut short when it was copied. Ask whoever sent it for a new link.'}
        </p>
      </>
    );
  if (!data) return fetching ? <Loading what="the shared trajectory" /> : null;
  const shared = data.sharedTrajectory;
  const figures: FigureSource | null = !shared.includeFigures ? null : preview ? { sessionId: preview.sessionId } : { token };
  const maskedTotal = turns.reduce((sum, turn) => sum + turn.masked, 0);
  return (
    <>
      {preview && (
        <p className="note" role="status">
          Preview: what a share link made with these settings shows its readers. This page is not a link.{' '}
          <a href={`/trajectories/${encodeURIComponent(preview.sessionId)}`}>Back to the trajectory</a>
        </p>
      )}
      <h1>{shared.title}</h1>
      <dl className="facts">
        <dt>Records</dt>
        <dd>{shared.recordCount.toLocaleString()}</dd>
        <dt>Source</dt>
        <dd>{shared.source}</dd>
        <dt>Updated</dt>
        <dd>
          <When at={shared.updatedAt} />
        </dd>
        <dt>Link</dt>
        <dd>
          {preview ? (
            'not made yet'
          ) : shared.expiresAt ? (
            <>
              expires <When at={shared.expiresAt} />
            </>
          ) : (
            'does not expire'
          )}
        </dd>
      </dl>
      <p className="note" role="status">
        Secrets {shared.maskEmails ? 'and e-mail addresses ' : ''}were masked before this page was sent: they show as{' '}
        <span className="masked">masked</span>. {figures ? 'Figures are shown as they are.' : 'Figures are not included.'}
        {maskedTotal > 0 && ` ${count(maskedTotal, 'span')} masked in the records shown.`}
      </p>
      {failed && (
        <p className="note error" role="alert">
          {failed}
        </p>
      )}
      <section className="transcript-section" aria-label="Transcript">
        <div className="transcript shared" role="feed" aria-label="Records" aria-busy={loading}>
          {turns.map((turn) => (
            <article key={turn.seq} className={`turn ${turn.type}${turn.error ? ' failed' : ''}`} aria-label={`Record ${turn.seq}`}>
              <header className="turn-head">
                <span className="who-said">{turn.type}</span>
                <span className="record-link">
                  #{turn.seq}
                  {turn.at && (
                    <>
                      {' · '}
                      <When at={turn.at} />
                    </>
                  )}
                </span>
                {turn.error && <span className="badge error">error</span>}
              </header>
              {turn.blocks.map((block, index) => (
                <SharedBlock key={index} block={block} figures={figures} />
              ))}
            </article>
          ))}
        </div>
        {loading && <Loading what="records" />}
        {more && !loading && (
          <p>
            <button type="button" onClick={() => void load(turns.at(-1)?.seq ?? 0)}>
              Show the next {PAGE} records
            </button>
          </p>
        )}
      </section>
    </>
  );
}

/** Text with its masked spans marked. */
function Masked({ text }: { text: string }) {
  const parts = text.split(MASKED);
  return (
    <>
      {parts.map((part, index) =>
        index % 2 ? (
          <span key={index} className="masked" title="Masked before sharing">
            {part.slice(1, -1)}
          </span>
        ) : (
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </>
  );
}

/** One of the link's figures (`figures`: it includes them). */
function SharedFigure({ token, path }: { token: string; path: string }) {
  const [{ data, error }] = useQuery({ query: SharedFigureUrl, variables: { token, path }, pause: !path, requestPolicy: 'network-only' });
  return <Figure path={path} url={data?.sharedTrajectoryFigureUrl} error={error} />;
}

function SharedBlock({ block, figures }: { block: Block; figures: FigureSource | null }) {
  switch (block.kind) {
    case 'text':
      return (
        <div className="text">
          <Masked text={block.text} />
        </div>
      );
    case 'tool_use':
      return (
        <details className="tool">
          <summary>
            Tool call: <Masked text={block.name} />
          </summary>
          <pre>
            <Masked text={block.input} />
          </pre>
        </details>
      );
    case 'tool_result':
      return (
        <details className={`tool result${block.isError ? ' failed' : ''}`} open={block.isError || undefined}>
          <summary>
            {block.isError ? 'Tool error' : 'Tool result'} ({block.text.length.toLocaleString()} characters)
          </summary>
          <pre>
            <Masked text={block.text} />
          </pre>
        </details>
      );
    case 'image':
      if (!figures) return <p className="muted">Figure {block.path}: not included in this link.</p>;
      return 'token' in figures ? (
        <SharedFigure token={figures.token} path={block.path} />
      ) : (
        <FigureView sessionId={figures.sessionId} path={block.path} />
      );
    default:
      return (
        <pre className="raw">
          <Masked text={block.text} />
        </pre>
      );
  }
}
