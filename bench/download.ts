/**
 * Release downloads, in one run: the same 1 GiB file through
 *  1. the download endpoint (`GET /admin/api/public/app/core/download/…`, file store),
 *  2. nginx (Debian's package), started here on a loopback port, serving the stored file itself,
 *  3. nginx in front of a second labdesk instance with DOWNLOAD_OFFLOAD=x-accel-redirect: labdesk
 *     checks the request and names the file, nginx sends it (docs/operations.md's internal
 *     location; checked once for bytes and headers first). BENCH_OFFLOAD=0 leaves it out.
 * Whole-file MB/s of each and the ratios to nginx (goal ≥ 1.0); then rounds of 1 MiB range
 * requests at random offsets, 50 at a time, against each: requests/s and CPU time per request
 * (utime + stime from /proc/<pid>/stat before and after each round, of the labdesk process, of
 * nginx's master and worker, with any children; for 3, of both), and the ratios to nginx of
 * requests/s (goal ≥ 0.9) and of CPU per request (goal ≤ 1.5). Each side is warmed first with
 * BENCH_WARM_REQUESTS 1-byte ranges (default 5000) and 200 of 1 MiB, so that labdesk is measured
 * compiled, as a server that has run a while is. No range starts at byte 0 (that counts a
 * download). Rounds alternate which server goes first, and every round is printed: the machine
 * may be shared, so look at the spread as well as the overall ratios; CPU per request varies
 * less with other load than rates do. Figures only; nothing asserts on time.
 *
 *   npm run bench:download                       (embedded PostgreSQL in a temp dir; with
 *                                                 DATABASE_URL, a scratch database beside it)
 *   BENCH_FILE_MIB=256 BENCH_ROUNDS=2 BENCH_RANGE_REQUESTS=1000 npm run bench:download
 *   BENCH_NODE_ARGS=--cpu-prof npm run bench:download   (profile the service: a .cpuprofile per labdesk process in the cwd)
 * Needs /usr/sbin/nginx (apt-get install nginx-light).
 */
import { ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freePort, startEmbeddedPostgres } from '../src/db/embedded';
import { treeCpuSeconds } from './load';
import { BenchServer, benchDatabase, startBenchServer } from './server';

const FILE_MIB = Number(process.env.BENCH_FILE_MIB ?? 1024);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const RANGE_REQUESTS = Number(process.env.BENCH_RANGE_REQUESTS ?? 2000);
const WARM_REQUESTS = Number(process.env.BENCH_WARM_REQUESTS ?? 5000);
const RANGE_CONCURRENCY = 50;
const RANGE_BYTES = 1024 * 1024;
const NGINX = process.env.NGINX ?? '/usr/sbin/nginx';
const RELEASE_TOKEN = 'bench-release-token';
const OFFLOAD_PREFIX = '/_labdesk_files/';
const OFFLOAD = process.env.BENCH_OFFLOAD !== '0';
const MB = 1e6;

/**
 * Keep-alive connections for one run of requests, closed after it: a connection left idle while
 * the other server's round runs outlives the server's keep-alive timeout (Node's is 5 s), and a
 * request sent on it as the server closes it fails with "socket hang up".
 */
const newAgent = () => new http.Agent({ keepAlive: true, maxSockets: RANGE_CONCURRENCY });

