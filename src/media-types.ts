import path from 'node:path';

// A leaf (it imports no module of the house): the workspace types its output files with it, and
// the A2A agent card lists what those can be.

/** Media types guessed from a file's extension, for artifacts. */
const MEDIA_TYPES: Record<string, string> = {
  '.txt': 'text/plain',
  '.log': 'text/plain',
  '.md': 'text/markdown',
  '.csv': 'text/csv',
  '.tsv': 'text/tab-separated-values',
  '.json': 'application/json',
  '.jsonl': 'application/jsonl',
  '.html': 'text/html',
  '.xml': 'application/xml',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
  '.webp': 'image/webp',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
  '.tar': 'application/x-tar',
  '.py': 'text/x-python',
  '.sh': 'text/x-shellscript',
  '.parquet': 'application/vnd.apache.parquet',
  '.npy': 'application/octet-stream',
};
export const mediaTypeOf = (name: string) => MEDIA_TYPES[path.extname(name).toLowerCase()] ?? 'application/octet-stream';
/** Every media type an output file (an artifact) can have. */
export const OUTPUT_FILE_MEDIA_TYPES = [...new Set([...Object.values(MEDIA_TYPES), 'application/octet-stream'])];
