import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { conflict, invalid, notFound } from '../../../errors';

/**
 * Files below a directory that sandboxed code may change at the same moment (a workspace).
 *
 * Every name is opened relative to a directory this process holds open, one component at a time,
 * never following a link: `/proc/self/fd/<fd>/<name>` resolves `<name>` inside the directory the
 * descriptor holds, as openat(2) would (Node has no openat). A path is never resolved twice, so a
 * directory swapped for a link between a look and an open (renameat2 RENAME_EXCHANGE in a loop)
 * makes the open fail with ELOOP instead of leading outside. Code inside cannot move a directory
 * out of its workspace (the workspace is its only writable mount), so a descriptor once inside
 * stays inside. Links that stay inside are followed the way the code sees them: their target is
 * read and walked again, component by component, from the workspace's root.
 */

/** Where the code sees its workspace (sandbox.ts binds it there): absolute link targets below it stay inside. */
export const SANDBOX_WORKSPACE = '/workspace';
/** Longest relative path a file tool takes. */
export const MAX_PATH_CHARS = 1024;
/** Links followed in one path at most (Linux's own limit is 40). */
const MAX_LINKS = 40;
/** Directory levels the walks below (usage, outputs, removal) descend at most; deeper counts as over the cap. */
export const MAX_DEPTH = 64;

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK } = fs.constants;
const DIRECTORY_FLAGS = O_RDONLY | O_DIRECTORY | O_NOFOLLOW;

/** The path of `name` inside the directory `dir` holds open. */
export const at = (dir: fsp.FileHandle, name: string) => `/proc/self/fd/${dir.fd}/${name}`;
/** The directory `dir` holds open, as a path (readdir on it reads that very directory). */
export const held = (dir: fsp.FileHandle) => `/proc/self/fd/${dir.fd}`;

/** What the file system says about a caller's path, in the API's words; anything else is rethrown. */
const PATH_ERRORS: Record<string, string> = {
  ENOTDIR: 'a part of the path is not a directory',
  EISDIR: 'is a directory',
  ELOOP: 'is a symbolic link (or too many of them)',
  ENXIO: 'is not a regular file',
  EACCES: 'its permissions do not allow this',
  EPERM: 'its permissions do not allow this',
  ENAMETOOLONG: 'a name in the path is too long',
  ENOTEMPTY: 'the directory is not empty',
};

/** Turns a file system error on a caller's path into NOT_FOUND, CONFLICT or VALIDATION_FAILED; anything else is rethrown. */
export function pathError(error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOENT') return notFound('file');
  if (code === 'EEXIST') return conflict('path: a file of this name exists');
  if (code && PATH_ERRORS[code]) return refuse(PATH_ERRORS[code]);
  return error;
}

export const refuse = (msg: string) => invalid([{ path: ['path'], msg, type: 'value_error' }]);
const escape = () => refuse('leads outside the workspace (through a symbolic link)');

/** Opens a directory the service itself names (a workspace's root), never through a final link. */
export function openDirectory(dir: string): Promise<fsp.FileHandle> {
  return fsp.open(dir, DIRECTORY_FLAGS);
}

/** Opens `name` inside `dir`, never following a link; O_NONBLOCK so that a FIFO the code made cannot hang the open. */
export function openAt(dir: fsp.FileHandle, name: string, flags: number, mode = 0o600): Promise<fsp.FileHandle> {
  return fsp.open(at(dir, name), flags | O_NOFOLLOW | O_NONBLOCK, mode).catch((error: unknown) => {
    throw pathError(error);
  });
}

/** Opens the directory `name` inside `dir` (never a link to one). */
export function openDirectoryAt(dir: fsp.FileHandle, name: string): Promise<fsp.FileHandle> {
  return fsp.open(at(dir, name), DIRECTORY_FLAGS).catch((error: unknown) => {
    throw pathError(error);
  });
}

/** The segments of a caller's relative path. @throws VALIDATION_FAILED for an absolute path, `..`, a NUL or a bad length. */
export function segmentsOf(relPath: unknown): string[] {
  if (typeof relPath !== 'string' || relPath.length === 0 || relPath.length > MAX_PATH_CHARS || relPath.includes('\0'))
    throw refuse(`a relative path of 1 to ${MAX_PATH_CHARS} characters`);
  if (path.isAbsolute(relPath)) throw refuse('must be relative to the workspace (absolute paths are refused)');
  const segments = relPath.split('/').filter((part) => part !== '' && part !== '.');
  if (segments.includes('..')) throw refuse('must stay inside the workspace ("..") is refused');
  return segments;
}

/** A name found below a root: the directory holding it (open) and its name there; `name` is null for the root itself. */
export interface Located {
  dir: fsp.FileHandle;
  name: string | null;
  /** Directory levels between the root and `dir` (0: `dir` is the root). */
  depth: number;
  /** Closes `dir` unless it is the root (which its opener closes). */
  release(): Promise<void>;
}

export interface LocateOptions {
  /** Follow a link in the last component (when it stays inside); otherwise the link itself is located. */
  followLast?: boolean;
  /** Makes a missing directory on the way (`name` inside `dir`); without it a missing directory is NOT_FOUND. */
  makeDirectory?: (dir: fsp.FileHandle, name: string) => Promise<void>;
}

/**
 * Finds `relPath` below `root` (a directory held open) without ever resolving a path twice or
 * following a link by name: each directory on the way is opened inside the previous one with
 * O_NOFOLLOW. A link on the way is read and its target walked from the root (absolute targets
 * under /workspace, relative ones from the link's directory); one leading outside is refused.
 * The last component need not exist: the caller opens or creates it inside `dir`.
 * @throws VALIDATION_FAILED for a path leaving the root or through a non-directory; NOT_FOUND for a missing directory.
 */
