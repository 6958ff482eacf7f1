import { AppError, forbidden, notFound } from '../../errors';
import { isAdmin } from '../admin/admin.policy';
import type { Viewer } from '../auth/viewer';
import type { LabMember } from './lab.entity';

export type LabAction =
  | 'view' // read the lab, its board and its reviews
  | 'viewMembers' // the member list
  | 'viewUsage' // the usage report
  | 'viewCode' // the invitation code
  | 'rotateCode'
  | 'manageMembers'; // approve, reject, change role, revoke

/** What the rules read of a lab (the entity, or a row read without the ORM). */
type LabOwner = { owner: { id: string } };

/** The caller's own membership row in the lab, if any (any status). */
export type OwnMembership = Pick<LabMember, 'role' | 'status'> | null;

const isActive = (m: OwnMembership) => m?.status === 'active';
const isOwner = (viewer: Viewer, lab: LabOwner, m: OwnMembership) => lab.owner.id === viewer.user.id && isActive(m);

const RULES: Record<LabAction, (viewer: Viewer, lab: LabOwner, m: OwnMembership) => boolean> = {
  view: () => true,
  viewMembers: (v, lab, m) => isAdmin(v) || isOwner(v, lab, m) || (isActive(m) && m?.role === 'mentor'),
  viewUsage: (v, lab, m) => isOwner(v, lab, m),
  viewCode: (v, lab, m) => isOwner(v, lab, m),
  rotateCode: (v, lab, m) => isOwner(v, lab, m),
  manageMembers: (v, lab, m) => isOwner(v, lab, m),
};

/** Whether the viewer may see the lab at all: admins and its active members. */
export const canSeeLab = (viewer: Viewer, m: OwnMembership) => isAdmin(viewer) || isActive(m);

export const can = (viewer: Viewer, action: LabAction, lab: LabOwner, m: OwnMembership): boolean =>
  canSeeLab(viewer, m) && RULES[action](viewer, lab, m);

/** What `LabNode.viewerCan` answers: the lab actions a console offers, each by the rule its mutation or query enforces. */
export const LAB_VIEWER_CAN = ['rotateCode', 'manageMembers', 'viewMembers', 'viewUsage'] as const satisfies readonly LabAction[];

/** For each action of `LAB_VIEWER_CAN`, whether the viewer may perform it (`can`). */
export function viewerCanLab(viewer: Viewer, lab: LabOwner, m: OwnMembership): Record<(typeof LAB_VIEWER_CAN)[number], boolean> {
  return Object.fromEntries(LAB_VIEWER_CAN.map((action) => [action, can(viewer, action, lab, m)])) as Record<
    (typeof LAB_VIEWER_CAN)[number],
    boolean
  >;
}

/**
 * Throws unless the viewer may perform `action`. Someone who cannot see the lab gets NOT_FOUND,
 * so a lab's existence is never revealed; a member lacking the role gets FORBIDDEN.
 */
export function authorizeLab(viewer: Viewer, action: LabAction, lab: LabOwner, m: OwnMembership): void {
  if (!canSeeLab(viewer, m)) throw notFound('lab');
  if (!RULES[action](viewer, lab, m)) throw forbidden(`only the lab owner may do this`);
}

export const labNotActive = () => new AppError('CONFLICT', 'this lab is not active');
