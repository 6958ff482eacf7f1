import { Link } from '@tanstack/react-router';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import { Paged } from '../paged';
import { Empty, ErrorNote, Loading, Table, titleMatches, When } from '../ui';
import { useUrlState } from '../url-state';
import { TrajectorySearch } from './trajectory-search';

const Trajectories = graphql(`
  query ConsoleTrajectories($labId: ID, $owner: ID, $source: String, $sharedOnly: Boolean, $includeArchived: Boolean) {
    trajectories(labId: $labId, owner: $owner, source: $source, sharedOnly: $sharedOnly, includeArchived: $includeArchived, limit: 500) {
      total
      items {
        sessionId
        title
        owner {
          userId
          name
        }
        source
        visibility
        count
        openAnnotations
        updatedAt
        archivedAt
      }
    }
    me {
      id
    }
    labs {
      id
      name
      members {
        memberUserId
        name
        status
      }
    }
  }
`);

/** Sessions the reader may see, with the filters the API has, and a text filter over titles. */
export function TrajectoriesPage() {
  // The filters live in the URL (`?lab=…&source=cli&shared=true`): a view can be reloaded, shared and gone back to.
  const [view, setView] = useUrlState(['lab', 'owner', 'source', 'shared', 'archived', 'title'] as const);
  const { lab: labId, owner, source, title: text } = view;
  const sharedOnly = view.shared === 'true';
  const includeArchived = view.archived === 'true';
  const [{ data, error, fetching }] = useQuery({
    query: Trajectories,
    variables: { labId: labId || null, owner: owner || null, source: source || null, sharedOnly, includeArchived },
  });
  const lab = data?.labs.find((candidate) => candidate.id === labId);
  const items = (data?.trajectories.items ?? []).filter((item) => titleMatches(item, text));

  return (
    <>
      <h1>Trajectories</h1>
      <TrajectorySearch />
      <form className="filters" onSubmit={(event) => event.preventDefault()} aria-label="Filters">
        <label>
          Lab
          <select value={labId} onChange={(event) => setView({ lab: event.target.value, owner: '' })}>
            <option value="">Mine</option>
            {data?.labs.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {candidate.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Owner
          <select value={owner} onChange={(event) => setView({ owner: event.target.value })} disabled={!lab?.members}>
            <option value="">Anyone</option>
            {lab?.members
              ?.filter((member) => member.status === 'active')
              .map((member) => (
                <option key={member.memberUserId} value={member.memberUserId}>
                  {member.name}
                </option>
              ))}
          </select>
        </label>
        <label>
          Source
          <select value={source} onChange={(event) => setView({ source: event.target.value })}>
            <option value="">Any</option>
            <option value="desktop">desktop</option>
            <option value="cli">cli</option>
            <option value="cloud">cloud</option>
            <option value="a2a">a2a</option>
          </select>
        </label>
        <label>
          Title
          <input
            type="search"
            value={text}
            onChange={(event) => setView({ title: event.target.value }, { replace: true })}
            placeholder="Filter by title"
          />
        </label>
        <label className="check">
          <input type="checkbox" checked={sharedOnly} onChange={(event) => setView({ shared: event.target.checked })} /> Shared with the lab
          only
        </label>
        <label className="check">
          <input type="checkbox" checked={includeArchived} onChange={(event) => setView({ archived: event.target.checked })} /> Archived too
        </label>
      </form>
      <ErrorNote error={error} />
      {!data && fetching && <Loading what="trajectories" />}
      {data && items.length === 0 && (
        <Empty>
          <p>
            No trajectories here. Analyses appear when the desktop app or <code>labdesk</code> CLI syncs them; a lab's shared sessions
            appear under its name.
          </p>
        </Empty>
      )}
      {items.length > 0 && (
        <Paged items={items} label="Trajectories">
          {(page) => (
            <Table>
              <thead>
                <tr>
                  <th scope="col">Title</th>
                  <th scope="col">Owner</th>
                  <th scope="col">Source</th>
                  <th scope="col">Visibility</th>
                  <th scope="col">Records</th>
                  <th scope="col">Open notes</th>
                  <th scope="col">Updated</th>
                </tr>
              </thead>
              <tbody>
                {page.map((item) => (
                  <tr key={item.sessionId}>
                    <td>
                      <Link to="/trajectories/$trajectoryId" params={{ trajectoryId: item.sessionId }}>
                        {item.title ?? item.sessionId}
                      </Link>
                      {item.archivedAt && <span className="muted"> (archived)</span>}
                    </td>
                    <td>{item.owner.userId === data?.me.id ? `${item.owner.name} (you)` : item.owner.name}</td>
                    <td>{item.source}</td>
                    <td>{item.visibility}</td>
                    <td>{item.count}</td>
                    <td>{item.openAnnotations}</td>
                    <td>
                      <When at={item.updatedAt} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </Paged>
      )}
    </>
  );
}
