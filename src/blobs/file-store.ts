import { createHmac, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { BlobNotFoundError, BlobStat, BlobStore, ByteRange, checkKey, SignedUrlOptions } from './blob-store';

/** Large reads mean fewer syscalls and event-loop turns per byte on big downloads (64 KiB default). */
const READ_CHUNK = 1024 * 1024;

const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * Blobs as files under `DATA_DIR/blobs`. Writes are renames from `DATA_DIR/tmp` (same file
 * system), so a blob appears whole or not at all. Signed URLs point at the service itself
 * (`/blobs/…`), carrying an HMAC of key, expiry and content type under a key every instance shares.
 */
export class FileBlobStore implements BlobStore {
  readonly kind = 'file';

  constructor(
    private readonly root: string,
    private readonly signingKey: Buffer,
  ) {}

  localPath(key: string): string {
    return path.join(this.root, checkKey(key));
  }

  async putFile(key: string, localPath: string): Promise<void> {
    const target = this.localPath(key);
    try {
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      await fs.promises.rename(localPath, target);
    } finally {
      await fs.promises.rm(localPath, { force: true });
    }
  }

  async stat(key: string): Promise<BlobStat | null> {
    try {
      const stat = await fs.promises.stat(this.localPath(key));
      return { size: stat.size, lastModified: stat.mtime };
    } catch (error) {
      if (missing(error)) return null;
      throw error;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const handle = await this.openFile(key);
    return handle.createReadStream({ start: range?.start, end: range?.end, highWaterMark: READ_CHUNK });
  }

  /** The object as an open local file (the caller closes it). @throws BlobNotFoundError */
  async openFile(key: string): Promise<fs.promises.FileHandle> {
    try {
      return await fs.promises.open(this.localPath(key), 'r');
    } catch (error) {
      throw missing(error) ? new BlobNotFoundError(key) : error;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.promises.rm(this.localPath(key), { force: true });
  }

  async signedUrl(key: string, { baseUrl, ttlSeconds, contentType = '' }: SignedUrlOptions): Promise<string> {
    const expires = Math.floor(Date.now() / 1000) + ttlSeconds;
    const query = new URLSearchParams({
      expires: String(expires),
      type: contentType,
      signature: this.sign(checkKey(key), expires, contentType),
    });
    return `${baseUrl}/blobs/${key}?${query.toString()}`;
  }

  /** Constant-time compare. */
  verifySignedUrl(key: string, expires: number, contentType: string, signature: string): boolean {
    if (!Number.isSafeInteger(expires) || expires < Date.now() / 1000) return false;
    const expected = Buffer.from(this.sign(key, expires, contentType));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private sign(key: string, expires: number, contentType: string) {
    return createHmac('sha256', this.signingKey).update(`${key}\n${expires}\n${contentType}`).digest('base64url');
  }
}
