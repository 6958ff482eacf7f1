import type { EntityManager } from '@mikro-orm/postgresql';
import { notFound } from '../../errors';
import { newId } from '../../ids';
import { checks } from '../../validation';
import type { Viewer } from '../auth/viewer';
import { sqlOf } from '../../db/sql';
import * as repo from './annotation.repository';
import type { AnnotationView } from './annotation.repository';
import { loadTrajectory } from './trajectory.service';
import { TRAJECTORY_MUTATIONS } from './trajectory.policy';

/** Every annotation of a trajectory, oldest first. Anyone who can view the trajectory. */
export async function listAnnotations(em: EntityManager, viewer: Viewer, sessionId: string): Promise<AnnotationView[]> {
  await loadTrajectory(em, viewer, sessionId, 'view');
  return repo.annotationsOf(sqlOf(em), sessionId);
}

async function findAnnotation(em: EntityManager, sessionId: string, annotationId: string): Promise<AnnotationView> {
  const annotation = await repo.findAnnotation(sqlOf(em), sessionId, annotationId);
  if (!annotation) throw notFound('annotation');
  return annotation;
}

export interface AnnotationInput {
  recordUuid: string;
  body: string;
  replyTo?: string | null;
}

/**
 * A note anchored to a record (or a reply to another note). The owner, or a mentor of the
 * trajectory's lab on a shared trajectory. @throws NOT_FOUND for an unknown record or note, FORBIDDEN
 */
export async function createAnnotation(
  em: EntityManager,
  viewer: Viewer,
  sessionId: string,
  input: AnnotationInput,
): Promise<AnnotationView> {
  checks()
    .text(['input', 'recordUuid'], input.recordUuid, { min: 1, max: 200 })
    .text(['input', 'body'], input.body, { min: 1, max: 10_000 })
    .text(['input', 'replyTo'], input.replyTo, { min: 1, max: 64 })
    .done();
  await loadTrajectory(em, viewer, sessionId, TRAJECTORY_MUTATIONS.annotate);
  const q = sqlOf(em);
  if (!(await repo.recordExists(q, sessionId, input.recordUuid))) throw notFound('record');
  if (input.replyTo) await findAnnotation(em, sessionId, input.replyTo);
  const annotationId = newId('ann');
  await repo.insertNote(q, {
    trajectoryId: sessionId,
    annotationId,
    authorId: viewer.user.id,
    recordUuid: input.recordUuid,
    body: input.body,
    replyTo: input.replyTo ?? null,
  });
  return findAnnotation(em, sessionId, annotationId);
}

/**
 * Resolves a note by appending a status entry; resolving twice changes nothing. Same right as
 * annotating. @throws NOT_FOUND, FORBIDDEN
 */
export async function resolveAnnotation(
  em: EntityManager,
  viewer: Viewer,
  sessionId: string,
  annotationId: string,
): Promise<AnnotationView> {
  await loadTrajectory(em, viewer, sessionId, TRAJECTORY_MUTATIONS.resolve);
  const note = await findAnnotation(em, sessionId, annotationId);
  if (note.status === 'open') await repo.insertResolve(sqlOf(em), sessionId, annotationId, viewer.user.id);
  return findAnnotation(em, sessionId, annotationId);
}
