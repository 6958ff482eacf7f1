import { OPERATION_ROUTES } from './generated/tables';
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
import { syncUsersRoute, trajectoryReadRoute } from './streams';
import { discussStreamRoute } from './events';

/** A path as Express should try it: a parameter sorts after any fixed segment in its place. */
const matchKey = (route: Route) => `${route.path.replace(/\{[^}]+\}/g, '\uffff')} ${route.method}`;

/**
 * The REST API as data: the routes that run one operation, which `npm run codegen` writes from
 * the operations' @rest directives (facade/operations/*.graphql), and the routes that write bytes
 * or events themselves. Sorted so that a fixed segment is tried before a parameter in its place
 * (`/api/labs/preview` before `/api/labs/{lab_id}`).
 */
export const ROUTES: Route[] = [
  ...OPERATION_ROUTES,
  trajectoryReadRoute,
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
