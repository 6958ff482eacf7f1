import { createRootRoute, createRoute, createRouter, redirect, RouterProvider } from '@tanstack/react-router';
import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'urql';
import { client } from './client';
import './console.css';
import { Layout } from './layout';
import { AccountPage } from './pages/account';
import { NotFound } from './ui';
import { LabPage } from './pages/lab';
import { LabsPage } from './pages/labs';
import { AgentTaskPage } from './pages/agent-task';
import { AgentsPage } from './pages/agents';
import { ComputePage } from './pages/compute';
import { ReleasesPage } from './pages/releases';
import { ReviewsPage } from './pages/reviews';
import { SharedPage } from './pages/shared';
import { TrajectoriesPage } from './pages/trajectories';
import { TrajectoryPage } from './pages/trajectory';
import { TrajectoryComparePage } from './pages/trajectory-compare';

/**
 * The console's pages. The service serves this app's index.html for each of these paths (and
 * sends a signed-out browser to /login first): src/web.ts, CONSOLE_ROUTES.
 */
const AdminPage = lazy(() => import('./pages/admin'));

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
  page('/trajectories', TrajectoriesPage),
  page('/trajectories/$trajectoryId', TrajectoryPage),
  page('/trajectories/$trajectoryId/compare', TrajectoryComparePage),
  page('/reviews', ReviewsPage),
  page('/compute', ComputePage),
  page('/releases', ReleasesPage),
  page('/agents', AgentsPage),
  page('/agents/tasks/$taskId', AgentTaskPage),
  page('/account', AccountPage),
  // A share link's page: for anyone with its token, signed in or not (src/web.ts serves it so).
  page('/shared', SharedPage),
  // The admin page brings the chart library: loaded when an administrator opens it, not with the console.
  page('/admin', () => (
    <Suspense fallback={<p className="loading">Loading…</p>}>
      <AdminPage />
    </Suspense>
  )),
]);

const router = createRouter({ routeTree, defaultPreload: false });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Provider value={client}>
      <RouterProvider router={router} />
    </Provider>
  </StrictMode>,
);
