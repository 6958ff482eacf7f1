import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../config';
import { instanceSecret } from '../db/instance-keys';
import type { BlobStore } from './blob-store';
import { DiskCache } from './disk-cache';
import { FileBlobStore } from './file-store';
import { SharedFiles } from './shared-files';
import { sweepTemp } from './receive';
import { ensureBucket, S3BlobStore } from './s3-store';

/** The blob store with what its users need around it. */
export interface Blobs {
  /** Null with `BLOB_STORE=none` (private drive unconfigured). */
  store: BlobStore | null;
  /** Where uploads land while they are received and hashed (same file system as the file store). */
  tmpDir: string;
  /** Local copies of release binaries when the store is remote. */
  releaseCache: DiskCache | null;
  /** Open handles of release files, shared by downloads (their bytes never change). */
  releaseFiles: SharedFiles;
}

/** Opens the store `BLOB_STORE` names (docs/api/figures.md), creating its directories or bucket. */
export async function openBlobs(config: Config, em: EntityManager): Promise<Blobs> {
  const tmpDir = path.join(config.dataDir, 'tmp');
  await sweepTemp(tmpDir);
  if (config.blobStore === 'none') return { store: null, tmpDir, releaseCache: null, releaseFiles: new SharedFiles() };
  if (config.blobStore === 'file') {
    return {
      store: new FileBlobStore(path.join(config.dataDir, 'blobs'), await instanceSecret(em, 'blob_url_key')),
      tmpDir,
      releaseCache: null,
      releaseFiles: new SharedFiles(),
    };
  }
  await ensureBucket(config.s3!);
  return {
    store: new S3BlobStore(config.s3!),
    tmpDir,
    releaseCache: new DiskCache(path.join(config.dataDir, 'release-cache'), config.releaseCacheBytes),
    releaseFiles: new SharedFiles(),
  };
}
