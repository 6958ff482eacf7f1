/**
 * A2A SendMessage, side by side in one run, measured against an anchor: what an agent built on
 * the official `@a2a-js/sdk` costs when it does what ours does (persist the task, ask the model).
 *
 * - anchor (the main comparison, bench/a2a-anchor-server.ts): the SDK's own server parts
 *   (`DefaultRequestHandler`, its Express JSON-RPC handler) with a PostgreSQL task store (one
 *   table, the task as jsonb) and an executor that asks the same scripted model over HTTP, on a
 *   scratch database of its own;
 * - labdesk: our endpoint (`labdesk serve` in its own process, A2A enabled with a key, every task
 *   and turn persisted in PostgreSQL);
 * - reference, for context (bench/a2a-reference-server.ts): the SDK's server with its
 *   `InMemoryTaskStore` and an echo executor: no database, no model.
 *
 * The model at the edge (bench/a2a-model-server.ts) answers at once, in a process of its own.
 * Each request is a blocking `SendMessage` that starts a new task and must answer it COMPLETED
 * (checked on every answer); the same request on every side. Alternating rounds over 16
 * keep-alive connections (bench/load.ts); prints per side the median round's throughput, p50,
 * p99, the server's CPU per request and its PostgreSQL's (the CPU of the client backends on its
 * database, from /proc: bench/pg-cpu.ts; PostgreSQL must run on this machine) and their total,
 * then labdesk's ratios to the anchor; checks that every SendMessage left its task (ListTasks'
 * total for ours, the table's rows for the anchor); then counts the SQL statements one
 * SendMessage costs, sequentially: the anchor's (every statement it sends), then ours (all of
 * them: ours and the job queue's, in a server of its own). Figures only; nothing here asserts
 * on time.
 *
 *   npm run bench:a2a                                   (embedded databases in temp dirs: one per server)
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:a2a
 *       (scratch databases created next to it, one per server, dropped at the end)
 *   REDIS_URL=redis://127.0.0.1:6379 npm run bench:a2a  (the server's pub/sub, so its wake-ups, through Redis)
 *   BENCH_REQUESTS=2000 BENCH_ROUNDS=5 BENCH_CONNECTIONS=16 npm run bench:a2a
 *   BENCH_ONLY=anchor,labdesk npm run bench:a2a         (only these sides: anchor, labdesk, reference)
 *   BENCH_NODE_ARGS=--cpu-prof BENCH_ONLY=labdesk npm run bench:a2a      (profile our side)
 *   BENCH_COUNT_STATEMENTS=0 npm run bench:a2a          (without the statement counts)
 *   BENCH_BASELINE=/path/to/other/checkout/dist DATABASE_URL=… npm run bench:a2a
 *       (also runs that build's server, on a scratch database of its own, in the same rounds: before/after)
 */
import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../src/db/embedded';
import { alternatingRounds, Figures, LoadTarget } from './load';
import { databaseCpu, DatabaseCpu } from './pg-cpu';
import { benchDatabase, BenchServer, callJson, forkReady, startBenchServer, startCountingServer } from './server';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const PORT = Number(process.env.BENCH_PORT ?? 18201);
const REFERENCE_PORT = PORT + 1;
const BASELINE_PORT = PORT + 2;
const ANCHOR_PORT = PORT + 3;
const BASELINE = process.env.BENCH_BASELINE;
/** Only these targets (comma-separated: anchor, labdesk, reference), e.g. to profile one. */
const ONLY = process.env.BENCH_ONLY?.split(',');
const wanted = (name: string) => !ONLY || ONLY.includes(name.split('@')[0]);
const MAIN = path.resolve(__dirname, '..', 'src', 'cli', 'main.js');

