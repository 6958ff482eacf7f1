/**
 * A2A SendMessage against the SDK's reference server, side by side in one run: our endpoint
 * (`labdesk serve` in its own process, A2A enabled with a key, the scripted model at the edge
 * answering at once in a process of its own, every task and turn persisted in PostgreSQL) and
 * the official `@a2a-js/sdk` server (`DefaultRequestHandler`, `InMemoryTaskStore`, an echo
 * executor: bench/a2a-reference-server.ts). Each request is a blocking `SendMessage` that starts
 * a new task and answers it COMPLETED (checked on every answer). Alternating rounds over 16
 * keep-alive connections (bench/load.ts); prints per side the median round's throughput, p50,
 * p99 and server CPU per request, with the ratios to the reference (with the embedded database
 * also our server's CPU with its PostgreSQL's, a child process); checks that every
 * SendMessage left its task (ListTasks' total); then counts the SQL statements one SendMessage
 * costs (all of them: ours and the job queue's), sequentially, in a server of its own. Figures
 * only; nothing here asserts on time.
 *
 *   npm run bench:a2a                                   (embedded database in a temp dir)
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:a2a
 *   REDIS_URL=redis://127.0.0.1:6379 npm run bench:a2a  (the server's pub/sub, so its wake-ups, through Redis)
 *   BENCH_REQUESTS=2000 BENCH_ROUNDS=5 BENCH_CONNECTIONS=16 npm run bench:a2a
 *   BENCH_NODE_ARGS=--cpu-prof BENCH_ONLY=labdesk npm run bench:a2a      (profile our side)
 *   BENCH_BASELINE=/path/to/other/checkout/dist DATABASE_URL=… npm run bench:a2a
 *       (also runs that build's server, on a scratch database of its own, in the same rounds: before/after)
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { alternatingRounds, LoadTarget, printFigures } from './load';
import { benchDatabase, BenchServer, callJson, forkReady, startBenchServer, startCountingServer } from './server';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const PORT = Number(process.env.BENCH_PORT ?? 18201);
const REFERENCE_PORT = PORT + 1;
const BASELINE_PORT = PORT + 2;
const BASELINE = process.env.BENCH_BASELINE;
/** Only these targets (comma-separated: reference, labdesk), e.g. to profile one. */
const ONLY = process.env.BENCH_ONLY?.split(',');
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

async function main() {
  if (BASELINE && !process.env.DATABASE_URL) throw new Error('BENCH_BASELINE needs DATABASE_URL (a scratch database per server)');
  const database = await benchDatabase('a2a');
  const baselineDatabase = BASELINE ? await benchDatabase('a2a-baseline') : undefined;
  const helpers: { stop(): Promise<void> }[] = [];
  const dataDirs: string[] = [];
  try {
    const model = await forkReady<{ baseUrl: string }>(path.join(__dirname, 'a2a-model-server.js'));
    helpers.push(model);
    const reference = await forkReady<{ port: number }>(path.join(__dirname, 'a2a-reference-server.js'), { PORT: String(REFERENCE_PORT) });
    helpers.push(reference);
    const ours = await startOurs(MAIN, PORT, database.env, model.ready.baseUrl);
    helpers.push(ours.server);
    dataDirs.push(ours.dataDir);
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
      // With the embedded database, PostgreSQL runs as the server's child: its CPU is counted beside the server's.
      {
        name: 'labdesk',
        method: 'POST',
        url: `${ours.server.url}/a2a/v1`,
        headers: rpcHeaders(ours.key),
        pid: ours.server.process.pid!,
        body: sendMessageBody,
        verify: completedTask('labdesk'),
        withChildren: !process.env.DATABASE_URL,
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
      });
    }
    const targets = all.filter((target) => !ONLY || ONLY.includes(target.name.split('@')[0]));
    const before = await taskCount(ours.server.url, ours.key);
    const runs = ROUNDS * REQUESTS + Math.min(REQUESTS, 500);
    const figures = await alternatingRounds(targets, {
      requests: REQUESTS,
      rounds: ROUNDS,
      connections: CONNECTIONS,
      warmUp: Math.min(REQUESTS, 500),
    });
    process.stdout.write(`\nblocking SendMessage, a new task each; median round per target; (×) is the ratio to the reference\n`);
    printFigures(figures, targets.some((target) => target.name === 'reference') ? 'reference' : undefined);
    if (targets.some((target) => target.name === 'labdesk')) {
      const persisted = (await taskCount(ours.server.url, ours.key)) - before;
      process.stdout.write(
        `labdesk tasks persisted: ${persisted} of ${runs} SendMessage calls${persisted === runs ? '' : '  (MISMATCH)'}\n`,
      );
    }
    await ours.server.stop();
    if (process.env.BENCH_COUNT_STATEMENTS !== '0') {
      const counting = await startOurs(MAIN, PORT, { ...database.env, DATA_DIR: ours.dataDir }, model.ready.baseUrl, true);
      helpers.push(counting.server);
      const CALLS = 20;
      const call = () =>
        callJson(counting.server.url, 'POST', '/a2a/v1', counting.key, JSON.parse(sendMessageBody()), { 'a2a-version': '1.0' });
      await call();
      const at = await counting.server.statements!();
      for (let i = 0; i < CALLS; i++) await call();
      process.stdout.write(
        `\nSQL statements per SendMessage (sequential, every statement the server sent, the job queue's included): ${((await counting.server.statements!()) - at) / CALLS}\n`,
      );
    }
  } finally {
    for (const helper of helpers.reverse()) await helper.stop();
    for (const dataDir of dataDirs) if (dataDir !== database.env.DATA_DIR) fs.rmSync(dataDir, { recursive: true, force: true });
    await database.drop();
    await baselineDatabase?.drop();
  }
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
