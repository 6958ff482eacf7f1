import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { z } from 'zod';
import { S3BlobStore } from '../blobs/s3-store';
import { type Config, loadConfig } from '../config';
import { openDatabase } from '../db/orm';
import { newestMigration, userTableCount } from '../db/database-facts.repository';
import { sqlOf } from '../db/sql';
import { Command, fail, out, serviceDatabase } from './command';

/**
 * `labdesk backup` and `labdesk restore` (docs/operations.md, "Backup and restore"). A backup is
 * a directory: `database.dump` (pg_dump's custom format: every schema, the job queue's too),
 * `files/` (what the service keeps on disk that the database points at: the file store's blobs
 * and the A2A artifact copies), and `manifest.json` with the size and SHA-256 of each file. An S3
 * store's objects are listed with their version ids in the manifest, not copied. Agent
 * workspaces (the working files of A2A contexts) are not copied: a context continued after a
 * restore starts with an empty workspace.
 */
const FORMAT = 'labdesk-backup/1';
const run = promisify(execFile);

interface FileEntry {
  /** Relative to the backup directory, `/`-separated. */
  path: string;
  bytes: number;
  sha256: string;
}

interface Manifest {
  format: typeof FORMAT;
  createdAt: string;
  /** The newest migration applied to the database when it was dumped. */
  migration: string | null;
  database: FileEntry & { source: 'embedded' | 'external' };
  blobStore: Config['blobStore'];
  files: FileEntry[];
  /** With an S3 store: its objects as they were when listed (copy them with the store's own tools; docs/operations.md). */
  s3Objects?: { bucket: string; objects: { key: string; bytes: number; etag: string; versionId: string | null; lastModified: string }[] };
}

/** The names a backup may have under `files/`, whatever the configuration. */
const FILE_ROOTS = ['blobs', 'a2a-artifacts'];

/**
 * The directories under DATA_DIR (and AGENT_WORKSPACE_DIR) a backup copies, by their name in
 * `files/`. A Map: names read from a backup index it, and `__proto__` must find nothing.
 */
function fileRoots(config: Config): Map<string, string> {
  const roots = new Map<string, string>();
  if (config.blobStore === 'file') roots.set('blobs', path.join(config.dataDir, 'blobs'));
  roots.set('a2a-artifacts', path.join(config.agent.rootDir, '.a2a-artifacts'));
  return roots;
}

/** pg_dump and pg_restore take the URL without its password (which `ps` would show), and the password through the environment. */
function connection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { dbname: parsed.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

/** A PostgreSQL client tool (`pg_dump`, `pg_restore`): PG_BIN_DIR's, else the one on PATH. */
const pgTool = (name: string) => (process.env.PG_BIN_DIR ? path.join(process.env.PG_BIN_DIR, name) : name);

async function runPgTool(name: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  try {
    await run(pgTool(name), args, { env, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const { code, stderr } = error as { code?: string | number; stderr?: string };
    if (code === 'ENOENT')
      throw new Error(
        `${name} was not found: install PostgreSQL's client tools (Debian: apt-get install postgresql-client), of the server's major version or newer, or set PG_BIN_DIR`,
        { cause: error },
      );
    throw new Error(`${name} failed: ${(stderr ?? String(error)).trim().split('\n').slice(-3).join(' ')}`, { cause: error });
  }
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}

/** Copies every regular file under `from` to `to`, answering what it copied (a missing `from` is empty). Links are not followed. */
async function copyTree(from: string, to: string, relative: string): Promise<FileEntry[]> {
  const entries: FileEntry[] = [];
  let names: fs.Dirent[];
  try {
    names = await fs.promises.readdir(from, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return entries;
    throw error;
  }
  for (const entry of names) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) entries.push(...(await copyTree(source, target, `${relative}/${entry.name}`)));
    else if (entry.isFile()) {
      await fs.promises.mkdir(to, { recursive: true });
      // A blob that went between the dump and this copy (its session deleted meanwhile) is simply not there.
      const copied = await fs.promises.copyFile(source, target).then(
        () => true,
        (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? false : Promise.reject(error)),
      );
      if (copied)
        entries.push({ path: `${relative}/${entry.name}`, bytes: (await fs.promises.stat(target)).size, sha256: await sha256Of(target) });
    }
  }
  return entries;
}

const seconds = (started: bigint) => (Number(process.hrtime.bigint() - started) / 1e9).toFixed(1);
const megabytes = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MiB`;

async function backup(outDir: string): Promise<number> {
  const config = loadConfig();
  if (fs.existsSync(outDir) && fs.readdirSync(outDir).length > 0) return fail(`${outDir} is not empty: back up into a new directory`);
  fs.mkdirSync(outDir, { recursive: true, mode: 0o700 });
  const started = process.hrtime.bigint();
  const database = await serviceDatabase(config);
  let manifest: Manifest;
  try {
    const { dbname, env } = connection(database.url);
    const dump = path.join(outDir, 'database.dump');
    // One transaction's snapshot: every table as of one instant, whatever the service writes meanwhile.
    await runPgTool('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${dump}`, `--dbname=${dbname}`], env);
    fs.chmodSync(dump, 0o600); // digests, sealed secrets, everyone's data
    out(`database dumped (${megabytes(fs.statSync(dump).size)}, ${seconds(started)} s)`);
    const orm = await openDatabase(database.url, { migrate: false, poolMax: 1 });
    let migration: string | null;
    let s3Objects: Manifest['s3Objects'];
    try {
      migration = await newestMigration(sqlOf(orm.em.fork()));
      if (config.blobStore === 's3') {
        const objects = [];
        for await (const object of new S3BlobStore(config.s3!).list()) objects.push(object);
        s3Objects = { bucket: config.s3!.bucket, objects };
      }
    } finally {
      await orm.close(true);
    }
    const files: FileEntry[] = [];
    for (const [name, root] of fileRoots(config)) files.push(...(await copyTree(root, path.join(outDir, 'files', name), `files/${name}`)));
    manifest = {
      format: FORMAT,
      createdAt: new Date().toISOString(),
      migration,
      database: { path: 'database.dump', bytes: fs.statSync(dump).size, sha256: await sha256Of(dump), source: database.source },
      blobStore: config.blobStore,
      files,
      ...(s3Objects ? { s3Objects } : {}),
    };
  } finally {
    await database.stop();
  }
  fs.writeFileSync(path.join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  const fileBytes = manifest.files.reduce((sum, file) => sum + file.bytes, 0);
  out(
    `backup written to ${outDir}: database ${megabytes(manifest.database.bytes)}, ${manifest.files.length} files (${megabytes(fileBytes)})` +
      `${manifest.s3Objects ? `, ${manifest.s3Objects.objects.length} S3 objects listed (not copied)` : ''}, in ${seconds(started)} s`,
  );
  return 0;
}

