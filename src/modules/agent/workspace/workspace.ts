import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { AgentWorkspaceConfig } from '../../../config';
import { AppError, invalid, notFound } from '../../../errors';
import {
  at,
  entriesOf,
  held,
  locate,
  MAX_DEPTH,
  openAt,
  openDirectory,
  pathError,
  refuse,
  removeAt,
  segmentsOf,
  withDirectoryAt,
} from './confined-fs';
import { CapturedRun, Language, LANGUAGES, CodeJail, SandboxProcess } from './jail';
import { countSandboxRun } from '../../../metrics';
import { mediaTypeOf } from '../../../media-types';

/** A2A context ids as workspace names: one path segment, never `.` or `..`. */
const CONTEXT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
/** Where code leaves what it wants to hand back (artifacts). */
export const OUTPUTS_DIR = 'outputs';
/** Largest program a run or job takes. */
export const MAX_CODE_BYTES = 256 * 1024;
/** Most bytes one read answers. */
export const MAX_READ_BYTES = 1024 * 1024;
/** Entries one listing answers at most (the rest is counted). */
const MAX_LIST_ENTRIES = 1000;
/** Directory levels a workspace's removal goes down (a tree the code made deeper is left, and logged). */
const REMOVE_WORKSPACE_DEPTH = 1024;
/** How often a running sandbox's workspace is measured against its caps. */
const DISK_CHECK_SECONDS = 1;
/** Wall time of a run that does not say. */
export const DEFAULT_RUN_SECONDS = 30;

export interface WorkspaceUsage {
  bytes: number;
  files: number;
  /** Whether the workspace is over a cap: writes, runs and jobs are refused until files are removed. */
  overQuota: boolean;
}

export interface RunRequest {
  /** The A2A context id. */
  workspace: string;
  language: Language;
  code: string;
  /** Wall time, 1…AGENT_SANDBOX_TIMEOUT_SECONDS; default 30. */
  timeoutSeconds?: number;
  network?: boolean;
}

export interface RunResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  truncated: boolean;
  /** Whether the run was killed because the workspace went over its cap while it ran. */
  diskExceeded: boolean;
  /** The workspace after the run. */
  usage: WorkspaceUsage;
}

/** A running sandbox's watch over its workspace's caps. */
export interface DiskGuard {
  /** Set once the workspace went over a cap and the sandbox was killed for it. */
  exceeded: boolean;
  stop(): void;
}

export interface FileEntry {
  name: string;
  type: 'file' | 'directory' | 'symlink' | 'other';
  size: number;
}

export interface OutputFile {
  /** Path below `outputs/`. */
  name: string;
  size: number;
  mediaType: string;
  /** Last modification (ms since the epoch): with the size, tells a file changed by a turn. */
  modifiedMs: number;
}

/**
 * The analysis agent's workspaces: one directory per A2A context under `AGENT_WORKSPACE_DIR`,
 * made on first use with `outputs/` inside, and the operations its tools call: files (always
 * confined to the workspace), runs in the sandbox, and the outputs that become artifacts.
 * Several instances share workspaces only when that directory is a shared volume.
 */
export class Workspaces {
  constructor(
    readonly config: AgentWorkspaceConfig,
    readonly sandbox: CodeJail,
  ) {}

  /** Makes the root and checks the sandbox once (a run in an empty probe workspace); logs the outcome. */
  async checkSandbox(): Promise<boolean> {
    return this.sandbox.check(async () => {
      await this.ensureRoot();
      const probe = path.join(this.config.rootDir, '.sandbox-check');
      await this.makeOwnedDir(probe);
      return probe;
    });
  }

  sandboxAvailable(): boolean {
    return this.sandbox.available();
  }