/** `labdesk a2a …` of a build on a running server's settings (its database); answers its stdout. */
function a2aCli(main: string, env: Record<string, string>, args: string[]): Promise<string> {
  const child = spawn(process.execPath, [main, 'a2a', ...args], {
    env: { ...process.env, ...env, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  return new Promise((resolve, reject) =>
    child.on('close', (status) => (status === 0 ? resolve(stdout) : reject(new Error(`labdesk a2a ${args.join(' ')} exited ${status}`)))),
  );
}

/** A2A enabled on a running server's database (the bootstrap admin owns it) with one key; answers the key. */
async function enableA2a(main: string, env: Record<string, string>): Promise<string> {
  await a2aCli(main, env, ['enable']);
  const created = await a2aCli(main, env, ['key', 'create', '--label', 'bench']);
  const key = /^key: +(ldk_a2a_\S+)$/m.exec(created)?.[1];
  if (!key) throw new Error(`no key in: ${created}`);
  return key;
}

let sent = 0;
/** A blocking SendMessage that starts a new task (a new JSON-RPC id and message id each time). */
const sendMessageBody = () => {
  sent++;
  return JSON.stringify({
    jsonrpc: '2.0',
    id: sent,
    method: 'SendMessage',
    params: {
      message: { messageId: `bench-${process.pid}-${sent}`, role: 'ROLE_USER', parts: [{ text: 'What is the mean of 2, 4 and 9?' }] },
    },
  });
};

/** Every answer must be a task COMPLETED: an error or a task still working would make the figures meaningless. */
function completedTask(name: string) {
  return (statusCode: number, text: string) => {
    const state =
      statusCode === 200
        ? (JSON.parse(text) as { result?: { task?: { status?: { state?: string } } } }).result?.task?.status?.state
        : undefined;
    if (state !== 'TASK_STATE_COMPLETED')
      throw new Error(`${name}: answered ${statusCode} ${text.slice(0, 300)}; figures would be meaningless`);
  };
}

const rpcHeaders = (key?: string): Record<string, string> => ({
  'content-type': 'application/json',
  'a2a-version': '1.0',
  ...(key ? { authorization: `Bearer ${key}` } : {}),
});

/** Our side on `port`: a server of `main` on `env`'s database, A2A enabled on its DATA_DIR, the model at `modelUrl`. */
async function startOurs(
  main: string,
  port: number,
  env: Record<string, string>,
  modelUrl: string,
  counting = false,
): Promise<{ server: BenchServer & { statements?(): Promise<number> }; key: string; dataDir: string }> {
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-bench-a2a-'));
  // The bench is one key sending as fast as it can: the model limits would refuse most of it.
  const serverEnv = {
    ...env,
    DATA_DIR: dataDir,
    LLM_PROVIDER: 'openai',
    LLM_MODEL: 'gpt-5',
    LLM_API_KEY: 'sk-bench',
    LLM_BASE_URL: modelUrl,
    A2A_KEY_REQUESTS_PER_MINUTE: '0',
    A2A_KEY_TOKENS_PER_DAY: '0',
    LLM_USER_TOKENS_PER_DAY: '0',
  };
  const server = counting ? await startCountingServer(port, serverEnv, { main }) : await startBenchServer(port, serverEnv, { main });
  // The settings and keys live in the database, and take effect without a restart: a DATA_DIR
  // started again (the counting run) keeps its key.
  const keyFile = path.join(dataDir, 'bench-key');
  const key = fs.existsSync(keyFile) ? fs.readFileSync(keyFile, 'utf8') : await enableA2a(main, serverEnv);
  fs.writeFileSync(keyFile, key);
  return { server, key, dataDir };
}

/** How many tasks the key's principal has (ListTasks' totalSize). */
async function taskCount(base: string, key: string): Promise<number> {
  const listed = await callJson(
    base,
    'POST',
    '/a2a/v1',
    key,
    { jsonrpc: '2.0', id: 'count', method: 'ListTasks', params: { pageSize: 1 } },
    { 'a2a-version': '1.0' },
  );
  return listed.result.totalSize as number;
}

/** The database our server on `dataDir` works on: `env`'s, or the embedded PostgreSQL it runs (joined, never stopped from here). */
async function ourDatabaseUrl(env: Record<string, string>, dataDir: string): Promise<string> {
  return env.DATABASE_URL ?? (await startEmbeddedPostgres(dataDir, { joinRunning: true })).url;
}

/** One blocking SendMessage, checked like the rounds' (a task COMPLETED). */
async function sendOnce(name: string, url: string, headers: Record<string, string>): Promise<void> {
  const response = await fetch(url, { method: 'POST', headers, body: sendMessageBody() });
  completedTask(name)(response.status, await response.text());
}

/** The SQL statements the anchor has sent so far (its answer to the IPC message `'statements'`). */
function anchorStatements(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    const answered = (message: unknown) => {
      if (typeof message !== 'object' || message === null || !('statements' in message)) return;
      child.off('message', answered);
      resolve(Number(message.statements));
    };
    child.on('message', answered);
    child.send('statements');
  });
}

/**
 * The sides with a database (the anchor first, then ours), CPU per request as the server's,
 * its PostgreSQL's and their total; then each of ours as a ratio to the anchor; then the
 * in-memory reference, for context.
 */
function printSides(figures: Map<string, Figures>): void {
  const ms = (value: number | undefined, digits = 3) => (value === undefined ? '–' : value.toFixed(digits));
  const line = (cells: string[]) =>
    process.stdout.write(
      `${cells[0].padEnd(18)}${cells
        .slice(1)
        .map((cell, i) => cell.padStart([8, 8, 8, 12, 16, 11][i]))
        .join('')}\n`,
    );
  const row = (name: string, s: Figures) =>
    line([name, s.rps.toFixed(0), ms(s.p50, 1), ms(s.p99, 1), ms(s.cpu), ms(s.databaseCpu), ms(s.totalCpu ?? s.cpu)]);
  const persisting = [...figures]
    .filter(([name]) => name !== 'reference')
    .sort(([a], [b]) => (a === 'anchor' ? -1 : b === 'anchor' ? 1 : 0));
  line(['', 'req/s', 'p50 ms', 'p99 ms', 'server CPU', 'PostgreSQL CPU', 'total CPU']);
  for (const [name, s] of persisting) row(name, s);
  const anchor = figures.get('anchor');
  for (const [name, s] of persisting) {
    if (name === 'anchor' || !anchor) continue;
    process.stdout.write(
      `${name} / anchor: throughput ${(s.rps / anchor.rps).toFixed(2)}×, total CPU per request ${(s.totalCpu! / anchor.totalCpu!).toFixed(2)}×\n`,
    );
  }
  const reference = figures.get('reference');
  if (reference) {
    process.stdout.write(`for context, no database and no model:\n`);
    row('reference', reference);
  }
}

async function main() {
  if (BASELINE && !process.env.DATABASE_URL) throw new Error('BENCH_BASELINE needs DATABASE_URL (a scratch database per server)');
  const database = await benchDatabase('a2a');
  const anchorDatabase = wanted('anchor') ? await benchDatabase('a2a-anchor') : undefined;
  const baselineDatabase = BASELINE ? await benchDatabase('a2a-baseline') : undefined;
  const helpers: { stop(): Promise<void> }[] = [];
  const dataDirs: string[] = [];
  /** The PostgreSQL CPU meters' connections: closed before their databases go. */
  const meters: DatabaseCpu[] = [];
  const meterOf = async (url: string) => {
    const meter = await databaseCpu(url);
    meters.push(meter);
    return meter;
  };
  try {
    const model = await forkReady<{ baseUrl: string }>(path.join(__dirname, 'a2a-model-server.js'));
    helpers.push(model);
    const reference = await forkReady<{ port: number }>(path.join(__dirname, 'a2a-reference-server.js'), { PORT: String(REFERENCE_PORT) });
    helpers.push(reference);
    const anchor = anchorDatabase
      ? await forkReady<{ port: number; databaseUrl: string }>(path.join(__dirname, 'a2a-anchor-server.js'), {
          ...anchorDatabase.env,
          PORT: String(ANCHOR_PORT),
          MODEL_URL: model.ready.baseUrl,
        })
      : undefined;
    if (anchor) helpers.push(anchor);
    const ours = await startOurs(MAIN, PORT, database.env, model.ready.baseUrl);
    helpers.push(ours.server);
    dataDirs.push(ours.dataDir);
    const oursDatabase = await meterOf(await ourDatabaseUrl(database.env, ours.dataDir));
    const anchorUrl = `http://127.0.0.1:${ANCHOR_PORT}/a2a/v1`;
    const anchorMeter = anchor ? await meterOf(anchor.ready.databaseUrl) : undefined;
    const all: LoadTarget[] = [
      {
        name: 'reference',
        method: 'POST',
        url: `http://127.0.0.1:${REFERENCE_PORT}/a2a/v1`,
        headers: rpcHeaders(),
        pid: reference.child.pid!,
        body: sendMessageBody,
        verify: completedTask('reference'),
      },
      ...(anchor
        ? [
            {
              name: 'anchor',
              method: 'POST' as const,
              url: anchorUrl,
              headers: rpcHeaders(),
              pid: anchor.child.pid!,
              body: sendMessageBody,
              verify: completedTask('anchor'),
              databaseCpu: anchorMeter!.meter,
            },
          ]
        : []),
      {
        name: 'labdesk',
        method: 'POST',
        url: `${ours.server.url}/a2a/v1`,
        headers: rpcHeaders(ours.key),
        pid: ours.server.process.pid!,
        body: sendMessageBody,
        verify: completedTask('labdesk'),
        databaseCpu: oursDatabase.meter,
      },
    ];
    if (BASELINE) {
      const baseline = await startOurs(
        path.resolve(BASELINE, 'src', 'cli', 'main.js'),
        BASELINE_PORT,
        baselineDatabase!.env,
        model.ready.baseUrl,
      );
      helpers.push(baseline.server);
      dataDirs.push(baseline.dataDir);
      all.push({
        name: 'labdesk@baseline',
        method: 'POST',
        url: `${baseline.server.url}/a2a/v1`,
        headers: rpcHeaders(baseline.key),
        pid: baseline.server.process.pid!,
        body: sendMessageBody,
        verify: completedTask('labdesk@baseline'),
        databaseCpu: (await meterOf(baselineDatabase!.env.DATABASE_URL)).meter,
      });
    }
    const targets = all.filter((target) => wanted(target.name));
    const anchorRows = async () => Number((await anchorMeter!.query<{ n: number }>('select count(*) as n from a2a_anchor_tasks'))[0].n);
    const before = await taskCount(ours.server.url, ours.key);
    const anchorBefore = anchor ? await anchorRows() : 0;
    const runs = ROUNDS * REQUESTS + Math.min(REQUESTS, 500);
    const figures = await alternatingRounds(targets, {
      requests: REQUESTS,
      rounds: ROUNDS,
      connections: CONNECTIONS,
      warmUp: Math.min(REQUESTS, 500),
    });
    process.stdout.write(
      `\nblocking SendMessage, a new task each; median round per side; CPU in ms/request: the server process, ` +
        `its PostgreSQL (the client backends on its database), their total\n`,
    );
    printSides(figures);
    const persisted = (name: string, count: number) =>
      process.stdout.write(`${name} tasks persisted: ${count} of ${runs} SendMessage calls${count === runs ? '' : '  (MISMATCH)'}\n`);
    if (anchor) persisted('anchor', (await anchorRows()) - anchorBefore);
    if (targets.some((target) => target.name === 'labdesk')) persisted('labdesk', (await taskCount(ours.server.url, ours.key)) - before);
    if (process.env.BENCH_COUNT_STATEMENTS !== '0') {
      const CALLS = 20;
      process.stdout.write(`\nSQL statements per SendMessage (sequential, ${CALLS} calls):\n`);
      if (anchor) {
        await sendOnce('anchor', anchorUrl, rpcHeaders());
        const at = await anchorStatements(anchor.child);
        for (let i = 0; i < CALLS; i++) await sendOnce('anchor', anchorUrl, rpcHeaders());
        process.stdout.write(`  anchor:  ${((await anchorStatements(anchor.child)) - at) / CALLS}  (every statement it sent)\n`);
      }
    }
    // Our server is started again, counting; the meter's connection would be cut with it (embedded).
    await oursDatabase.close();
    await ours.server.stop();
    if (process.env.BENCH_COUNT_STATEMENTS !== '0') {
      const counting = await startOurs(MAIN, PORT, { ...database.env, DATA_DIR: ours.dataDir }, model.ready.baseUrl, true);
      helpers.push(counting.server);
      const CALLS = 20;
      const call = () => sendOnce('labdesk', `${counting.server.url}/a2a/v1`, rpcHeaders(counting.key));
      await call();
      const at = await counting.server.statements!();
      for (let i = 0; i < CALLS; i++) await call();
      process.stdout.write(
        `  labdesk: ${((await counting.server.statements!()) - at) / CALLS}  (every statement the server sent, the job queue's included)\n`,
      );
    }
  } finally {
    for (const meter of meters) await meter.close();
    for (const helper of helpers.reverse()) await helper.stop();
    for (const dataDir of dataDirs) if (dataDir !== database.env.DATA_DIR) fs.rmSync(dataDir, { recursive: true, force: true });
    await database.drop();
    await anchorDatabase?.drop();
    await baselineDatabase?.drop();
  }
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
