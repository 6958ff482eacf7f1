import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { OffsetPager, Paged } from '../paged';
import { AuditLogSection } from './audit-log';
import { Me } from '../layout';
import { AccessDenied, ConfirmButton, ConfirmSelect, ErrorNote, formatBytes, Loading, RevokeCell, Table, When } from '../ui';
import { offsetOf, useUrlState } from '../url-state';

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

const CreateUser = graphql(`
  mutation ConsoleAdminUserCreate($input: UserCreateInput!) {
    adminUserCreate(input: $input) {
      id
      name
    }
  }
`);

const CreateToken = graphql(`
  mutation ConsoleAdminTokenCreate($userId: ID!, $input: TokenCreateInput!) {
    adminTokenCreate(userId: $userId, input: $input) {
      token
    }
  }
`);

const Tokens = graphql(`
  query ConsoleAdminUserTokens($userId: ID!, $offset: Int, $limit: Int) {
    adminUserTokens(userId: $userId, offset: $offset, limit: $limit) {
      total
      items {
        tokenId
        label
        createdAt
        expiresAt
        revokedAt
      }
    }
  }
`);

const RevokeToken = graphql(`
  mutation ConsoleAdminTokenRevoke($userId: ID!, $tokenId: ID!) {
    adminTokenRevoke(userId: $userId, tokenId: $tokenId)
  }
`);

const Labs = graphql(`
  query ConsoleAdminLabs($q: String, $offset: Int, $limit: Int) {
    adminLabs(q: $q, offset: $offset, limit: $limit) {
      total
      items {
        id
        name
        status
        seatQuota
        seatsUsed
        createdAt
      }
    }
  }
`);

const UpdateLab = graphql(`
  mutation ConsoleAdminLabUpdate($id: ID!, $input: LabAdminUpdateInput!) {
    adminLabUpdate(id: $id, input: $input) {
      id
      status
      seatQuota
    }
  }
`);

const AllTrajectories = graphql(`
  query ConsoleAdminTrajectories($q: String) {
    adminTrajectories(q: $q, limit: 100) {
      total
      items {
        sessionId
        title
        owner {
          name
          email
        }
        source
        count
        bytes
        updatedAt
      }
    }
  }
`);

const Storage = graphql(`
  query ConsoleAdminStorage {
    adminStorageSummary {
      totalBytes
      users {
        userId
        email
        usedBytes
        quotaBytes
        sessions
      }
      labs {
        labId
        name
        bytes
        sessions
      }
    }
  }
`);

const Segmentation = graphql(`
  query ConsoleAdminSegmentation {
    adminSegmentation(limit: 20) {
      domain
      users
      paid
      granted
      byTier {
        tier
        users
        paid
        granted
      }
      byType {
        type
        users
        paid
        granted
      }
      byInstitution {
        name
        users
        paid
        granted
      }
    }
  }
`);

const PAGE = 25;
const PLANS = ['free', 'pro', 'lab', 'enterprise'] as const;
type Plan = (typeof PLANS)[number];
const PLAN_OPTIONS = PLANS.map((plan) => [plan, plan] as const);

type LabStatus = 'active' | 'suspended' | 'archived';
const LAB_STATUSES = (['active', 'suspended', 'archived'] as const).map((status) => [status, status] as const);
/** What a lab's new status does, said before it is set. */
const LAB_STATUS_MEANS: Record<LabStatus, { detail: string; confirm: string }> = {
  active: {
    detail: 'Its members have the lab plan and their lab roles again at once, and people may ask to join.',
    confirm: 'Make active',
  },
  suspended: {
    detail:
      'At once its members lose the lab plan and their lab roles (mentors stop reviewing), and no one may ask to join, until an administrator makes it active again.',
    confirm: 'Suspend lab',
  },
  archived: {
    detail:
      'At once its members lose the lab plan and their lab roles, and no one may ask to join; the sessions stay. An administrator can make it active again.',
    confirm: 'Archive lab',
  },
};

const SECTIONS = ['Activity', 'Users', 'Labs', 'Trajectories', 'Storage', 'Segmentation', 'Audit log'] as const;