  /**
   * The workspace's directory, made (with `outputs/`) on first use.
   * @throws VALIDATION_FAILED for a context id that is not one safe path segment; UNAVAILABLE when
   *   the directory cannot be made (AGENT_WORKSPACE_DIR unwritable).
   */
  async open(contextId: string): Promise<string> {
    if (typeof contextId !== 'string' || !CONTEXT_ID.test(contextId)) {
      throw invalid([
        {
          path: ['workspace'],
          msg: 'a context id of 1-128 letters, digits, ".", "_" or "-", starting with a letter or digit',
          type: 'value_error',
        },
      ]);
    }
    const dir = path.join(this.config.rootDir, contextId);
    try {
      await this.ensureRoot();
      await this.makeOwnedDir(dir);
      await this.makeOwnedDir(path.join(dir, OUTPUTS_DIR));
    } catch (error) {
      // The operator's disk, not the caller's request: logged at start by the sandbox check too.
      throw new AppError(
        'UNAVAILABLE',
        `the workspace cannot be prepared (${(error as NodeJS.ErrnoException).code ?? 'error'} under AGENT_WORKSPACE_DIR)`,
      );
    }
    return dir;
  }

  /**
   * Runs `use` with the workspace's root held open: every file operation below goes through it
   * (confined-fs.ts), never through a host path inside the workspace.
   * @throws as `open`.
   */
  private async withRoot<T>(contextId: string, use: (root: fsp.FileHandle) => Promise<T>): Promise<T> {
    const dir = await this.open(contextId);
    const root = await openDirectory(dir).catch((error: NodeJS.ErrnoException) => {
      throw new AppError('UNAVAILABLE', `the workspace cannot be opened (${error.code ?? 'error'} under AGENT_WORKSPACE_DIR)`);
    });
    try {
      return await use(root);
    } finally {
      await root.close();
    }
  }

  /**
   * Opens a file of the workspace, making missing directories when `createParents`.
   * @throws VALIDATION_FAILED for a path leaving the workspace, a link where none may be, or the
   *   workspace itself; NOT_FOUND; CONFLICT for O_EXCL on an existing name.
   */
  async openFile(
    contextId: string,
    relPath: string,
    flags: number,
    { createParents = false, followLast = true } = {},
  ): Promise<fsp.FileHandle> {
    return this.withRoot(contextId, (root) => this.openBelow(root, relPath, flags, { createParents, followLast }));
  }

  private async openBelow(
    root: fsp.FileHandle,
    relPath: string,
    flags: number,
    { createParents = false, followLast = true } = {},
  ): Promise<fsp.FileHandle> {
    const found = await locate(root, relPath, {
      followLast,
      makeDirectory: createParents ? (dir, name) => this.makeOwnedDirAt(dir, name) : undefined,
    });
    try {
      if (found.name === null) throw refuse('is the workspace itself, a directory');
      return await openAt(found.dir, found.name, flags);
    } finally {
      await found.release();
    }
  }

