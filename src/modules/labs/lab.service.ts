import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Sealer } from '../../db/instance-keys';
import { conflict, forbidden, notFound } from '../../errors';
import { newId, randomString, sha256Hex } from '../../ids';
import type { LabMemberEvent } from '../../pubsub';
import { containsPattern } from '../../db/sql';
import { isAdmin } from '../admin/admin.policy';
import { audit } from '../audit/audit.service';
import type { Viewer } from '../auth/viewer';
import { User } from '../users/user.entity';
import { Lab, LabMember, MemberRole, MemberStatus } from './lab.entity';
import { checkLabName, checkMemberUpdate, LabCreateInput, LabMemberUpdateInput, SEAT_QUOTA_MAX } from './lab.inputs';
import { authorizeLab, LabAction, labNotActive, OwnMembership } from './lab.policy';
import {
  countTrajectoriesWithUsage,
  dailyUsage,
  LabRead,
  LabRecord,
  memberUsage,
  readLab,
  readMemberLabs,
  readPendingRequests,
} from './lab.repository';

export const CODE_TTL_MS = 30 * 24 * 3600 * 1000;
/** Crockford base32: 32 symbols without I, L, O, U, so 12 characters carry 60 bits. */
const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const CODE_LENGTH = 12;

/** Reads a code the way a person may type it: any case, spaces or dashes, O for 0, I/L for 1. */
export function normalizeCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
}

function newCode(sealer: Sealer) {
  const code = randomString(CODE_LENGTH, CODE_ALPHABET);
  return { code, codeHash: sha256Hex(code), codeSealed: sealer.seal(code), codeExpiresAt: new Date(Date.now() + CODE_TTL_MS) };
}

/**
 * A lab together with the viewer's own membership row (null when not a member): entities after
 * a write, plain rows after a read; and the active seats when the read counted them.
 */
export interface LabWithMembership {
  lab: LabRecord;
  membership: OwnMembership;
  seatsUsed?: number;
}

/** The membership after a decision, and the event to publish once committed (none when nothing changed). */
export type MemberChange = { member: LabMember; event?: LabMemberEvent };

const changeEvent = (member: LabMember, action: string): LabMemberEvent => ({
  labId: member.lab.id,
  memberUserId: member.user.id,
  action,
  status: member.status,
  role: member.role,
  at: new Date().toISOString(),
});

/** Creates a lab owned by the viewer, who takes the first seat. */
export async function createLab(em: EntityManager, sealer: Sealer, viewer: Viewer, input: LabCreateInput): Promise<LabWithMembership> {
  const c = checkLabName(['input', 'name'], input.name);
  c.int(['input', 'seatQuota'], input.seatQuota, { min: 1, max: SEAT_QUOTA_MAX }).done();
  if (input.seatQuota != null && !isAdmin(viewer)) throw forbidden('only admins may set seat_quota');
  const { codeHash, codeSealed, codeExpiresAt } = newCode(sealer);
  const lab = em.create(Lab, {
    id: newId('lab'),
    name: input.name.trim(),
    seatQuota: input.seatQuota ?? 10,
    owner: em.getReference(User, viewer.user.id),
    codeHash,
    codeSealed,
    codeExpiresAt,
  });
  const membership = em.create(LabMember, { lab, user: lab.owner, role: 'owner', status: 'active', joinedAt: new Date() });
  audit(em, { action: 'lab.create', actorId: viewer.user.id, labId: lab.id, subjectUserId: viewer.user.id });
  await em.flush();
  return { lab, membership };
}

/** Every lab the viewer is an active member of, with that membership. */
export function listViewerLabs(em: EntityManager, viewer: Viewer): Promise<LabWithMembership[]> {
  return readMemberLabs(em, viewer.user.id);
}

/** The caller's own pending requests to join: names and dates only, as a code's preview reveals. */
export function listPendingRequests(em: EntityManager, viewer: Viewer) {
  return readPendingRequests(em, viewer.user.id);
}

/** Reads a lab (one statement) and authorizes `action` on it. @throws NOT_FOUND, FORBIDDEN */
export async function loadLab(em: EntityManager, viewer: Viewer, labId: string, action: LabAction): Promise<LabRead> {
  const found = await readLab(em, labId, viewer.user.id);
  if (!found) throw notFound('lab');
  authorizeLab(viewer, action, found.lab, found.membership);
  return found;
}

/** An active lab whose current, unexpired code is `code`; null for anything else. */
async function findLabByCode(em: EntityManager, code: string, lockMode?: LockMode): Promise<Lab | null> {
  const normalized = normalizeCode(code);
  if (normalized.length !== CODE_LENGTH) return null;
  return em.findOne(Lab, { codeHash: sha256Hex(normalized), status: 'active', codeExpiresAt: { $gt: new Date() } }, { lockMode });
}

