import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { BlobNotFoundError } from '../src/blobs/blob-store';
import { S3BlobStore, type S3Settings } from '../src/blobs/s3-store';
import { startS3 } from './support/s3';

const BYTES = Buffer.from('0123456789abcdefghij');
const URL_OPTIONS = { baseUrl: 'http://unused.example', ttlSeconds: 60 };

let s3: Awaited<ReturnType<typeof startS3>>;
let store: S3BlobStore;
let workDir: string;

beforeAll(async () => {
  s3 = await startS3();
  store = new S3BlobStore(s3.settings);
  workDir = await mkdtemp(path.join(tmpdir(), 'labdesk-s3-test-'));
});

afterAll(async () => {
  await s3?.close();
  await rm(workDir, { recursive: true, force: true });
});

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Puts `bytes` under `key` from a fresh local file, returning that file's path. */
async function put(key: string, bytes: Buffer, contentType?: string): Promise<string> {
  const localPath = path.join(workDir, `${Math.random().toString(36).slice(2)}.upload`);
  await writeFile(localPath, bytes);
  await store.putFile(key, localPath, { contentType });
  return localPath;
}

test('put, stat, read whole and in ranges, delete', async () => {
  const key = 'sha256/whole-and-ranges';
  await put(key, BYTES);

  const stat = await store.stat(key);
  expect(stat?.size).toBe(BYTES.length);
  expect(stat?.lastModified).toBeInstanceOf(Date);

  expect(await readAll(await store.read(key))).toEqual(BYTES);
  // Not { start: 0, end: 0 }: s3rver reads `bytes=0-0` as the whole object (it takes end 0 for "no end").
  expect((await readAll(await store.read(key, { start: 3, end: 3 }))).toString()).toBe('3');
  expect((await readAll(await store.read(key, { start: 5, end: 9 }))).toString()).toBe('56789');
  expect((await readAll(await store.read(key, { start: 15, end: 19 }))).toString()).toBe('fghij');

  await store.delete(key);
  expect(await store.stat(key)).toBeNull();
  await expect(store.delete(key)).resolves.toBeUndefined();
});

test('a missing key: stat is null, read throws BlobNotFoundError', async () => {
  expect(await store.stat('sha256/never-put')).toBeNull();
  await expect(store.read('sha256/never-put')).rejects.toBeInstanceOf(BlobNotFoundError);
  await expect(store.read('sha256/never-put', { start: 0, end: 3 })).rejects.toBeInstanceOf(BlobNotFoundError);
});

test('a missing bucket is an error, not a missing blob', async () => {
  const misconfigured = new S3BlobStore({ ...s3.settings, bucket: 'no-such-bucket' });
  await expect(misconfigured.read('sha256/abc')).rejects.toMatchObject({ name: 'NoSuchBucket' });
});

test('putFile consumes the local file', async () => {
  const localPath = await put('releases/app/1.0.0/app.tar.gz', BYTES);
  expect(existsSync(localPath)).toBe(false);
});

test('putFile removes the local file when the upload fails', async () => {
  const broken = new S3BlobStore({ ...s3.settings, bucket: 'no-such-bucket' });
  // The SDK reports the failed streaming upload on the console besides rejecting.
  jest.spyOn(console, 'warn').mockImplementation(() => {});
  const localPath = path.join(workDir, 'doomed.upload');
  await writeFile(localPath, BYTES);
  await expect(broken.putFile('sha256/doomed', localPath)).rejects.toThrow();
  expect(existsSync(localPath)).toBe(false);
  jest.restoreAllMocks();
});

test('a signed URL serves the bytes to plain fetch, with the asked content type', async () => {
  const key = 'releases/app/1.0.0/notes.txt';
  await put(key, BYTES);
  const url = await store.signedUrl(key, { ...URL_OPTIONS, contentType: 'text/plain' });
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/plain');
  expect(Buffer.from(await response.arrayBuffer())).toEqual(BYTES);
});

test('an expired signed URL is refused', async () => {
  // s3rver checks X-Amz-Date + X-Amz-Expires against its clock (it does not check V4 signatures).
  const key = 'releases/app/1.0.0/expiring.bin';
  await put(key, BYTES);
  const url = await store.signedUrl(key, { ...URL_OPTIONS, ttlSeconds: 1 });
  await new Promise((resolve) => setTimeout(resolve, 2100));
  const response = await fetch(url);
  expect(response.status).toBe(403);
  expect(await response.text()).toMatch(/Request has expired/);
});

test('signed URLs name the public endpoint, never the internal one', async () => {
  const settings: S3Settings = { ...s3.settings, publicEndpoint: 'http://public.example:9000' };
  const url = await new S3BlobStore(settings).signedUrl('sha256/abc', URL_OPTIONS);
  expect(url.startsWith('http://public.example:9000/labdesk-test/sha256/abc?')).toBe(true);
  expect(url).not.toContain('127.0.0.1');
  // A browser sends nothing but the URL: no signed headers besides host, no checksum parameters.
  expect(new URL(url).searchParams.get('X-Amz-SignedHeaders')).toBe('host');
  expect(url).not.toMatch(/x-amz-checksum/i);
});

test.each(['../x', '/abs', 'a//b', 'a/../b', ''])('invalid key %j is refused by every method', async (key) => {
  const localPath = path.join(workDir, 'never-sent.upload');
  await writeFile(localPath, BYTES);
  await expect(store.putFile(key, localPath)).rejects.toThrow(/invalid blob key/);
  await expect(store.stat(key)).rejects.toThrow(/invalid blob key/);
  await expect(store.read(key)).rejects.toThrow(/invalid blob key/);
  await expect(store.delete(key)).rejects.toThrow(/invalid blob key/);
  await expect(store.signedUrl(key, URL_OPTIONS)).rejects.toThrow(/invalid blob key/);
});
