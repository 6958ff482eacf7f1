import { forbidden, notFound } from '../../errors';
import { isAdmin } from '../admin/admin.policy';
import type { Viewer } from '../auth/auth.service';

/** What the policy needs to know of a session. */
export interface SessionFacts {
  ownerId: string;
  labId: string | null;
  visibility: string;
}

/** The viewer's role in the session's lab when active there, else null. */
export type LabRole = 'owner' | 'mentor' | 'member' | null;

export type TrajectoryAction =
  | 'view' // read records, meta, annotations, summary; fork; discuss
  | 'write' // append, cover, set visibility, delete, refresh summary, read discussions
  | 'annotate';

const isOwner = (viewer: Viewer, s: SessionFacts) => s.ownerId === viewer.user.id;

/** Owner, admins, and for `visibility = lab` the active members of that lab. */
export const canView = (viewer: Viewer, s: SessionFacts, role: LabRole) =>
  isOwner(viewer, s) || isAdmin(viewer) || (s.visibility === 'lab' && s.labId !== null && role !== null);

const RULES: Record<TrajectoryAction, (viewer: Viewer, s: SessionFacts, role: LabRole) => boolean> = {
  view: () => true,
  write: (viewer, s) => isOwner(viewer, s),
  // The owner, or a mentor (or the owner) of the session's lab, on a session shared with it.
  annotate: (viewer, s, role) => isOwner(viewer, s) || (s.visibility === 'lab' && (role === 'mentor' || role === 'owner')),
};

/**
 * Throws unless the viewer may act on the session. Whoever cannot view it gets NOT_FOUND (never
 * FORBIDDEN), so existence is not revealed; a viewer lacking the right gets FORBIDDEN.
 */
export function authorizeTrajectory(viewer: Viewer, action: TrajectoryAction, s: SessionFacts, role: LabRole): void {
  if (!canView(viewer, s, role)) throw notFound('trajectory');
  if (!RULES[action](viewer, s, role)) throw forbidden(action === 'annotate' ? 'only the owner or a mentor of the lab may annotate' : 'only the owner may do this');
}
