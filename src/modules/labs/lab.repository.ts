import type { EntityManager } from '@mikro-orm/postgresql';
import { dateOf, preparedOf, sqlOf } from '../../db/sql';
import type { LabStatus, MemberRole, MemberStatus } from './lab.entity';
import type { OwnMembership } from './lab.policy';

/*
 * The lab queries the ORM does not express well: aggregates over members and the usage ledger.
 * Everything else of the lab domain goes through its entities (lab.entity.ts).
 */

/*
 * The read paths (a lab, the caller's labs, members) run on every page view: plain rows from
 * prepared statements, without the ORM's query building and entity hydration (bench:request-path
 * measured them at most of a lab read's CPU). The entities stay for the writes.
 */

/** A lab as reading and authorizing it need it: the `Lab` entity has the same shape. */
export interface LabRecord {
  id: string;
  name: string;
  status: LabStatus;
  seatQuota: number;
  owner: { id: string };
  codeSealed: string;
  codeExpiresAt: Date;
  createdAt: Date;
}

/** A lab, the reader's own membership row in it, and its active seats. */
export interface LabRead {
  lab: LabRecord;
  membership: OwnMembership;
  seatsUsed: number;
}

/** A member as the member list shows it: the `LabMember` entity with its user has the same shape. */
export interface MemberRecord {
  user: { id: string; name: string; email: string };
  role: MemberRole;
  status: MemberStatus;
  joinedAt: Date | null;
  createdAt: Date;
}

const LAB_READ = `select l.id, l.name, l.status, l.seat_quota, l.owner_id, l.code_sealed, l.code_expires_at, l.created_at,
         m.role as member_role, m.status as member_status,
         (select count(*)::int from lab_members a where a.lab_id = l.id and a.status = 'active') as seats_used`;

const labRead = (row: Record<string, unknown>): LabRead => ({
  lab: {
    id: row.id as string,
    name: row.name as string,
    status: row.status as LabStatus,
    seatQuota: row.seat_quota as number,
    owner: { id: row.owner_id as string },
    codeSealed: row.code_sealed as string,
    codeExpiresAt: dateOf(row.code_expires_at)!,
    createdAt: dateOf(row.created_at)!,
  },
  membership: row.member_status ? { role: row.member_role as MemberRole, status: row.member_status as MemberStatus } : null,
  seatsUsed: row.seats_used as number,
});

/** The lab with `userId`'s membership in it (any status), or null when there is no such lab. */
export async function readLab(em: EntityManager, labId: string, userId: string): Promise<LabRead | null> {
  const [row] = await preparedOf(em)(
    `${LAB_READ} from labs l left join lab_members m on m.lab_id = l.id and m.user_id = ? where l.id = ?`,
    [userId, labId],
  );
  return row ? labRead(row) : null;
}

/** The labs `userId` is an active member of, in joining order. */
export async function readMemberLabs(em: EntityManager, userId: string): Promise<LabRead[]> {
  const rows = await preparedOf(em)(
    `${LAB_READ} from lab_members m join labs l on l.id = m.lab_id where m.user_id = ? and m.status = 'active' order by m.created_at, m.id`,
    [userId],
  );
  return rows.map(labRead);
}

/** The caller's requests to join that wait for an owner: the lab's name and when they asked, oldest first. */
export async function readPendingRequests(em: EntityManager, userId: string): Promise<{ labName: string; requestedAt: Date }[]> {
  const rows = await preparedOf(em)<{ name: string; created_at: unknown }>(
    `select l.name, m.created_at from lab_members m join labs l on l.id = m.lab_id
      where m.user_id = ? and m.status = 'pending' order by m.created_at, m.id`,
    [userId],
  );
  return rows.map((row) => ({ labName: row.name, requestedAt: dateOf(row.created_at)! }));
}

