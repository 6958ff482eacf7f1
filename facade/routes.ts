import type { DocumentNode } from 'graphql';
import { OPERATION_ROUTES } from './generated/tables';
import * as Op from './generated/operations';
import type { Route } from './route';
import {
  desktopUpdateFeedRoute,
  figureRawRoute,
  figureUploadRoute,
  modelCatalogRoute,
  releaseDownloadRoute,
  releaseFileUploadRoute,
  signedBlobRoute,
} from './files';
import { syncUsersRoute, trajectoryExportRoute, trajectoryReadRoute } from './streams';
import { discussStreamRoute } from './events';

/**
 * The writes whose body is stored and charged to the caller's storage (append, cover-write): a
 * body that could not be stored is refused by its length before it is read (`bodyLimit`).
 */
const STORED_BODIES: DocumentNode[] = [Op.TrajectoryAppendDocument, Op.TrajectoryCoverDocument];
const chargedToStorage = (route: Route): Route =>
  route.kind === 'operation' && STORED_BODIES.includes(route.operation)
    ? {
        ...route,
        bodyLimit: async (req, _ctx, declared, { run }) =>
          (await run(Op.TrajectoryWriteLimitDocument, { sessionId: String(req.params.session_id), declared: declared ?? null }))
            .trajectoryWriteLimit,
      }
    : route;

/** A path as Express should try it: a parameter sorts after any fixed segment in its place. */
const matchKey = (route: Route) => `${route.path.replace(/\{[^}]+\}/g, '\uffff')} ${route.method}`;

/**
 * The REST API as data: the routes that run one operation, which `npm run codegen` writes from
 * the operations' @rest directives (facade/operations/*.graphql), and the routes that write bytes
 * or events themselves. Sorted so that a fixed segment is tried before a parameter in its place
 * (`/api/labs/preview` before `/api/labs/{lab_id}`).
 */
export const ROUTES: Route[] = [
  ...OPERATION_ROUTES.map(chargedToStorage),
  trajectoryReadRoute,
  trajectoryExportRoute,
  discussStreamRoute,
  figureUploadRoute,
  figureRawRoute,
  signedBlobRoute,
  modelCatalogRoute,
  releaseFileUploadRoute,
  releaseDownloadRoute,
  desktopUpdateFeedRoute,
  syncUsersRoute,
].sort((a, b) => (matchKey(a) < matchKey(b) ? -1 : matchKey(a) > matchKey(b) ? 1 : 0));
