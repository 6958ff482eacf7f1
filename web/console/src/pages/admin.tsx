import { useState, type FormEvent } from 'react';
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { ErrorNote, Loading, When } from '../ui';

const Stats = graphql(`
  query ConsoleAdminStats {
    adminStats {
      generatedAt
      onlineUsers
      dau
      wau
      mau
      registrations {
        today
        total
      }
      plans {
        planCode
        activeUsers
      }
      llm {
        last5m {
          calls
          users
          tokensIn
          tokensOut
        }
        last1h {
          calls
          users
          tokensIn
          tokensOut
        }
      }
    }
  }
`);

const Users = graphql(`
  query ConsoleAdminUsers($q: String, $offset: Int, $limit: Int) {
    adminUsers(q: $q, offset: $offset, limit: $limit) {
      total
      offset
      limit
      items {
        id
        name
        email
        planCode
        isAdmin
        disabled
        lastActiveAt
      }
    }
  }
`);

const UpdateUser = graphql(`
  mutation ConsoleAdminUserUpdate($id: ID!, $input: UserUpdateInput!) {
    adminUserUpdate(id: $id, input: $input) {
      id
      disabled
    }
  }
`);

const PasswordLink = graphql(`
  mutation ConsoleAdminPasswordLink($userId: ID!) {
    passwordLink(userId: $userId) {
      url
      expiresAt
      mailed
    }
  }
`);

const PAGE = 25;

/** Administrators: the live stats, as figures and a chart, and the users with suspend and set-password links. */
export default function AdminPage() {
  const [stats] = useQuery({ query: Stats });
  const [q, setQ] = useState('');
  const [search, setSearch] = useState('');
  const [offset, setOffset] = useState(0);
  const [users, reloadUsers] = useQuery({ query: Users, variables: { q: search || null, offset, limit: PAGE } });
  const [updating, update] = useMutation(UpdateUser);
  const [linking, link] = useMutation(PasswordLink);
  const [issued, setIssued] = useState<{ who: string; url: string; mailed: boolean } | null>(null);

  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    setOffset(0);
    setSearch(q.trim());
  };
  const s = stats.data?.adminStats;
  const page = users.data?.adminUsers;
  return (
    <>
      <h1>Admin</h1>
      <ErrorNote error={stats.error ?? users.error ?? updating.error ?? linking.error} />
      <section aria-labelledby="stats-title">
        <h2 id="stats-title">Activity</h2>
        {!s ? (
          <Loading what="the stats" />
        ) : (
          <>
            <p className="muted">
              As of <When at={s.generatedAt} />
            </p>
            <dl className="figures">
              {[
                ['Online now', s.onlineUsers],
                ['Active today', s.dau],
                ['Active this week', s.wau],
                ['Active this month', s.mau],
                ['Registered today', s.registrations.today],
                ['Registered in all', s.registrations.total],
              ].map(([label, value]) => (
                <div key={label}>
                  <dt>{label}</dt>
                  <dd>{Number(value).toLocaleString()}</dd>
                </div>
              ))}
            </dl>
            <h3 id="plans-chart">Active users by plan (this month)</h3>
            <BarChart width={560} height={220} data={s.plans} accessibilityLayer aria-labelledby="plans-chart">
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="planCode" />
              <YAxis allowDecimals={false} />
              <Tooltip />
              <Bar dataKey="activeUsers" name="Active users" fill="#2454c5" />
            </BarChart>
            <table>
              <caption>Model use</caption>
              <thead>
                <tr>
                  <th scope="col">Window</th>
                  <th scope="col">Calls</th>
                  <th scope="col">Users</th>
                  <th scope="col">Tokens in</th>
                  <th scope="col">Tokens out</th>
                </tr>
              </thead>
              <tbody>
                {(
                  [
                    ['Last 5 minutes', s.llm.last5m],
                    ['Last hour', s.llm.last1h],
                  ] as const
                ).map(([label, window]) => (
                  <tr key={label}>
                    <td>{label}</td>
                    <td>{window.calls.toLocaleString()}</td>
                    <td>{window.users.toLocaleString()}</td>
                    <td>{window.tokensIn.toLocaleString()}</td>
                    <td>{window.tokensOut.toLocaleString()}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </section>

      <section aria-labelledby="users-title">
        <h2 id="users-title">Users</h2>
        <form onSubmit={onSearch} className="filters" role="search">
          <label>
            Search users
            <input type="search" value={q} onChange={(event) => setQ(event.target.value)} placeholder="Name or email" />
          </label>
          <button type="submit">Search</button>
        </form>
        {issued && (
          <p className="note ok" role="status">
            Set-password link for {issued.who}
            {issued.mailed ? ' (also mailed)' : ''}: <code className="hash">{issued.url}</code>
          </p>
        )}
        {page && page.items.length === 0 && <p className="empty">No user matches. Try part of a name or an email.</p>}
        {page && page.items.length > 0 && (
          <>
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">Plan</th>
                  <th scope="col">Last active</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {page.items.map((user) => (
                  <tr key={user.id}>
                    <td>
                      {user.name} {user.isAdmin && <span className="badge">admin</span>}{' '}
                      {user.disabled && <span className="badge error">suspended</span>}
                    </td>
                    <td>{user.email}</td>
                    <td>{user.planCode}</td>
                    <td>
                      <When at={user.lastActiveAt} />
                    </td>
                    <td className="actions">
                      <button
                        type="button"
                        className="small"
                        disabled={linking.fetching}
                        aria-label={`Set-password link for ${user.name}`}
                        onClick={() =>
                          void link({ userId: user.id }).then(
                            (result) =>
                              result.data &&
                              setIssued({ who: user.name, url: result.data.passwordLink.url, mailed: result.data.passwordLink.mailed }),
                          )
                        }
                      >
                        Set-password link
                      </button>
                      <button
                        type="button"
                        className={`small${user.disabled ? '' : ' danger'}`}
                        disabled={updating.fetching}
                        aria-label={`${user.disabled ? 'Restore' : 'Suspend'} ${user.name}`}
                        onClick={() =>
                          void update({ id: user.id, input: { disabled: !user.disabled } }).then(
                            (result) => !result.error && reloadUsers({ requestPolicy: 'network-only' }),
                          )
                        }
                      >
                        {user.disabled ? 'Restore' : 'Suspend'}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <nav className="pager" aria-label="Users pages">
              <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
                Previous
              </button>
              <span>
                {offset + 1}–{offset + page.items.length} of {page.total}
              </span>
              <button type="button" disabled={offset + PAGE >= page.total} onClick={() => setOffset(offset + PAGE)}>
                Next
              </button>
            </nav>
          </>
        )}
      </section>
    </>
  );
}
