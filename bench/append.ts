/**
 * Trajectory ingest and read, in one run against one database:
 *  1. 100,000 records of about 1 KiB, in batches of 100, through `PUT …/append` (real HTTP,
 *     real fast-forward handshake), from 4 sessions written concurrently;
 *  2. the same rows written by plain multi-row INSERTs through `pg` (the floor);
 *  3. reading a 10,000-record session with `GET /api/trajectories/{id}`.
 * Prints records/s for both, their ratio (goal ≥ 0.5), p99 append latency and p99 read time
 * (goal < 300 ms). Figures only; nothing here asserts on time.
 *
 *   npm run bench:append                     (its own embedded PostgreSQL in a temp dir)
 *   DATABASE_URL=postgres://… npm run bench:append
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../src/db/embedded';
import { BENCH_ADMIN_TOKEN, startBenchServer } from './server';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 100_000);
const BATCH = 100;
const ROUNDS = 5; // 100,000 / 4 writers / 5 rounds = 5,000 records: whole batches
const WRITERS = Number(process.env.BENCH_WRITERS ?? 4);
const READ_SESSION_RECORDS = Number(process.env.BENCH_READ_RECORDS ?? 10_000);
const READS = Number(process.env.BENCH_READS ?? 30);
const PORT = Number(process.env.BENCH_PORT ?? 18182);
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN = BENCH_ADMIN_TOKEN;
const FILLER = 'x'.repeat(900);

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
function cpuSeconds(pid: number | string): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100 Hz)
}

/** CPU seconds used so far by every PostgreSQL process on this machine (backends exit, so count at both ends). */
function postgresCpuSeconds(): number {
  let total = 0;
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') total += cpuSeconds(pid);
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

/** A batch of `n` records of about 1 KiB, chained by parentUuid. */
function batch(prefix: string, start: number, n: number): { uuid: string; text: string }[] {
  return Array.from({ length: n }, (_, i) => {
    const k = start + i;
    const record = {
      uuid: `${prefix}-${k}`,
      parentUuid: k === 0 ? null : `${prefix}-${k - 1}`,
      type: 'assistant',
      message: { content: FILLER },
    };
    return { uuid: record.uuid, text: JSON.stringify(record) };
  });
}

/** Keep-alive HTTP/1.1 over node:http: the lightest client, so the machine's cores go to the server. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function call(method: string, route: string, token: string, body?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${BASE}${route}`,
      { method, agent, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode! >= 400) reject(new Error(`${method} ${route}: ${res.statusCode} ${text.slice(0, 300)}`));
          else resolve(text);
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Appends records `from` … `from + total - 1` of a session whose last record is `from - 1`. */
async function appendAll(token: string, sessionId: string, total: number, latencies: number[], from = 0) {
  let head: string | null = from === 0 ? null : `${sessionId}-${from - 1}`;
  for (let start = from; start < from + total; start += BATCH) {
    const records = batch(sessionId, start, Math.min(BATCH, from + total - start));
    const body = `{"base_uuid":${JSON.stringify(head)},"records":[${records.map((r) => r.text).join(',')}]}`;
    const began = performance.now();
    await call('PUT', `/api/trajectories/${sessionId}/append`, token, body);
    latencies.push(performance.now() - began);
    head = records[records.length - 1].uuid;
  }
}

async function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-bench-append-'));
  const embedded = process.env.DATABASE_URL ? undefined : await startEmbeddedPostgres(tmp, { database: 'bench' });
  const databaseUrl = process.env.DATABASE_URL ?? embedded!.url;
  const server = await startBenchServer(PORT, { DATABASE_URL: databaseUrl });
  try {
    const run = Date.now().toString(36);
    const user = JSON.parse(
      await call('POST', '/api/admin/users', ADMIN, JSON.stringify({ email: `bench-${run}@bench.example`, name: 'Bench' })),
    );
    await call('PATCH', `/api/admin/users/${user.user_id}`, ADMIN, JSON.stringify({ storage_quota_bytes: 1e12 }));
    const token = JSON.parse(await call('POST', `/api/admin/users/${user.user_id}/tokens`, ADMIN, JSON.stringify({ label: 'bench' })))
      .token as string;

    // 1 and 2, interleaved in rounds (alternating which goes first) so that neither side pays
    // alone for checkpoints or autovacuum the other one caused.
    process.stdout.write(`appending ${RECORDS} records (~1 KiB, batches of ${BATCH}, ${WRITERS} sessions at once) through the API,\n`);
    process.stdout.write(`and the same rows with plain multi-row INSERTs through pg, in ${ROUNDS} interleaved rounds…\n`);
    const clients = await Promise.all(
      Array.from({ length: WRITERS }, async () => {
        const client = new Client({ connectionString: databaseUrl });
        await client.connect();
        return client;
      }),
    );
    const latencies: number[] = [];
    const perSession = RECORDS / WRITERS / ROUNDS;
    let apiSeconds = 0;
    let floorSeconds = 0;
    // CPU seconds per side: [server, postgres, this process] for the API, [postgres, this process] for the floor.
    const apiCpu = [0, 0, 0];
    const floorCpu = [0, 0];
    /** CPU seconds used so far by the processes `pids`, every PostgreSQL process, and this one. */
    const cpuNow = (pids: number[]) => {
      const self = process.cpuUsage();
      return [...pids.map(cpuSeconds), postgresCpuSeconds(), (self.user + self.system) / 1e6];
    };
    const measured = async (work: () => Promise<void>, pids: number[]) => {
      const before = cpuNow(pids);
      const began = performance.now();
      await work();
      const seconds = (performance.now() - began) / 1000;
      return { seconds, cpu: cpuNow(pids).map((used, i) => used - before[i]) };
    };
    const throughApi = async (round: number) => {
      const { seconds, cpu } = await measured(
        () =>
          Promise.all(
            Array.from({ length: WRITERS }, (_, w) => appendAll(token, `bench-${run}-api-${w}`, perSession, latencies, round * perSession)),
          ).then(() => undefined),
        [server.process.pid!],
      );
      apiSeconds += seconds;
      cpu.forEach((c, i) => (apiCpu[i] += c));
    };
    const throughFloor = async (round: number) => {
      const { seconds, cpu } = await measured(
        () =>
          Promise.all(
            clients.map(async (client, w) => {
              const sessionId = `bench-${run}-floor-${w}`;
              for (let start = round * perSession; start < (round + 1) * perSession; start += BATCH) {
                const records = batch(sessionId, start, Math.min(BATCH, (round + 1) * perSession - start));
                const values: unknown[] = [];
                const rows = records.map((r, i) => {
                  values.push(
                    sessionId,
                    start + i + 1,
                    r.uuid,
                    i === 0 && start === 0 ? null : `${sessionId}-${start + i - 1}`,
                    'assistant',
                    r.text,
                    Buffer.byteLength(r.text),
                  );
                  const o = i * 7;
                  return `($${o + 1}, $${o + 2}, $${o + 3}, $${o + 4}, $${o + 5}, $${o + 6}, $${o + 7})`;
                });
                await client.query(
                  `insert into trajectory_records (session_id, seq, uuid, parent_uuid, type, raw, bytes) values ${rows.join(',')}`,
                  values,
                );
              }
            }),
          ).then(() => undefined),
        [],
      );
      floorSeconds += seconds;
      cpu.forEach((c, i) => (floorCpu[i] += c));
    };
    for (let w = 0; w < WRITERS; w++) {
      await clients[w].query(`insert into trajectories (id, owner_id) values ($1, $2)`, [`bench-${run}-floor-${w}`, user.user_id]);
    }
    for (let round = 0; round < ROUNDS; round++) {
      if (round % 2 === 0) {
        await throughApi(round);
        await throughFloor(round);
      } else {
        await throughFloor(round);
        await throughApi(round);
      }
    }
    await Promise.all(clients.map((c) => c.end()));

    // 3. Reading a 10,000-record session.
    const readId = `bench-${run}-read`;
    await appendAll(token, readId, READ_SESSION_RECORDS, []);
    const reads: number[] = [];
    for (let i = 0; i < READS; i++) {
      const start = performance.now();
      const body = await call('GET', `/api/trajectories/${readId}`, token);
      reads.push(performance.now() - start);
      if (i === 0 && !body.includes(`"${readId}-${READ_SESSION_RECORDS - 1}"`)) throw new Error('read did not return the whole session');
    }

    const apiRate = RECORDS / apiSeconds;
    const floorRate = RECORDS / floorSeconds;
    process.stdout.write(
      `\nappend through the API   ${apiRate.toFixed(0).padStart(8)} records/s   (${apiSeconds.toFixed(1)} s; p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms per 100-record append)\n`,
    );
    process.stdout.write(`plain INSERT (floor)     ${floorRate.toFixed(0).padStart(8)} records/s   (${floorSeconds.toFixed(1)} s)\n`);
    process.stdout.write(`API / floor: ${(apiRate / floorRate).toFixed(2)} (goal ≥ 0.5)\n`);
    const batches = RECORDS / BATCH;
    const ms = (seconds: number) => `${((seconds / batches) * 1000).toFixed(1)} ms`;
    process.stdout.write(
      `CPU per 100 records: API: server ${ms(apiCpu[0])}, postgres ${ms(apiCpu[1])}, this client ${ms(apiCpu[2])}; floor: postgres ${ms(floorCpu[0])}, this client ${ms(floorCpu[1])} (2 cores)\n`,
    );
    process.stdout.write(
      `read a ${READ_SESSION_RECORDS}-record session: p50 ${percentile(reads, 50).toFixed(0)} ms, p99 ${percentile(reads, 99).toFixed(0)} ms over ${READS} reads (goal p99 < 300 ms)\n`,
    );
  } finally {
    agent.destroy();
    await server.stop();
    await embedded?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
