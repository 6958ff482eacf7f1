/**
 * The load generator the request benches share: rounds of a fixed number of requests over
 * keep-alive connections (undici's Pool; autocannon ends rounds on whole seconds), targets
 * alternating round by round so drift on a shared machine hits them alike, and per target the
 * median round's requests/s, p50/p99 latency and the server's CPU time per request (read from
 * /proc: the least noisy figure on a busy machine), with its database's when the target measures
 * it (`databaseCpu`, e.g. bench/pg-cpu.ts). Figures only; nothing asserts on time.
 */
import fs from 'node:fs';
import { Pool } from 'undici';

/** One server under load: what each request is, and the process whose CPU time it costs. */
export interface LoadTarget {
  name: string;
  /** The full URL requested (its origin is the pool's). */
  url: string;
  headers: Record<string, string>;
  /** The server's process id (its CPU time is read from /proc). */
  pid: number;
  method?: 'GET' | 'POST';
  /** A fresh body per request (e.g. a new JSON-RPC id and message id). */
  body?: () => string;
  /** Checks an answer (status and text); throws when it is not what the target must answer. Without it: status 200, body unread. */
  verify?: (statusCode: number, text: string) => void;
  /** Starts measuring the CPU the server's database spends for it (e.g. its PostgreSQL backends), from then until the meter's `stop()`. */
  databaseCpu?: () => Promise<CpuMeter>;
}

/** CPU time spent elsewhere than in the server's process, measured over a round. */
export interface CpuMeter {
  /** Ends the measure; answers the CPU seconds spent since it started. */
  stop(): Promise<number>;
}

export interface Round {
  rps: number;
  p50: number;
  p99: number;
  cpuMsPerRequest: number;
  /** With `databaseCpu`: the database's CPU per request. */
  databaseCpuMsPerRequest?: number;
}

export interface Figures {
  rps: number;
  p50: number;
  p99: number;
  cpu: number;
  /** With `databaseCpu`: the median round's database CPU, and the median of the rounds' server + database CPU (ms/request). */
  databaseCpu?: number;
  totalCpu?: number;
}

/** Clock ticks per second of /proc/<pid>/stat times (Linux's USER_HZ, `getconf CLK_TCK`). */
const CLOCK_TICKS = 100;

/** CPU seconds a process has used so far (utime + stime). */
export function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/**
 * CPU seconds (user + system, all threads) used so far by `pid` and every process under it
 * (nginx's worker under its master), from /proc; null when `pid` is gone. Descendants are found
 * by their parent pid, since /proc/<pid>/task/<tid>/children exists only on kernels built with
 * CONFIG_PROC_CHILDREN. A child that exited and was waited for counts in its parent's
 * cutime/cstime, so the sum never goes backwards.
 */
export function treeCpuSeconds(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  const processes = new Map<number, { ppid: number; ticks: number }>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    // After "pid (comm) ": state, ppid, …; utime, stime, cutime, cstime are fields 14–17 of the line.
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    processes.set(Number(entry), { ppid: Number(fields[1]), ticks });
  }
  if (!processes.has(pid)) return null;
  let ticks = 0;
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    ticks += processes.get(tree[i])!.ticks;
    for (const [child, { ppid }] of processes) if (ppid === tree[i]) tree.push(child);
  }
  return ticks / CLOCK_TICKS;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * `amount` requests to the target over `connections` keep-alive connections, each sending its
 * next request when the previous answer is read.
 * @throws Error when an answer is not what the target must answer (figures would be meaningless)
 */