const SHA256 = z.string().regex(/^[0-9a-f]{64}$/);
const BYTES = z.number().int().nonnegative();
/** manifest.json as `backup` writes it; anything else is not read further. */
const MANIFEST = z.object({
  format: z.literal(FORMAT),
  createdAt: z.iso.datetime(),
  migration: z.string().nullable(),
  database: z.object({ path: z.literal('database.dump'), bytes: BYTES, sha256: SHA256, source: z.enum(['embedded', 'external']) }),
  blobStore: z.enum(['file', 's3', 'none']),
  files: z.array(z.object({ path: z.string(), bytes: BYTES, sha256: SHA256 })),
  s3Objects: z
    .object({
      bucket: z.string(),
      objects: z.array(
        z.object({ key: z.string(), bytes: BYTES, etag: z.string(), versionId: z.string().nullable(), lastModified: z.string() }),
      ),
    })
    .optional(),
});

/** One name in a backup's paths: what blob keys, task ids and artifact indexes are made of. */
const SEGMENT = /^[A-Za-z0-9._-]+$/;

/** A file of the backup to restore: where it is in the backup, and where it goes (under `root`). */
interface RestoredFile {
  entry: FileEntry;
  source: string;
  root: string;
  target: string;
}

/** What a file system entry is, when it is neither a regular file nor a directory. */
function kindOf(entry: fs.Dirent | fs.Stats): string {
  if (entry.isSymbolicLink()) return 'a symbolic link';
  if (entry.isDirectory()) return 'a directory';
  if (entry.isFIFO()) return 'a FIFO';
  if (entry.isSocket()) return 'a socket';
  if (entry.isBlockDevice() || entry.isCharacterDevice()) return 'a device';
  return 'not a regular file';
}

/**
 * Every entry under `dir` is a regular file or a directory: a link in a backup could make the
 * restore (as root, often) read a file of the host into DATA_DIR, or write through it.
 * @throws Error naming the first entry that is anything else
 */
async function refuseLinks(dir: string, relative = ''): Promise<void> {
  for (const entry of await fs.promises.readdir(path.join(dir, relative), { withFileTypes: true })) {
    const name = relative ? `${relative}/${entry.name}` : entry.name;
    if (entry.isDirectory()) await refuseLinks(dir, name);
    else if (!entry.isFile())
      throw new Error(`${printable(name)} is ${kindOf(entry)}: a backup holds only regular files and directories, so it is refused`);
  }
}

/** A name as a one-line message shows it: quoted and escaped when it holds anything but visible ASCII. */
const printable = (name: string) => (/^[\x21-\x7e]+$/.test(name) ? name : JSON.stringify(name));

