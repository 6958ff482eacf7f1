import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlOf } from '../../db/sql';

/*
 * The lab queries the ORM does not express well: aggregates over members and the usage ledger.
 * Everything else of the lab domain goes through its entities (lab.entity.ts).
 */

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
  const rows = await em
    .getConnection()
    .execute<{ lab_id: string; n: number }[]>(
      `select lab_id, count(*)::int as n from lab_members where status = 'active' and lab_id in (?) group by lab_id`,
      [labIds],
    );
  const counts = new Map(rows.map((r) => [r.lab_id, r.n]));
  return labIds.map((id) => counts.get(id) ?? 0);
}
