/**
 * Exports of a 10,000-record trajectory (docs/api/trajectories.md, "Export"): the notebook and the
 * HTML report, as the owner's and for sharing (secrets masked), each timed end to end and the
 * server's resident memory sampled every 20 ms while it writes. The anchor, in the same rounds:
 * the NDJSON download of the same records (the plainest streamed read). Prints per export the
 * median of the rounds: seconds, MB written, the server's peak RSS above its level before the
 * request, and the time as a multiple of the download's. Figures only; nothing asserts on time.
 *
 *   npm run bench:export                     (embedded PostgreSQL in a temp dir; with DATABASE_URL, a scratch database)
 *   BENCH_RECORDS=10000 BENCH_ROUNDS=3 npm run bench:export
 */
import fs from 'node:fs';
import http from 'node:http';
import { BENCH_ADMIN_TOKEN, benchDatabase, callJson, startBenchServer } from './server';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PORT = Number(process.env.BENCH_PORT ?? 18231);
const BATCH = 500;

/** The records: a request, a shell call, its output (about 1.5 KB, a key in every tenth), an answer, again and again. */
function record(i: number, parentUuid: string | null) {
  const uuid = `rec-${i}`;
  switch (i % 4) {
    case 0:
      return { uuid, parentUuid, type: 'user', message: { role: 'user', content: `Step ${i}: fit the next window of the decay curve.` } };
    case 1:
      return {
        uuid,
        parentUuid,
        type: 'assistant',
        message: {
          role: 'assistant',
          content: [{ type: 'tool_use', id: `t${i}`, name: 'bash', input: { command: `python fit.py --window ${i}` } }],
        },
      };
    case 2: {
      const lines = Array.from(
        { length: 30 },
        (_, n) => `window ${i} sample ${n}: y=${Math.exp(-n / 7).toFixed(6)} residual=${(Math.sin(n) / 100).toFixed(6)}`,
      );
      if (i % 10 === 2) lines.push(`GITHUB_TOKEN=ghp_${'a1B2'.repeat(9)}`);
      return {
        uuid,
        parentUuid,
        type: 'user',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i - 1}`, content: lines.join('\n') }] },
      };
    }
    default:
      return { uuid, parentUuid, type: 'assistant', message: { role: 'assistant', content: `Window ${i}: half-life 4.${i % 10} h.` } };
  }
}

const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);

/** GETs `url` to the end, sampling the server's RSS meanwhile: seconds, bytes, peak RSS above the start (MB). */
function measure(url: string, token: string, pid: number): Promise<{ seconds: number; mb: number; peakMb: number }> {
  const before = rssKb(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssKb(pid))), 20);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { authorization: `Bearer ${token}` } }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`${url}: ${res.statusCode}`));
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => {
          clearInterval(sampler);
          peak = Math.max(peak, rssKb(pid));
          resolve({ seconds: (performance.now() - started) / 1000, mb: bytes / 1e6, peakMb: (peak - before) / 1024 });
        });
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
  const database = await benchDatabase('export');
  const server = await startBenchServer(PORT, database.env);
  try {
    const call = (method: string, route: string, token: string, body?: unknown) => callJson(server.url, method, route, token, body);
    const user = await call('POST', '/api/admin/users', BENCH_ADMIN_TOKEN, { email: 'export@bench.example', name: 'Export Bench' });
    const token = (await call('POST', `/api/admin/users/${user.user_id}/tokens`, BENCH_ADMIN_TOKEN, { label: 'bench' })).token as string;
    const id = 'export-bench';
    let head: string | null = null;
    for (let start = 0; start < RECORDS; start += BATCH) {
      const records = [];
      for (let i = start; i < Math.min(RECORDS, start + BATCH); i++) records.push(record(i, i === 0 ? null : `rec-${i - 1}`));
      await call('PUT', `/api/trajectories/${id}/append`, token, { base_uuid: head, records, title: 'Export bench' });
      head = records.at(-1)!.uuid;
      process.stdout.write(`\rappended ${Math.min(RECORDS, start + BATCH).toLocaleString('en')} records`);
    }
    process.stdout.write('\n');
    const base = `${server.url}/api/trajectories/${id}`;
    const targets: [string, string][] = [
      ['download (NDJSON, anchor)', `${base}?download=true`],
      ['notebook', `${base}/export?format=ipynb`],
      ['notebook for sharing', `${base}/export?format=ipynb&for_sharing=true`],
      ['HTML report', `${base}/export?format=html`],
      ['HTML report for sharing', `${base}/export?format=html&for_sharing=true`],
    ];
    const figures = new Map<string, { seconds: number[]; mb: number[]; peakMb: number[] }>();
    for (let round = 1; round <= ROUNDS; round++)
      for (const [name, url] of round % 2 ? targets : [...targets].reverse()) {
        const one = await measure(url, token, server.process.pid!);
        const kept = figures.get(name) ?? { seconds: [], mb: [], peakMb: [] };
        kept.seconds.push(one.seconds);
        kept.mb.push(one.mb);
        kept.peakMb.push(one.peakMb);
        figures.set(name, kept);
        process.stdout.write(
          `  round ${round} ${name}: ${one.seconds.toFixed(2)} s, ${one.mb.toFixed(1)} MB, RSS +${one.peakMb.toFixed(1)} MB\n`,
        );
      }
    const anchor = median(figures.get(targets[0][0])!.seconds);
    process.stdout.write(`\n${RECORDS.toLocaleString('en')} records, median of ${ROUNDS} rounds\n`);
    for (const [name, kept] of figures)
      process.stdout.write(
        `${name.padEnd(28)} ${median(kept.seconds).toFixed(2).padStart(6)} s  ${median(kept.mb).toFixed(1).padStart(6)} MB  peak RSS +${median(kept.peakMb).toFixed(1).padStart(5)} MB  ${(median(kept.seconds) / anchor).toFixed(2)}× the download's time\n`,
      );
  } finally {
    await server.stop();
    await database.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
