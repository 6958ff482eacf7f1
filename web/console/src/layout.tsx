import { Link, Outlet, useRouterState } from '@tanstack/react-router';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { type Client, useMutation, useQuery } from 'urql';
import { graphql } from './gql';
import { ErrorNote } from './ui';

/** Who is signed in: the layout's, and the pages' that depend on it (one request, from the cache). */
export const Me = graphql(`
  query ConsoleMe {
    me {
      id
      name
      email
      isAdmin
    }
  }
`);

/** The unread count the navigation shows beside "Reviews". */
export const UnreadNotices = graphql(`
  query ConsoleUnreadNotices {
    notices(first: 1) {
      unread
    }
  }
`);

/** Asks the unread count again (the navigation shows it): marking notices read changes no object urql knows. */
export const askUnreadAgain = (client: Client) => client.query(UnreadNotices, {}, { requestPolicy: 'network-only' }).toPromise();

const SignOut = graphql(`
  mutation ConsoleSignOut {
    authLogout
  }
`);

const SECTIONS = [
  { to: '/labs', label: 'Labs' },
  { to: '/trajectories', label: 'Trajectories' },
  { to: '/reviews', label: 'Reviews' },
  { to: '/compute', label: 'Compute' },
  { to: '/releases', label: 'Releases' },
  { to: '/agents', label: 'Agents' },
] as const;

/**
 * Every page: the navigation, who is signed in, and the page itself. On a narrow screen the
 * navigation and the reader's name fold into a menu that the "Menu" button opens (console.css).
 */
export function Layout() {
  const path = useRouterState({ select: (state) => state.location.pathname });
  return path === '/shared' ? <ReaderLayout /> : <ConsoleLayout />;
}

/** A share link's reader has no account: the page alone, under the product's name. */
function ReaderLayout() {
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <span className="brand">labdesk</span>
        <span className="muted reader-note">Shared trajectory, read-only</span>
      </header>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}

function ConsoleLayout() {
  const [{ data, error }] = useQuery({ query: Me });
  const path = useRouterState({ select: (state) => state.location.pathname });
  const [notices, recount] = useQuery({ query: UnreadNotices });
  const unread = notices.data?.notices.unread ?? 0;
  const [signingOut, signOut] = useMutation(SignOut);
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  // A link followed from the menu closes it; the unread count is asked again on each page.
  useEffect(() => {
    setMenuOpen(false);
    recount({ requestPolicy: 'network-only' });
  }, [path, recount]);
  const leave = async () => {
    const result = await signOut({});
    if (!result.error) location.assign('/login');
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !menuOpen) return;
    setMenuOpen(false);
    menuButton.current?.focus();
  };
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top" onKeyDown={onKeyDown}>
        <Link to="/labs" className="brand">
          labdesk
        </Link>
        <button
          ref={menuButton}
          type="button"
          className="menu-button"
          aria-expanded={menuOpen}
          aria-controls="console-menu"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          Menu
          {/* On a phone the navigation is folded: the count shows on what unfolds it. */}
          {unread > 0 && (
            <>
              {' '}
              <span className="badge unread" aria-label={`${unread} new`}>
                {unread}
              </span>
            </>
          )}
        </button>
        <div id="console-menu" className={menuOpen ? 'menu open' : 'menu'}>
          <nav aria-label="Console">
            <ul>
              {SECTIONS.map((section) => (
                <li key={section.to}>
                  <Link to={section.to} activeProps={{ className: 'active' }}>
                    {section.label}
                    {section.to === '/reviews' && unread > 0 && (
                      <span className="badge unread" aria-label={`${unread} new`}>
                        {unread}
                      </span>
                    )}
                  </Link>
                </li>
              ))}
              {data?.me.isAdmin && (
                <li>
                  <Link to="/admin" activeProps={{ className: 'active' }}>
                    Admin
                  </Link>
                </li>
              )}
            </ul>
          </nav>
          {data && (
            <div className="who">
              <Link to="/account" id="who-name" title={`${data.me.email}: your account`} activeProps={{ className: 'active' }}>
                {data.me.name}
              </Link>
              <button type="button" onClick={() => void leave()} disabled={signingOut.fetching}>
                Sign out
              </button>
            </div>
          )}
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <ErrorNote error={error ?? signingOut.error} />
        <Outlet />
      </main>
    </>
  );
}
