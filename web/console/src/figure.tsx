import { useState } from 'react';
import { type CombinedError, useQuery } from 'urql';
import { graphql } from './gql';
import { linkable } from './ui';

const FigureUrl = graphql(`
  query ConsoleFigureUrl($id: ID!, $path: String!) {
    trajectoryFigureUrl(sessionId: $id, path: $path)
  }
`);

/**
 * A figure of the record, by its path in the session's figure map, shown inline from the
 * short-lived URL GraphQL gives (this service, the S3 store or an allowed CDN, all of which the
 * console's CSP lets images come from). If the image cannot be shown, a link to it instead.
 */
export function FigureView({ sessionId, path }: { sessionId: string; path: string }) {
  const [{ data, error }] = useQuery({ query: FigureUrl, variables: { id: sessionId, path }, pause: !path, requestPolicy: 'network-only' });
  return <Figure path={path} url={data?.trajectoryFigureUrl} error={error} />;
}

/** A figure from its URL, once known (`url`); what went wrong otherwise. */
export function Figure({ path, url, error }: { path: string; url: string | undefined; error: CombinedError | undefined }) {
  const [broken, setBroken] = useState(false);
  if (!path || error)
    return (
      <p className="muted">
        Figure {path || '(no path)'}: not available{error ? ` (${error.graphQLErrors[0]?.message ?? 'unavailable'})` : ''}.
      </p>
    );
  if (url === undefined) return <p className="muted">Loading figure {path}…</p>;
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
