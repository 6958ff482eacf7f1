import { forbidden, notFound } from '../../errors';
import { isAdmin } from '../admin/admin.policy';
import type { Viewer } from '../auth/viewer';
import { activeMemberSql, type LabRole } from '../labs/membership.repository';

/**
 * The trajectory rules, each stated once: as a TypeScript function for a trajectory already
 * loaded, and beside it as the SQL fragment queries filter with. `test/trajectory-policy.test.ts`
 * runs both over one table of actors, so they cannot drift apart.
 */

/** What the policy needs to know of a trajectory. */
export interface TrajectoryFacts {
  ownerId: string;
  labId: string | null;
  visibility: string;
}

export type TrajectoryAction =
  | 'view' // read records, meta, annotations, summary; fork; discuss
  | 'write' // append, cover, set visibility, delete, refresh summary, read discussions
  | 'annotate'
  | 'share' // create, list and revoke share links
  | 'requestReview'; // ask a mentor of the lab to review it

const isOwner = (viewer: Viewer, s: TrajectoryFacts) => s.ownerId === viewer.user.id;

/** Owner, admins, and for `visibility = lab` the active members of that (active) lab. */
export const canView = (viewer: Viewer, s: TrajectoryFacts, role: LabRole) =>
  isOwner(viewer, s) || isAdmin(viewer) || (s.visibility === 'lab' && s.labId !== null && role !== null);

/**
 * SQL form of `canView` for the trajectory row `t`, the viewer's id being the SQL expression
 * `user` (named twice: give its parameter twice).
 */
export const canViewSql = (t: string, user: string, admin: boolean) =>
  admin
    ? 'true'
    : `(${t}.owner_id = ${user} or (${t}.visibility = 'lab' and ${t}.lab_id is not null and ${activeMemberSql(`${t}.lab_id`, user)}))`;

const RULES: Record<TrajectoryAction, (viewer: Viewer, s: TrajectoryFacts, role: LabRole) => boolean> = {
  view: () => true,
  write: (viewer, s) => isOwner(viewer, s),
  // The owner, or a mentor (or the owner) of the session's lab, on a session shared with it.
  annotate: (viewer, s, role) => isOwner(viewer, s) || (s.visibility === 'lab' && (role === 'mentor' || role === 'owner')),
  share: (viewer, s, role) => mayShareOutside(viewer.user.id, s, role),
  requestReview: (_viewer, s, role) => mayReview(s, role),
};

/**
 * Who may ask for a review of a trajectory, and who may give one: an owner or mentor of the lab
 * it is shared with (its author may not review it: `mayReviewAsReviewer`).
 */
export const mayReview = (s: TrajectoryFacts, role: LabRole) =>
  s.visibility === 'lab' && s.labId !== null && (role === 'mentor' || role === 'owner');

/** Whether `userId`, with `role` in the trajectory's lab, may be its reviewer. */
export const mayReviewAsReviewer = (userId: string, s: TrajectoryFacts, role: LabRole) => mayReview(s, role) && s.ownerId !== userId;

/**
 * Who may show a trajectory to people without an account (a share link): its owner, or a mentor
 * (or the owner) of the lab it is shared with. A link made by one works only while this holds.
 */
export const mayShareOutside = (userId: string, s: TrajectoryFacts, role: LabRole) =>
  s.ownerId === userId || (s.visibility === 'lab' && s.labId !== null && (role === 'mentor' || role === 'owner'));

/** Whether the viewer may act on the trajectory (`authorizeTrajectory` without the errors). */
export const canTrajectory = (viewer: Viewer, action: TrajectoryAction, s: TrajectoryFacts, role: LabRole) =>
  canView(viewer, s, role) && RULES[action](viewer, s, role);

/**
 * The right each trajectory mutation authorizes with (its service passes this to
 * `loadTrajectory`), so that `viewerCanTrajectory`, which answers the console's "may I", is the
 * same rule as the mutation's. Resolving a note needs the same right whatever the note.
 */
export const TRAJECTORY_MUTATIONS = {
  annotate: 'annotate', // trajectoryAnnotate, replies included
  resolve: 'annotate', // trajectoryAnnotationResolve
  fork: 'view', // trajectoryFork
  changeVisibility: 'write', // trajectoryVisibilitySet
  delete: 'write', // trajectoryDelete
  refreshSummary: 'write', // trajectorySummaryRefresh
  share: 'share', // trajectoryShareLinkCreate, trajectoryShareLinks, trajectoryShareLinkRevoke
  requestReview: 'requestReview', // trajectoryReviewRequest
} as const satisfies Record<string, TrajectoryAction>;

export type TrajectoryMutation = keyof typeof TRAJECTORY_MUTATIONS;

/** For each mutation of `TRAJECTORY_MUTATIONS`, whether the viewer may run it on the trajectory. */
export function viewerCanTrajectory(viewer: Viewer, s: TrajectoryFacts, role: LabRole): Record<TrajectoryMutation, boolean> {
  const answers = {} as Record<TrajectoryMutation, boolean>;
  for (const [mutation, action] of Object.entries(TRAJECTORY_MUTATIONS))
    answers[mutation as TrajectoryMutation] = canTrajectory(viewer, action, s, role);
  return answers;
}

const FORBIDDEN_BECAUSE: Partial<Record<TrajectoryAction, string>> = {
  annotate: 'only the owner or a mentor of the lab may annotate',
  requestReview: 'only an owner or mentor of the lab it is shared with may ask for a review',
};

/**
 * Throws unless the viewer may act on the session. Whoever cannot view it gets NOT_FOUND (never
 * FORBIDDEN), so existence is not revealed; a viewer lacking the right gets FORBIDDEN.
 */
export function authorizeTrajectory(viewer: Viewer, action: TrajectoryAction, s: TrajectoryFacts, role: LabRole): void {
  if (!canView(viewer, s, role)) throw notFound('trajectory');
  if (!RULES[action](viewer, s, role)) throw forbidden(FORBIDDEN_BECAUSE[action] ?? 'only the owner may do this');
}

/** What the fast-forward rule reads of an append. */
export interface AppendFacts {
  trajectory: TrajectoryFacts & { headUuid: string | null };
  /** The record the batch follows (null: the start). */
  baseUuid: string | null;
  /** Whether the writer is active in the lab the append names (null: it names none). */
  inGivenLab: boolean | null;
  /** Whether the writer is active in the trajectory's lab. */
  inTrajectoryLab: boolean;
}

/**
 * The fast-forward rule: the owner appends right after the head; a lab the append names is one
 * they are active in; a lab-shared trajectory only while they are active in its lab (else the
 * lab keeps it frozen as it was). Anything else is refused, each case with its own explanation.
 */
export const isFastForward = (viewer: Viewer, f: AppendFacts) =>
  isOwner(viewer, f.trajectory) &&
  f.baseUuid === f.trajectory.headUuid &&
  f.inGivenLab !== false &&
  (f.trajectory.visibility !== 'lab' || f.inTrajectoryLab);

/**
 * SQL form of `isFastForward` for the trajectory row `t`: `user` (the writer's id), `base` and
 * `givenLab` (null: none) are SQL expressions. The one-statement append filters with it.
 */
export const fastForwardSql = (t: string, { user, base, givenLab }: { user: string; base: string; givenLab: string }) =>
  `${t}.owner_id = ${user} and ${t}.head_uuid is not distinct from ${base}
       and (${givenLab} is null or ${activeMemberSql(givenLab, user)})
       and (${t}.visibility <> 'lab' or ${activeMemberSql(`${t}.lab_id`, user)})`;
