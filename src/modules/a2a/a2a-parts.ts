import { OUTPUT_FILE_MEDIA_TYPES } from '../../media-types';
import type { A2aPart } from './a2a.types';

/**
 * Media types the agent accepts in a message's parts: what the card lists as `defaultInputModes`
 * and what SendMessage checks (A2A §3.1.1: a part of another type is ContentTypeNotSupported,
 * -32005). Text and data parts are `text/plain` and `application/json`; files of a format not
 * listed are sent as `application/octet-stream` (the agent reads them as bytes).
 */
export const INPUT_MEDIA_TYPES = [
  'text/plain',
  'text/markdown',
  'text/csv',
  'text/tab-separated-values',
  'application/json',
  'application/x-ndjson',
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/svg+xml',
  'application/zip',
  'application/gzip',
  'application/x-hdf5',
  'application/vnd.apache.parquet',
  'application/octet-stream',
];

/** What the agent answers in: its text, and the files of its `outputs/` (typed by their extension). */
export const OUTPUT_MEDIA_TYPES = [...new Set(['text/plain', ...OUTPUT_FILE_MEDIA_TYPES])];

const ACCEPTED = new Set(INPUT_MEDIA_TYPES);

/**
 * The first part's media type the agent does not accept (parameters such as `; charset=utf-8`
 * and case ignored), or undefined when every part is accepted. A part without `mediaType` counts
 * as its kind's type.
 */
export function unsupportedMediaType(parts: A2aPart[]): string | undefined {
  for (const part of parts) {
    if (typeof part.mediaType !== 'string') continue;
    const essence = part.mediaType.split(';')[0].trim().toLowerCase();
    if (!ACCEPTED.has(essence)) return part.mediaType.slice(0, 100);
  }
  return undefined;
}
