import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ByteRange } from '../../blobs/blob-store';
import type { Services } from '../../context';
import { Query, sqlOf } from '../../db/sql';
import { notFound } from '../../errors';
import type { LocalFile } from '../../http/byte-ranges';
import { sha256Hex } from '../../ids';
import { artifactFilePath } from './a2a-artifacts';
import { artifactAt, findTask, findTaskById } from './a2a-task.repository';
import type { A2aArtifact, A2aArtifactFile } from './a2a.types';

// The artifact download (GET /a2a/v1/artifacts/{task_id}/{index}): the GraphQL query
// `a2aArtifactFile` decides who may read which artifact and describes it; the facade then streams
// the bytes described, with byte ranges.

/**
 * The artifact at 0-based `index` of the principal's task (any principal's with null: the web
 * tools) as a file: a large file from the copy made at the end of its turn, an inline file, or the
 * answer's text. Null for another principal's task, an unknown task and an index out of range
 * (never told apart), and for a copy that is gone.
 */
export async function findArtifactFile(
  services: Pick<Services, 'config'>,
  q: Query,
  principal: string | null,
  taskId: string,
  index: number,
): Promise<A2aArtifactFile | null> {
  const task = principal === null ? await findTaskById(q, taskId) : await findTask(q, principal, taskId);
  const artifact = task && index >= 0 && (await artifactAt(q, task.id, index));
  if (!task || !artifact) return null;
  const file = fileOf(artifact);
  const described = {
    taskId: task.id,
    index,
    filename: path.basename(file?.filename ?? `${artifact.artifactId}.txt`),
    etag: sha256Hex(`${task.id}/${index}/${artifact.artifactId}`),
    lastModified: task.statusAt,
  };
  if (typeof file?.url === 'string') {
    const stat = await fsp.stat(artifactFilePath(services, task.id, index)).catch(() => null);
    return stat && { ...described, mediaType: file.mediaType ?? 'application/octet-stream', size: stat.size };
  }
  const bytes = inlineBytes(artifact);
  return {
    ...described,
    mediaType: file ? (file.mediaType ?? 'application/octet-stream') : 'text/plain; charset=utf-8',
    size: bytes.length,
  };
}

/** An artifact's file part (a `url` or `raw` one), if it has one. */
const fileOf = (artifact: A2aArtifact) => artifact.parts.find((part) => typeof part.url === 'string' || typeof part.raw === 'string');

/** An inline artifact's bytes: its file decoded, or its text parts as UTF-8 lines. */
function inlineBytes(artifact: A2aArtifact): Buffer {
  const file = fileOf(artifact);
  if (file) return Buffer.from(file.raw ?? '', 'base64');
  return Buffer.from(artifact.parts.map((part) => part.text ?? '').join('\n'), 'utf8');
}

/**
 * Opens the bytes `findArtifactFile` described (its caller was allowed to read it): a large file
 * is streamed from its copy (never read whole), an inline one read again from its row.
 */
export async function openArtifactFile(
  services: Pick<Services, 'config' | 'orm'>,
  file: Pick<A2aArtifactFile, 'taskId' | 'index'>,
  range: ByteRange,
): Promise<LocalFile | Readable> {
  const artifact = await artifactAt(sqlOf(services.orm.em.fork()), file.taskId, file.index);
  if (!artifact) throw notFound('artifact');
  if (typeof fileOf(artifact)?.url === 'string') {
    const handle = await fsp.open(artifactFilePath(services, file.taskId, file.index), 'r');
    return { handle, done: () => handle.close() };
  }
  return Readable.from([inlineBytes(artifact).subarray(range.start, range.end + 1)]);
}
