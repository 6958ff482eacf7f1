import { isAdmin } from '../admin/admin.policy';
import type { Viewer } from '../auth/viewer';

/*
 * What one user is shown of another (docs/api/graphql.md, "People"). The name goes with whatever of that
 * person the viewer may already see (a trajectory they own, a note they wrote): it is how the
 * console says whose it is. The email is told only to whoever could read it elsewhere already.
 */

/**
 * Whether the viewer may see `personId`'s email: their own, an admin's view of anyone, and an
 * active owner or mentor of an active lab the person is active in (`mentorsThem`), who reads it
 * in that lab's member list anyway. A plain member never sees another member's email.
 */
export const canSeeEmail = (viewer: Viewer, personId: string, mentorsThem: boolean): boolean =>
  viewer.user.id === personId || isAdmin(viewer) || mentorsThem;
