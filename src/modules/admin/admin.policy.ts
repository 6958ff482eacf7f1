import { forbidden } from '../../errors';
import { requireViewer, type Viewer, type ViewerSource } from '../auth/viewer';
import { isSandboxToken } from '../auth/token.policy';

/**
 * The one decision on admin rights: an `is_admin` user calling with one of their own credentials.
 * A sandbox's token never carries them, even for an admin owner: it is bound to a lease and must
 * not reach past its owner's own API (token.policy).
 */
export const isAdmin = (viewer: Viewer): boolean => viewer.user.isAdmin && !isSandboxToken(viewer);

/** Admin area gate: signed in (else 401) and an admin (else 403; see `isAdmin`). */
export async function requireAdmin(ctx: ViewerSource): Promise<Viewer> {
  const viewer = await requireViewer(ctx);
  if (!isAdmin(viewer)) throw forbidden('admin only');
  return viewer;
}
