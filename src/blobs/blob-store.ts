import type { Readable } from 'node:stream';

/** What a store knows of one stored object. */
export interface BlobStat {
  size: number;
  lastModified: Date;
}

/** An inclusive byte range, as HTTP states it. */
export interface ByteRange {
  start: number;
  end: number;
}

/** How a signed URL is made: for which public base, how long, and how the browser should treat it. */
export interface SignedUrlOptions {
  /** Base of the URL for stores the service serves itself (the host the caller used). */
  baseUrl: string;
  ttlSeconds: number;
  contentType?: string;
  /** `attachment` makes browsers download rather than render (anything but plain images). */
  disposition?: 'inline' | 'attachment';
}

/**
 * Private bytes (figures, large records, release binaries) behind one interface, chosen by
 * `BLOB_STORE` (docs/api/figures.md). Keys are relative paths of `[A-Za-z0-9._-]` segments joined by `/`,
 * made only by the service (`sha256/<hex>`, `releases/<product>/<version>/<filename>`).
 *
 * Writes are whole-object and atomic: a key either holds its complete bytes or does not exist.
 */
export interface BlobStore {
  readonly kind: 'file' | 's3';
  /**
   * Stores the complete file at `localPath` under `key`, replacing nothing half-way: readers see
   * the old object or the new one. The file is consumed (moved or deleted) either way.
   */
  putFile(key: string, localPath: string, options?: { contentType?: string }): Promise<void>;
  /** The object's size and time, or null when absent. */
  stat(key: string): Promise<BlobStat | null>;
  /** The object's bytes, or only `range` of them. @throws BlobNotFoundError */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** Removes the object; absent is fine. */
  delete(key: string): Promise<void>;
  /** A URL that lets anyone GET the object for `ttlSeconds`, on the host a browser can reach. */
  signedUrl(key: string, options: SignedUrlOptions): Promise<string>;
  /**
   * Where the object of `key` is (or would be) on this machine's disk, for stores that keep
   * objects as local files (`file`): downloads read it in place, by position. Absent on remote
   * stores (`s3`), whose release files are copied into a local cache first.
   */
  localPath?(key: string): string;
  /**
   * Whether the parts of one of this store's signed URLs are genuine and not yet expired, for
   * stores whose signed URLs this service answers itself (`file`: `GET /blobs/…`). Absent on
   * stores whose signed URLs point elsewhere (`s3`).
   */
  verifySignedUrl?(key: string, expires: number, contentType: string, signature: string): boolean;
}

export class BlobNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`no blob at ${key}`);
  }
}

const KEY = /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;

/** Refuses keys that could leave the store's root (`..`, absolute paths, empty segments). */
export function checkKey(key: string): string {
  if (!KEY.test(key) || key.split('/').some((segment) => segment === '.' || segment === '..')) {
    throw new Error(`invalid blob key: ${JSON.stringify(key)}`);
  }
  return key;
}

/** The key of a content-addressed blob. */
export const contentKey = (sha256: string) => `sha256/${sha256}`;