/**
 * Opens a file of the backup for reading, never through a link (O_NOFOLLOW; O_NONBLOCK so that
 * a FIFO put there meanwhile does not hang). A file with other names (a hard link) is refused:
 * it may be a host file linked into the backup.
 * @throws Error naming `name` when it is not one regular file
 */
async function openBackupFile(file: string, name: string): Promise<{ handle: fs.promises.FileHandle; stat: fs.Stats }> {
  const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = fs.constants;
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new Error(`${name} is missing or differs from the manifest: the backup is damaged`, { cause: error });
    if (code === 'ELOOP')
      throw new Error(`${name} is a symbolic link: a backup holds only regular files, so it is refused`, { cause: error });
    throw error;
  }
  const stat = await handle.stat();
  let refusal: string | undefined;
  if (!stat.isFile()) refusal = `${name} is ${kindOf(stat)}: a backup holds only regular files, so it is refused`;
  else if (stat.nlink > 1)
    refusal = `${name} has ${stat.nlink} hard links: a backup holds only files of its own, so it is refused (copy it without hard links, e.g. cp -r)`;
  if (refusal) {
    await handle.close();
    throw new Error(refusal);
  }
  return { handle, stat };
}

/** The SHA-256 of an open file, from its start; the handle is closed after. */
async function sha256OfHandle(handle: fs.promises.FileHandle): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(handle.createReadStream({ start: 0 }), hash);
  return hash.digest('hex');
}

/**
 * Reads and checks a whole backup before anything is restored: manifest.json in the format
 * `backup` writes; every path it names of the format's shape (`database.dump`,
 * `files/<root>/<name>/…`, names of letters, digits, `.`, `_`, `-`, never `.` or `..`), once, under
 * a root this configuration keeps on disk; no link, device, FIFO or socket anywhere in the
 * directory; and every file it names a regular file of its own, of its size and SHA-256.
 * @throws Error naming the first entry that is wrong, in one line
 */
async function verifiedBackup(
  fromDir: string,
  roots: Map<string, string>,
  config: Config,
): Promise<{ dir: string; manifest: Manifest; files: RestoredFile[] }> {
  const notBackup = `${fromDir} holds no readable manifest.json: not a labdesk backup`;
  // The directory named on the command line may be a link (`latest`); nothing inside it may.
  let dir: string;
  try {
    dir = fs.realpathSync(fromDir);
  } catch (error) {
    throw new Error(notBackup, { cause: error });
  }
  if (!fs.lstatSync(path.join(dir, 'manifest.json'), { throwIfNoEntry: false })) throw new Error(notBackup);
  const { handle } = await openBackupFile(path.join(dir, 'manifest.json'), 'manifest.json');
  let raw: unknown;
  try {
    raw = JSON.parse(await handle.readFile('utf8'));
  } catch (error) {
    throw new Error(notBackup, { cause: error });
  } finally {
    await handle.close();
  }
  const format = (raw as { format?: unknown } | null)?.format;
  if (format !== FORMAT) throw new Error(`${fromDir}: unknown backup format ${JSON.stringify(format)} (this labdesk reads ${FORMAT})`);
  const parsed = MANIFEST.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`manifest.json is not a ${FORMAT} manifest: ${issue.path.join('.') || 'its top level'} ${issue.message}`);
  }
  const manifest = parsed.data;

  const files: RestoredFile[] = [];
  const seen = new Set<string>();
  for (const entry of manifest.files) {
    const [top, name, ...rest] = entry.path.split('/');
    const shapely =
      top === 'files' && FILE_ROOTS.includes(name) && rest.length > 0 && rest.every((s) => SEGMENT.test(s) && s !== '.' && s !== '..');
    if (!shapely)
      throw new Error(
        `manifest.json names ${printable(entry.path)}, not a path of a backup (files/blobs/… or files/a2a-artifacts/…), so it is refused`,
      );
    if (seen.has(entry.path)) throw new Error(`manifest.json names ${entry.path} twice: the backup is damaged`);
    seen.add(entry.path);
    const root = roots.get(name);
    if (!root)
      throw new Error(
        `the backup holds ${name} files, which this configuration does not keep on disk (BLOB_STORE=${config.blobStore}): restore with the backup's settings`,
      );
    files.push({ entry, source: path.join(dir, 'files', name, ...rest), root, target: path.join(root, ...rest) });
  }

  await refuseLinks(dir);
  for (const { entry, source } of [{ entry: manifest.database, source: path.join(dir, 'database.dump') }, ...files]) {
    const { handle, stat } = await openBackupFile(source, entry.path);
    if (stat.size !== entry.bytes || (await sha256OfHandle(handle)) !== entry.sha256) {
      await handle.close().catch(() => undefined); // already closed once hashed
      throw new Error(`${entry.path} is missing or differs from the manifest: the backup is damaged`);
    }
  }
  return { dir, manifest, files };
}

