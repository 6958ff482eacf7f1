import type { EntityManager } from '@mikro-orm/postgresql';
import { notFound } from '../../errors';
import { newId } from '../../ids';
import { checks } from '../../validation';
import type { Viewer } from '../auth/auth.service';
import { sqlOf, withDates } from '../../db/sql';
import { loadSession } from './trajectory.service';

export interface AnnotationRow {
  annotation_id: string;
  session_id: string;
  record_uuid: string;
  author_id: string;
  body: string;
  reply_to: string | null;
  status: 'open' | 'resolved';
  created_at: Date;
  resolved_at: Date | null;
  resolved_by: string | null;
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

const toRow = (row: Record<string, unknown>) => withDates<AnnotationRow>(row, 'created_at', 'resolved_at');

/** Every annotation of a session, oldest first. Anyone who can view the session. */
export async function listAnnotations(em: EntityManager, viewer: Viewer, sessionId: string): Promise<AnnotationRow[]> {
  await loadSession(em, viewer, sessionId, 'view');
  const rows = await sqlOf(em)(`${ANNOTATIONS} and n.session_id = ? order by n.id`, [sessionId]);
  return rows.map(toRow);
}

async function findAnnotation(em: EntityManager, sessionId: string, annotationId: string): Promise<AnnotationRow> {
  const [row] = await sqlOf(em)(`${ANNOTATIONS} and n.session_id = ? and n.annotation_id = ?`, [sessionId, annotationId]);
  if (!row) throw notFound('annotation');
  return toRow(row);
}

export interface AnnotationInput {
  recordUuid: string;
  body: string;
  replyTo?: string | null;
}

/**
 * A note anchored to a record (or a reply to another note). The owner, or a mentor of the
 * session's lab on a shared session. @throws NOT_FOUND for an unknown record or note, FORBIDDEN
 */
export async function createAnnotation(em: EntityManager, viewer: Viewer, sessionId: string, input: AnnotationInput): Promise<AnnotationRow> {
  checks()
    .text(['input', 'recordUuid'], input.recordUuid, { min: 1, max: 200 })
    .text(['input', 'body'], input.body, { min: 1, max: 10_000 })
    .text(['input', 'replyTo'], input.replyTo, { min: 1, max: 64 })
    .done();
  await loadSession(em, viewer, sessionId, 'annotate');
  const q = sqlOf(em);
  const [record] = await q(`select 1 from trajectory_records where session_id = ? and uuid = ?`, [sessionId, input.recordUuid]);
  if (!record) throw notFound('record');
  if (input.replyTo) await findAnnotation(em, sessionId, input.replyTo);
  const annotationId = newId('ann');
  await q(
    `insert into annotation_entries (session_id, annotation_id, kind, author_id, record_uuid, body, reply_to) values (?, ?, 'note', ?, ?, ?, ?)`,
    [sessionId, annotationId, viewer.user.id, input.recordUuid, input.body, input.replyTo ?? null],
  );
  return findAnnotation(em, sessionId, annotationId);
}

/**
 * Resolves a note by appending a status entry; resolving twice changes nothing. Same right as
 * annotating. @throws NOT_FOUND, FORBIDDEN
 */
export async function resolveAnnotation(em: EntityManager, viewer: Viewer, sessionId: string, annotationId: string): Promise<AnnotationRow> {
  await loadSession(em, viewer, sessionId, 'annotate');
  const note = await findAnnotation(em, sessionId, annotationId);
  if (note.status === 'open') {
    // Conditional insert: two concurrent resolves leave one status entry.
    await sqlOf(em)(
      `insert into annotation_entries (session_id, annotation_id, kind, author_id)
       select ?, ?, 'resolve', ? where not exists (select 1 from annotation_entries where annotation_id = ? and kind = 'resolve')`,
      [sessionId, annotationId, viewer.user.id, annotationId],
    );
  }
  return findAnnotation(em, sessionId, annotationId);
}
