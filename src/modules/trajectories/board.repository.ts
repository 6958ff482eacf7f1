import { sql } from 'kysely';
import { dateOf, type Query } from '../../db/sql';
import { condition, db, fragment, present, rowsOf } from '../../db/typed-sql';
import { OPEN_NOTE } from './annotation.repository';
import type { RecordFacts } from './record-facts.repository';
import { factsOf } from './record-facts.repository';

/** How many of each trajectory's last records the board looks at to tell where it stopped. */
export const TAIL = 20;
/**
 * Bytes of a trajectory's tail PostgreSQL parses for the board: the last record always (when
 * stored inline), earlier ones while the records after them total less than this. Bounds the
 * work one row costs, whatever the records' sizes.
 */
const TAIL_PARSE_BYTES = 256 * 1024;

/** A lab-shared trajectory as the board lists it. */
export interface BoardTrajectory {
  id: string;
  ownerId: string;
  ownerName: string;
  title: string | null;
  updatedAt: Date;
  count: number;
  headUuid: string | null;
  openAnnotations: number;
  figureCount: number;
}

/** The lab's shared, non-archived trajectories, newest activity first, with their counts. */
export async function sharedTrajectories(q: Query, labId: string, limit: number): Promise<BoardTrajectory[]> {
  const rows = await rowsOf(
    q,
    db
      .selectFrom('trajectories as t')
      .innerJoin('users as u', 'u.id', 't.owner_id')
      .select([
        't.id',
        't.owner_id',
        'u.name as owner_name',
        't.title',
        't.updated_at',
        't.count',
        't.head_uuid',
        sql<number>`(select count(*)::int from annotation_entries n where n.session_id = t.id and ${sql.raw(OPEN_NOTE)})`.as('open'),
        sql<number>`(select count(*)::int from figures f where f.session_id = t.id)`.as('figures'),
      ])
      .where('t.lab_id', '=', labId)
      .where('t.visibility', '=', sql.lit('lab'))
      .where('t.archived_at', 'is', null)
      .orderBy('t.updated_at', 'desc')
      .orderBy('t.id')
      .limit(limit),
  );
  return rows.map((r) => ({
    id: r.id,
    ownerId: r.owner_id,
    ownerName: r.owner_name,
    title: r.title,
    updatedAt: dateOf(r.updated_at)!,
    count: r.count,
    headUuid: r.head_uuid,
    openAnnotations: r.open,
    figureCount: r.figures,
  }));
}

/**
 * The tail of each session, oldest first: records within the parse budget are projected; the
 * others (over the budget, or stored out of line) are known by their type alone.
 */
const boardTails = (trajectoryIds: string[]) =>
  db
    .selectFrom(fragment('jsonb_array_elements_text(?::jsonb)', JSON.stringify(trajectoryIds)).as<'x'>(sql`x(id)`))
    .crossJoinLateral(
      sql`(
        select tail.seq, tail.type, case when coalesce(sum(tail.bytes) over (order by tail.seq desc rows between unbounded preceding and 1 preceding), 0) < ${sql.raw(String(TAIL_PARSE_BYTES))} then tail.raw end as raw
          from (select seq, type, raw, bytes from trajectory_records where session_id = x.id order by seq desc limit ${sql.raw(String(TAIL))}) tail)`.as(
        'r',
      ),
    )
    // The facts' shape is the one `RECORD_FACTS` builds in SQL (a record's type alone at least).
    .select([
      sql<string>`x.id`.as('session_id'),
      sql<RecordFacts>`coalesce(${sql.raw(factsOf('r.raw'))}, jsonb_build_object('type', r.type))`.as('record'),
    ])
    .orderBy(sql`x.id`)
    .orderBy(sql`r.seq`);

/** The last `TAIL` records' facts of each trajectory, oldest first (see `boardTails`). */
export async function tailsOf(q: Query, trajectoryIds: string[]): Promise<Map<string, RecordFacts[]>> {
  const rows = await rowsOf(q, boardTails(trajectoryIds));
  const tails = new Map<string, RecordFacts[]>();
  for (const row of rows) tails.set(row.session_id, [...(tails.get(row.session_id) ?? []), row.record]);
  return tails;
}

/** An open note as the review lists show it. */
export interface ReviewThread {
  annotationId: string;
  sessionId: string;
  sessionTitle: string | null;
  recordUuid: string;
  authorId: string;
  body: string;
  createdAt: Date;
}

/**
 * Open notes on the lab's shared trajectories: `mine` on the user's trajectories written by
 * others, else written by the user on others' trajectories. Newest first.
 */
export async function openThreads(q: Query, labId: string, userId: string, mine: boolean, limit: number): Promise<ReviewThread[]> {
  const rows = await rowsOf(
    q,
    db
      .selectFrom('annotation_entries as n')
      .innerJoin('trajectories as t', 't.id', 'n.session_id')
      .select(['n.annotation_id', 'n.session_id', 't.title', 'n.record_uuid', 'n.author_id', 'n.body', 'n.created_at'])
      .where(condition(OPEN_NOTE))
      .where('t.lab_id', '=', labId)
      .where('t.visibility', '=', sql.lit('lab'))
      .where(condition(mine ? 't.owner_id = ? and n.author_id <> ?' : 'n.author_id = ? and t.owner_id <> ?', userId, userId))
      .orderBy('n.id', 'desc')
      .limit(limit),
  );
  return rows.map((r) => ({
    annotationId: r.annotation_id,
    sessionId: r.session_id,
    sessionTitle: r.title,
    // Notes (`OPEN_NOTE`): `insertNote` writes their record and body.
    recordUuid: present(r.record_uuid, 'annotation_entries.record_uuid'),
    authorId: r.author_id,
    body: present(r.body, 'annotation_entries.body'),
    createdAt: dateOf(r.created_at)!,
  }));
}
