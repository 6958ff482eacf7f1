import { useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery, type CombinedError } from 'urql';
import { graphql } from '../gql';
import type { PlanCode } from '../gql/graphql';
import { ConfirmButton, Empty, ErrorNote, formatBytes, Loading, When } from '../ui';
import { describeUserAgent } from '../user-agent';
import './account.css';

const Account = graphql(`
  query ConsoleAccount {
    me {
      id
      name
      email
      planCode
      planExpiresAt
      effectiveTier
      storageUsedBytes
      storageQuotaBytes
      hasPassword
    }
  }
`);

const Sessions = graphql(`
  query ConsoleMySessions {
    mySessions {
      id
      current
      userAgent
      address
      method
      createdAt
      lastSeenAt
    }
  }
`);

const Tokens = graphql(`
  query ConsoleMyTokens {
    myTokens(limit: 500) {
      total
      items {
        tokenId
        label
        createdAt
        expiresAt
        revokedAt
        lastUsedAt
      }
    }
  }
`);

const SetPassword = graphql(`
  mutation ConsoleSetPassword($input: PasswordSetInput!) {
    setPassword(input: $input)
  }
`);

const RevokeSession = graphql(`
  mutation ConsoleRevokeSession($sessionId: ID!) {
    revokeSession(sessionId: $sessionId)
  }
`);

const RevokeOtherSessions = graphql(`
  mutation ConsoleRevokeOtherSessions {
    revokeOtherSessions
  }
`);

const CreateToken = graphql(`
  mutation ConsoleMyTokenCreate($input: TokenCreateInput!) {
    myTokenCreate(input: $input) {
      tokenId
      token
    }
  }
`);

const RevokeToken = graphql(`
  mutation ConsoleMyTokenRevoke($tokenId: ID!) {
    myTokenRevoke(tokenId: $tokenId)
  }
`);

const PLAN_NAMES: Record<PlanCode, string> = { free: 'Free', pro: 'Pro', lab: 'Lab', enterprise: 'Enterprise' };

const SIGN_IN_METHODS: Record<string, string> = {
  password: 'with a password',
  password_link: 'with a one-time link',
  oidc: 'with single sign-on',
};

/** The choices of a new token's life, in days (null: until revoked). */
const EXPIRIES: { label: string; days: number | null }[] = [
  { label: '30 days', days: 30 },
  { label: '90 days', days: 90 },
  { label: '1 year', days: 365 },
  { label: 'Never', days: null },
];

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The signed-in person's own page: who they are, their password, browsers and tokens. */
export function AccountPage() {
  const [{ data, error, fetching }, reload] = useQuery({ query: Account });
  const [sessions, reloadSessions] = useQuery({ query: Sessions });
  const me = data?.me;
  return (
    <>
      <h1>Your account</h1>
      <ErrorNote error={error} />
      {!me && fetching && <Loading what="your account" />}
      {me && (
        <div className="account">
          <section aria-labelledby="profile-title" className="panel">
            <h2 id="profile-title">Profile</h2>
            <dl className="facts">
              <dt>Name</dt>
              <dd>{me.name}</dd>
              <dt>Email</dt>
              <dd className="wrap">{me.email}</dd>
              <dt>Plan</dt>
              <dd>
                {PLAN_NAMES[me.effectiveTier]}
                {me.effectiveTier !== me.planCode && (
                  <span className="muted"> (through your lab; your own plan is {PLAN_NAMES[me.planCode]})</span>
                )}
                {me.planExpiresAt && me.planCode !== 'free' && (
                  <span className="muted">
                    {' '}
                    · {PLAN_NAMES[me.planCode]} until <When at={me.planExpiresAt} />
                  </span>
                )}
              </dd>
              <dt>Storage</dt>
              <dd>
                {formatBytes(me.storageUsedBytes)} used of {formatBytes(me.storageQuotaBytes)}
                <meter
                  className="storage"
                  min={0}
                  max={me.storageQuotaBytes || 1}
                  value={me.storageUsedBytes}
                  aria-label="Storage used"
                  high={me.storageQuotaBytes * 0.9}
                />
              </dd>
            </dl>
          </section>
          <PasswordSection
            hasPassword={me.hasPassword}
            email={me.email}
            onChanged={() => {
              reload({ requestPolicy: 'network-only' });
              reloadSessions({ requestPolicy: 'network-only' });
            }}
          />
        </div>
      )}
      <SessionsSection
        sessions={sessions.data?.mySessions}
        error={sessions.error}
        fetching={sessions.fetching}
        reload={() => reloadSessions({ requestPolicy: 'network-only' })}
      />
      <TokensSection />
    </>
  );
}

