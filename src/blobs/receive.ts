import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../errors';

/** A complete upload in a private temp file, with its size and digests. */
export interface ReceivedFile {
  path: string;
  size: number;
  /** Hex. */
  sha256: string;
  /** Base64 (electron-updater's form). */
  sha512: string;
}

/**
 * Streams `source` into a new file under `tmpDir`, hashing as it goes; nothing is buffered whole.
 * More than `maxBytes` stops the copy and removes the file.
 * @throws PAYLOAD_TOO_LARGE
 */
export async function receiveToTemp(source: Readable, tmpDir: string, maxBytes: number): Promise<ReceivedFile> {
  const file = path.join(tmpDir, `upload-${randomUUID()}`);
  const sha256 = createHash('sha256');
  const sha512 = createHash('sha512');
  let size = 0;
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > maxBytes) return done(new AppError('PAYLOAD_TOO_LARGE', `the file is larger than ${maxBytes} bytes`));
      sha256.update(chunk);
      sha512.update(chunk);
      done(null, chunk);
    },
  });
  // The source may fail while the file is being opened, before the pipeline listens (a form cut
  // off mid-file): heard here, so it is not an 'error' without a listener, which ends the process.
  // The pipeline still sees it: the source is errored by then.
  source.on('error', () => undefined);
  // Opened before the copy starts: a stream that opened lazily could create the file after a
  // copy failing at its first chunk had already removed it, leaving the file behind.
  const handle = await fs.promises.open(file, 'wx', 0o600).catch((error: unknown) => {
    source.resume();
    throw error;
  });
  try {
    await pipeline(source, measure, handle.createWriteStream());
  } catch (error) {
    await fs.promises.rm(file, { force: true });
    throw error;
  }
  return { path: file, size, sha256: sha256.digest('hex'), sha512: sha512.digest('base64') };
}

/** Removes temp files older than a day (left by a process that was killed mid-upload). */
export async function sweepTemp(tmpDir: string): Promise<void> {
  await fs.promises.mkdir(tmpDir, { recursive: true });
  const dayAgo = Date.now() - 24 * 3600 * 1000;
  for (const name of await fs.promises.readdir(tmpDir)) {
    const file = path.join(tmpDir, name);
    const stat = await fs.promises.stat(file).catch(() => null);
    if (stat && stat.mtimeMs < dayAgo) await fs.promises.rm(file, { force: true, recursive: true });
  }
}
