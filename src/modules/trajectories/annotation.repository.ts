import { type InferResult, sql } from 'kysely';
import { dateOf, type Query } from '../../db/sql';
import { db, firstRowOf, present, rowsOf } from '../../db/typed-sql';

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

/** Each note of a trajectory folded with its resolve entry (if any): the log stays append-only. */
const annotations = (trajectoryId: string) =>
  db
    .selectFrom('annotation_entries as n')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('annotation_entries')
          .select(['id', 'created_at', 'author_id'])
          .where('kind', '=', sql.lit('resolve'))
          .whereRef('annotation_id', '=', 'n.annotation_id')
          .orderBy('id')
          .limit(1)
          .as('r'),
      (join) => join.onTrue(),
    )
    .select((eb) => [
      'n.annotation_id',
      'n.session_id',
      'n.record_uuid',
      'n.author_id',
      'n.body',
      'n.reply_to',
      eb.case().when('r.id', 'is', null).then(sql.lit<'open'>('open')).else(sql.lit<'resolved'>('resolved')).end().as('status'),
      'n.created_at',
      'r.created_at as resolved_at',
      'r.author_id as resolved_by',
    ])
    .where('n.kind', '=', sql.lit('note'))
    .where('n.session_id', '=', trajectoryId);

/** A row of `annotations`, as Kysely types it from the schema. */
type AnnotationRow = InferResult<ReturnType<typeof annotations>>[number];

const toAnnotation = (row: AnnotationRow): AnnotationView => ({
  annotationId: row.annotation_id,
  sessionId: row.session_id,
  // A note's record and body: `insertNote` writes both (only resolve entries leave them null).
  recordUuid: present(row.record_uuid, 'annotation_entries.record_uuid'),
  authorId: row.author_id,
  body: present(row.body, 'annotation_entries.body'),
  replyTo: row.reply_to,
  status: row.status,
  createdAt: dateOf(row.created_at)!,
  resolvedAt: dateOf(row.resolved_at),
  resolvedBy: row.resolved_by,
});

/** Every annotation of a trajectory, oldest first. */
export async function annotationsOf(q: Query, trajectoryId: string): Promise<AnnotationView[]> {
  return (await rowsOf(q, annotations(trajectoryId).orderBy('n.id'))).map(toAnnotation);
}

export async function findAnnotation(q: Query, trajectoryId: string, annotationId: string): Promise<AnnotationView | null> {
  const row = await firstRowOf(q, annotations(trajectoryId).where('n.annotation_id', '=', annotationId));
  return row ? toAnnotation(row) : null;
}

export async function recordExists(q: Query, trajectoryId: string, uuid: string): Promise<boolean> {
  const rows = await rowsOf(
    q,
    db.selectFrom('trajectory_records').select(sql.lit(1).as('one')).where('session_id', '=', trajectoryId).where('uuid', '=', uuid),
  );
  return rows.length > 0;
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
