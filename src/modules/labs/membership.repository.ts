import type { Query } from '../../db/sql';

/** A user's role in a lab when active there (and the lab is active), else null. */
export type LabRole = 'owner' | 'mentor' | 'member' | null;

/**
 * The one statement of "an active member of an active lab", in SQL: the membership row `m` is
 * active and its lab `l` is active. Every query that asks whether someone is in a lab (the
 * trajectory policy's fragments, the lab tier, the mentor check) is built from this.
 */
const activeIn = (m: string, l: string) => `${m}.status = 'active' and ${l}.status = 'active'`;

/** SQL: the user (an SQL expression) is an active member of the lab (one), and that lab is active. */
export const activeMemberSql = (lab: string, user: string) =>
  `exists (select from lab_members m join labs l on l.id = m.lab_id where m.lab_id = ${lab} and m.user_id = ${user} and ${activeIn('m', 'l')})`;

/** SQL: the user (an SQL expression) is an active member of at least one active lab (the lab tier). */
export const inActiveLabSql = (user: string) =>
  `exists (select from lab_members m join labs l on l.id = m.lab_id where m.user_id = ${user} and ${activeIn('m', 'l')})`;

/** The user's role in the lab while an active member of it and it is active, else null. */
export async function activeRoleIn(q: Query, labId: string, userId: string): Promise<LabRole> {
  const [row] = await q<{ role: LabRole }>(
    `select m.role from lab_members m join labs l on l.id = m.lab_id where m.lab_id = ? and m.user_id = ? and ${activeIn('m', 'l')}`,
    [labId, userId],
  );
  return row?.role ?? null;
}

/** The active lab the user joined first (null: none). */
export async function firstActiveLabOf(q: Query, userId: string): Promise<string | null> {
  const [row] = await q<{ lab_id: string }>(
    `select m.lab_id from lab_members m join labs l on l.id = m.lab_id where m.user_id = ? and ${activeIn('m', 'l')} order by m.joined_at limit 1`,
    [userId],
  );
  return row?.lab_id ?? null;
}

/** Of `userIds`, those active in at least one active lab. */
export async function usersInActiveLabs(q: Query, userIds: string[]): Promise<Set<string>> {
  const rows = await q<{ user_id: string }>(
    `select distinct m.user_id from lab_members m join labs l on l.id = m.lab_id
      where ${activeIn('m', 'l')} and m.user_id in (select jsonb_array_elements_text(?::jsonb))`,
    [JSON.stringify(userIds)],
  );
  return new Set(rows.map((r) => r.user_id));
}

/** Whether `mentorId` is an active mentor (or owner) of an active lab that `memberId` is active in. */
export async function mentorsMember(q: Query, mentorId: string, memberId: string): Promise<boolean> {
  const rows = await q(
    `select 1 from lab_members me join labs l on l.id = me.lab_id join lab_members them on them.lab_id = me.lab_id
      where me.user_id = ? and me.role in ('mentor', 'owner') and ${activeIn('me', 'l')} and them.user_id = ? and them.status = 'active' limit 1`,
    [mentorId, memberId],
  );
  return rows.length > 0;
}

/** Of `memberIds`, those `mentorId` mentors (`mentorsMember` for many members in one statement). */
export async function menteesOf(q: Query, mentorId: string, memberIds: string[]): Promise<Set<string>> {
  const rows = await q<{ user_id: string }>(
    `select distinct them.user_id from lab_members me join labs l on l.id = me.lab_id join lab_members them on them.lab_id = me.lab_id
      where me.user_id = ? and me.role in ('mentor', 'owner') and ${activeIn('me', 'l')} and them.status = 'active'
        and them.user_id in (select jsonb_array_elements_text(?::jsonb))`,
    [mentorId, JSON.stringify(memberIds)],
  );
  return new Set(rows.map((r) => r.user_id));
}

/** The user's role in each lab where they are active and the lab is active (labs missing: none). */
export async function activeRolesIn(q: Query, userId: string, labIds: string[]): Promise<Map<string, LabRole>> {
  const rows = await q<{ lab_id: string; role: LabRole }>(
    `select m.lab_id, m.role from lab_members m join labs l on l.id = m.lab_id
      where m.user_id = ? and ${activeIn('m', 'l')} and m.lab_id in (select jsonb_array_elements_text(?::jsonb))`,
    [userId, JSON.stringify(labIds)],
  );
  return new Map(rows.map((r) => [r.lab_id, r.role]));
}