export async function round(target: LoadTarget, amount: number, connections: number): Promise<Round> {
  const url = new URL(target.url);
  const pool = new Pool(url.origin, { connections, pipelining: 1 });
  const latencies: number[] = [];
  let started = 0;
  const worker = async () => {
    while (started < amount) {
      started++;
      const began = performance.now();
      const { statusCode, body } = await pool.request({
        method: target.method ?? 'GET',
        path: url.pathname + url.search,
        headers: target.headers,
        body: target.body?.(),
      });
      if (target.verify) target.verify(statusCode, await body.text());
      else {
        await body.dump();
        if (statusCode !== 200) throw new Error(`${target.name}: answered ${statusCode}; figures would be meaningless`);
      }
      latencies.push(performance.now() - began);
    }
  };
  const meter = await target.databaseCpu?.();
  const cpuBefore = cpuSeconds(target.pid);
  const began = performance.now();
  let databaseCpu: number | undefined;
  try {
    await Promise.all(Array.from({ length: connections }, worker));
  } finally {
    await pool.close();
    // Stopped even when an answer was wrong: a meter may poll until stopped.
    databaseCpu = await meter?.stop();
  }
  const seconds = (performance.now() - began) / 1000;
  const cpu = cpuSeconds(target.pid) - cpuBefore;
  latencies.sort((a, b) => a - b);
  return {
    rps: amount / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    cpuMsPerRequest: (cpu * 1000) / amount,
    ...(databaseCpu === undefined ? {} : { databaseCpuMsPerRequest: (databaseCpu * 1000) / amount }),
  };
}

/**
 * A warm-up round per target (`warmUp` requests), then `rounds` rounds of `requests` per target,
 * each round starting with a different target so that none always runs first after a pause.
 * Answers each target's median round.
 */
export async function alternatingRounds(
  targets: LoadTarget[],
  opts: { requests: number; rounds: number; connections: number; warmUp: number },
): Promise<Map<string, Figures>> {
  process.stdout.write(`warming up…\n`);
  for (const target of targets) await round(target, opts.warmUp, opts.connections);
  process.stdout.write(
    `${opts.rounds} alternating rounds of ${opts.requests} requests per target, ${opts.connections} keep-alive connections…\n`,
  );
  const rounds = new Map<string, Round[]>(targets.map((target) => [target.name, []]));
  for (let i = 0; i < opts.rounds; i++) {
    for (let j = 0; j < targets.length; j++) {
      const target = targets[(i + j) % targets.length];
      const result = await round(target, opts.requests, opts.connections);
      rounds.get(target.name)!.push(result);
      process.stdout.write(`  round ${i + 1} ${target.name}: ${result.rps.toFixed(0)} req/s, p99 ${result.p99.toFixed(1)} ms\n`);
    }
  }
  const figuresOf = (rs: Round[]): Figures => {
    const database = rs.flatMap((r) => (r.databaseCpuMsPerRequest === undefined ? [] : [r.databaseCpuMsPerRequest]));
    return {
      rps: median(rs.map((r) => r.rps)),
      p50: median(rs.map((r) => r.p50)),
      p99: median(rs.map((r) => r.p99)),
      cpu: median(rs.map((r) => r.cpuMsPerRequest)),
      // The total's median is taken over the rounds' totals, not summed from the two medians.
      ...(database.length
        ? { databaseCpu: median(database), totalCpu: median(rs.map((r) => r.cpuMsPerRequest + (r.databaseCpuMsPerRequest ?? 0))) }
        : {}),
    };
  };
  return new Map([...rounds].map(([name, rs]) => [name, figuresOf(rs)]));
}

/** One line per target: its median round's figures, each with its ratio to the `base` target's (when given). */
export function printFigures(figures: Map<string, Figures>, base?: string): void {
  const baseFigures = base ? figures.get(base) : undefined;
  const ratio = (value: number, of: number | undefined) => (of ? ` (${(value / of).toFixed(2)}×)` : '');
  for (const [name, s] of figures) {
    process.stdout.write(
      `${name.padEnd(22)} ${s.rps.toFixed(0).padStart(6)} req/s${ratio(s.rps, baseFigures?.rps).padEnd(9)}` +
        `  p50 ${s.p50.toFixed(1).padStart(5)} ms${ratio(s.p50, baseFigures?.p50).padEnd(9)}  p99 ${s.p99.toFixed(1).padStart(5)} ms${ratio(s.p99, baseFigures?.p99).padEnd(9)}` +
        `  server CPU ${s.cpu.toFixed(3)} ms/request${ratio(s.cpu, baseFigures?.cpu)}` +
        '\n',
    );
  }
}
