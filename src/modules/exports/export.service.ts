import type { EntityManager } from '@mikro-orm/postgresql';
import type { Blobs } from '../../blobs';
import { invalid } from '../../errors';
import type { Viewer } from '../auth/viewer';
import { inlineFigure } from '../figures/figure.service';
import { reviewsOfTrajectory } from '../reviews/review.service';
import { listAnnotations } from '../trajectories/annotation.service';
import { readRecords, viewTrajectory } from '../trajectories/trajectory.service';
import { User } from '../users/user.entity';
import { type ExportFormat, htmlChunks, notebookChunks } from './export-formats';

export const EXPORT_FORMATS: readonly ExportFormat[] = ['ipynb', 'html'];

/**
 * The trajectory as a file, piece by piece (export-formats.ts): for whoever may view it, with
 * its notes' authors by name, its reviews' verdicts, and its uploaded figures inside; `forSharing`
 * masks secrets.
 * @throws NOT_FOUND, VALIDATION_FAILED (an unknown format)
 */
export async function exportChunks(
  em: EntityManager,
  blobs: Blobs,
  viewer: Viewer,
  sessionId: string,
  format: string,
  forSharing: boolean,
): Promise<AsyncGenerator<string>> {
  if (!(EXPORT_FORMATS as readonly string[]).includes(format))
    throw invalid([{ path: ['format'], msg: 'must be ipynb or html', type: 'enum' }]);
  const trajectory = await viewTrajectory(em, viewer, sessionId);
  const notes = await listAnnotations(em, viewer, sessionId);
  const verdicts = (await reviewsOfTrajectory(em, viewer, sessionId)).filter(
    (review) => review.decidedAt && (review.state === 'approved' || review.state === 'changes_requested'),
  );
  const named = [trajectory.ownerId, ...notes.map((note) => note.authorId), ...verdicts.map((review) => review.reviewerId)];
  const people = new Map((await em.find(User, { id: [...new Set(named)] })).map((user) => [user.id, user.name]));
  const source = {
    title: trajectory.title ?? 'Untitled trajectory',
    owner: people.get(trajectory.ownerId) ?? 'Former user',
    source: trajectory.source,
    recordCount: trajectory.count,
    batches: await readRecords(em, blobs, viewer, sessionId, null),
    notes: notes.map((note) => ({ ...note, author: people.get(note.authorId) ?? 'Former user' })),
    reviews: verdicts.map((review) => ({
      reviewer: people.get(review.reviewerId) ?? 'Former user',
      verdict: review.state as 'approved' | 'changes_requested',
      note: review.verdictNote,
      decidedAt: review.decidedAt!,
    })),
    figure: (path: string) => inlineFigure(em, viewer, blobs, sessionId, path),
    forSharing,
    exportedAt: new Date(),
  };
  return joined(format === 'html' ? htmlChunks(source) : notebookChunks(source));
}

/** Pieces are joined up to this size: each is a subscription event, and an event per cell cost more than the cell. */
const PIECE_CHARS = 64 * 1024;

/** The export's pieces joined into ones of about `PIECE_CHARS` (memory stays bounded by one such piece). */
async function* joined(pieces: AsyncIterable<string>): AsyncGenerator<string> {
  let buffer = '';
  for await (const piece of pieces) {
    buffer += piece;
    if (buffer.length >= PIECE_CHARS) {
      yield buffer;
      buffer = '';
    }
  }
  if (buffer) yield buffer;
}