/** Every member row of each lab (any status), in joining order, in the order of `labIds`. */
export async function readMembers(em: EntityManager, labIds: readonly string[]): Promise<MemberRecord[][]> {
  const rows = await preparedOf(em)<Record<string, unknown>>(
    `select m.lab_id, m.role, m.status, m.joined_at, m.created_at, u.id as user_id, u.name, u.email
       from lab_members m join users u on u.id = m.user_id
      where m.lab_id = any(?::text[])
      order by m.id`,
    [labIds],
  );
  const byLab = new Map<string, MemberRecord[]>(labIds.map((id) => [id, []]));
  for (const row of rows)
    byLab.get(row.lab_id as string)?.push({
      user: { id: row.user_id as string, name: row.name as string, email: row.email as string },
      role: row.role as MemberRole,
      status: row.status as MemberStatus,
      joinedAt: dateOf(row.joined_at),
      createdAt: dateOf(row.created_at)!,
    });
  return labIds.map((id) => byLab.get(id)!);
}

/** One member's aggregate usage in a lab: counts only, never content. */
export interface MemberUsage {
  memberUserId: string;
  name: string;
  role: string;
  status: string;
  tokensIn: number;
  tokensOut: number;
  /** Distinct trajectories (the wire's "sessions") with usage. */
  sessions: number;
  lastActiveAt: Date | null;
}

/** Every member of the lab (in joining order) with their usage there. */
export async function memberUsage(em: EntityManager, labId: string): Promise<MemberUsage[]> {
  const rows = await sqlOf(em)<MemberUsage & { lastActiveAt: string | null }>(
    `select m.user_id as "memberUserId", u.name, m.role, m.status,
            coalesce(sum(e.tokens_in), 0)::float8 as "tokensIn",
            coalesce(sum(e.tokens_out), 0)::float8 as "tokensOut",
            count(distinct e.session_id)::int as sessions,
            max(e.created_at) as "lastActiveAt"
       from lab_members m
       join users u on u.id = m.user_id
       left join usage_entries e on e.lab_id = m.lab_id and e.user_id = m.user_id
      where m.lab_id = ?
      group by m.id, u.name
      order by m.id`,
    [labId],
  );
  // Raw queries return timestamps as text.
  return rows.map((r) => ({ ...r, lastActiveAt: r.lastActiveAt ? new Date(r.lastActiveAt) : null }));
}

/** Distinct trajectories with usage in the lab, whoever wrote them (members who left included). */
export async function countTrajectoriesWithUsage(em: EntityManager, labId: string): Promise<number> {
  const [row] = await em
    .getConnection()
    .execute<{ trajectories: number }[]>(`select count(distinct session_id)::int as trajectories from usage_entries where lab_id = ?`, [
      labId,
    ]);
  return row.trajectories;
}

/** Tokens and sessions of one UTC day in a lab. */
export interface LabUsageDay {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  tokensIn: number;
  tokensOut: number;
  sessions: number;
}

/** The lab's usage per UTC day from `since` (a day's start) on; days without usage are absent. */
export async function dailyUsage(em: EntityManager, labId: string, since: Date): Promise<LabUsageDay[]> {
  return sqlOf(em)<LabUsageDay>(
    `select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day,
            sum(tokens_in)::float8 as "tokensIn", sum(tokens_out)::float8 as "tokensOut",
            count(distinct session_id)::int as sessions
       from usage_entries
      where lab_id = ? and created_at >= ?
      group by 1
      order by 1`,
    [labId, since],
  );
}

/** Active members per lab, in the order of `labIds` (0 for a lab without any). */
export async function countActiveSeats(em: EntityManager, labIds: readonly string[]): Promise<number[]> {
  const rows = await preparedOf(em)<{ lab_id: string; n: number }>(
    `select lab_id, count(*)::int as n from lab_members where status = 'active' and lab_id = any(?::text[]) group by lab_id`,
    [labIds],
  );
  const counts = new Map(rows.map((r) => [r.lab_id, r.n]));
  return labIds.map((id) => counts.get(id) ?? 0);
}