/** GETs `url`, discarding the body; resolves with the bytes received. */
function fetchBytes(agent: http.Agent, url: string, headers: Record<string, string> = {}): Promise<number> {
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

/**
 * nginx in its own directory under `dir` (pid file, logs, temp files), one worker, with the
 * server block `server(port)` on a free loopback port.
 */
async function startNginx(dir: string, server: (port: number) => string): Promise<{ url: string; process: ChildProcess }> {
  fs.mkdirSync(dir, { recursive: true });
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
  ${server(port)}
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

/** The internal location of docs/operations.md ("Release downloads through a proxy"), as an operator would write it. */
const internalLocation = (blobs: string) => `location ${OFFLOAD_PREFIX}releases/ {
    internal;
    alias ${blobs}/releases/;
    etag off;
    add_header ETag $upstream_http_etag;
    add_header Last-Modified $upstream_http_last_modified;
    add_header X-Content-Type-Options nosniff;
  }`;

/**
 * What a client of the proxied side must see, checked once before timing: a range of the file
 * with the headers labdesk gives it itself, and If-Range keeping the range with labdesk's
 * validators. Else the figures would be of something other than downloads.
 */
async function checkProxied(proxied: string, direct: string): Promise<void> {
  const ask = (url: string, headers: Record<string, string>) =>
    fetch(url, { headers }).then(async (reply) => ({ reply, body: Buffer.from(await reply.arrayBuffer()) }));
  const mine = await ask(direct, { range: 'bytes=1000-1999' });
  const problems: string[] = [];
  for (const ifRange of [mine.reply.headers.get('etag')!, mine.reply.headers.get('last-modified')!]) {
    const { reply, body } = await ask(proxied, { range: 'bytes=1000-1999', 'if-range': ifRange });
    if (reply.status !== 206) problems.push(`status ${reply.status}, not 206, with If-Range: ${ifRange}`);
    if (!body.equals(mine.body)) problems.push('other bytes than labdesk’s');
    for (const name of ['etag', 'last-modified', 'content-type', 'content-disposition', 'cache-control', 'x-content-type-options'])
      if (reply.headers.get(name) !== mine.reply.headers.get(name))
        problems.push(`${name}: ${reply.headers.get(name)}, not ${mine.reply.headers.get(name)}`);
    if (reply.headers.has('x-accel-redirect')) problems.push('X-Accel-Redirect reached the client');
  }
  if (problems.length) throw new Error(`nginx in front of labdesk (X-Accel-Redirect): ${[...new Set(problems)].join('; ')}`);
}

/** `count` requests of 1 MiB at random offsets, `RANGE_CONCURRENCY` at a time: MB/s and requests/s. */
async function ranges(url: string, size: number, count: number, rangeBytes = RANGE_BYTES) {
  let next = 0;
  let bytes = 0;
  const agent = newAgent();
  const began = performance.now();
  try {
    await Promise.all(
      Array.from({ length: RANGE_CONCURRENCY }, async () => {
        while (next++ < count) {
          // Never from byte 0: such a range counts as a download, a database write per request.
          const start = 1 + Math.floor(Math.random() * (size - rangeBytes - 1));
          const received = await fetchBytes(agent, url, { range: `bytes=${start}-${start + rangeBytes - 1}` });
          bytes += received;
        }
      }),
    );
  } finally {
    agent.destroy();
  }
  const seconds = (performance.now() - began) / 1000;
  if (bytes !== count * rangeBytes) throw new Error(`range requests returned ${bytes} bytes, expected ${count * rangeBytes}`);
  return { mbps: bytes / MB / seconds, rps: count / seconds };
}

/** One server under test: where it serves the file, and the processes whose CPU it costs. */
interface Side {
  name: string;
  url: string;
  processes: { name: string; pid: number | undefined }[];
}

/** CPU seconds used so far by each of `side`'s processes; null when one of them cannot be read. */
function sideCpu(side: Side): number[] | null {
  const seconds = side.processes.map(({ pid }) => treeCpuSeconds(pid));
  return seconds.includes(null) ? null : (seconds as number[]);
}

/** Rounds alternate which side goes first (rotate for more than two). */
const orderOf = <T>(sides: T[], round: number) => sides.map((_, i) => sides[(i + round) % sides.length]);

const ratio = (a: number, b: number) => (a / b).toFixed(2);

async function main() {
  if (!fs.existsSync(NGINX)) throw new Error(`${NGINX} not found: apt-get install nginx-light (or set NGINX)`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-bench-download-'));
  // As root, the embedded PostgreSQL runs as the postgres user, who must be able to enter it.
  fs.chmodSync(tmp, 0o711);
  // With DATABASE_URL, a scratch database beside it rather than that database itself.
  const scratch = process.env.DATABASE_URL ? await benchDatabase('download') : undefined;
  const embedded = scratch ? undefined : await startEmbeddedPostgres(path.join(tmp, 'pg'), { database: 'bench' });
  const databaseUrl = scratch?.env.DATABASE_URL ?? embedded!.url;
  const server = await startBenchServer(await freePort(), { DATABASE_URL: databaseUrl, RELEASE_TOKEN, BLOB_STORE: 'file' });
  const started: { process: ChildProcess }[] = [];
  let offloader: BenchServer | undefined;
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
    const blobs = path.join(server.dataDir, 'blobs');
    const nginx = await startNginx(path.join(tmp, 'nginx'), (port) => `server { listen 127.0.0.1:${port}; root ${blobs}; }`);
    started.push(nginx);
    const downloadPath = `/admin/api/public/app/core/download/${version}/labdesk-core.bin`;
    const labdesk: Side = {
      name: 'labdesk',
      url: `${server.url}${downloadPath}`,
      processes: [{ name: 'labdesk', pid: server.process.pid }],
    };
    const reference: Side = {
      name: 'nginx',
      url: `${nginx.url}/releases/core/${version}/labdesk-core.bin`,
      processes: [{ name: 'nginx', pid: nginx.process.pid }],
    };
    const sides = [labdesk, reference];
    if (OFFLOAD) {
      // A second instance (same database and DATA_DIR) that hands downloads to the nginx in front of it.
      offloader = await startBenchServer(await freePort(), {
        DATABASE_URL: databaseUrl,
        DATA_DIR: server.dataDir,
        RELEASE_TOKEN,
        BLOB_STORE: 'file',
        DOWNLOAD_OFFLOAD: 'x-accel-redirect',
        DOWNLOAD_OFFLOAD_PREFIX: OFFLOAD_PREFIX,
      });
      const upstream = new URL(offloader.url).host;
      const front = await startNginx(
        path.join(tmp, 'front'),
        (port) => `upstream labdesk { server ${upstream}; keepalive 64; }
  server {
  listen 127.0.0.1:${port};
  location / { proxy_pass http://labdesk; proxy_http_version 1.1; proxy_set_header Connection ""; proxy_set_header Host $http_host; }
  ${internalLocation(blobs)}
  }`,
      );
      started.push(front);
      await checkProxied(`${front.url}${downloadPath}`, labdesk.url);
      // Both processes serve each request: the proxy's CPU and the instance's.
      sides.push({
        name: 'nginx→labdesk',
        url: `${front.url}${downloadPath}`,
        processes: [
          { name: 'nginx', pid: front.process.pid },
          { name: 'labdesk', pid: offloader.process.pid },
        ],
      });
    }
    const compared = sides.filter((side) => side !== reference);
    const width = Math.max(...sides.map((side) => side.name.length));

    const whole = new Map(sides.map((side) => [side, 0]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of orderOf(sides, round)) {
        const agent = newAgent();
        const began = performance.now();
        const bytes = await fetchBytes(agent, side.url).finally(() => agent.destroy());
        if (bytes !== size) throw new Error(`${side.name} sent ${bytes} bytes, expected ${size}`);
        const seconds = (performance.now() - began) / 1000;
        whole.set(side, whole.get(side)! + seconds);
        process.stdout.write(`  round ${round + 1}: ${side.name.padEnd(width)} ${(size / MB / seconds).toFixed(0).padStart(6)} MB/s\n`);
      }
    }
    const rate = (side: Side) => (ROUNDS * size) / MB / whole.get(side)!;
    process.stdout.write(`\nwhole ${FILE_MIB} MiB file, ${ROUNDS} rounds each:\n`);
    for (const side of sides) process.stdout.write(`  ${side.name.padEnd(width)} ${rate(side).toFixed(0).padStart(6)} MB/s\n`);
    for (const side of compared) process.stdout.write(`  ${side.name} / nginx: ${ratio(rate(side), rate(reference))} (goal ≥ 1.0)\n`);

    process.stdout.write(
      `\n${RANGE_REQUESTS} requests of 1 MiB at random offsets, ${RANGE_CONCURRENCY} at a time, per server and round` +
        ` (CPU: user + system of the server's processes, all threads), after ${WARM_REQUESTS} of 1 byte and ${4 * RANGE_CONCURRENCY} of 1 MiB to warm each:\n`,
    );
    // Steady state, as a server that has run a while is in: V8 has compiled the request path
    // (which takes thousands of requests; 1-byte ranges run it without moving a gigabyte each
    // time), and the buffers and heap have grown to their working size.
    for (const side of sides) {
      await ranges(side.url, size, WARM_REQUESTS, 1);
      await ranges(side.url, size, 4 * RANGE_CONCURRENCY);
    }
    const totals = new Map(sides.map((side) => [side, { seconds: 0, cpu: side.processes.map(() => 0) }]));
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    /** CPU per request in ms, split by process where a side has several. */
    const cpuText = (side: Side, perRequest: number[]) =>
      `${(sum(perRequest) * 1e3).toFixed(3).padStart(7)} ms CPU/request` +
      (perRequest.length > 1 ? ` (${side.processes.map(({ name }, i) => `${name} ${(perRequest[i] * 1e3).toFixed(3)}`).join(' + ')})` : '');
    const line = (side: Side, rps: number, cpuPerRequest: number[]) =>
      `${side.name.padEnd(width)} ${rps.toFixed(0).padStart(6)} requests/s ${cpuText(side, cpuPerRequest)}`;
    const ratios = (side: Side, rps: (side: Side) => number, cpu: (side: Side) => number) =>
      `${side.name} / nginx: requests/s ${ratio(rps(side), rps(reference))} (goal ≥ 0.9), ` +
      `CPU/request ${ratio(cpu(side), cpu(reference))} (goal ≤ 1.5)`;
    for (let round = 0; round < ROUNDS; round++) {
      const rps = new Map<Side, number>();
      const cpu = new Map<Side, number>();
      for (const side of orderOf(sides, round)) {
        const cpuBefore = sideCpu(side);
        const result = await ranges(side.url, size, RANGE_REQUESTS);
        const cpuAfter = sideCpu(side);
        const used = side.processes.map((_, i) => (cpuBefore === null || cpuAfter === null ? NaN : cpuAfter[i] - cpuBefore[i]));
        rps.set(side, result.rps);
        cpu.set(side, sum(used) / RANGE_REQUESTS);
        const total = totals.get(side)!;
        total.seconds += RANGE_REQUESTS / result.rps;
        used.forEach((seconds, i) => (total.cpu[i] += seconds));
        process.stdout.write(
          `  round ${round + 1}: ${line(
            side,
            result.rps,
            used.map((seconds) => seconds / RANGE_REQUESTS),
          )}\n`,
        );
      }
      for (const side of compared)
        process.stdout.write(
          `           ${ratios(
            side,
            (s) => rps.get(s)!,
            (s) => cpu.get(s)!,
          )}\n`,
        );
    }
    const rps = (side: Side) => (ROUNDS * RANGE_REQUESTS) / totals.get(side)!.seconds;
    const cpuOf = (side: Side) => totals.get(side)!.cpu.map((seconds) => seconds / (ROUNDS * RANGE_REQUESTS));
    const cpu = (side: Side) => sum(cpuOf(side));
    process.stdout.write(`\n1 MiB ranges, ${ROUNDS} rounds each:\n`);
    for (const side of sides) process.stdout.write(`  ${line(side, rps(side), cpuOf(side))}\n`);
    for (const side of compared) process.stdout.write(`  ${ratios(side, rps, cpu)}\n`);
    process.stdout.write('\nsummary:\n');
    for (const side of compared)
      process.stdout.write(
        `  ${side.name.padEnd(width)} whole file ${ratio(rate(side), rate(reference))} × nginx (goal ≥ 1.0); 1 MiB ranges ` +
          `${ratio(rps(side), rps(reference))} × its requests/s (goal ≥ 0.9) at ${ratio(cpu(side), cpu(reference))} × its CPU/request (goal ≤ 1.5)\n`,
      );
  } finally {
    for (const { process: child } of started) child.kill('SIGTERM');
    await offloader?.stop();
    await server.stop();
    await embedded?.stop();
    await scratch?.drop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