/** Administrators: the live stats, users, labs, trajectories, storage and segmentation, one section at a time. */
export default function AdminPage() {
  // The section lives in the URL (`/admin?section=Users`): a view can be reloaded, shared, and gone back to.
  const search = useSearch({ strict: false }) as { section?: unknown };
  const navigate = useNavigate();
  const section = SECTIONS.find((name) => name === search.section) ?? 'Activity';
  const setSection = (name: (typeof SECTIONS)[number]) => void navigate({ to: '/admin', search: { section: name } as never });
  const [{ data, fetching }] = useQuery({ query: Me });
  // Without the reader, the layout says what went wrong (or sends them to sign in).
  if (!data) return fetching ? <Loading what="the admin pages" /> : null;
  if (!data.me.isAdmin)
    return <AccessDenied>The admin pages are for administrators. Ask one if you need something from here.</AccessDenied>;
  return (
    <>
      <h1>Admin</h1>
      <nav aria-label="Admin sections" className="tabs">
        {SECTIONS.map((name) => (
          <button key={name} type="button" aria-pressed={section === name} onClick={() => setSection(name)}>
            {name}
          </button>
        ))}
      </nav>
      {section === 'Activity' && <ActivitySection />}
      {section === 'Users' && <UsersSection meId={data.me.id} />}
      {section === 'Labs' && <LabsSection />}
      {section === 'Trajectories' && <TrajectoriesSection />}
      {section === 'Storage' && <StorageSection />}
      {section === 'Segmentation' && <SegmentationSection />}
      {section === 'Audit log' && <AuditLogSection />}
    </>
  );
}

function ActivitySection() {
  const [stats] = useQuery({ query: Stats });
  const s = stats.data?.adminStats;
  return (
    <section aria-labelledby="stats-title">
      <h2 id="stats-title">Activity</h2>
      <ErrorNote error={stats.error} />
      {!s ? (
        stats.fetching && <Loading what="the stats" />
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
          <div className="chart">
            <ResponsiveContainer width="100%" height={220}>
              <BarChart data={s.plans} accessibilityLayer aria-labelledby="plans-chart">
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="planCode" />
                <YAxis allowDecimals={false} />
                <Tooltip />
                <Bar dataKey="activeUsers" name="Active users" fill="#2454c5" />
              </BarChart>
            </ResponsiveContainer>
          </div>
          <Table>
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
          </Table>
        </>
      )}
    </section>
  );
}

