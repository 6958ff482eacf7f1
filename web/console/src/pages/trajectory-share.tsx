import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { ErrorNote, RevokeCell, Table, When } from '../ui';

const Links = graphql(`
  query ConsoleShareLinks($id: ID!) {
    trajectoryShareLinks(sessionId: $id) {
      linkId
      open
      views
      lastViewedAt
      expiresAt
      revokedAt
      maskEmails
      includeFigures
      createdAt
      createdBy {
        name
      }
    }
  }
`);

const Create = graphql(`
  mutation ConsoleShareLinkCreate($id: ID!, $input: ShareLinkInput) {
    trajectoryShareLinkCreate(sessionId: $id, input: $input) {
      url
      link {
        linkId
      }
    }
  }
`);

const Revoke = graphql(`
  mutation ConsoleShareLinkRevoke($linkId: ID!) {
    trajectoryShareLinkRevoke(linkId: $linkId) {
      linkId
      open
      revokedAt
    }
  }
`);

const EXPIRIES = [
  { days: 1, label: 'in 1 day' },
  { days: 7, label: 'in 7 days' },
  { days: 30, label: 'in 30 days' },
  { days: 0, label: 'never (until revoked)' },
];

/**
 * Read-only links for people without an account (docs/api/sharing.md): made here with an expiry,
 * listed with their views, revoked. A new link's address is shown once, to copy or open (what
 * it opens is exactly what its readers see).
 */
export function SharePanel({ sessionId }: { sessionId: string }) {
  const [{ data, error }, reload] = useQuery({ query: Links, variables: { id: sessionId } });
  const [creating, create] = useMutation(Create);
  const [revoking, revoke] = useMutation(Revoke);
  const [days, setDays] = useState(7);
  const [maskEmails, setMaskEmails] = useState(false);
  const [includeFigures, setIncludeFigures] = useState(false);
  const [made, setMade] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const onCreate = async () => {
    const result = await create({ id: sessionId, input: { expiresInDays: days || null, maskEmails, includeFigures } });
    if (!result.data) return;
    setMade(result.data.trajectoryShareLinkCreate.url);
    setCopied(false);
    reload({ requestPolicy: 'network-only' });
  };
  const copy = async () => {
    if (!made) return;
    await navigator.clipboard.writeText(made).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  const links = data?.trajectoryShareLinks ?? [];
  return (
    <section className="panel share" aria-labelledby="share-title">
      <h2 id="share-title">Share outside the lab</h2>
      <p className="muted">
        A read-only link for someone without an account. Secrets in the records (API keys, tokens, private keys, passwords in addresses) are
        masked before anything leaves. Figures are left out unless you include them: nothing in an image is masked.
      </p>
      <ErrorNote error={error ?? creating.error ?? revoking.error} />
      <form
        className="share-form"
        onSubmit={(event) => {
          event.preventDefault();
          void onCreate();
        }}
      >
        <label>
          Expires{' '}
          <select value={days} onChange={(event) => setDays(Number(event.target.value))}>
            {EXPIRIES.map((expiry) => (
              <option key={expiry.days} value={expiry.days}>
                {expiry.label}
              </option>
            ))}
          </select>
        </label>
        <label className="check">
          <input type="checkbox" checked={maskEmails} onChange={(event) => setMaskEmails(event.target.checked)} /> Mask e-mail addresses too
        </label>
        <label className="check">
          <input type="checkbox" checked={includeFigures} onChange={(event) => setIncludeFigures(event.target.checked)} /> Include its
          figures
        </label>
        <button type="submit" className="primary" disabled={creating.fetching}>
          {creating.fetching ? 'Making the link…' : 'Make a link'}
        </button>
        <a
          href={`/shared?preview=${encodeURIComponent(sessionId)}${maskEmails ? '&emails=1' : ''}${includeFigures ? '&figures=1' : ''}`}
          target="_blank"
          rel="noopener"
        >
          Preview what it shows
        </a>
      </form>
      {made && (
        <div className="note ok share-made" role="status">
          <p>The link (shown this once: copy it now):</p>
          <input className="share-url" readOnly value={made} aria-label="The new link" onFocus={(event) => event.target.select()} />
          <p>
            <button type="button" className="small" onClick={() => void copy()}>
              {copied ? 'Copied' : 'Copy'}
            </button>{' '}
            <a href={made} target="_blank" rel="noopener noreferrer">
              Open it as a reader sees it
            </a>
          </p>
        </div>
      )}
      {links.length > 0 && (
        <Table label="Share links, scrolls sideways">
          <table>
            <thead>
              <tr>
                <th>Made</th>
                <th>By</th>
                <th>Expires</th>
                <th>Views</th>
                <th>Last opened</th>
                <th>State</th>
              </tr>
            </thead>
            <tbody>
              {links.map((link) => (
                <tr key={link.linkId}>
                  <td>
                    <When at={link.createdAt} />
                    <LinkSettings link={link} />
                  </td>
                  <td>{link.createdBy.name}</td>
                  <td>{link.expiresAt ? <When at={link.expiresAt} /> : 'never'}</td>
                  <td>{link.views.toLocaleString()}</td>
                  <td>{link.lastViewedAt ? <When at={link.lastViewedAt} /> : 'not yet'}</td>
                  <td>
                    {!link.revokedAt && !link.open ? (
                      'expired'
                    ) : (
                      <RevokeCell
                        revokedAt={link.revokedAt}
                        label={`Revoke the link made ${new Date(link.createdAt).toLocaleString()}`}
                        detail="Whoever has it can no longer open it."
                        confirm="Revoke link"
                        busy={revoking.fetching}
                        onRevoke={() => void revoke({ linkId: link.linkId }).then(() => reload({ requestPolicy: 'network-only' }))}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Table>
      )}
    </section>
  );
}

/** How a link was made, beside when: what it masks beyond secrets, whether it shows figures. */
function LinkSettings({ link }: { link: { maskEmails: boolean; includeFigures: boolean } }) {
  const settings = [link.maskEmails && 'e-mails masked', link.includeFigures && 'with figures'].filter(Boolean);
  return settings.length > 0 && <span className="muted"> ({settings.join(', ')})</span>;
}

/**
 * The trajectory as files to keep (docs/api/trajectories.md, "Export"): a notebook and one HTML
 * report, as they are or with secrets masked for sending on. Plain links: the browser downloads
 * them with its session.
 */
export function ExportPanel({ sessionId }: { sessionId: string }) {
  const href = (format: 'ipynb' | 'html', forSharing: boolean) =>
    `/api/trajectories/${encodeURIComponent(sessionId)}/export?format=${format}${forSharing ? '&for_sharing=true' : ''}`;
  return (
    <section className="panel" aria-labelledby="export-title">
      <h2 id="export-title">Export</h2>
      <p className="muted">With its figures and resolved review notes.</p>
      <ul className="export-links">
        <li>
          <a href={href('ipynb', false)} download>
            Jupyter notebook (.ipynb)
          </a>
        </li>
        <li>
          <a href={href('html', false)} download>
            HTML report
          </a>
        </li>
        <li>
          For sending on, secrets masked:{' '}
          <a href={href('ipynb', true)} download aria-label="Jupyter notebook, secrets masked">
            notebook
          </a>
          {' · '}
          <a href={href('html', true)} download aria-label="HTML report, secrets masked">
            report
          </a>
        </li>
      </ul>
    </section>
  );
}