/** The team name for a code. Grants nothing. @throws NOT_FOUND, uniform for every bad code. */
export async function previewLab(em: EntityManager, code: string): Promise<{ name: string }> {
  const lab = await findLabByCode(em, code);
  if (!lab) throw notFound('invitation code');
  return { name: lab.name };
}

/**
 * Asks to join the lab of `code`. The request waits for the owner's approval; repeating a
 * pending request changes nothing. Someone who was rejected, revoked or left may ask again.
 * @throws NOT_FOUND for any bad code, CONFLICT when already an active member.
 */
export async function joinLab(
  em: EntityManager,
  viewer: Viewer,
  code: string,
): Promise<{ labId: string; status: MemberStatus; change?: MemberChange }> {
  return em.transactional(async (tx) => {
    // The lab row lock serializes joins with approvals and leaves of the same lab.
    const lab = await findLabByCode(tx, code, LockMode.PESSIMISTIC_WRITE);
    if (!lab) throw notFound('invitation code');
    let member = await tx.findOne(LabMember, { lab, user: viewer.user.id });
    if (member?.status === 'active') throw conflict('you are already an active member of this lab');
    if (member?.status === 'pending') return { labId: lab.id, status: member.status };
    if (member) {
      member.status = 'pending';
      member.role = 'member';
      member.createdAt = new Date();
    } else {
      member = tx.create(LabMember, { lab, user: tx.getReference(User, viewer.user.id), role: 'member', status: 'pending' });
    }
    audit(tx, { action: 'member.join', actorId: viewer.user.id, labId: lab.id, subjectUserId: viewer.user.id });
    await tx.flush();
    return { labId: lab.id, status: member.status, change: { member, event: changeEvent(member, 'join') } };
  });
}

/** Owner-only: issues a new code; the old one stops working on the very next request. */
export async function rotateCode(em: EntityManager, sealer: Sealer, viewer: Viewer, labId: string): Promise<LabWithMembership> {
  const lab = await em.findOne(Lab, { id: labId });
  const membership = lab ? await em.findOne(LabMember, { lab, user: viewer.user.id }) : null;
  if (!lab) throw notFound('lab');
  authorizeLab(viewer, 'rotateCode', lab, membership);
  const { codeHash, codeSealed, codeExpiresAt } = newCode(sealer);
  Object.assign(lab, { codeHash, codeSealed, codeExpiresAt });
  audit(em, { action: 'lab.code_rotate', actorId: viewer.user.id, labId });
  await em.flush();
  return { lab, membership };
}

/**
 * The viewer leaves the lab (or withdraws a pending request). The row is kept with status
 * `left` for the audit trail and past trajectory access. @throws NOT_FOUND, CONFLICT
 */
