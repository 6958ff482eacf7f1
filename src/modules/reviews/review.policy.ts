import { forbidden, notFound } from '../../errors';
import { isAdmin } from '../admin/admin.policy';
import type { Viewer } from '../auth/viewer';
import type { LabRole } from '../labs/membership.repository';
import { canView, mayReviewAsReviewer, type TrajectoryFacts } from '../trajectories/trajectory.policy';
import { OPEN_STATES, type ReviewState } from './review.entity';

/**
 * The review rules (docs/api/reviews.md), each stated once. Who may ask for a review is a
 * trajectory right (`requestReview` in trajectory.policy.ts); what may be done with a review
 * once asked is here: who may do it, and from which states.
 */

/** What the rules read of a review. */
export interface ReviewFacts {
  labId: string;
  requestedBy: string;
  reviewerId: string;
  state: ReviewState;
}

/**
 * The viewer's role as the review's rules read it: their role in the trajectory's lab (`role`),
 * while the trajectory is still shared with the review's lab; else none (a trajectory moved to
 * another lab, or made private, leaves its reviews as they were).
 */
const reviewRole = (r: ReviewFacts, s: TrajectoryFacts, role: LabRole): LabRole =>
  s.visibility === 'lab' && s.labId === r.labId ? role : null;

export type ReviewAction = 'start' | 'decide' | 'rerequest' | 'withdraw';

/**
 * Who may act: the reviewer while still a mentor (or the owner) of the lab; the requester or the
 * author to ask for another look once changes are made (both wait on the verdict); the requester
 * or the lab's owner to withdraw.
 */
const WHO: Record<ReviewAction, (viewer: Viewer, r: ReviewFacts, s: TrajectoryFacts, role: LabRole) => boolean> = {
  start: (viewer, r, s, role) => r.reviewerId === viewer.user.id && mayReviewAsReviewer(viewer.user.id, s, reviewRole(r, s, role)),
  decide: (viewer, r, s, role) => r.reviewerId === viewer.user.id && mayReviewAsReviewer(viewer.user.id, s, reviewRole(r, s, role)),
  rerequest: (viewer, r, s) => r.requestedBy === viewer.user.id || s.ownerId === viewer.user.id,
  withdraw: (viewer, r, s, role) => r.requestedBy === viewer.user.id || reviewRole(r, s, role) === 'owner',
};

/**
 * From which states each action moves a review. A reviewer may give a verdict without taking it
 * first, and takes it again after asking for changes; approved and withdrawn reviews are done.
 */
export const FROM_STATES: Record<ReviewAction, readonly ReviewState[]> = {
  start: ['requested', 'changes_requested'],
  decide: ['requested', 'in_review'],
  rerequest: ['changes_requested'],
  withdraw: OPEN_STATES,
};

const REFUSALS: Record<ReviewAction, string> = {
  start: 'only the reviewer it was asked of, while a mentor of the lab, may take this review',
  decide: 'only the reviewer it was asked of, while a mentor of the lab, may give the verdict',
  rerequest: 'only who asked for this review, or the trajectory’s author, may ask for another look',
  withdraw: 'only who asked for this review, or the lab owner, may withdraw it',
};

/** Whether the viewer may do `action` to the review now (its state included): what the console offers. `role`: in the trajectory's lab. */
export const canReview = (viewer: Viewer, action: ReviewAction, r: ReviewFacts, s: TrajectoryFacts, role: LabRole) =>
  canView(viewer, s, role) && WHO[action](viewer, r, s, role) && FROM_STATES[action].includes(r.state);

/** For each action, whether the viewer may do it now. */
export const viewerCanReview = (viewer: Viewer, r: ReviewFacts, s: TrajectoryFacts, role: LabRole): Record<ReviewAction, boolean> => ({
  start: canReview(viewer, 'start', r, s, role),
  decide: canReview(viewer, 'decide', r, s, role),
  rerequest: canReview(viewer, 'rerequest', r, s, role),
  withdraw: canReview(viewer, 'withdraw', r, s, role),
});

/**
 * Throws unless the viewer may do `action` (the state is the service's to check: CONFLICT).
 * Whoever cannot read the trajectory gets NOT_FOUND, as for the trajectory itself.
 */
export function authorizeReview(viewer: Viewer, action: ReviewAction, r: ReviewFacts, s: TrajectoryFacts, role: LabRole): void {
  if (!canView(viewer, s, role)) throw notFound('review');
  if (!WHO[action](viewer, r, s, role)) throw forbidden(REFUSALS[action]);
}

/**
 * Which of a trajectory's reviews a reader of it sees: those of the lab it is shared with now;
 * every one to its author (and to admins). A trajectory moved to another lab does not take the
 * first lab's requests and verdicts with it.
 */
export const seesReview = (viewer: Viewer, r: Pick<ReviewFacts, 'labId'>, s: TrajectoryFacts) =>
  s.ownerId === viewer.user.id || isAdmin(viewer) || (s.visibility === 'lab' && s.labId === r.labId);