  /**
   * Reads up to `maxBytes` (≤ 1 MiB) of a file from `offset`, as UTF-8 text or base64.
   * @throws VALIDATION_FAILED for a path leaving the workspace or not a regular file; NOT_FOUND.
   */
  async readFile(contextId: string, relPath: string, opts: { maxBytes?: number; offset?: number; encoding?: 'text' | 'base64' } = {}) {
    const maxBytes = boundedInt(opts.maxBytes ?? 64 * 1024, 1, MAX_READ_BYTES, 'maxBytes');
    const offset = boundedInt(opts.offset ?? 0, 0, Number.MAX_SAFE_INTEGER, 'offset');
    const encoding = opts.encoding ?? 'text';
    if (encoding !== 'text' && encoding !== 'base64') throw invalid([{ path: ['encoding'], msg: 'text or base64', type: 'value_error' }]);
    const handle = await this.openFile(contextId, relPath, fs.constants.O_RDONLY);
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) throw refuse('not a regular file');
      const buffer = Buffer.alloc(Math.max(0, Math.min(maxBytes, stat.size - offset)));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
      const bytes = buffer.subarray(0, bytesRead);
      return {
        path: relPath,
        size: stat.size,
        encoding,
        content: encoding === 'base64' ? bytes.toString('base64') : bytes.toString('utf8'),
        truncated: offset + bytesRead < stat.size,
      };
    } finally {
      await handle.close();
    }
  }

  /**
   * Writes (replaces) a file, making its directories. `exclusive` only creates: an existing name
   * (a link included, never followed) is left alone.
   * @throws VALIDATION_FAILED for a path leaving the workspace; PAYLOAD_TOO_LARGE beyond the file or workspace cap;
   *   CONFLICT when `exclusive` and the name exists.
   */
  async writeFile(
    contextId: string,
    relPath: string,
    content: string | Buffer,
    { exclusive = false } = {},
  ): Promise<{ path: string; size: number }> {
    if (typeof content !== 'string' && !Buffer.isBuffer(content))
      throw invalid([{ path: ['content'], msg: 'text or bytes', type: 'value_error' }]);
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    if (bytes.length > this.config.maxFileBytes)
      throw new AppError('PAYLOAD_TOO_LARGE', `content: at most ${this.config.maxFileBytes} bytes per file`);
    return this.withRoot(contextId, async (root) => {
      // Exclusive: a last link is a name taken like any other (O_EXCL refuses it), never followed.
      const found = await locate(root, relPath, { followLast: !exclusive, makeDirectory: (dir, name) => this.makeOwnedDirAt(dir, name) });
      let handle: fsp.FileHandle;
      try {
        if (found.name === null) throw refuse('is the workspace itself, a directory');
        // The size it replaces, for the cap only: the open below is what must not be fooled.
        const existing = await fsp.lstat(at(found.dir, found.name)).catch(() => undefined);
        const usage = await this.usageOf(root);
        if (
          usage.bytes - (existing?.isFile() ? existing.size : 0) + bytes.length > this.config.maxWorkspaceBytes ||
          usage.files + (existing ? 0 : 1) > this.config.maxWorkspaceFiles
        ) {
          throw new AppError(
            'PAYLOAD_TOO_LARGE',
            `the workspace would exceed its cap (${this.config.maxWorkspaceBytes} bytes, ${this.config.maxWorkspaceFiles} files); remove files first`,
          );
        }
        // Not O_TRUNC: nothing is changed before the opened file is known to be a regular file.
        handle = await openAt(found.dir, found.name, fs.constants.O_WRONLY | fs.constants.O_CREAT | (exclusive ? fs.constants.O_EXCL : 0));
      } finally {
        await found.release();
      }
      try {
        if (!(await handle.stat()).isFile()) throw refuse('not a regular file');
        await handle.truncate(0);
        await handle.write(bytes, 0, bytes.length, 0);
        const owner = this.sandbox.switchTo;
        if (owner) await handle.chown(owner.uid, owner.gid);
      } finally {
        await handle.close();
      }
      return { path: relPath, size: bytes.length };
    });
  }

  /**
   * Lists a directory of the workspace (`.` for its top), at most 1000 entries, by name.
   * @throws VALIDATION_FAILED for a path leaving the workspace or not a directory; NOT_FOUND.
   */
  async list(contextId: string, relDir = '.'): Promise<{ entries: FileEntry[]; omitted: number }> {
    return this.withRoot(contextId, async (root) => {
      const dir =
        relDir === '.' || relDir === '' ? root : await this.openBelow(root, relDir, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY);
      try {
        const names = (await fsp.readdir(held(dir))).sort();
        const entries: FileEntry[] = [];
        for (const name of names.slice(0, MAX_LIST_ENTRIES)) {
          const entry = await fsp.lstat(at(dir, name)).catch(() => undefined);
          if (!entry) continue;
          const type = entry.isFile() ? 'file' : entry.isDirectory() ? 'directory' : entry.isSymbolicLink() ? 'symlink' : 'other';
          entries.push({ name, type, size: entry.isFile() ? entry.size : 0 });
        }
        return { entries, omitted: Math.max(0, names.length - MAX_LIST_ENTRIES) };
      } finally {
        if (dir !== root) await dir.close();
      }
    });
  }

  /**
   * Removes a file or a directory with its contents (the way back under the cap without running code).
   * @throws VALIDATION_FAILED for a path leaving the workspace or the workspace itself; NOT_FOUND.
   */
  async remove(contextId: string, relPath: string): Promise<void> {
    return this.withRoot(contextId, async (root) => {
      // A last link is removed itself, never what it points at.
      const found = await locate(root, relPath, { followLast: false });
      try {
        if (found.name === null || (found.depth === 0 && found.name === OUTPUTS_DIR))
          throw refuse('the workspace and outputs/ stay; remove what is inside');
        await removeAt(found.dir, found.name);
      } finally {
        await found.release();
      }
    });
  }

  /** Bytes (apparent sizes) and files (directories count) of the workspace; the walk stops once over the file cap. */
  async usage(contextId: string): Promise<WorkspaceUsage> {
    return this.withRoot(contextId, (root) => this.usageOf(root));
  }

  /** Directories deeper than MAX_DEPTH put the workspace over its cap: the walks below do not go there. */
  private async usageOf(root: fsp.FileHandle): Promise<WorkspaceUsage> {
    let bytes = 0;
    let files = 0;
    let tooDeep = false;
    const walk = async (dir: fsp.FileHandle, depth: number): Promise<void> => {
      const entries = await fsp.readdir(held(dir), { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        if (files > this.config.maxWorkspaceFiles) return;
        files++;
        if (entry.isFile()) bytes += (await fsp.lstat(at(dir, entry.name)).catch(() => ({ size: 0 }))).size;
        else if (entry.isDirectory()) {
          if (depth >= MAX_DEPTH) tooDeep = true;
          else await withDirectoryAt(dir, entry.name, (inner) => walk(inner, depth + 1));
        }
      }
    };
    await walk(root, 0);
    return { bytes, files, overQuota: tooDeep || bytes > this.config.maxWorkspaceBytes || files > this.config.maxWorkspaceFiles };
  }

  /**
   * Runs code in the workspace's sandbox and answers its exit and bounded output. `signal` kills
   * the sandbox (a canceled task): the run then answers as killed (`signal` SIGKILL).
   * @throws VALIDATION_FAILED for a bad request; PAYLOAD_TOO_LARGE when the workspace is over its cap;
   *   UNAVAILABLE when code cannot run here or every sandbox slot is busy.
   */
  async run(request: RunRequest, signal?: AbortSignal): Promise<RunResult> {
    let command;
    try {
      command = await this.prepare(
        request,
        this.config.maxRunSeconds,
        request.timeoutSeconds ?? Math.min(DEFAULT_RUN_SECONDS, this.config.maxRunSeconds),
      );
    } catch (error) {
      countSandboxRun('refused');
      throw error;
    }
    let guard: DiskGuard | undefined;
    const run: CapturedRun = await this.sandbox.capture(command, this.config.outputBytes, (child) => {
      guard = this.guardDisk(request.workspace, child);
      if (signal?.aborted) child.kill();
      else signal?.addEventListener('abort', () => child.kill(), { once: true });
    });
    guard?.stop();
    countSandboxRun(run.timedOut ? 'timed_out' : run.signal ? 'killed' : run.exitCode === 0 ? 'exited' : 'failed');
    return {
      exitCode: run.exitCode,
      signal: run.signal,
      timedOut: run.timedOut,
      stdout: run.stdout,
      stderr: run.stderr,
      truncated: run.truncated,
      diskExceeded: guard?.exceeded ?? false,
      usage: await this.usage(request.workspace),
    };
  }

  /**
   * Validates a run or job request and finds its workspace, which must be under its caps.
   * @throws as `run`.
   */
  async prepare(request: RunRequest, maxSeconds: number, wallSeconds: number) {
    const unavailable = this.sandbox.unavailable;
    if (unavailable) throw new AppError('UNAVAILABLE', unavailable);
    const issues: { path: string[]; msg: string; type: string }[] = [];
    if (!LANGUAGES.includes(request.language))
      issues.push({ path: ['language'], msg: `one of ${LANGUAGES.join(', ')}`, type: 'value_error' });
    if (typeof request.code !== 'string' || request.code.length === 0 || Buffer.byteLength(request.code) > MAX_CODE_BYTES) {
      issues.push({ path: ['code'], msg: `1 to ${MAX_CODE_BYTES} bytes of code`, type: 'value_error' });
    }
    if (!Number.isInteger(wallSeconds) || wallSeconds < 1 || wallSeconds > maxSeconds)
      issues.push({ path: ['timeoutSeconds'], msg: `an integer from 1 to ${maxSeconds}`, type: 'value_error' });
    if (request.network !== undefined && typeof request.network !== 'boolean')
      issues.push({ path: ['network'], msg: 'a boolean', type: 'value_error' });
    if (issues.length) throw invalid(issues);
    const workspaceDir = await this.open(request.workspace);
    const usage = await this.usage(request.workspace);
    if (usage.overQuota) {
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `the workspace holds ${usage.bytes} bytes in ${usage.files} files, over its cap (${this.config.maxWorkspaceBytes} bytes, ${this.config.maxWorkspaceFiles} files); remove files first`,
      );
    }
    return { workspaceDir, language: request.language, code: request.code, network: request.network ?? false, wallSeconds };
  }

  /**
   * Measures the workspace every second while `child` runs and kills it once over a cap, so one
   * run cannot fill the disk with many files each under the file size limit.
   */
  guardDisk(contextId: string, child: SandboxProcess): DiskGuard {
    const guard: DiskGuard = { exceeded: false, stop: () => clearInterval(timer) };
    let measuring = false;
    const timer = setInterval(() => {
      if (measuring) return;
      measuring = true;
      this.usage(contextId)
        .then((usage) => {
          if (!usage.overQuota) return;
          guard.exceeded = true;
          child.kill();
        })
        .catch(() => undefined)
        .finally(() => (measuring = false));
    }, DISK_CHECK_SECONDS * 1000);
    timer.unref();
    void child.exited.then(() => guard.stop());
    return guard;
  }

  /** The files under `outputs/` (recursively, links skipped, at most MAX_DEPTH levels), at most 1000, by name. */
  async listOutputs(contextId: string): Promise<OutputFile[]> {
    return this.withRoot(contextId, async (root) => {
      const outputs = await this.openBelow(root, OUTPUTS_DIR, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY);
      const found: OutputFile[] = [];
      const walk = async (dir: fsp.FileHandle, prefix: string, depth: number): Promise<void> => {
        for (const { name, stat } of await entriesOf(dir).catch(() => [])) {
          if (found.length >= MAX_LIST_ENTRIES) return;
          if (stat.isFile())
            found.push({ name: prefix + name, size: stat.size, mediaType: mediaTypeOf(name), modifiedMs: Math.trunc(stat.mtimeMs) });
          else if (stat.isDirectory() && depth < MAX_DEPTH)
            await withDirectoryAt(dir, name, (inner) => walk(inner, `${prefix}${name}/`, depth + 1));
        }
      };
      try {
        await walk(outputs, '', 0);
      } finally {
        await outputs.close();
      }
      return found;
    });
  }

  /**
   * Opens one regular file of `outputs/` for reading (never a link).
   * @throws NOT_FOUND; VALIDATION_FAILED for a name leaving `outputs/` or a link.
   */
  private async openOutput(contextId: string, name: string): Promise<fsp.FileHandle> {
    segmentsOf(name);
    const handle = await this.openFile(contextId, `${OUTPUTS_DIR}/${name}`, fs.constants.O_RDONLY, { followLast: false });
    if (!(await handle.stat()).isFile()) {
      await handle.close();
      throw notFound('output file');
    }
    return handle;
  }

  /**
   * One file of `outputs/` as bytes, when it has at most `maxBytes`.
   * @throws NOT_FOUND; VALIDATION_FAILED for a name leaving `outputs/`; PAYLOAD_TOO_LARGE when larger.
   */
  async readOutput(contextId: string, name: string, maxBytes: number): Promise<{ name: string; mediaType: string; bytes: Buffer }> {
    const handle = await this.openOutput(contextId, name);
    try {
      const { size } = await handle.stat();
      if (size > maxBytes) throw new AppError('PAYLOAD_TOO_LARGE', `the output file has ${size} bytes, over ${maxBytes}`);
      const bytes = Buffer.alloc(size);
      const { bytesRead } = await handle.read(bytes, 0, size, 0);
      return { name, mediaType: mediaTypeOf(name), bytes: bytes.subarray(0, bytesRead) };
    } finally {
      await handle.close();
    }
  }

  /**
   * Copies one file of `outputs/` to `destination` (a path outside every workspace), streaming it,
   * and answers the bytes copied: what the copy holds is what a finished task's artifact names,
   * whatever the code does to the workspace later.
   * @throws NOT_FOUND; VALIDATION_FAILED for a name leaving `outputs/`.
   */
  async copyOutput(contextId: string, name: string, destination: string): Promise<number> {
    const handle = await this.openOutput(contextId, name);
    try {
      await fsp.mkdir(path.dirname(destination), { recursive: true, mode: 0o700 });
      await pipeline(handle.createReadStream({ autoClose: false }), fs.createWriteStream(destination, { mode: 0o600 }));
      return (await fsp.stat(destination)).size;
    } finally {
      await handle.close();
    }
  }

  /** A directory the sandbox's user owns (the service, when root, chowns it). */
  async makeOwnedDir(dir: string): Promise<void> {
    const made = await fsp.mkdir(dir, { mode: 0o700 }).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'EEXIST') return false;
        throw error;
      },
    );
    const owner = this.sandbox.switchTo;
    if (made && owner) await fsp.chown(dir, owner.uid, owner.gid);
  }

  /**
   * Removes a whole workspace (its retention ended), through descriptors like `remove`: the
   * code may have left links anywhere in it. Nothing when it does not exist.
   */
  async removeWorkspace(contextId: string): Promise<void> {
    if (!CONTEXT_ID.test(contextId)) throw invalid([{ path: ['workspace'], msg: 'a context id', type: 'value_error' }]);
    const root = await openDirectory(this.config.rootDir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (!root) return;
    try {
      await removeAt(root, contextId, 0, REMOVE_WORKSPACE_DEPTH).catch((error: unknown) => {
        if ((error as { code?: string }).code !== 'NOT_FOUND') throw error;
      });
    } finally {
      await root.close();
    }
  }

  /** A directory made inside one held open, owned by the sandbox's user (chowned through its descriptor). */
  private async makeOwnedDirAt(dir: fsp.FileHandle, name: string): Promise<void> {
    const made = await fsp.mkdir(at(dir, name), { mode: 0o700 }).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'EEXIST') return false;
        throw pathError(error);
      },
    );
    const owner = this.sandbox.switchTo;
    if (made && owner) await withDirectoryAt(dir, name, (inner) => inner.chown(owner.uid, owner.gid));
  }

  /** The root: searchable (not listable) by others, so the sandbox's user reaches its own workspace only by name. */
  private async ensureRoot(): Promise<void> {
    await fsp.mkdir(this.config.rootDir, { recursive: true, mode: 0o711 });
  }
}

/** An integer option within bounds. @throws VALIDATION_FAILED */
function boundedInt(value: unknown, min: number, max: number, name: string): number {
  if (!Number.isInteger(value) || (value as number) < min || (value as number) > max)
    throw invalid([{ path: [name], msg: `an integer from ${min} to ${max}`, type: 'value_error' }]);
  return value as number;
}