/**
 * Copies one verified file of the backup to its place, never through a link: each directory is
 * made here (the root was empty) and checked to be one, the file is created exclusively
 * (O_EXCL|O_NOFOLLOW), and what was written must have the manifest's SHA-256 still (the backup
 * could change after it was checked).
 * @throws Error when something is in the way or the file changed
 */
async function restoreFile({ entry, source, root, target }: RestoredFile): Promise<void> {
  await fs.promises.mkdir(root, { recursive: true });
  let dir = root;
  for (const name of path.relative(root, path.dirname(target)).split(path.sep).filter(Boolean)) {
    dir = path.join(dir, name);
    await fs.promises.mkdir(dir).catch((error: NodeJS.ErrnoException) => (error.code === 'EEXIST' ? undefined : Promise.reject(error)));
    if (!(await fs.promises.lstat(dir)).isDirectory()) throw new Error(`${dir} is not a directory: restore does not write through links`);
  }
  const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
  const { handle: input } = await openBackupFile(source, entry.path);
  const output = await fs.promises.open(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o666).catch(async (error: unknown) => {
    await input.close();
    throw error;
  });
  const hash = createHash('sha256');
  await pipeline(
    input.createReadStream({ start: 0 }),
    async function* (chunks: AsyncIterable<Buffer>) {
      for await (const chunk of chunks) {
        hash.update(chunk);
        yield chunk;
      }
    },
    output.createWriteStream(),
  );
  if (hash.digest('hex') !== entry.sha256) {
    await fs.promises.rm(target, { force: true });
    throw new Error(`${entry.path} changed after it was verified: the backup is being written to; restore from a copy nobody changes`);
  }
}

async function restore(fromDir: string): Promise<number> {
  const config = loadConfig();
  const started = process.hrtime.bigint();
  const roots = fileRoots(config);
  // Everything is checked before the database or DATA_DIR is touched: a refusal changes nothing.
  const { dir, manifest, files } = await verifiedBackup(fromDir, roots, config);
  out(`backup of ${manifest.createdAt} verified (${manifest.files.length + 1} files)`);
  for (const [name, root] of roots) {
    if (fs.existsSync(root) && fs.readdirSync(root).length > 0) return fail(`${root} is not empty: restore into a new DATA_DIR (${name})`);
  }
  if (!config.databaseUrl && fs.existsSync(path.join(config.dataDir, 'pg')))
    return fail(`${config.dataDir} already holds a database: restore into an empty DATA_DIR`);
  const database = await serviceDatabase(config);
  try {
    const orm = await openDatabase(database.url, { migrate: false, poolMax: 1 });
    try {
      const tables = await userTableCount(sqlOf(orm.em.fork()));
      if (tables > 0) return fail(`the database already has ${tables} tables: restore into an empty database`);
    } finally {
      await orm.close(true);
    }
    const { dbname, env } = connection(database.url);
    await runPgTool(
      'pg_restore',
      ['--no-owner', '--no-privileges', '--exit-on-error', `--dbname=${dbname}`, path.join(dir, manifest.database.path)],
      env,
    );
    out(`database restored (${seconds(started)} s)`);
  } finally {
    await database.stop();
  }
  for (const file of files) await restoreFile(file);
  if (manifest.s3Objects)
    out(
      `the backup lists ${manifest.s3Objects.objects.length} objects of bucket ${manifest.s3Objects.bucket}: they are not in the backup; see docs/operations.md to restore their versions`,
    );
  out(
    `restored into ${config.databaseUrl ? 'the database at DATABASE_URL' : config.dataDir}, ${manifest.files.length} files, in ${seconds(started)} s; start the service as usual`,
  );
  return 0;
}

/** A command's work, with its failure (pg_dump missing, a damaged backup, …) said in one line (exit 2). */
const reported = async (work: () => Promise<number>): Promise<number> => {
  try {
    return await work();
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
};

export const BACKUP_COMMANDS: Record<string, Command> = {
  backup: {
    usage: 'labdesk backup --out DIR',
    help: 'Writes a consistent backup to a new directory: the database (pg_dump, custom format; the embedded one is found under DATA_DIR), the blobs and A2A artifacts on disk, and a manifest with checksums. With an S3 store its objects are listed with their versions, not copied. Needs pg_dump.',
    run: (flags) =>
      typeof flags.out === 'string'
        ? reported(() => backup(path.resolve(flags.out as string)))
        : Promise.resolve(fail('usage: labdesk backup --out DIR')),
  },
  restore: {
    usage: 'labdesk restore --from DIR',
    help: 'Restores a backup into an empty DATA_DIR (embedded database) or an empty database (DATABASE_URL), after checking every checksum. Needs pg_restore.',
    run: (flags) =>
      typeof flags.from === 'string'
        ? reported(() => restore(path.resolve(flags.from as string)))
        : Promise.resolve(fail('usage: labdesk restore --from DIR')),
  },
};
