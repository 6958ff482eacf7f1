import { Link, Outlet } from '@tanstack/react-router';
import { useMutation, useQuery } from 'urql';
import { graphql } from './gql';
import { ErrorNote } from './ui';

const Me = graphql(`
  query ConsoleMe {
    me {
      id
      name
      email
      isAdmin
    }
  }
`);

const SignOut = graphql(`
  mutation ConsoleSignOut {
    authLogout
  }
`);

const SECTIONS = [
  { to: '/labs', label: 'Labs' },
  { to: '/trajectories', label: 'Trajectories' },
  { to: '/compute', label: 'Compute' },
  { to: '/releases', label: 'Releases' },
  { to: '/agents', label: 'Agents' },
] as const;

/** Every page: the navigation, who is signed in, and the page itself. */
export function Layout() {
  const [{ data, error }] = useQuery({ query: Me });
  const [signingOut, signOut] = useMutation(SignOut);
  const leave = async () => {
    const result = await signOut({});
    if (!result.error) location.assign('/login');
  };
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <Link to="/labs" className="brand">
          labdesk
        </Link>
        <nav aria-label="Console">
          <ul>
            {SECTIONS.map((section) => (
              <li key={section.to}>
                <Link to={section.to} activeProps={{ className: 'active' }}>
                  {section.label}
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
      </header>
      <main id="main" tabIndex={-1}>
        <ErrorNote error={error ?? signingOut.error} />
        <Outlet />
      </main>
    </>
  );
}
