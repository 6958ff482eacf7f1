import fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';

/** A shared read-only handle; `release` once done with it (reads are positioned, so readers never interfere). */
export interface SharedFile {
  handle: FileHandle;
  release: () => Promise<void>;
}

interface Entry {
  opening: Promise<FileHandle>;
  users: number;
  idle?: NodeJS.Timeout;
}

/** How long a handle no reader uses stays open for the next one. */
const IDLE_MS = 5_000;

/**
 * Open read-only handles of files whose bytes never change in place (published release files,
 * and the on-disk cache's copies of them), shared by concurrent and successive downloads. A range
 * request then costs one positioned read instead of open, read and close: the profile of 50
 * concurrent 1 MiB range requests showed open and close taking as much of the event loop as the
 * read itself, and each a trip through libuv's four-thread pool. A handle closes once unused for
 * IDLE_MS. A file unlinked meanwhile (cache eviction) keeps serving its own, identical bytes
 * from the old handle until it closes, and holds its disk space that long.
 */
export class SharedFiles {
  private readonly entries = new Map<string, Entry>();

  /** @throws as `fs.promises.open` does (ENOENT for a missing file) */
  async open(filePath: string): Promise<SharedFile> {
    let entry = this.entries.get(filePath);
    if (!entry) {
      const created: Entry = { opening: fs.promises.open(filePath, 'r'), users: 0 };
      // A failed open is not remembered: the file may appear later.
      created.opening.catch(() => this.entries.get(filePath) === created && this.entries.delete(filePath));
      this.entries.set(filePath, created);
      entry = created;
    }
    const used = entry;
    used.users++;
    clearTimeout(used.idle);
    used.idle = undefined;
    let handle: FileHandle;
    try {
      handle = await used.opening;
    } catch (error) {
      used.users--;
      throw error;
    }
    let released = false;
    return {
      handle,
      release: async () => {
        if (released) return;
        released = true;
        if (--used.users === 0) used.idle = setTimeout(() => void this.closeIdle(filePath, used), IDLE_MS).unref();
      },
    };
  }

  /** Closes every handle no one is reading from (at shutdown). */
  async close(): Promise<void> {
    await Promise.all(
      [...this.entries].filter(([, entry]) => entry.users === 0).map(([filePath, entry]) => this.closeIdle(filePath, entry)),
    );
  }

  private async closeIdle(filePath: string, entry: Entry): Promise<void> {
    if (entry.users > 0 || this.entries.get(filePath) !== entry) return;
    clearTimeout(entry.idle);
    this.entries.delete(filePath);
    await entry.opening.then((handle) => handle.close()).catch(() => undefined);
  }
}
