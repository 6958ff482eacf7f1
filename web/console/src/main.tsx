import { createRootRoute, createRoute, createRouter, redirect, RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'urql';
import { client } from './client';
import './console.css';
import { Layout } from './layout';
import { LabPage } from './pages/lab';
import { LabsPage } from './pages/labs';
import { NotBuiltYet } from './pages/not-built';

/**
 * The console's pages. The service serves this app's index.html for each of these paths (and
 * sends a signed-out browser to /login first): src/web.ts, CONSOLE_ROUTES.
 */
const root = createRootRoute({ component: Layout, notFoundComponent: () => <NotFound /> });
const page = (path: string, component: () => React.ReactNode) => createRoute({ getParentRoute: () => root, path, component });

const routeTree = root.addChildren([
  createRoute({
    getParentRoute: () => root,
    path: '/',
    beforeLoad: () => {
      throw redirect({ to: '/labs' });
    },
  }),
  page('/labs', LabsPage),
  page('/labs/$labId', LabPage),
  page('/trajectories', () => <NotBuiltYet title="Trajectories" />),
  page('/compute', () => <NotBuiltYet title="Compute" />),
  page('/releases', () => <NotBuiltYet title="Releases" />),
  page('/agents', () => <NotBuiltYet title="Agents" />),
  page('/admin', () => <NotBuiltYet title="Admin" />),
]);

const router = createRouter({ routeTree, defaultPreload: false });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

function NotFound() {
  return (
    <>
      <h1>Not found</h1>
      <p>There is no such page. Pick a section above.</p>
    </>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Provider value={client}>
      <RouterProvider router={router} />
    </Provider>
  </StrictMode>,
);
