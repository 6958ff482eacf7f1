/**
 * The CPU a bench server's PostgreSQL spends for it: the utime + stime (/proc/<pid>/stat) of the
 * client backends connected to its database (pg_stat_activity), so PostgreSQL must run on this
 * machine (/proc/<pid>/stat is world-readable). A meter polls the backends while it runs, so a
 * connection opened during a round counts from its start and one closed during it up to its
 * last sample (at most POLL_MS short). Background processes (WAL writer, checkpointer,
 * autovacuum) are shared by the databases of one cluster and are not counted: the figure is
 * the work done on the server's own connections.
 */
import { Client } from 'pg';
import { CpuMeter, cpuSeconds } from './load';

const POLL_MS = 200;

export interface DatabaseCpu {
  /** Starts measuring the backends' CPU (a `LoadTarget`'s `databaseCpu`, hence a function property: passed unbound). */
  meter: () => Promise<CpuMeter>;
  /** One query on the measuring connection (e.g. a count), answered as rows. */
  query<R extends Record<string, unknown>>(sql: string): Promise<R[]>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Measures the client backends of the database `url` names, on a connection of its own to that
 * database (left out of the figure).
 * @throws Error (from a meter) when the backends are not processes of this machine
 */
export async function databaseCpu(url: string): Promise<DatabaseCpu> {
  const client = new Client({ connectionString: url });
  // The bench drops the database (or stops its embedded cluster) while this connection may still be open.
  client.on('error', () => undefined);
  await client.connect();
  const backends = async () =>
    (
      await client.query<{ pid: number }>(
        `select pid from pg_stat_activity where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()`,
      )
    ).rows.map((row) => row.pid);
  const cpuOf = (pid: number) => {
    try {
      return cpuSeconds(pid);
    } catch {
      return undefined; // ended meanwhile
    }
  };
  let checked = false;

  const meter = async (): Promise<CpuMeter> => {
    /** Per backend: its CPU when the meter started (0 for one that connected later), and at its latest sample. */
    const first = new Map<number, number>();
    const latest = new Map<number, number>();
    const sample = async (starting: boolean) => {
      const pids = await backends();
      for (const pid of pids) {
        const cpu = cpuOf(pid);
        if (cpu === undefined) continue;
        if (!first.has(pid)) first.set(pid, starting ? cpu : 0);
        latest.set(pid, cpu);
      }
      if (!checked && pids.length) {
        if (!latest.size) throw new Error(`PostgreSQL's backends (${pids.join(', ')}) are not processes of this machine: no CPU figure`);
        checked = true;
      }
    };
    await sample(true);
    let stopped = false;
    let failure: Error | undefined;
    // A failed sample is thrown by `stop()`: left unhandled until then it would end the bench at once.
    const polling = (async () => {
      while (!stopped) {
        await sleep(POLL_MS);
        if (!stopped) await sample(false);
      }
    })().catch((error: unknown) => (failure = error instanceof Error ? error : new Error(String(error))));
    return {
      stop: async () => {
        stopped = true;
        await polling;
        if (failure) throw failure;
        await sample(false);
        let seconds = 0;
        for (const [pid, cpu] of latest) seconds += cpu - first.get(pid)!;
        return seconds;
      },
    };
  };

  return {
    meter,
    query: async (sql) => (await client.query(sql)).rows,
    close: () => client.end().catch(() => undefined),
  };
}