/** The API's refusal of a password, in words. */
function passwordProblem(error: CombinedError): string | null {
  const codes = error.graphQLErrors.map((e) => e.extensions?.code);
  if (codes.includes('FORBIDDEN')) return 'The current password is wrong.';
  if (codes.includes('VALIDATION_FAILED')) return 'The new password must be 12 to 1,024 characters long.';
  if (codes.includes('RATE_LIMITED')) return 'Too many attempts. Wait a minute, then try again.';
  return null;
}

function PasswordSection({ hasPassword, email, onChanged }: { hasPassword: boolean; email: string; onChanged: () => void }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [result, setPassword] = useMutation(SetPassword);
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    if (next !== repeat) return setProblem('The two new passwords differ. Type the same one twice.');
    setProblem(null);
    const answer = await setPassword({ input: { newPassword: next, ...(hasPassword ? { currentPassword: current } : {}) } });
    if (answer.error) return setProblem(passwordProblem(answer.error));
    setCurrent('');
    setNext('');
    setRepeat('');
    setDone(
      hasPassword
        ? 'Your password is changed. Your other browsers are signed out.'
        : 'Your password is set: you can now sign in with your email and it. Your other browsers are signed out.',
    );
    onChanged();
  };
  const unexplained = result.error && !passwordProblem(result.error) ? result.error : undefined;
  return (
    <section aria-labelledby="password-title" className="panel">
      <h2 id="password-title">{hasPassword ? 'Change your password' : 'Set a password'}</h2>
      {!hasPassword && <p className="muted">You have no password yet (you sign in through single sign-on or a link).</p>}
      <form onSubmit={(event) => void onSubmit(event)} className="password-form" aria-describedby="password-hint">
        <input type="email" autoComplete="username" value={email} readOnly hidden />
        {hasPassword && (
          <>
            <label htmlFor="current-password">Current password</label>
            <input
              id="current-password"
              type="password"
              autoComplete="current-password"
              required
              maxLength={1024}
              value={current}
              onChange={(event) => setCurrent(event.target.value)}
            />
          </>
        )}
        <label htmlFor="new-password">New password</label>
        <input
          id="new-password"
          type="password"
          autoComplete="new-password"
          required
          minLength={12}
          maxLength={1024}
          value={next}
          onChange={(event) => setNext(event.target.value)}
        />
        <label htmlFor="repeat-password">Repeat the new password</label>
        <input
          id="repeat-password"
          type="password"
          autoComplete="new-password"
          required
          minLength={12}
          maxLength={1024}
          value={repeat}
          onChange={(event) => setRepeat(event.target.value)}
        />
        <p id="password-hint" className="hint muted">
          At least 12 characters. Your other browsers are signed out.
        </p>
        {problem && (
          <p className="note error" role="alert">
            {problem}
          </p>
        )}
        <ErrorNote error={unexplained} />
        {done && (
          <p className="note ok" role="status">
            {done}
          </p>
        )}
        <button type="submit" className="primary" disabled={result.fetching}>
          {hasPassword ? 'Change password' : 'Set password'}
        </button>
      </form>
    </section>
  );
}

interface SessionRow {
  id: string;
  current: boolean;
  userAgent?: string | null;
  address?: string | null;
  method: string;
  createdAt: string;
  lastSeenAt: string;
}

