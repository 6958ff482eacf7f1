import type { Query } from '../../db/sql';
import { AppError } from '../../errors';
import type { Logger } from '../../logger';
import type { ContextWorkspaces } from './a2a-workspace';
import * as repo from './a2a-task.repository';
import type { InputFileRow, StoredMessage, StoredMessageBody, StoredPart } from './a2a-task.repository';

/** Where the files a caller sends are saved in its context's workspace. */
export const INPUTS_DIR = 'inputs';
/** Longest saved name (its extension kept): far below any file system's 255 bytes. */
const MAX_NAME_CHARS = 120;
/** Names tried for one file (`data.csv`, `data-1.csv`, …) before it is not saved. */
const MAX_SUFFIX = 100;

/** An extension for a part sent without `filename`, from its media type (the accepted ones, a2a-parts.ts). */
const EXTENSIONS: Record<string, string> = {
  'text/plain': '.txt',
  'text/markdown': '.md',
  'text/csv': '.csv',
  'text/tab-separated-values': '.tsv',
  'application/json': '.json',
  'application/x-ndjson': '.ndjson',
  'application/pdf': '.pdf',
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/svg+xml': '.svg',
  'application/zip': '.zip',
  'application/gzip': '.gz',
  'application/x-hdf5': '.h5',
  'application/vnd.apache.parquet': '.parquet',
  'application/octet-stream': '.bin',
};

const essenceOf = (mediaType: string | null | undefined) =>
  typeof mediaType === 'string' ? mediaType.split(';')[0].trim().toLowerCase() : 'application/octet-stream';
/** A `raw` part of a message read without its payload (`withoutRawPayloads`): the payload's decoded size stands in its place. */
const isFilePart = (part: StoredPart) => typeof part.rawBytes === 'number';

/**
 * A part's file name as one safe path segment: the last segment of what the caller named (so
 * `../../etc/x` is `x`), control characters dropped, anything but letters, digits and `._+=,@()-`
 * made `_`, no leading dots (no hidden files such as `.bashrc`), at most 120 characters with the
 * extension kept. Without a usable name: `input-<n>` and an extension from the media type.
 */
export function safeFileName(filename: string | null | undefined, mediaType: string | null | undefined, n: number): string {
  const last = typeof filename === 'string' ? (filename.split(/[/\\]/).pop() ?? '') : '';
  let name = last
    // eslint-disable-next-line no-control-regex -- control characters are what this drops from a caller's file name
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
    .replace(/[^A-Za-z0-9._+=,@()-]/g, '_')
    .replace(/^[._]+/, '');
  if (name.length > MAX_NAME_CHARS) {
    const dot = name.lastIndexOf('.');
    const extension = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
    name = name.slice(0, MAX_NAME_CHARS - extension.length) + extension;
  }
  return /[A-Za-z0-9]/.test(name) ? name : `input-${n}${EXTENSIONS[essenceOf(mediaType)] ?? '.bin'}`;
}

