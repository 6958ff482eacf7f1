/**
 * Release downloads, in one run: the same 1 GiB file through
 *  1. the download endpoint (`GET /admin/api/public/app/core/download/…`, file store), and
 *  2. nginx (Debian's package), started here on a loopback port, serving the stored file itself;
 * whole-file MB/s for both and their ratio (goal ≥ 0.8), then rounds of 1 MiB range requests at
 * random offsets, 50 at a time, against each (goal ≥ 0.8 too). Rounds alternate which server goes
 * first, and every round is printed: the machine may be shared, so look at the spread as well as
 * the overall ratio. Figures only; nothing asserts on time.
 *
 *   npm run bench:download                       (embedded PostgreSQL in a temp dir)
 *   BENCH_FILE_MIB=256 BENCH_ROUNDS=5 BENCH_RANGE_REQUESTS=4000 npm run bench:download
 *   BENCH_NODE_ARGS=--cpu-prof npm run bench:download   (profile the service: a .cpuprofile in the cwd)
 * Needs /usr/sbin/nginx (apt-get install nginx-light).
 */
import { ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freePort, startEmbeddedPostgres } from '../src/db/embedded';
import { startBenchServer } from './server';

const FILE_MIB = Number(process.env.BENCH_FILE_MIB ?? 1024);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const RANGE_REQUESTS = Number(process.env.BENCH_RANGE_REQUESTS ?? 2000);
const RANGE_CONCURRENCY = 50;
const RANGE_BYTES = 1024 * 1024;
const NGINX = process.env.NGINX ?? '/usr/sbin/nginx';
const RELEASE_TOKEN = 'bench-release-token';
const MB = 1e6;

const agent = new http.Agent({ keepAlive: true, maxSockets: RANGE_CONCURRENCY });

/** GETs `url`, discarding the body; resolves with the bytes received. */
function fetchBytes(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers }, (res) => {
        if (res.statusCode !== 200 && res.statusCode !== 206) return reject(new Error(`${url}: ${res.statusCode}`));
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve(bytes));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** Writes `mib` MiB of random bytes to `file`, returning the SHA-256 (progress on stdout). */
async function makeFile(file: string, mib: number): Promise<string> {
  const hash = createHash('sha256');
  const out = fs.createWriteStream(file);
  const block = randomBytes(1024 * 1024);
  for (let i = 0; i < mib; i++) {
    block.writeUInt32LE(i, 0); // every MiB differs
    hash.update(block);
    if (!out.write(block)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error) => (error ? reject(error) : resolve())));
  return hash.digest('hex');
}

function upload(base: string, route: string, file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}${route}`,
      { method: 'PUT', headers: { authorization: `Bearer ${RELEASE_TOKEN}`, 'content-type': 'application/octet-stream' } },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 201 ? resolve() : reject(new Error(`upload: ${res.statusCode}`))));
      },
    );
    req.on('error', reject);
    fs.createReadStream(file).pipe(req);
  });
}

async function startNginx(root: string, dir: string): Promise<{ url: string; process: ChildProcess }> {
  const port = await freePort();
  const conf = path.join(dir, 'nginx.conf');
  fs.writeFileSync(
    conf,
    // Workers run as the bench's user, so they can read the service's 0600 files.
    `${process.getuid?.() === 0 ? 'user root; ' : ''}daemon off; worker_processes 1; pid ${dir}/nginx.pid; error_log ${dir}/error.log;
