import type { EntityManager } from '@mikro-orm/postgresql';
import { conditions, containsPattern, sqlOf } from '../../db/sql';

/** What the audit log may be filtered by (all optional, combined with AND). */
export interface AuditFilter {
  /** A user id, or part of the actor's name or email. */
  actor?: string | null;
  /** An action (`user.update`), or a prefix ending in a dot (`member.`). */
  action?: string | null;
  since?: Date | null;
  until?: Date | null;
}

export interface AuditRow {
  id: string;
  action: string;
  createdAt: Date;
  detail: Record<string, unknown> | null;
  actorId: string | null;
  actorName: string | null;
  actorEmail: string | null;
  subjectId: string | null;
  subjectName: string | null;
  subjectEmail: string | null;
  labId: string | null;
  labName: string | null;
}

/**
 * A page of audit events, newest first, with the names of the people and lab they name (read in
 * the same statement) and the count of all matches. The time order is served by the
 * `created_at, id` index, an actor's by `actor_id, created_at`.
 */
export async function auditPage(em: EntityManager, filter: AuditFilter, page: { limit: number; offset: number }) {
  const where = conditions();
  if (filter.actor) {
    if (/^usr_[A-Za-z0-9_-]+$/.test(filter.actor)) where.add('e.actor_id = ?', filter.actor);
    else where.add('(a.email ilike ? or a.name ilike ?)', containsPattern(filter.actor), containsPattern(filter.actor));
  }
  if (filter.action) {
    if (filter.action.endsWith('.')) where.add('e.action like ?', `${filter.action.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    else where.add('e.action = ?', filter.action);
  }
  if (filter.since) where.add('e.created_at >= ?', filter.since);
  if (filter.until) where.add('e.created_at < ?', filter.until);
  const rows = await sqlOf(em)<Omit<AuditRow, 'createdAt'> & { createdAt: string; total: string }>(
    `select e.id::text as id, e.action, e.created_at as "createdAt", e.detail,
            e.actor_id as "actorId", a.name as "actorName", a.email as "actorEmail",
            e.subject_user_id as "subjectId", s.name as "subjectName", s.email as "subjectEmail",
            e.lab_id as "labId", l.name as "labName", count(*) over () as total
       from audit_events e
       left join users a on a.id = e.actor_id
       left join users s on s.id = e.subject_user_id
       left join labs l on l.id = e.lab_id
      where ${where.sql()}
      order by e.created_at desc, e.id desc
      limit ? offset ?`,
    [...where.params, page.limit, page.offset],
  );
  const total = rows.length ? Number(rows[0].total) : page.offset > 0 ? await countAudit(em, where) : 0;
  const items: AuditRow[] = rows.map(({ total: _total, ...row }) => ({ ...row, createdAt: new Date(row.createdAt) }));
  return { items, total };
}

/** The matches of a filter when the page asked for lies past them (no row carried the count). */
async function countAudit(em: EntityManager, where: ReturnType<typeof conditions>): Promise<number> {
  const [row] = await sqlOf(em)<{ n: string }>(
    `select count(*) as n from audit_events e left join users a on a.id = e.actor_id where ${where.sql()}`,
    where.params,
  );
  return Number(row.n);
}