export async function locate(root: fsp.FileHandle, relPath: string, options: LocateOptions = {}): Promise<Located> {
  let pending = segmentsOf(relPath);
  /** The directories from the root to `dir`, by the names they were opened with. */
  let trail: string[] = [];
  let dir = root;
  let links = 0;
  const located = (name: string | null): Located => {
    const found = dir;
    return { dir: found, name, depth: trail.length, release: () => (found === root ? Promise.resolve() : found.close()) };
  };
  /** Moves to the directory `names` lead to from the root (after a link or `..` in a link's target). */
  const walkFromRoot = async (names: string[]) => {
    if (dir !== root) await dir.close();
    dir = root;
    trail = [];
    for (const name of names) await enter(name);
  };
  const enter = async (name: string) => {
    const next = await openDirectoryAt(dir, name).catch(async (error: unknown) => {
      if (dir !== root) await dir.close();
      throw error;
    });
    if (dir !== root) await dir.close();
    dir = next;
    trail.push(name);
  };
  try {
    if (pending.length === 0) return located(null);
    while (pending.length > 0) {
      const name = pending[0];
      pending = pending.slice(1);
      if (name === '' || name === '.') continue;
      if (name === '..') {
        // Only from a link's target: the directory above, by name from the root, never above it.
        if (trail.length === 0) throw escape();
        await walkFromRoot(trail.slice(0, -1));
        continue;
      }
      const last = pending.length === 0;
      if (last && !options.followLast) return located(name);
      let stat = await fsp.lstat(at(dir, name)).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw pathError(error);
      });
      if (!stat) {
        if (last) return located(name);
        if (!options.makeDirectory) throw notFound(`directory ${[...trail, name].join('/')}`);
        await options.makeDirectory(dir, name);
        stat = await fsp.lstat(at(dir, name)).catch((error: unknown) => {
          throw pathError(error);
        });
      }
      if (stat.isSymbolicLink()) {
        if (++links > MAX_LINKS) throw pathError(Object.assign(new Error('too many links'), { code: 'ELOOP' }));
        const target = await fsp.readlink(at(dir, name)).catch(() => {
          throw escape();
        });
        if (path.isAbsolute(target)) {
          if (target !== SANDBOX_WORKSPACE && !target.startsWith(`${SANDBOX_WORKSPACE}/`)) throw escape();
          await walkFromRoot([]);
          pending = [...target.slice(SANDBOX_WORKSPACE.length).split('/'), ...pending];
        } else {
          pending = [...target.split('/'), ...pending];
        }
        continue;
      }
      if (last) return located(name);
      if (!stat.isDirectory()) throw pathError(Object.assign(new Error('not a directory'), { code: 'ENOTDIR' }));
      // Swapped for a link since the lstat: O_NOFOLLOW fails the open (ELOOP), and the path is refused.
      await enter(name);
    }
    // Only `..` and links were left: the directory reached is what was asked for.
    const name = trail.pop() ?? null;
    if (name === null) return located(null);
    await walkFromRoot(trail);
    return located(name);
  } catch (error) {
    if (dir !== root) await dir.close().catch(() => undefined);
    throw error;
  }
}

/** Runs `use` with the directory `name` inside `dir` held open (never through a link); closes it after. */
export async function withDirectoryAt<T>(
  dir: fsp.FileHandle,
  name: string,
  use: (inner: fsp.FileHandle) => Promise<T>,
): Promise<T | undefined> {
  const inner = await openDirectoryAt(dir, name).catch(() => undefined);
  if (!inner) return undefined;
  try {
    return await use(inner);
  } finally {
    await inner.close();
  }
}

/** One entry of a directory held open, as lstat sees it (not followed). */
export interface HeldEntry {
  name: string;
  stat: fs.Stats;
}

/** The entries of the directory `dir` holds, by name; entries gone meanwhile are skipped. */
export async function entriesOf(dir: fsp.FileHandle): Promise<HeldEntry[]> {
  const names = (await fsp.readdir(held(dir))).sort();
  const entries: HeldEntry[] = [];
  for (const name of names) {
    const stat = await fsp.lstat(at(dir, name)).catch(() => undefined);
    if (stat) entries.push({ name, stat });
  }
  return entries;
}

/**
 * Removes `name` inside `dir`: a file or link is unlinked (a link never followed); a directory is
 * emptied through descriptors, then removed. Deeper than `maxDepth` levels is refused.
 */
export async function removeAt(dir: fsp.FileHandle, name: string, depth = 0, maxDepth = MAX_DEPTH): Promise<void> {
  const stat = await fsp.lstat(at(dir, name)).catch((error: unknown) => {
    throw pathError(error);
  });
  if (!stat.isDirectory()) {
    await fsp.unlink(at(dir, name)).catch((error: unknown) => {
      throw pathError(error);
    });
    return;
  }
  if (depth >= maxDepth) throw refuse(`more than ${maxDepth} levels of directories; remove the deepest with code`);
  const inner = await openDirectoryAt(dir, name);
  try {
    for (const entry of await fsp.readdir(held(inner))) await removeAt(inner, entry, depth + 1, maxDepth);
  } finally {
    await inner.close();
  }
  await fsp.rmdir(at(dir, name)).catch((error: unknown) => {
    throw pathError(error);
  });
}
