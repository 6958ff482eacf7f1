import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { ensureBucket, type S3Settings } from '../../src/blobs/s3-store';

/** A real S3-compatible server (s3rver) on a free local port, with the bucket `labdesk-test`. */
export async function startS3(): Promise<{ settings: S3Settings; close(): Promise<void> }> {
  const directory = await mkdtemp(path.join(tmpdir(), 'labdesk-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true });
  const { port } = await server.run();
  const settings: S3Settings = {
    endpoint: `http://127.0.0.1:${port}`,
    bucket: 'labdesk-test',
    region: 'us-east-1',
    // s3rver's built-in account.
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  };
  await ensureBucket(settings);
  return {
    settings,
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** The settings that run a test app on the S3 store of `settings`. */
export const s3Env = (settings: S3Settings, extra: Record<string, string> = {}): Record<string, string> => ({
  BLOB_STORE: 's3',
  S3_ENDPOINT: settings.endpoint!,
  S3_BUCKET: settings.bucket,
  S3_REGION: settings.region,
  S3_ACCESS_KEY_ID: settings.accessKeyId,
  S3_SECRET_ACCESS_KEY: settings.secretAccessKey,
  S3_FORCE_PATH_STYLE: 'true',
  ...extra,
});