function SessionsSection({
  sessions,
  error,
  fetching,
  reload,
}: {
  sessions: SessionRow[] | undefined;
  error: CombinedError | undefined;
  fetching: boolean;
  reload: () => void;
}) {
  const [said, setSaid] = useState<string | null>(null);
  const [one, revokeOne] = useMutation(RevokeSession);
  const [others, revokeOthers] = useMutation(RevokeOtherSessions);
  const otherCount = sessions?.filter((session) => !session.current).length ?? 0;
  const endOne = async (session: SessionRow, name: string) => {
    const result = await revokeOne({ sessionId: session.id });
    setSaid(result.error ? null : `${name} is signed out.`);
    reload();
  };
  const endOthers = async () => {
    const result = await revokeOthers({});
    setSaid(result.error ? null : 'Every other browser is signed out.');
    reload();
  };
  return (
    <section aria-labelledby="sessions-title">
      <h2 id="sessions-title">Signed-in browsers</h2>
      <p className="muted">Sign out a browser you no longer use, or one you do not recognise.</p>
      <ErrorNote error={error ?? one.error ?? others.error} />
      {said && (
        <p className="note ok" role="status">
          {said}
        </p>
      )}
      {!sessions && fetching && <Loading what="your sessions" />}
      {sessions && (
        <ul id="sessions" className="cards">
          {[...sessions.filter((session) => session.current), ...sessions.filter((session) => !session.current)].map((session) => {
            const name = describeUserAgent(session.userAgent);
            return (
              <li key={session.id}>
                <div className="card-head">
                  <strong>{name}</strong>
                  {session.current && <span className="badge current">This browser</span>}
                </div>
                <dl className="card-facts">
                  <div>
                    <dt>Signed in</dt>
                    <dd>
                      <When at={session.createdAt} /> {SIGN_IN_METHODS[session.method] ?? ''}
                    </dd>
                  </div>
                  <div>
                    <dt>Last seen</dt>
                    <dd>
                      <When at={session.lastSeenAt} />
                    </dd>
                  </div>
                  <div>
                    <dt>Address</dt>
                    <dd className="wrap">{session.address ?? 'unknown'}</dd>
                  </div>
                </dl>
                {!session.current && (
                  <ConfirmButton
                    className="small danger"
                    label={`Sign out ${name}, signed in ${dateTime.format(new Date(session.createdAt))}`}
                    question={`Sign out ${name}?`}
                    detail={
                      <>
                        The browser signed in <When at={session.createdAt} />
                        {session.address ? ` from ${session.address}` : ''} will have to sign in again.
                      </>
                    }
                    confirm="Sign out"
                    disabled={one.fetching}
                    onConfirm={() => void endOne(session, name)}
                  >
                    Sign out
                  </ConfirmButton>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {sessions && otherCount === 0 && <p className="muted">No other browser is signed in as you.</p>}
      {otherCount > 0 && (
        <ConfirmButton
          question="Sign out all other sessions?"
          detail={`${otherCount === 1 ? 'The other browser' : `The ${otherCount} other browsers`} signed in as you will have to sign in again. This browser stays signed in; personal access tokens keep working.`}
          confirm="Sign out others"
          disabled={others.fetching}
          onConfirm={() => void endOthers()}
        >
          Sign out all other sessions
        </ConfirmButton>
      )}
    </section>
  );
}

interface TokenRow {
  tokenId: string;
  label: string;
  createdAt: string;
  expiresAt?: string | null;
  revokedAt?: string | null;
  lastUsedAt?: string | null;
}

function tokenState(token: TokenRow, now: number): { word: string; at?: string | null; kind: 'active' | 'ended' } {
  if (token.revokedAt) return { word: 'Revoked', at: token.revokedAt, kind: 'ended' };
  if (token.expiresAt && Date.parse(token.expiresAt) <= now) return { word: 'Expired', at: token.expiresAt, kind: 'ended' };
  return { word: 'Active', kind: 'active' };
}

function TokensSection() {
  const [{ data, error, fetching }, reload] = useQuery({ query: Tokens });
  const [created, create] = useMutation(CreateToken);
  const [revoking, revoke] = useMutation(RevokeToken);
  const [formOpen, setFormOpen] = useState(false);
  const [label, setLabel] = useState('');
  const [expiry, setExpiry] = useState('90 days');
  const [shown, setShown] = useState<{ label: string; token: string } | null>(null);
  const [copied, setCopied] = useState<string | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const secret = useRef<HTMLElement>(null);

  const onCreate = async (event: FormEvent) => {
    event.preventDefault();
    const days = EXPIRIES.find((choice) => choice.label === expiry)?.days ?? null;
    const result = await create({ input: { label: label.trim(), expiresInDays: days } });
    if (!result.data) return;
    setShown({ label: label.trim(), token: result.data.myTokenCreate.token });
    setCopied(null);
    setSaid(null);
    setLabel('');
    setFormOpen(false);
    reload({ requestPolicy: 'network-only' });
  };
  const copy = async () => {
    if (!shown) return;
    try {
      await navigator.clipboard.writeText(shown.token);
      setCopied('Copied to the clipboard.');
    } catch {
      // No clipboard (a page not served over HTTPS, or permission refused): select it for the reader to copy.
      if (secret.current) getSelection()?.selectAllChildren(secret.current);
      setCopied('Selected: copy it with Ctrl+C (⌘C on a Mac).');
    }
  };
  const onRevoke = async (token: TokenRow) => {
    const result = await revoke({ tokenId: token.tokenId });
    setSaid(result.error ? null : `The token ${token.label} is revoked.`);
    reload({ requestPolicy: 'network-only' });
  };
  const now = Date.now();
  const items = data?.myTokens.items;
  return (
    <section aria-labelledby="tokens-title">
      <h2 id="tokens-title">Personal access tokens</h2>
      <p className="muted">
        For the labdesk CLI, scripts and the REST API, sent in the header <code>Authorization: Bearer</code> followed by the token. A token
        acts as you until it expires or you revoke it.
      </p>
      <ErrorNote error={error ?? created.error ?? revoking.error} />
      {said && (
        <p className="note ok" role="status">
          {said}
        </p>
      )}
      {shown && (
        <div className="panel new-token" role="status">
          <p>
            Your new token <strong>{shown.label}</strong>. Copy it now: <strong>it will not be shown again.</strong>
          </p>
          <p>
            <code className="hash secret" id="new-token" ref={secret}>
              {shown.token}
            </code>
          </p>
          <div className="buttons-row">
            <button type="button" className="primary" onClick={() => void copy()} autoFocus>
              Copy
            </button>
            <button type="button" onClick={() => setShown(null)}>
              Done
            </button>
          </div>
          {copied && <p className="note ok">{copied}</p>}
        </div>
      )}
      {!formOpen && (
        <button type="button" className="primary create-token" ref={opener} onClick={() => setFormOpen(true)}>
          Create token
        </button>
      )}
      {formOpen && (
        <form className="panel token-form" aria-labelledby="new-token-title" onSubmit={(event) => void onCreate(event)}>
          <h3 id="new-token-title">New token</h3>
          <label htmlFor="token-label">Token label</label>
          <input
            id="token-label"
            value={label}
            onChange={(event) => setLabel(event.target.value)}
            required
            maxLength={100}
            placeholder="What it is for: laptop CLI, nightly sync…"
            autoFocus
          />
          <label htmlFor="token-expiry">Expires after</label>
          <select id="token-expiry" value={expiry} onChange={(event) => setExpiry(event.target.value)}>
            {EXPIRIES.map((choice) => (
              <option key={choice.label}>{choice.label}</option>
            ))}
          </select>
          <div className="buttons-row">
            <button type="submit" className="primary" disabled={created.fetching || !label.trim()}>
              Create
            </button>
            <button
              type="button"
              onClick={() => {
                setFormOpen(false);
                setTimeout(() => opener.current?.focus());
              }}
            >
              Cancel
            </button>
          </div>
        </form>
      )}
      {!items && fetching && <Loading what="your tokens" />}
      {items && items.length === 0 && (
        <Empty>
          <p>No token yet. Create one for each place that calls labdesk as you, so that you can revoke one alone.</p>
        </Empty>
      )}
      {items && items.length > 0 && (
        <ul id="tokens" className="cards" aria-label="Your tokens">
          {items.map((token) => {
            const state = tokenState(token, now);
            return (
              <li key={token.tokenId} className={state.kind}>
                <div className="card-head">
                  <strong className="wrap">{token.label}</strong>
                  <span className={`badge ${state.kind}`}>
                    {state.word}
                    {state.at && (
                      <>
                        {' '}
                        <When at={state.at} />
                      </>
                    )}
                  </span>
                </div>
                <dl className="card-facts">
                  <div>
                    <dt>Created</dt>
                    <dd>
                      <When at={token.createdAt} />
                    </dd>
                  </div>
                  <div>
                    <dt>Last used</dt>
                    <dd className="last-used">{token.lastUsedAt ? <When at={token.lastUsedAt} /> : 'never'}</dd>
                  </div>
                  <div>
                    <dt>Expires</dt>
                    <dd>{token.expiresAt ? <When at={token.expiresAt} /> : 'never'}</dd>
                  </div>
                </dl>
                {state.kind === 'active' && (
                  <ConfirmButton
                    className="small danger"
                    label={`Revoke ${token.label}`}
                    question={`Revoke the token ${token.label}?`}
                    detail="Whatever uses it stops working at its next request. This cannot be undone; you can create another token."
                    confirm="Revoke"
                    disabled={revoking.fetching}
                    onConfirm={() => void onRevoke(token)}
                  >
                    Revoke
                  </ConfirmButton>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {data && data.myTokens.total > data.myTokens.items.length && (
        <p className="muted">
          The newest {data.myTokens.items.length} of {data.myTokens.total} tokens are shown.
        </p>
      )}
    </section>
  );
}
