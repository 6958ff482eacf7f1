import { createReadStream, type ReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  type BucketLocationConstraint,
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  ListObjectVersionsCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { BlobNotFoundError, checkKey, type BlobStat, type BlobStore, type ByteRange, type SignedUrlOptions } from './blob-store';

export interface S3Settings {
  /** Where the service reaches S3; absent means AWS itself. */
  endpoint?: string;
  /** Where browsers reach S3, when that differs from `endpoint` (e.g. an internal Docker host name). */
  publicEndpoint?: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `http://host/bucket/key` rather than `http://bucket.host/key`: what minio and s3rver expect. */
  forcePathStyle: boolean;
}

function makeClient(settings: S3Settings, endpoint: string | undefined): S3Client {
  return new S3Client({
    endpoint,
    region: settings.region,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    forcePathStyle: settings.forcePathStyle,
    // Since 3.729 the SDK adds CRC32 checksums to every upload (for streams, as an aws-chunked body
    // with a trailer) and asks for them on downloads. S3-compatible servers do not all understand
    // that: s3rver stores the chunk framing as part of the object's bytes. Presigned GETs would also
    // carry checksum parameters a browser's plain GET has no use for. Only what S3 requires, then.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/**
 * An absent object: HEAD answers a bare 404 (the SDK names it "NotFound"), GET names it "NoSuchKey".
 * Not any 404: GET's "NoSuchBucket" is a configuration error that must not pass for a missing blob.
 */
function isNotFound(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound');
}

/** Blobs in one S3 (or S3-compatible) bucket, keys used as object keys unchanged. */
export class S3BlobStore implements BlobStore {
  readonly kind = 's3';
  private readonly client: S3Client;
  /** Signs URLs only: a presigned URL names the host it was signed for, so it must be the public one. */
  private readonly publicClient: S3Client;

  constructor(private readonly settings: S3Settings) {
    this.client = makeClient(settings, settings.endpoint);
    this.publicClient = makeClient(settings, settings.publicEndpoint ?? settings.endpoint);
  }

  async putFile(key: string, localPath: string, options: { contentType?: string } = {}): Promise<void> {
    checkKey(key);
    let body: ReadStream | undefined;
    try {
      // A stream has no length the SDK can see; S3 refuses a PUT without one.
      const { size } = await stat(localPath);
      body = createReadStream(localPath);
      // One PutObject is atomic: the key holds the old object or the new one, never a part.
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.settings.bucket,
          Key: key,
          Body: body,
          ContentLength: size,
          ContentType: options.contentType,
        }),
      );
    } finally {
      body?.destroy();
      await rm(localPath, { force: true });
    }
  }

  async stat(key: string): Promise<BlobStat | null> {
    checkKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: key }));
      return { size: head.ContentLength ?? 0, lastModified: head.LastModified ?? new Date(0) };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    checkKey(key);
    try {
      const object = await this.client.send(
        new GetObjectCommand({
          Bucket: this.settings.bucket,
          Key: key,
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      // In Node the body is the HTTP response itself (an IncomingMessage).
      return object.Body as Readable;
    } catch (error) {
      if (isNotFound(error)) throw new BlobNotFoundError(key);
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    checkKey(key);
    // S3 answers 204 whether or not the key existed.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key }));
  }

  /**
   * Every object of the bucket with its current version id (null where the bucket keeps no
   * versions, or the server cannot list them), for backups: pages of 1,000.
   */
  async *list(): AsyncGenerator<{ key: string; bytes: number; etag: string; versionId: string | null; lastModified: string }> {
    let versions = true;
    let keyMarker: string | undefined;
    let versionMarker: string | undefined;
    let token: string | undefined;
    for (;;) {
      if (versions) {
        let page;
        try {
          page = await this.client.send(
            new ListObjectVersionsCommand({ Bucket: this.settings.bucket, KeyMarker: keyMarker, VersionIdMarker: versionMarker }),
          );
        } catch (error) {
          if (keyMarker !== undefined) throw error;
          versions = false; // a server without versioning support (some S3-compatible ones): plain listing
          continue;
        }
        for (const v of page.Versions ?? []) {
          if (v.IsLatest && v.Key)
            yield {
              key: v.Key,
              bytes: v.Size ?? 0,
              etag: v.ETag ?? '',
              versionId: v.VersionId && v.VersionId !== 'null' ? v.VersionId : null,
              lastModified: (v.LastModified ?? new Date(0)).toISOString(),
            };
        }
        if (!page.IsTruncated) return;
        keyMarker = page.NextKeyMarker;
        versionMarker = page.NextVersionIdMarker;
      } else {
        const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.settings.bucket, ContinuationToken: token }));
        for (const o of page.Contents ?? [])
          if (o.Key)
            yield {
              key: o.Key,
              bytes: o.Size ?? 0,
              etag: o.ETag ?? '',
              versionId: null,
              lastModified: (o.LastModified ?? new Date(0)).toISOString(),
            };
        if (!page.IsTruncated) return;
        token = page.NextContinuationToken;
      }
    }
  }

  /** `baseUrl` is for stores the service serves itself; S3 URLs point at S3's public endpoint. */
  async signedUrl(key: string, options: SignedUrlOptions): Promise<string> {
    checkKey(key);
    const command = new GetObjectCommand({
      Bucket: this.settings.bucket,
      Key: key,
      ResponseContentType: options.contentType,
      ResponseContentDisposition: options.disposition,
    });
    return getSignedUrl(this.publicClient, command, { expiresIn: options.ttlSeconds });
  }
}

/** Creates the bucket unless it exists (start-up and tests). */
export async function ensureBucket(settings: S3Settings): Promise<void> {
  const client = makeClient(settings, settings.endpoint);
  try {
    try {
      await client.send(new HeadBucketCommand({ Bucket: settings.bucket }));
      return;
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    try {
      await client.send(
        new CreateBucketCommand({
          Bucket: settings.bucket,
          // us-east-1 is the default location and S3 refuses it named explicitly.
          CreateBucketConfiguration:
            settings.region === 'us-east-1' ? undefined : { LocationConstraint: settings.region as BucketLocationConstraint },
        }),
      );
    } catch (error) {
      // Another instance created it between our HEAD and CREATE.
      if (!(error instanceof S3ServiceException && error.name === 'BucketAlreadyOwnedByYou')) throw error;
    }
  } finally {
    client.destroy();
  }
}
