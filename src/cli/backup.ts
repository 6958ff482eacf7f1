import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
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

/** The directories under DATA_DIR (and AGENT_WORKSPACE_DIR) a backup copies, by their name in `files/`. */
function fileRoots(config: Config): Record<string, string> {
  return {
    ...(config.blobStore === 'file' ? { blobs: path.join(config.dataDir, 'blobs') } : {}),
    'a2a-artifacts': path.join(config.agent.rootDir, '.a2a-artifacts'),
  };
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
    for (const [name, root] of Object.entries(fileRoots(config)))
      files.push(...(await copyTree(root, path.join(outDir, 'files', name), `files/${name}`)));
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

/** The manifest, with every file it names checked against its size and SHA-256. @throws Error naming the first file that differs */
async function verifiedManifest(fromDir: string): Promise<Manifest> {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(fromDir, 'manifest.json'), 'utf8')) as Manifest;
  } catch {
    throw new Error(`${fromDir} holds no readable manifest.json: not a labdesk backup`);
  }
  if (manifest.format !== FORMAT)
    throw new Error(`${fromDir}: unknown backup format ${JSON.stringify(manifest.format)} (this labdesk reads ${String(FORMAT)})`);
  for (const entry of [manifest.database, ...manifest.files]) {
    const file = path.join(fromDir, ...entry.path.split('/'));
    if (entry.path.split('/').includes('..')) throw new Error(`manifest.json names a path outside the backup: ${entry.path}`);
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat || stat.size !== entry.bytes || (await sha256Of(file)) !== entry.sha256)
      throw new Error(`${entry.path} is missing or differs from the manifest: the backup is damaged`);
  }
  return manifest;
}

async function restore(fromDir: string): Promise<number> {
  const config = loadConfig();
  const started = process.hrtime.bigint();
  const manifest = await verifiedManifest(fromDir);
  out(`backup of ${manifest.createdAt} verified (${manifest.files.length + 1} files)`);
  const roots = fileRoots(config);
  for (const [name, root] of Object.entries(roots)) {
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
      ['--no-owner', '--no-privileges', '--exit-on-error', `--dbname=${dbname}`, path.join(fromDir, manifest.database.path)],
      env,
    );
    out(`database restored (${seconds(started)} s)`);
  } finally {
    await database.stop();
  }
  for (const file of manifest.files) {
    const [, name, ...rest] = file.path.split('/');
    const root = roots[name];
    if (!root)
      return fail(
        `the backup holds ${name} files, which this configuration does not keep on disk (BLOB_STORE=${config.blobStore}): restore with the backup's settings`,
      );
    const target = path.join(root, ...rest);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    await fs.promises.copyFile(path.join(fromDir, ...file.path.split('/')), target);
  }
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
