import { conflict, forbidden } from '../../errors';
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

/**
 * Why an administrator's change of `target` must be refused, so that nobody locks everyone out:
 * suspending oneself (the next request would be refused, and only another admin could undo it),
 * and suspending or demoting the last active administrator. `activeAdmins` are the ids of the
 * active administrators, read under lock.
 * @throws CONFLICT naming the way back
 */
export function checkAdminChange(
  actorId: string,
  target: { id: string; isAdmin: boolean; disabled: boolean },
  change: { isAdmin?: boolean | null; disabled?: boolean | null },
  activeAdmins: string[],
): void {
  if (change.disabled === true && !target.disabled && target.id === actorId)
    throw conflict('you cannot suspend your own account; another administrator can');
  const losesAdmin = target.isAdmin && !target.disabled && (change.disabled === true || change.isAdmin === false);
  if (losesAdmin && activeAdmins.every((id) => id === target.id))
    throw conflict(
      `${change.disabled ? 'suspending' : 'demoting'} the last active administrator would leave nobody to administer the service; make another administrator first`,
    );
}
