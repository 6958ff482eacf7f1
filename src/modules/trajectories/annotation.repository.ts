import { dateOf, type Query } from '../../db/sql';

/** An annotation as the domain reads it: a note folded with its resolve entry (if any). */
export interface AnnotationView {
  annotationId: string;
  sessionId: string;
  recordUuid: string;
  authorId: string;
  body: string;
  replyTo: string | null;
  status: 'open' | 'resolved';
  createdAt: Date;
  resolvedAt: Date | null;
  resolvedBy: string | null;
}

/** SQL: `n`, a row of annotation_entries, is a note that no resolve entry has closed. */
export const OPEN_NOTE = `n.kind = 'note' and not exists (select 1 from annotation_entries r where r.kind = 'resolve' and r.annotation_id = n.annotation_id)`;

/** Each note folded with its resolve entry (if any): the log stays append-only. */
const ANNOTATIONS = `
  select n.annotation_id, n.session_id, n.record_uuid, n.author_id, n.body, n.reply_to,
         case when r.id is null then 'open' else 'resolved' end as status,
         n.created_at, r.created_at as resolved_at, r.author_id as resolved_by
    from annotation_entries n
    left join lateral (
      select id, created_at, author_id from annotation_entries
       where kind = 'resolve' and annotation_id = n.annotation_id order by id limit 1) r on true
   where n.kind = 'note'`;

const toAnnotation = (row: Record<string, unknown>): AnnotationView => ({
  annotationId: row.annotation_id as string,
  sessionId: row.session_id as string,
  recordUuid: row.record_uuid as string,
  authorId: row.author_id as string,
  body: row.body as string,
  replyTo: row.reply_to as string | null,
  status: row.status as AnnotationView['status'],
  createdAt: dateOf(row.created_at)!,
  resolvedAt: dateOf(row.resolved_at),
  resolvedBy: row.resolved_by as string | null,
});

/** Every annotation of a trajectory, oldest first. */
export async function annotationsOf(q: Query, trajectoryId: string): Promise<AnnotationView[]> {
  return (await q(`${ANNOTATIONS} and n.session_id = ? order by n.id`, [trajectoryId])).map(toAnnotation);
}

export async function findAnnotation(q: Query, trajectoryId: string, annotationId: string): Promise<AnnotationView | null> {
  const [row] = await q(`${ANNOTATIONS} and n.session_id = ? and n.annotation_id = ?`, [trajectoryId, annotationId]);
  return row ? toAnnotation(row) : null;
}

export async function recordExists(q: Query, trajectoryId: string, uuid: string): Promise<boolean> {
  return (await q(`select 1 from trajectory_records where session_id = ? and uuid = ?`, [trajectoryId, uuid])).length > 0;
}

export async function insertNote(
  q: Query,
  note: { trajectoryId: string; annotationId: string; authorId: string; recordUuid: string; body: string; replyTo: string | null },
) {
  await q(
    `insert into annotation_entries (session_id, annotation_id, kind, author_id, record_uuid, body, reply_to) values (?, ?, 'note', ?, ?, ?, ?)`,
    [note.trajectoryId, note.annotationId, note.authorId, note.recordUuid, note.body, note.replyTo],
  );
}

/** Appends the note's resolve entry unless it has one (conditional: two concurrent resolves leave one). */
export async function insertResolve(q: Query, trajectoryId: string, annotationId: string, authorId: string) {
  await q(
    `insert into annotation_entries (session_id, annotation_id, kind, author_id)
     select ?, ?, 'resolve', ? where not exists (select 1 from annotation_entries where annotation_id = ? and kind = 'resolve')`,
    [trajectoryId, annotationId, authorId, annotationId],
  );
}