export async function leaveLab(em: EntityManager, viewer: Viewer, labId: string): Promise<MemberChange> {
  return em.transactional(async (tx) => {
    // Lock order everywhere: the lab row, then the member row.
    await tx.findOne(Lab, { id: labId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const member = await tx.findOne(
      LabMember,
      { lab: labId, user: viewer.user.id },
      { lockMode: LockMode.PESSIMISTIC_WRITE, populate: ['user'] },
    );
    if (!member) throw notFound('lab');
    if (member.role === 'owner') throw conflict('the owner cannot leave their own lab');
    if (member.status === 'rejected' || member.status === 'revoked')
      throw conflict(`your membership is ${member.status}; there is nothing to leave`);
    if (member.status === 'left') return { member };
    const from = member.status;
    member.status = 'left';
    audit(tx, { action: 'member.leave', actorId: viewer.user.id, labId, subjectUserId: viewer.user.id, detail: { from } });
    await tx.flush();
    return { member, event: changeEvent(member, 'leave') };
  });
}

const TRANSITIONS: Record<'active' | 'rejected' | 'revoked', { from: MemberStatus[]; action: string }> = {
  active: { from: ['pending'], action: 'approve' },
  rejected: { from: ['pending'], action: 'reject' },
  revoked: { from: ['active'], action: 'revoke' },
};

/**
 * Owner decisions on a membership: approve (within the seat quota), reject, revoke, change role.
 * The lab row is locked for the whole decision, so concurrent approvals can never exceed the quota.
 * @throws NOT_FOUND, FORBIDDEN, CONFLICT (own row, seat quota reached, wrong state)
 */
export async function updateMember(
  em: EntityManager,
  viewer: Viewer,
  labId: string,
  memberUserId: string,
  input: LabMemberUpdateInput,
): Promise<MemberChange> {
  checkMemberUpdate(input);
  return em.transactional(async (tx) => {
    const lab = await tx.findOne(Lab, { id: labId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const own: OwnMembership = lab ? await tx.findOne(LabMember, { lab, user: viewer.user.id }) : null;
    if (!lab) throw notFound('lab');
    authorizeLab(viewer, 'manageMembers', lab, own);
    if (memberUserId === viewer.user.id) throw conflict('the owner cannot modify their own membership');
    const member = await tx.findOne(LabMember, { lab, user: memberUserId }, { lockMode: LockMode.PESSIMISTIC_WRITE, populate: ['user'] });
    if (!member) throw notFound('member');

    // The decision in the membership's own terms: the GraphQL enums' values are these strings.
    const status: keyof typeof TRANSITIONS | null | undefined = input.status;
    const role: MemberRole | null | undefined = input.role;
    const actions: string[] = [];
    const before = { status: member.status, role: member.role };
    if (status && status !== member.status) {
      const rule = TRANSITIONS[status];
      if (!rule.from.includes(member.status)) throw conflict(`cannot change a ${member.status} membership to ${status}`);
      if (status === 'active') {
        if (lab.status !== 'active') throw labNotActive();
        const seatsUsed = await tx.count(LabMember, { lab, status: 'active' });
        if (seatsUsed >= lab.seatQuota) throw conflict(`seat quota reached (${lab.seatQuota} seats)`);
        member.joinedAt = new Date();
      }
      member.status = status;
      actions.push(rule.action);
    }
    if (role && role !== member.role) {
      if (member.status !== 'active' && member.status !== 'pending')
        throw conflict(`cannot change the role of a ${member.status} membership`);
      member.role = role;
      actions.push('role');
    }
    for (const action of actions) {
      audit(tx, {
        action: `member.${action}`,
        actorId: viewer.user.id,
        labId,
        subjectUserId: memberUserId,
        detail: { before, after: { status: member.status, role: member.role } },
      });
    }
    await tx.flush();
    return { member, event: actions.length ? changeEvent(member, actions.join('+')) : undefined };
  });
}

/** Owner-only aggregate counts per member, from the usage ledger. Never any content. */
export async function usageReport(em: EntityManager, viewer: Viewer, labId: string) {
  await loadLab(em, viewer, labId, 'viewUsage');
  const rows = await memberUsage(em, labId);
  const sessions = await countTrajectoriesWithUsage(em, labId);
  return {
    labId,
    members: rows,
    totals: {
      tokensIn: rows.reduce((sum, r) => sum + r.tokensIn, 0),
      tokensOut: rows.reduce((sum, r) => sum + r.tokensOut, 0),
      sessions,
      activeMembers: rows.filter((r) => r.status === 'active').length,
    },
  };
}

/**
 * The lab's usage per UTC day over the last `days` days, today included: one entry per day,
 * zeros where nothing was recorded, so a chart's x axis is time. Authorized by the report it hangs off.
 */
export async function usageByDay(em: EntityManager, labId: string, days: number, now: Date) {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
  const recorded = new Map((await dailyUsage(em, labId, first)).map((d) => [d.day, d]));
  return Array.from({ length: days }, (_, i) => {
    const day = new Date(first.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    return recorded.get(day) ?? { day, tokensIn: 0, tokensOut: 0, sessions: 0 };
  });
}

/** Admin: every lab, filtered by name substring and status. */
export async function listAllLabs(
  em: EntityManager,
  filter: { q?: string | null; status?: string | null },
  page: { limit: number; offset: number },
) {
  const where: Record<string, unknown> = {};
  if (filter.q) where.name = { $ilike: containsPattern(filter.q) };
  if (filter.status) where.status = filter.status;
  const [labs, total] = await em.findAndCount(Lab, where, {
    orderBy: { createdAt: 'desc', id: 'desc' },
    limit: page.limit,
    offset: page.offset,
  });
  return { labs, total, ...page };
}

export interface LabAdminUpdate {
  name?: string;
  status?: string;
  seatQuota?: number;
}

/**
 * Admin: rename, change status or seat quota. Lowering the quota below the seats in use
 * removes nobody; it only blocks approvals until seats free up. @throws NOT_FOUND
 */
export async function adminUpdateLab(em: EntityManager, actorId: string, labId: string, input: LabAdminUpdate): Promise<Lab> {
  const c = checkLabName(['input', 'name'], input.name);
  c.int(['input', 'seatQuota'], input.seatQuota, { min: 1, max: SEAT_QUOTA_MAX }).notNull(input, ['name', 'status', 'seatQuota']).done();
  const lab = await em.findOne(Lab, { id: labId });
  if (!lab) throw notFound('lab');
  const changes = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  if (typeof changes.name === 'string') changes.name = changes.name.trim();
  em.assign(lab, changes);
  audit(em, { action: 'lab.admin_update', actorId, labId, detail: { fields: Object.keys(changes) } });
  await em.flush();
  return lab;
}