/** `data.csv`, then `data-1.csv`, `data-2.csv`, … */
function candidate(name: string, attempt: number): string {
  if (attempt === 0) return name;
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)}-${attempt}${name.slice(dot)}` : `${name}-${attempt}`;
}

/**
 * Saves the `raw` parts of a task's message into the workspace's `inputs/`, each under a new
 * name (an existing file or link is never replaced or followed: the workspace's confined,
 * exclusive write), and records where each went, or why it was not saved (the workspace's caps,
 * say): one row per part, so a retried turn saves nothing twice. `message` is read without its
 * payloads (`withoutRawPayloads`): each payload not saved yet is read alone (`readPayload`), so
 * one file's bytes at most are in memory. Never throws for a file: the model is told what became of it.
 * Answers the message's rows, saved before or now (none without file parts, and no statement).
 * @throws only on a database error
 */
export async function saveInputFiles(
  q: Query,
  workspaces: ContextWorkspaces,
  workspace: string,
  taskId: string,
  seq: number,
  message: StoredMessageBody,
  logger: Logger,
): Promise<InputFileRow[]> {
  const files = message.parts.map((part, index) => ({ part, index })).filter(({ part }) => isFilePart(part));
  if (files.length === 0) return [];
  const rows = await repo.inputFilesOf(q, [{ taskId, seq }]);
  const done = new Set(rows.map((row) => row.part));
  let n = 0;
  for (const { part, index } of files) {
    n++;
    if (done.has(index)) continue;
    const bytes = await repo.readPayload(q, taskId, seq, index, part);
    if (bytes === null) continue; // its task was deleted meanwhile: nothing is left to save
    const name = safeFileName(part.filename, part.mediaType, n);
    const row: InputFileRow = {
      taskId,
      seq,
      part: index,
      path: null,
      mediaType: essenceOf(part.mediaType),
      bytes: bytes.length,
      note: null,
    };
    try {
      for (let attempt = 0; row.path === null; attempt++) {
        if (attempt >= MAX_SUFFIX) throw new AppError('CONFLICT', `${MAX_SUFFIX} files named like ${name} exist already`);
        const relPath = `${INPUTS_DIR}/${candidate(name, attempt)}`;
        row.path = await workspaces.writeFile(workspace, relPath, bytes, { exclusive: true }).then(
          () => relPath,
          (error: unknown) => {
            if (error instanceof AppError && error.code === 'CONFLICT') return null; // the name is taken: the next one
            throw error;
          },
        );
      }
    } catch (error) {
      row.path = null;
      if (error instanceof AppError) row.note = error.message;
      else {
        logger.error('saving an A2A input file failed', { taskId, error: error instanceof Error ? error.stack : String(error) });
        row.note = 'an internal error';
      }
    }
    await repo.insertInputFile(q, row);
    rows.push(row);
  }
  return rows.sort((a, b) => a.part - b.part);
}

/**
 * How the model sees a file part: where it was saved, with its type and size
 * (`[file inputs/data.csv (text/csv, 1,234 bytes)]`), or that it was not saved and why.
 */
export function describeFilePart(part: StoredPart, saved: InputFileRow | undefined): string {
  const mediaType = essenceOf(part.mediaType).slice(0, 100);
  if (!saved) return `[a file part (${mediaType}), not saved in the workspace]`;
  const size = `${saved.bytes.toLocaleString('en-US')} bytes`;
  if (saved.path) return `[file ${saved.path} (${saved.mediaType}, ${size})]`;
  const name = typeof part.filename === 'string' ? `${safeFileName(part.filename, part.mediaType, 0)} ` : '';
  return `[file ${name}(${saved.mediaType}, ${size}) not saved in the workspace: ${saved.note ?? 'unknown reason'}]`;
}

/** An approval answer is for the server, not the model: kept in the history, never fed as a request. */
export const isDecisionOnly = (message: StoredMessageBody) =>
  message.parts.every((part) => typeof part.data === 'object' && part.data !== null && 'decision' in part.data);

/** A message's parts as text for the model: text as is, data as JSON, files by where they were saved (`files`: the message's rows). */
export function messageText(message: StoredMessageBody, files: InputFileRow[] = []): string {
  return message.parts
    .map((part, index) => {
      if (typeof part.text === 'string') return part.text;
      if (part.data !== undefined && part.data !== null) return JSON.stringify(part.data);
      return describeFilePart(
        part,
        files.find((file) => file.part === index),
      );
    })
    .join('\n');
}

/** The saved files of stored messages (read without payloads), by `<task id>:<seq>`; no statement when none has a file part. */
export async function filesByMessage(q: Query, messages: StoredMessage[]): Promise<Map<string, InputFileRow[]>> {
  const byMessage = new Map<string, InputFileRow[]>();
  const withFiles = messages.filter(({ message }) => message.parts.some(isFilePart));
  for (const row of await repo.inputFilesOf(q, withFiles)) {
    const key = `${row.taskId}:${row.seq}`;
    byMessage.set(key, [...(byMessage.get(key) ?? []), row]);
  }
  return byMessage;
}
