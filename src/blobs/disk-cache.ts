import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';

/** Entries are named by the sha256 of their key; temp files add a random part. Nothing else is touched. */
const ENTRY_NAME = /^[0-9a-f]{64}$/;
const TEMP_NAME = /^[0-9a-f]{64}\.[0-9a-f-]{36}\.tmp$/;

/**
 * A bounded on-disk cache of remote blobs (release downloads served from S3), one per directory.
 *
 * Files are named by the sha256 of their key, so no key can name a path outside the directory, and
 * appear under that name only complete: each fill writes a temp file that is renamed into place.
 * Temp files left by a crash are removed when the cache is first used.
 *
 * Total size stays within `maxBytes` by evicting the least recently used entries after each fill.
 * Recency is kept in memory; on start the files already present are ranked by modification time.
 * The entry just filled is never evicted by its own fill, so one entry larger than `maxBytes` is
 * still returned and stays until the next fill pushes it out: the bound can be exceeded by that one.
 *
 * Callers should open a returned path at once. Eviction unlinks files, which is harmless to a reader
 * that already holds them open, but a path kept unopened may disappear after later fills.
 */
export class DiskCache {
  /** File name → size, least recently used first (a Map iterates in insertion order). */
  private readonly entries = new Map<string, number>();
  private totalBytes = 0;
  /** Fills under way, by file name: concurrent callers for one key share its fill. */
  private readonly fills = new Map<string, Promise<string>>();
  private indexed: Promise<void> | undefined;

  constructor(
    private readonly dir: string,
    private readonly maxBytes: number,
  ) {}

  /**
   * Local path of `key`'s complete bytes: fills it once with `fill(tmpPath)` when missing.
   * Concurrent callers for the same key share one fill. `size` is the expected size: a cached file
   * of another size is refilled, and a fill that writes another size fails.
   */
  async path(key: string, size: number, fill: (tmpPath: string) => Promise<void>): Promise<string> {
    await (this.indexed ??= this.index());
    const name = createHash('sha256').update(key).digest('hex');
    const pending = this.fills.get(name);
    if (pending) return pending;
    if (this.entries.get(name) === size) {
      this.touch(name, size);
      return path.join(this.dir, name);
    }
    const filling = this.fillEntry(name, size, fill);
    this.fills.set(name, filling);
    const forget = () => this.fills.delete(name);
    filling.then(forget, forget);
    return filling;
  }

  private async fillEntry(name: string, size: number, fill: (tmpPath: string) => Promise<void>): Promise<string> {
    const finalPath = path.join(this.dir, name);
    if (this.entries.has(name)) {
      // Cached with another size: stale. Readers holding it open keep their bytes.
      this.remove(name);
      await rm(finalPath, { force: true });
    }
    const tmpPath = path.join(this.dir, `${name}.${randomUUID()}.tmp`);
    try {
      await fill(tmpPath);
      const written = (await stat(tmpPath)).size;
      if (written !== size) throw new Error(`cache fill wrote ${written} bytes, expected ${size}`);
      await rename(tmpPath, finalPath);
    } catch (error) {
      await rm(tmpPath, { force: true });
      throw error;
    }
    this.touch(name, size);
    await this.evict(name);
    return finalPath;
  }

  /** Evicts least recently used entries, except `keep`, until the total fits. */
  private async evict(keep?: string): Promise<void> {
    // Choose the victims before the first await, so concurrent fills see a consistent index.
    const victims: string[] = [];
    for (const name of this.entries.keys()) {
      if (this.totalBytes <= this.maxBytes) break;
      if (name === keep) continue;
      this.remove(name);
      victims.push(name);
    }
    await Promise.all(victims.map((name) => rm(path.join(this.dir, name), { force: true })));
  }

  /** Removes crash leftovers and ranks the entries already present, oldest first. */
  private async index(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const found = await Promise.all(
      (await readdir(this.dir)).map(async (name) => {
        const file = path.join(this.dir, name);
        if (TEMP_NAME.test(name)) {
          await rm(file, { force: true });
        } else if (ENTRY_NAME.test(name)) {
          const info = await stat(file);
          return { name, size: info.size, mtime: info.mtimeMs };
        }
        return null;
      }),
    );
    const entries = found.filter((entry) => entry !== null).sort((a, b) => a.mtime - b.mtime);
    for (const { name, size } of entries) this.touch(name, size);
    // The bound may have shrunk since the last run.
    await this.evict();
  }

  /** Records `name` as the most recently used entry. */
  private touch(name: string, size: number): void {
    this.remove(name);
    this.entries.set(name, size);
    this.totalBytes += size;
  }

  private remove(name: string): void {
    const size = this.entries.get(name);
    if (size === undefined) return;
    this.entries.delete(name);
    this.totalBytes -= size;
  }
}
