import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DiskCache } from '../src/blobs/disk-cache';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'labdesk-cache-test-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A fill that writes `bytes`, counting its calls; `delayMs` keeps it in flight for a while. */
function filler(bytes: string, delayMs = 0) {
  const fill = jest.fn(async (tmpPath: string) => {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    await writeFile(tmpPath, bytes);
  });
  return fill;
}

async function totalBytes(): Promise<number> {
  const sizes = await Promise.all((await readdir(dir)).map(async (name) => (await stat(path.join(dir, name))).size));
  return sizes.reduce((sum, size) => sum + size, 0);
}

test('concurrent first requests share one fill', async () => {
  const cache = new DiskCache(dir, 1000);
  const fill = filler('release bytes', 50);
  const paths = await Promise.all(Array.from({ length: 20 }, () => cache.path('releases/app/1.0.0/app.tgz', 13, fill)));
  expect(fill).toHaveBeenCalledTimes(1);
  expect(new Set(paths).size).toBe(1);
  expect(await readFile(paths[0], 'utf8')).toBe('release bytes');

  // Later requests are hits.
  await cache.path('releases/app/1.0.0/app.tgz', 13, fill);
  expect(fill).toHaveBeenCalledTimes(1);
});

test('files are named by a hash of the key, inside the directory', async () => {
  const cache = new DiskCache(dir, 1000);
  const file = await cache.path('../../etc/passwd', 1, filler('x'));
  expect(path.dirname(file)).toBe(dir);
  expect(path.basename(file)).toMatch(/^[0-9a-f]{64}$/);
});

test('evicts the least recently used entries to stay within maxBytes', async () => {
  const cache = new DiskCache(dir, 10);
  const a = await cache.path('a', 4, filler('aaaa'));
  const b = await cache.path('b', 4, filler('bbbb'));
  await cache.path('a', 4, filler('unused')); // a is now more recent than b
  const c = await cache.path('c', 4, filler('cccc'));

  expect(existsSync(a)).toBe(true);
  expect(existsSync(b)).toBe(false);
  expect(existsSync(c)).toBe(true);
  expect(await totalBytes()).toBeLessThanOrEqual(10);

  // b comes back by a new fill.
  const refillB = filler('bbbb');
  await cache.path('b', 4, refillB);
  expect(refillB).toHaveBeenCalledTimes(1);
  expect(existsSync(a)).toBe(false);
  expect(await totalBytes()).toBeLessThanOrEqual(10);
});

test('an entry larger than maxBytes is still returned, and goes at the next fill', async () => {
  const cache = new DiskCache(dir, 4);
  const small = await cache.path('small', 2, filler('ss'));
  const big = await cache.path('big', 6, filler('bbbbbb'));
  expect(existsSync(small)).toBe(false);
  expect(await readFile(big, 'utf8')).toBe('bbbbbb');

  await cache.path('next', 2, filler('nn'));
  expect(existsSync(big)).toBe(false);
  expect(await totalBytes()).toBe(2);
});

test('a failed fill rejects every waiter, leaves nothing behind, and the next call tries again', async () => {
  const cache = new DiskCache(dir, 1000);
  const failing = jest.fn(async (tmpPath: string) => {
    await writeFile(tmpPath, 'half');
    await new Promise((resolve) => setTimeout(resolve, 20));
    throw new Error('connection reset');
  });
  const results = await Promise.allSettled(Array.from({ length: 5 }, () => cache.path('k', 8, failing)));
  expect(failing).toHaveBeenCalledTimes(1);
  expect(results.every((result) => result.status === 'rejected' && /connection reset/.test(String(result.reason)))).toBe(true);
  expect(await readdir(dir)).toEqual([]);

  const retry = filler('complete');
  expect(await readFile(await cache.path('k', 8, retry), 'utf8')).toBe('complete');
  expect(retry).toHaveBeenCalledTimes(1);
});

test('a fill that writes another size than expected fails', async () => {
  const cache = new DiskCache(dir, 1000);
  await expect(cache.path('k', 100, filler('truncated'))).rejects.toThrow(/wrote 9 bytes, expected 100/);
  expect(await readdir(dir)).toEqual([]);
});

test('a cached file of another size is refilled', async () => {
  const cache = new DiskCache(dir, 1000);
  await cache.path('k', 3, filler('old'));
  const refill = filler('newer');
  const file = await cache.path('k', 5, refill);
  expect(refill).toHaveBeenCalledTimes(1);
  expect(await readFile(file, 'utf8')).toBe('newer');
  expect(await totalBytes()).toBe(5);
});

test('on start, stale temp files go and existing entries are reused, oldest evicted first', async () => {
  const first = new DiskCache(dir, 10);
  const older = await first.path('older', 4, filler('oooo'));
  const newer = await first.path('newer', 4, filler('nnnn'));
  await utimes(older, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
  const staleTemp = path.join(dir, `${path.basename(newer)}.00000000-0000-0000-0000-000000000000.tmp`);
  await writeFile(staleTemp, 'half a file');
  const unrelated = path.join(dir, 'README');
  await writeFile(unrelated, 'not ours');
  await mkdir(path.join(dir, 'subdir'));

  const second = new DiskCache(dir, 10);
  const reuse = filler('unused');
  expect(await second.path('newer', 4, reuse)).toBe(newer);
  expect(reuse).not.toHaveBeenCalled();
  expect(existsSync(staleTemp)).toBe(false);
  expect(existsSync(unrelated)).toBe(true);

  await second.path('third', 4, filler('tttt'));
  expect(existsSync(older)).toBe(false);
  expect(existsSync(newer)).toBe(true);
});