/** Users: search, create, plan, password link, tokens, suspend (never oneself: the API refuses it). */
function UsersSection({ meId }: { meId: string }) {
  // The search and the page live in the URL, beside the section (`?section=Users&q=…&offset=25`).
  const [view, setView] = useUrlState(['q', 'offset'] as const);
  const search = view.q;
  const offset = offsetOf(view.offset);
  const setOffset = (next: number) => setView({ offset: next });
  const [q, setQ] = useState(search);
  useEffect(() => setQ(search), [search]);
  const [users, reloadUsers] = useQuery({ query: Users, variables: { q: search || null, offset, limit: PAGE } });
  const [updating, update] = useMutation(UpdateUser);
  const [linking, link] = useMutation(PasswordLink);
  const [creating, create] = useMutation(CreateUser);
  const [minting, mint] = useMutation(CreateToken);
  const [shown, show] = useState<string | null>(null);
  const [tokensOf, setTokensOf] = useState<{ id: string; name: string } | null>(null);
  const [minted, setMinted] = useState(0);
  const [draft, setDraft] = useState({ name: '', email: '', planCode: 'free' as Plan });
  const refresh = () => reloadUsers({ requestPolicy: 'network-only' });

  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    setView({ q: q.trim(), offset: 0 });
  };
  const onCreate = async (event: FormEvent) => {
    event.preventDefault();
    const result = await create({ input: { name: draft.name.trim(), email: draft.email.trim(), planCode: draft.planCode } });
    if (result.data) {
      show(`Created ${result.data.adminUserCreate.name}. Give them a set-password link to sign in.`);
      setDraft({ name: '', email: '', planCode: 'free' });
      refresh();
    }
  };
  const page = users.data?.adminUsers;
  return (
    <section aria-labelledby="users-title">
      <h2 id="users-title">Users</h2>
      <ErrorNote error={users.error ?? updating.error ?? linking.error ?? creating.error ?? minting.error} />
      <form onSubmit={onSearch} className="filters" role="search">
        <label>
          Search users
          <input type="search" value={q} onChange={(event) => setQ(event.target.value)} placeholder="Name or email" />
        </label>
        <button type="submit">Search</button>
      </form>
      {shown && (
        <p className="note ok" role="status">
          <code className="hash">{shown}</code>
        </p>
      )}
      {page && page.items.length === 0 && <p className="empty">No user matches. Try part of a name or an email.</p>}
      {page && page.items.length > 0 && (
        <>
          <Table>
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
                  <td>
                    <ConfirmSelect
                      label={`Plan of ${user.name}`}
                      value={user.planCode as Plan}
                      options={PLAN_OPTIONS}
                      disabled={updating.fetching}
                      ask={(plan) => ({
                        question: `Move ${user.name} to the ${plan} plan?`,
                        detail: `Their quotas and features are the ${plan} plan's at once (a lab plan of a lab they are in still counts).`,
                        confirm: `Move to ${plan}`,
                      })}
                      onConfirm={(planCode) =>
                        update({ id: user.id, input: { planCode } }).then((result) => {
                          if (!result.error) refresh();
                          return !result.error;
                        })
                      }
                    />
                  </td>
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
                            show(
                              `Set-password link for ${user.name}${result.data.passwordLink.mailed ? ' (also mailed)' : ''}: ${result.data.passwordLink.url}`,
                            ),
                        )
                      }
                    >
                      Set-password link
                    </button>
                    <button
                      type="button"
                      className="small"
                      disabled={minting.fetching}
                      aria-label={`New token for ${user.name}`}
                      onClick={() =>
                        void mint({ userId: user.id, input: { label: 'console' } }).then((result) => {
                          if (!result.data) return;
                          show(`Token for ${user.name}, shown once: ${result.data.adminTokenCreate.token}`);
                          setMinted((n) => n + 1);
                        })
                      }
                    >
                      New token
                    </button>
                    <button
                      type="button"
                      className="small"
                      aria-label={`Tokens of ${user.name}`}
                      aria-pressed={tokensOf?.id === user.id}
                      onClick={() => setTokensOf(tokensOf?.id === user.id ? null : { id: user.id, name: user.name })}
                    >
                      Tokens
                    </button>
                    {user.id === meId ? null : user.disabled ? (
                      <button
                        type="button"
                        className="small"
                        disabled={updating.fetching}
                        aria-label={`Restore ${user.name}`}
                        onClick={() =>
                          void update({ id: user.id, input: { disabled: false } }).then((result) => !result.error && refresh())
                        }
                      >
                        Restore
                      </button>
                    ) : (
                      <ConfirmButton
                        className="small danger"
                        label={`Suspend ${user.name}`}
                        question={`Suspend ${user.name}?`}
                        detail="They can no longer sign in, and their sessions and tokens are refused at once, until an administrator restores them."
                        confirm="Suspend"
                        disabled={updating.fetching}
                        onConfirm={() =>
                          void update({ id: user.id, input: { disabled: true } }).then((result) => !result.error && refresh())
                        }
                      >
                        Suspend
                      </ConfirmButton>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
          <OffsetPager label="Users" offset={offset} size={PAGE} shown={page.items.length} total={page.total} onMove={setOffset} />
        </>
      )}
      {tokensOf && <UserTokens key={`${tokensOf.id} ${minted}`} user={tokensOf} />}
      <form onSubmit={(event) => void onCreate(event)} className="filters">
        <label>
          New user's name
          <input value={draft.name} onChange={(event) => setDraft({ ...draft, name: event.target.value })} required maxLength={200} />
        </label>
        <label>
          Email
          <input type="email" value={draft.email} onChange={(event) => setDraft({ ...draft, email: event.target.value })} required />
        </label>
        <label>
          Plan
          <select value={draft.planCode} onChange={(event) => setDraft({ ...draft, planCode: event.target.value as Plan })}>
            {PLANS.map((plan) => (
              <option key={plan} value={plan}>
                {plan}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="primary" disabled={creating.fetching}>
          Create user
        </button>
      </form>
    </section>
  );
}

/** A user's personal access tokens (never their secrets), newest first, with Revoke. */
function UserTokens({ user }: { user: { id: string; name: string } }) {
  const [offset, setOffset] = useState(0);
  const [{ data, error }, reload] = useQuery({ query: Tokens, variables: { userId: user.id, offset, limit: PAGE } });
  const [revoking, revoke] = useMutation(RevokeToken);
  const page = data?.adminUserTokens;
  return (
    <section aria-labelledby="tokens-title">
      <h3 id="tokens-title">Tokens of {user.name}</h3>
      <ErrorNote error={error ?? revoking.error} />
      {page && page.items.length === 0 && <p className="empty">{user.name} has no personal access tokens. "New token" makes one.</p>}
      {page && page.items.length > 0 && (
        <>
          <Table>
            <thead>
              <tr>
                <th scope="col">Label</th>
                <th scope="col">Created</th>
                <th scope="col">Expires</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((token) => (
                <tr key={token.tokenId}>
                  <td>{token.label || <span className="muted">(no label)</span>}</td>
                  <td>
                    <When at={token.createdAt} />
                  </td>
                  <td>{token.expiresAt ? <When at={token.expiresAt} /> : 'never'}</td>
                  <td>
                    <RevokeCell
                      revokedAt={token.revokedAt}
                      label={`Revoke token ${token.label || token.tokenId} of ${user.name}`}
                      detail="Whatever signs in with it is refused at once. A revoked token cannot be restored."
                      confirm="Revoke token"
                      busy={revoking.fetching}
                      onRevoke={() =>
                        void revoke({ userId: user.id, tokenId: token.tokenId }).then(
                          (result) => !result.error && reload({ requestPolicy: 'network-only' }),
                        )
                      }
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
          <OffsetPager label="Tokens" offset={offset} size={PAGE} shown={page.items.length} total={page.total} onMove={setOffset} />
        </>
      )}
    </section>
  );
}

function LabsSection() {
  // The search and the page live in the URL (`?section=Labs&q=…&offset=25`).
  const [view, setView] = useUrlState(['q', 'offset'] as const);
  const q = view.q;
  const offset = offsetOf(view.offset);
  const [{ data, error }, reload] = useQuery({ query: Labs, variables: { q: q.trim() || null, offset, limit: PAGE } });
  const [updating, update] = useMutation(UpdateLab);
  const page = data?.adminLabs;
  return (
    <section aria-labelledby="admin-labs-title">
      <h2 id="admin-labs-title">Labs</h2>
      <ErrorNote error={error ?? updating.error} />
      <form className="filters" role="search" onSubmit={(event) => event.preventDefault()}>
        <label>
          Search labs
          <input type="search" value={q} onChange={(event) => setView({ q: event.target.value, offset: 0 }, { replace: true })} />
        </label>
      </form>
      {page && page.items.length === 0 && <p className="empty">No lab matches.</p>}
      {page && page.items.length > 0 && (
        <>
          <Table>
            <thead>
              <tr>
                <th scope="col">Lab</th>
                <th scope="col">Seats used</th>
                <th scope="col">Seat quota</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((lab) => (
                <tr key={lab.id}>
                  <td>
                    <Link to="/labs/$labId" params={{ labId: lab.id }}>
                      {lab.name}
                    </Link>
                  </td>
                  <td>{lab.seatsUsed}</td>
                  <td>
                    <input
                      type="number"
                      min={1}
                      className="narrow"
                      aria-label={`Seat quota of ${lab.name}`}
                      defaultValue={lab.seatQuota}
                      onBlur={(event) => {
                        const seatQuota = Number(event.target.value);
                        if (seatQuota !== lab.seatQuota && seatQuota > 0)
                          void update({ id: lab.id, input: { seatQuota } }).then(() => reload({ requestPolicy: 'network-only' }));
                      }}
                    />
                  </td>
                  <td>
                    <ConfirmSelect
                      label={`Status of ${lab.name}`}
                      value={lab.status as LabStatus}
                      options={LAB_STATUSES}
                      disabled={updating.fetching}
                      ask={(status) => ({
                        question: `Make ${lab.name} ${status}?`,
                        ...LAB_STATUS_MEANS[status],
                      })}
                      onConfirm={(status) =>
                        update({ id: lab.id, input: { status } }).then((result) => {
                          reload({ requestPolicy: 'network-only' });
                          return !result.error;
                        })
                      }
                    />
                  </td>
                  <td>
                    <When at={lab.createdAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
          <OffsetPager
            label="Labs"
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

function TrajectoriesSection() {
  // The search lives in the URL (`?section=Trajectories&q=…`).
  const [view, setView] = useUrlState(['q', 'page'] as const);
  const q = view.q;
  const [{ data, error }] = useQuery({ query: AllTrajectories, variables: { q: q.trim() || null } });
  const page = data?.adminTrajectories;
  return (
    <section aria-labelledby="admin-trajectories-title">
      <h2 id="admin-trajectories-title">Trajectories</h2>
      <ErrorNote error={error} />
      <form className="filters" role="search" onSubmit={(event) => event.preventDefault()}>
        <label>
          Search by title or id
          <input type="search" value={q} onChange={(event) => setView({ q: event.target.value, page: 0 }, { replace: true })} />
        </label>
      </form>
      {page && (
        <Paged items={page.items} label="Trajectories" urlKey="page">
          {(items) => (
            <Table>
              <caption>
                {page.total} in all{page.total > page.items.length ? `, the ${page.items.length} most recent shown` : ''}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Title</th>
                  <th scope="col">Owner</th>
                  <th scope="col">Source</th>
                  <th scope="col">Records</th>
                  <th scope="col">Size</th>
                  <th scope="col">Updated</th>
                </tr>
              </thead>
              <tbody>
                {items.map((item) => (
                  <tr key={item.sessionId}>
                    <td>
                      <Link to="/trajectories/$trajectoryId" params={{ trajectoryId: item.sessionId }}>
                        {item.title ?? item.sessionId}
                      </Link>
                    </td>
                    <td>
                      {item.owner.name}
                      {item.owner.email && <span className="muted"> ({item.owner.email})</span>}
                    </td>
                    <td>{item.source}</td>
                    <td>{item.count}</td>
                    <td>{formatBytes(item.bytes)}</td>
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
    </section>
  );
}

function StorageSection() {
  const [{ data, error }] = useQuery({ query: Storage });
  const summary = data?.adminStorageSummary;
  return (
    <section aria-labelledby="storage-title">
      <h2 id="storage-title">Storage</h2>
      <ErrorNote error={error} />
      {summary && (
        <>
          <p>{formatBytes(summary.totalBytes)} stored in all.</p>
          {summary.users.length === 0 && summary.labs.length === 0 && (
            <p className="empty">Nothing stored yet: trajectories and figures count here once clients sync them.</p>
          )}
          {summary.users.length > 0 && (
            <Paged items={summary.users} label="Storage by user">
              {(users) => (
                <Table>
                  <caption>By user</caption>
                  <thead>
                    <tr>
                      <th scope="col">User</th>
                      <th scope="col">Used</th>
                      <th scope="col">Quota</th>
                      <th scope="col">Sessions</th>
                    </tr>
                  </thead>
                  <tbody>
                    {users.map((user) => (
                      <tr key={user.userId}>
                        <td>{user.email}</td>
                        <td>
                          <meter min={0} max={user.quotaBytes || 1} value={user.usedBytes} aria-label={`Storage used by ${user.email}`} />{' '}
                          {formatBytes(user.usedBytes)}
                        </td>
                        <td>{formatBytes(user.quotaBytes)}</td>
                        <td>{user.sessions}</td>
                      </tr>
                    ))}
                  </tbody>
                </Table>
              )}
            </Paged>
          )}
          {summary.labs.length > 0 && (
            <Paged items={summary.labs} label="Storage by lab">
              {(labs) => (
                <Table>
                  <caption>By lab</caption>
                  <thead>
                    <tr>
                      <th scope="col">Lab</th>
                      <th scope="col">Stored</th>
                      <th scope="col">Sessions</th>
                    </tr>
                  </thead>
                  <tbody>
                    {labs.map((lab) => (
                      <tr key={lab.labId}>
                        <td>
                          <Link to="/labs/$labId" params={{ labId: lab.labId }}>
                            {lab.name}
                          </Link>
                        </td>
                        <td>{formatBytes(lab.bytes)}</td>
                        <td>{lab.sessions}</td>
                      </tr>
                    ))}
                  </tbody>
                </Table>
              )}
            </Paged>
          )}
        </>
      )}
    </section>
  );
}

function SegmentationSection() {
  const [{ data, error }] = useQuery({ query: Segmentation });
  const segments = data?.adminSegmentation;
  const table = (caption: string, rows: { key: string; users: number; paid: number; granted: number }[]) => (
    <Table>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Segment</th>
          <th scope="col">Users</th>
          <th scope="col">Paying</th>
          <th scope="col">Granted</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            <td>{row.key}</td>
            <td>{row.users}</td>
            <td>{row.paid}</td>
            <td>{row.granted}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
  return (
    <section aria-labelledby="segmentation-title">
      <h2 id="segmentation-title">Segmentation</h2>
      <ErrorNote error={error} />
      {segments && (
        <>
          <p>
            Domain {segments.domain}: {segments.users} users, {segments.paid} paying, {segments.granted} granted.
          </p>
          <h3 id="tier-chart">Users by institution tier</h3>
          <div className="chart">
            <ResponsiveContainer width="100%" height={220}>
              <BarChart data={segments.byTier} accessibilityLayer aria-labelledby="tier-chart">
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="tier" />
                <YAxis allowDecimals={false} />
                <Tooltip />
                <Bar dataKey="paid" name="Paying" stackId="users" fill="#2454c5" />
                <Bar dataKey="granted" name="Granted" stackId="users" fill="#7a9be0" />
              </BarChart>
            </ResponsiveContainer>
          </div>
          {table(
            'By tier',
            segments.byTier.map((row) => ({ key: row.tier, ...row })),
          )}
          {table(
            'By institution type',
            segments.byType.map((row) => ({ key: row.type, ...row })),
          )}
          {table(
            'By institution',
            segments.byInstitution.map((row) => ({ key: row.name, ...row })),
          )}
        </>
      )}
    </section>
  );
}