events { worker_connections 1024; }
http {
  access_log off; sendfile on; tcp_nopush on; keepalive_requests 100000;
  client_body_temp_path ${dir}; proxy_temp_path ${dir}; fastcgi_temp_path ${dir}; uwsgi_temp_path ${dir}; scgi_temp_path ${dir};
  server { listen 127.0.0.1:${port}; root ${root}; }
}
`,
  );
  const child = spawn(NGINX, ['-c', conf, '-p', dir], { stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(url).then(
        () => true,
        () => false,
      )
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { url, process: child };
}

/** Clock ticks per second of /proc/<pid>/stat times (Linux's USER_HZ). */
const CLOCK_TICKS = 100;

/**
 * CPU seconds (user + system, all threads) used so far by `pid` and its descendants (nginx's
 * workers), from /proc; null where there is none. Less sensitive to a busy machine than rates.
 */
function cpuSeconds(pid: number | undefined): number | null {
  if (pid === undefined || !fs.existsSync(`/proc/${pid}/stat`)) return null;
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of the line, 12 and 13 after "pid (comm) ".
  let ticks = Number(fields[11]) + Number(fields[12]);
  for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
    const children = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
    for (const child of children ? children.split(' ') : []) ticks += (cpuSeconds(Number(child)) ?? 0) * CLOCK_TICKS;
  }
  return ticks / CLOCK_TICKS;
}

/** `count` requests of 1 MiB at random offsets, `RANGE_CONCURRENCY` at a time: MB/s and requests/s. */
async function ranges(url: string, size: number, count: number) {
  let next = 0;
  let bytes = 0;
  const began = performance.now();
  await Promise.all(
    Array.from({ length: RANGE_CONCURRENCY }, async () => {
      while (next++ < count) {
        const start = Math.floor(Math.random() * (size - RANGE_BYTES));
        const received = await fetchBytes(url, { range: `bytes=${start}-${start + RANGE_BYTES - 1}` });
        bytes += received;
      }
    }),
  );
  const seconds = (performance.now() - began) / 1000;
  if (bytes !== count * RANGE_BYTES) throw new Error(`range requests returned ${bytes} bytes, expected ${count * RANGE_BYTES}`);
  return { mbps: bytes / MB / seconds, rps: count / seconds };
}

async function main() {
  if (!fs.existsSync(NGINX)) throw new Error(`${NGINX} not found: apt-get install nginx-light (or set NGINX)`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-bench-download-'));
  // As root, the embedded PostgreSQL runs as the postgres user, who must be able to enter it.
  fs.chmodSync(tmp, 0o711);
  const embedded = process.env.DATABASE_URL ? undefined : await startEmbeddedPostgres(path.join(tmp, 'pg'), { database: 'bench' });
  const port = await freePort();
  const server = await startBenchServer(port, {
    DATABASE_URL: process.env.DATABASE_URL ?? embedded!.url,
    RELEASE_TOKEN,
    BLOB_STORE: 'file',
  });
  let nginx: { url: string; process: ChildProcess } | undefined;
  try {
    const file = path.join(tmp, 'labdesk-core.bin');
    process.stdout.write(`writing a ${FILE_MIB} MiB file…\n`);
    const sha256 = await makeFile(file, FILE_MIB);
    const size = FILE_MIB * 1024 * 1024;
    const version = `1.0.${Date.now() % 100000}`;
    process.stdout.write('publishing it through the release endpoints…\n');
    await upload(server.url, `/admin/api/release/core/files/${version}/labdesk-core.bin`, file);
    const published = await fetch(`${server.url}/admin/api/release/core/manifest`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${RELEASE_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ version, force: true, files: [{ filename: 'labdesk-core.bin', size, sha256 }] }),
    });
    if (!published.ok) throw new Error(`publish: ${published.status} ${await published.text()}`);
    fs.rmSync(file);

    // nginx serves the very file the service stores (file store: DATA_DIR/blobs/releases/…).
    nginx = await startNginx(path.join(server.dataDir, 'blobs'), tmp);
    const targets = {
      labdesk: `${server.url}/admin/api/public/app/core/download/${version}/labdesk-core.bin`,
      nginx: `${nginx.url}/releases/core/${version}/labdesk-core.bin`,
    };
    const whole = { labdesk: 0, nginx: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? (['labdesk', 'nginx'] as const) : (['nginx', 'labdesk'] as const);
      for (const name of order) {
        const began = performance.now();
        const bytes = await fetchBytes(targets[name]);
        if (bytes !== size) throw new Error(`${name} sent ${bytes} bytes, expected ${size}`);
        whole[name] += (performance.now() - began) / 1000;
        process.stdout.write(
          `  round ${round + 1}: ${name.padEnd(7)} ${(size / MB / ((performance.now() - began) / 1000)).toFixed(0)} MB/s\n`,
        );
      }
    }
    const rate = { labdesk: (ROUNDS * size) / MB / whole.labdesk, nginx: (ROUNDS * size) / MB / whole.nginx };
    process.stdout.write(`\nwhole ${FILE_MIB} MiB file, ${ROUNDS} rounds each:\n`);
    process.stdout.write(`  labdesk download endpoint ${rate.labdesk.toFixed(0).padStart(6)} MB/s\n`);
    process.stdout.write(`  nginx                     ${rate.nginx.toFixed(0).padStart(6)} MB/s\n`);
    process.stdout.write(`  labdesk / nginx: ${(rate.labdesk / rate.nginx).toFixed(2)} (goal ≥ 0.8)\n`);

    process.stdout.write(
      `\n${RANGE_REQUESTS} requests of 1 MiB at random offsets, ${RANGE_CONCURRENCY} at a time, per server and round:\n`,
    );
    await ranges(targets.labdesk, size, RANGE_CONCURRENCY); // warm both
    await ranges(targets.nginx, size, RANGE_CONCURRENCY);
    const rangeSeconds = { labdesk: 0, nginx: 0 };
    const pids = { labdesk: server.process.pid, nginx: nginx.process.pid };
    const cpu = { labdesk: 0, nginx: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? (['labdesk', 'nginx'] as const) : (['nginx', 'labdesk'] as const);
      for (const name of order) {
        const cpuBefore = cpuSeconds(pids[name]);
        const result = await ranges(targets[name], size, RANGE_REQUESTS);
        const cpuUsed = cpuBefore === null ? null : cpuSeconds(pids[name])! - cpuBefore;
        rangeSeconds[name] += RANGE_REQUESTS / result.rps;
        cpu[name] += cpuUsed ?? NaN;
        const cpuText = cpuUsed === null ? '' : `  ${((cpuUsed / RANGE_REQUESTS) * 1e6).toFixed(0).padStart(5)} µs CPU/request`;
        process.stdout.write(
          `  round ${round + 1}: ${name.padEnd(7)} ${result.mbps.toFixed(0).padStart(6)} MB/s  ${result.rps.toFixed(0).padStart(5)} requests/s${cpuText}\n`,
        );
      }
    }
    const rps = { labdesk: (ROUNDS * RANGE_REQUESTS) / rangeSeconds.labdesk, nginx: (ROUNDS * RANGE_REQUESTS) / rangeSeconds.nginx };
    process.stdout.write(`\n1 MiB ranges, ${ROUNDS} rounds each:\n`);
    process.stdout.write(`  labdesk download endpoint ${rps.labdesk.toFixed(0).padStart(6)} requests/s\n`);
    process.stdout.write(`  nginx                     ${rps.nginx.toFixed(0).padStart(6)} requests/s\n`);
    process.stdout.write(`  labdesk / nginx: ${(rps.labdesk / rps.nginx).toFixed(2)} (goal ≥ 0.8)\n`);
    if (!Number.isNaN(cpu.labdesk + cpu.nginx)) {
      const perRequest = (seconds: number) => `${((seconds / (ROUNDS * RANGE_REQUESTS)) * 1e6).toFixed(0).padStart(6)} µs`;
      process.stdout.write(`  CPU per request (the server's own, all threads; steadier than rates on a shared machine):\n`);
      process.stdout.write(
        `    labdesk ${perRequest(cpu.labdesk)}   nginx ${perRequest(cpu.nginx)}   labdesk / nginx: ${(cpu.labdesk / cpu.nginx).toFixed(2)}\n`,
      );
    }
    process.stdout.write(
      `\nsummary: whole file ${(rate.labdesk / rate.nginx).toFixed(2)} × nginx, 1 MiB ranges ${(rps.labdesk / rps.nginx).toFixed(2)} × nginx\n`,
    );
  } finally {
    agent.destroy();
    nginx?.process.kill('SIGTERM');
    await server.stop();
    await embedded?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
