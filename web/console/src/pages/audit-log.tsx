import { Link } from '@tanstack/react-router';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import { OffsetPager } from '../paged';
import { Empty, ErrorNote, Loading, Table, When } from '../ui';
import { offsetOf, useUrlState } from '../url-state';

const AuditEvents = graphql(`
  query ConsoleAuditEvents($actor: String, $action: String, $since: DateTimeISO, $offset: Int, $limit: Int) {
    adminAuditEvents(actor: $actor, action: $action, since: $since, offset: $offset, limit: $limit) {
      total
      items {
        id
        action
        createdAt
        actor {
          userId
          name
          email
        }
        subject {
          userId
          name
          email
        }
        lab {
          labId
          name
        }
        detail
      }
    }
  }
`);

const PAGE = 50;
/** The actions recorded today, for the filter (a prefix ending in a dot takes a whole family). */
const ACTIONS = ['user.', 'token.', 'member.', 'lab.', 'user.update', 'user.password_link', 'token.create', 'token.revoke'];
const SINCE = { '': 'Any time', '1': 'Last 24 hours', '7': 'Last 7 days', '30': 'Last 30 days' } as const;

type Person = { userId: string; name?: string | null; email?: string | null } | null;
const who = (person: Person) => (person ? (person.name ?? person.userId) + (person.email ? ` (${person.email})` : '') : 'the service');

/** What else an event recorded, on one short line (the changed fields, a token's id, how it was done). */
const detailOf = (detail: unknown): string => {
  if (!detail || typeof detail !== 'object' || !Object.keys(detail).length) return '';
  const text = JSON.stringify(detail);
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
};

/** Administrators: the recorded events, newest first, by actor, action and time; each row leads to what it concerns. */
export function AuditLogSection() {
  // The applied filter and the page live in the URL (`?section=Audit+log&actor=…&days=7&offset=50`).
  const [view, setView] = useUrlState(['actor', 'action', 'days', 'offset'] as const);
  const filter = {
    actor: view.actor,
    action: ACTIONS.find((action) => action === view.action) ?? '',
    since: (view.days in SINCE ? view.days : '') as keyof typeof SINCE,
  };
  const offset = offsetOf(view.offset);
  const [draft, setDraft] = useState(filter);
  // Back and forward change the filter under the form: the form follows.
  useEffect(() => setDraft(filter), [filter.actor, filter.action, filter.since]);
  // The instant is fixed when the filter is applied (or the page loaded), so that paging does not move it.
  const since = useMemo(
    () => (filter.since ? new Date(Date.now() - Number(filter.since) * 86_400_000).toISOString() : null),
    [filter.since, filter.actor, filter.action],
  );
  const [{ data, error, fetching }] = useQuery({
    query: AuditEvents,
    variables: { actor: filter.actor.trim() || null, action: filter.action || null, since, offset, limit: PAGE },
  });
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setView({ actor: draft.actor.trim(), action: draft.action, days: Number(draft.since), offset: 0 });
  };
  const page = data?.adminAuditEvents;
  return (
    <section aria-labelledby="admin-audit-title">
      <h2 id="admin-audit-title">Audit log</h2>
      <form className="filters" role="search" aria-label="Audit log filters" onSubmit={apply}>
        <label>
          Actor
          <input
            type="search"
            value={draft.actor}
            maxLength={254}
            placeholder="Name or email"
            onChange={(event) => setDraft({ ...draft, actor: event.target.value })}
          />
        </label>
        <label>
          Action
          <select value={draft.action} onChange={(event) => setDraft({ ...draft, action: event.target.value })}>
            <option value="">Any</option>
            {ACTIONS.map((action) => (
              <option key={action} value={action}>
                {action.endsWith('.') ? `${action}*` : action}
              </option>
            ))}
          </select>
        </label>
        <label>
          When
          <select value={draft.since} onChange={(event) => setDraft({ ...draft, since: event.target.value as keyof typeof SINCE })}>
            {Object.entries(SINCE).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Show</button>
      </form>
      <ErrorNote error={error} />
      {!page && fetching && <Loading what="the audit log" />}
      {page && page.total === 0 && (
        <Empty>
          <p>No recorded events match.</p>
        </Empty>
      )}
      {page && page.total > 0 && (
        <>
          <Table>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Did</th>
                <th scope="col">To</th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((event) => (
                <tr key={event.id}>
                  <td>
                    <When at={event.createdAt} />
                  </td>
                  <td>{who(event.actor)}</td>
                  <td>
                    <code>{event.action}</code>
                    {detailOf(event.detail) && <span className="muted"> {detailOf(event.detail)}</span>}
                  </td>
                  <td>
                    {event.subject && <span>{who(event.subject)}</span>}
                    {event.subject && event.lab && ', '}
                    {event.lab && (
                      <Link to="/labs/$labId" params={{ labId: event.lab.labId }}>
                        {event.lab.name ?? event.lab.labId}
                      </Link>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
          <OffsetPager
            label="Audit log"
            offset={offset}
            size={PAGE}
            shown={page.items.length}
            total={page.total}
            onMove={(next) => setView({ offset: next })}
          />
        </>
      )}
    </section>
  );
}
