import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { spawn } from 'node:child_process';
import vm from 'node:vm';
import { SendMessageRequest, Task } from '@a2a-js/sdk';
import { startFakeLlm, Step } from './support/fake-llm';
import { startTestApp, TestApp } from './support/app';
import { createA2aKey, enableA2a, expectProtoJson, officialClient, rpc, rpcCall, userMessage } from './support/a2a';
import { ANSWER_ARTIFACT_BYTES, contextMessages, HISTORY_BYTES, readPayload } from '../src/modules/a2a/a2a-task.repository';
import { preparedOf } from '../src/db/sql';
import { workspaceOf } from '../src/modules/agent/loop/agent-tools';

/**
 * What one key's large files make the server hold: the history answered to callers stays within
 * its byte budget, and a turn of a context full of files reads none of their bytes. The app runs
 * in this process, so its heap is this process's; the official client, real HTTP, real
 * PostgreSQL, the scripted model as the only fake.
 */

const MiB = 1024 ** 2;
/** A file under half the budget: two of them, with their JSON, pass it. */
const SMALL_FILE = Math.floor(1.6 * MiB);
const answer = (text: string, extra: Partial<Extract<Step, { kind: 'answer' }>> = {}): Step => ({
  kind: 'answer',
  text,
  tokensIn: 13,
  tokensOut: 5,
  ...extra,
});
const rawPart = (bytes: Buffer, filename: string) => ({ raw: bytes.toString('base64'), filename, mediaType: 'application/octet-stream' });
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

const usage = () => {
  const memory = process.memoryUsage();
  return memory.heapUsed + memory.arrayBuffers;
};

/**
 * The heap (with array buffers) once what the last calls left behind is let go: the app finishes
 * a turn's job and its connections after the call has answered, so it is collected until two
 * readings 200 ms apart agree within 1 MiB.
 */
async function settledUsage(): Promise<number> {
  let last = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 50; round++) {
    collectGarbage();
    const now = usage();
    if (Math.abs(now - last) < MiB) return now;
    last = now;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return last;
}

/**
 * How far the heap rose above where it had settled while `run` ran, at its highest (sampled
 * every millisecond the event loop is free, and at the end), and where it settled after.
 */
async function peakGrowth(run: () => Promise<unknown>): Promise<{ peak: number; after: number }> {
  const base = await settledUsage();
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, usage())), 1);
  try {
    await run();
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, usage());
  return { peak: peak - base, after: (await settledUsage()) - base };
}

/**
 * The most private memory (`RssAnon`) any PostgreSQL backend serving `database` held while `run`
 * ran, sampled every 100 ms from /proc (backends name their database in their title); null where
 * the server's processes cannot be seen.
 */
async function backendPeak(database: string, run: () => Promise<unknown>): Promise<number | null> {
  let peak: number | null = null;
  const sample = () => {
    for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
      try {
        if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('postgres:')) continue;
        if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(` ${database} `)) continue;
        const anon = /^RssAnon:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
        if (anon) peak = Math.max(peak ?? 0, Number(anon[1]) * 1024);
      } catch {
        // the backend ended meanwhile
      }
    }
  };
  const sampler = setInterval(sample, 100);
  try {
    await run();
  } finally {
    clearInterval(sampler);
  }
  return peak;
}

/**
 * POSTs the JSON-RPC body in `bodyFile` to /a2a/v1 with curl (a body too large to hold in this
 * process), `options` added; answers what curl printed.
 */
function curlA2a(url: string, key: string, bodyFile: string, options: string[] = []): Promise<string> {
  return new Promise((resolve, reject) => {
    const curl = spawn(
      'curl',
      [
        '-sS',
        ...options,
        ...['-X', 'POST', '-H', `authorization: Bearer ${key}`, '-H', 'a2a-version: 1.0', '-H', 'content-type: application/json'],
        ...['-H', 'expect:', '--data-binary', `@${bodyFile}`, `${url}/a2a/v1`],
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    curl.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    curl.once('error', reject);
    curl.once('close', () => resolve(out));
  });
}

describe('A2A memory bounds for large files', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-a2a-bounds-'));
  // Bubblewrap runs as another uid (the tests run as root): it must be able to search the parents.
  const workspaceParent = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-a2a-bounds-ws-'));
  fs.chmodSync(workspaceParent, 0o711);
  const contextId = 'bounds-context';
  let fake: Awaited<ReturnType<typeof startFakeLlm>>;
  let t: TestApp;
  let key: string;

  const sendNow = async (message: Record<string, unknown>) => {
    const reply = await rpc(t, key, rpcCall(1, 'SendMessage', { message, configuration: { returnImmediately: true } }));
    expect(reply.body.error).toBeUndefined();
    return reply.body.result.task;
  };
  async function untilCompleted(id: string) {
    for (;;) {
      const task = (await rpc(t, key, rpcCall(1, 'GetTask', { id, historyLength: 0 }))).body.result;
      if (task.status.state === 'TASK_STATE_COMPLETED') return;
      expect(task.status.state).toMatch(/SUBMITTED|WORKING/);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const textsOf = (history: Record<string, any>[]) => history.map((message) => message.parts[0].text);

  beforeAll(async () => {
    fake = await startFakeLlm(() => answer('fallback answer'));
    t = await startTestApp({
      DATA_DIR: dataDir,
      AGENT_WORKSPACE_DIR: path.join(workspaceParent, 'workspaces'),
      LLM_PROVIDER: 'openai',
      LLM_MODEL: 'gpt-5',
      LLM_API_KEY: 'sk-test',
      LLM_BASE_URL: fake.baseUrl,
      LLM_TIMEOUT_SECONDS: '30',
      LLM_MAX_RETRIES: '0',
    });
    await enableA2a(t);
    key = (await createA2aKey(t, 'bounds')).plaintext;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  test('GetTask, a blocking SendMessage and ListTasks answer the most recent messages within 4 MiB: a 20 MiB message is left out, and so is everything older than the budget reaches', async () => {
    // The first model call waits while three more messages join the task.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    fake.script.push(answer('a first answer', { after: gate }));
    const calls = fake.seen.length;
    const first = userMessage('first', { contextId });
    const task = await sendNow(first);
    while (fake.seen.length === calls) await new Promise((resolve) => setTimeout(resolve, 20));
    const added = [
      { text: 'second', file: rawPart(randomBytes(SMALL_FILE), 'second.bin') },
      { text: 'third', file: rawPart(randomBytes(20 * MiB), 'big-1.bin') },
      { text: 'fourth', file: rawPart(randomBytes(SMALL_FILE), 'fourth.bin') },
    ];
    const sent: Record<string, Record<string, any>> = {};
    for (const { text, file } of added) {
      sent[text] = { ...userMessage(text, { taskId: task.id }), parts: [{ text }, file] };
      await sendNow(sent[text]);
    }
    release();
    await untilCompleted(task.id);

    // Stored as sent, sized as PostgreSQL prints them.
    const sizes = await t.sql<{ seq: number; bytes: number }>(
      `select seq, bytes + apart_chars as bytes from a2a_messages where task_id = $1 order by seq`,
      [task.id],
    );
    expect(sizes.map((row) => row.seq)).toEqual([1, 2, 3, 4, 5]);
    const [, second, third, fourth, reply] = sizes.map((row) => row.bytes);
    expect(third).toBeGreaterThan(HISTORY_BYTES);
    expect(second + fourth + reply).toBeGreaterThan(HISTORY_BYTES);
    expect(fourth + reply).toBeLessThanOrEqual(HISTORY_BYTES);

    // Newest first: the answer and the fourth fit, the third is over the budget alone, the second
    // would pass it, so it and the first are left out. The kept ones are as sent, file included.
    const got = await rpc(t, key, rpcCall(1, 'GetTask', { id: task.id }));
    expect(Buffer.byteLength(got.text)).toBeLessThan(HISTORY_BYTES + 64 * 1024);
    const history = got.body.result.history;
    expect(textsOf(history)).toEqual(['fourth', 'fallback answer']);
    expect(history[0]).toMatchObject({
      messageId: sent.fourth.messageId,
      role: 'ROLE_USER',
      parts: [{ text: 'fourth' }, { filename: 'fourth.bin', mediaType: 'application/octet-stream' }],
    });
    expect(sha(history[0].parts[1].raw)).toBe(sha(sent.fourth.parts[1].raw));
    expectProtoJson(got.body.result);
    expect(textsOf((await rpc(t, key, rpcCall(1, 'GetTask', { id: task.id, historyLength: 1 }))).body.result.history)).toEqual([
      'fallback answer',
    ]);
    expect(textsOf((await rpc(t, key, rpcCall(1, 'GetTask', { id: task.id, historyLength: 4 }))).body.result.history)).toEqual([
      'fourth',
      'fallback answer',
    ]);

    const listed = await rpc(t, key, rpcCall(1, 'ListTasks', { contextId, historyLength: 10 }));
    expect(Buffer.byteLength(listed.text)).toBeLessThan(HISTORY_BYTES + 64 * 1024);
    expect(textsOf(listed.body.result.tasks[0].history)).toEqual(['fourth', 'fallback answer']);

    // A task whose only request is larger than the budget: its answer alone, the key kept.
    const big = await rpc(
      t,
      key,
      rpcCall(1, 'SendMessage', {
        message: {
          ...userMessage('two files', { contextId }),
          parts: [{ text: 'two files' }, rawPart(randomBytes(20 * MiB), 'big-2.bin'), rawPart(randomBytes(20 * MiB), 'big-3.bin')],
        },
      }),
    );
    expect(big.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(textsOf(big.body.result.task.history)).toEqual(['fallback answer']);
    expect(Buffer.byteLength(big.text)).toBeLessThan(64 * 1024);
  }, 120_000);

  test('a follow-up turn in the context of five files (3 × 20 MiB, 2 × 1.6 MiB) sees each described and completes, and the heap does not grow by a file while it runs', async () => {
    const ask = async (text: string, inContext: string) => {
      const done = Task.toJSON(
        (await (
          await officialClient(t, key)
        ).sendMessage(SendMessageRequest.fromJSON({ message: userMessage(text, { contextId: inContext }) }))) as Task,
      ) as any;
      expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    };
    const calls = fake.seen.length;
    const { peak, after } = await peakGrowth(() => ask('Which files do you have?', contextId));
    const seenByModel = fake.seen.slice(calls).map((request) => request.body.messages.map((message) => message.content).join('\n'));
    expect(seenByModel).toHaveLength(1);
    for (const [name, bytes] of [
      ['second.bin', SMALL_FILE],
      ['big-1.bin', 20 * MiB],
      ['fourth.bin', SMALL_FILE],
      ['big-2.bin', 20 * MiB],
      ['big-3.bin', 20 * MiB],
    ] as const) {
      expect(seenByModel[0]).toContain(`[file inputs/${name} (application/octet-stream, ${bytes.toLocaleString('en-US')} bytes)]`);
    }
    expect(seenByModel[0]).toContain('Which files do you have?');
    // Nothing held before the call was let go during it (that would hide what the turn held) …
    expect(after).toBeGreaterThan(-4 * MiB);
    // … and one file is 20 MiB (27 MiB as base64 text): the turn held not even one. Reading the
    // messages with their payloads it peaked at 210–240 MiB here; without them 4–15 MiB, the
    // spread being the client, the pool and the collector's timing on a loaded machine.
    expect(peak).toBeLessThan(20 * MiB);
    expect(after).toBeLessThan(20 * MiB);
  }, 120_000);

  test('a 100 MiB file part (the limit): the turn completes with the file saved whole in the workspace, no PostgreSQL backend holds 64 MiB of its own meanwhile, and GetTask answers a smaller file part as sent', async () => {
    const file = randomBytes(100 * MiB);
    const fileHash = createHash('sha256').update(file).digest('hex');
    const small = randomBytes(SMALL_FILE);
    // Written to a file a slice at a time and sent by curl, so that this process (the server's) holds no copy of the body.
    const bodyFile = path.join(dataDir, 'limit-body.json');
    const message = {
      ...userMessage('the largest file', { contextId: 'largest-part' }),
      parts: [{ text: 'the largest file' }, { raw: '@payload@', filename: 'largest.bin', mediaType: 'application/octet-stream' }],
    };
    const [head, tail] = JSON.stringify(rpcCall(1, 'SendMessage', { message, configuration: { returnImmediately: true } })).split(
      '@payload@',
    );
    const out = fs.openSync(bodyFile, 'w');
    fs.writeSync(out, head);
    for (let at = 0; at < file.length; at += 3 * MiB) fs.writeSync(out, file.subarray(at, at + 3 * MiB).toString('base64'));
    fs.writeSync(out, tail);
    fs.closeSync(out);
    const database = new URL(t.databaseUrl).pathname.slice(1);
    let taskId = '';
    const peak = await backendPeak(database, async () => {
      const reply = await curlA2a(t.app.url, key, bodyFile);
      expect(reply).toContain('"result"');
      taskId = JSON.parse(reply).result.task.id;
      await untilCompleted(taskId);
    });
    fs.rmSync(bodyFile);
    const [{ principal }] = await t.sql(`select principal from a2a_tasks where id = $1`, [taskId]);
    const inputs = path.join(workspaceParent, 'workspaces', workspaceOf(principal, 'largest-part'), 'inputs');
    expect(fs.statSync(path.join(inputs, 'largest.bin')).size).toBe(100 * MiB);
    expect(
      createHash('sha256')
        .update(fs.readFileSync(path.join(inputs, 'largest.bin')))
        .digest('hex'),
    ).toBe(fileHash);
    fs.rmSync(path.join(inputs, 'largest.bin')); // 100 MiB the temporary directory need not keep
    // Reading the message whole, a backend took 1.7 GB for 60 MiB and failed at 100 MiB; apart, about 23 MiB.
    if (peak !== null) expect(peak).toBeLessThan(64 * MiB);
    // Stored apart from the message, which holds only the sizes.
    const [stored] = await t.sql(`select bytes, apart_chars, message from a2a_messages where task_id = $1 and seq = 1`, [taskId]);
    expect(stored.bytes).toBeLessThan(4096);
    expect(stored.apart_chars).toBe(Math.ceil((100 * MiB) / 3) * 4);
    expect(stored.message.parts[1]).toEqual({ filename: 'largest.bin', mediaType: 'application/octet-stream', rawApart: 100 * MiB });

    // The message is over the history's budget, so GetTask leaves it out (and reads no file bytes);
    // a smaller file sent in the same context comes back as sent.
    expect(textsOf((await rpc(t, key, rpcCall(1, 'GetTask', { id: taskId }))).body.result.history)).toEqual(['fallback answer']);
    const again = { ...userMessage('one more', { contextId: 'largest-part' }), parts: [{ text: 'one more' }, rawPart(small, 'again.bin')] };
    const sent = (await rpc(t, key, rpcCall(1, 'SendMessage', { message: again }))).body.result.task;
    expect(sent.status.state).toBe('TASK_STATE_COMPLETED');
    const got = (await rpc(t, key, rpcCall(1, 'GetTask', { id: sent.id }))).body.result;
    expect(textsOf(got.history)).toEqual(['one more', 'fallback answer']);
    expect(got.history[0]).toMatchObject({ messageId: again.messageId, role: 'ROLE_USER', taskId: sent.id, contextId: 'largest-part' });
    expect(got.history[0].parts).toEqual(again.parts);
    expect(sent.history[0].parts).toEqual(again.parts);
    expectProtoJson(got);
    expect(fs.readFileSync(path.join(inputs, 'again.bin')).equals(small)).toBe(true);
  }, 180_000);

  test('a message stored before payloads were kept apart (its raw inline) is still read as a file part of its size, its payload read alone, and answered as stored', async () => {
    const made = (await rpc(t, key, rpcCall(1, 'SendMessage', { message: userMessage('hello', { contextId: 'inline-era' }) }))).body.result
      .task;
    const [{ principal, owner_id: ownerId }] = await t.sql(`select principal, owner_id from a2a_tasks where id = $1`, [made.id]);
    const bytes = randomBytes(1000); // 1,336 characters of base64, two of them padding
    const message = {
      ...userMessage('an inline file', { contextId: 'inline-era', taskId: 'turn_inline' }),
      parts: [rawPart(bytes, 'old.bin')],
    };
    await t.sql(
      `insert into a2a_tasks (id, context_id, principal, owner_id, state, last_seq) values ('turn_inline', 'inline-era', $1, $2, 'TASK_STATE_COMPLETED', 1)`,
      [principal, ownerId],
    );
    await t.sql(`insert into a2a_messages (task_id, seq, message) values ('turn_inline', 1, $1)`, [JSON.stringify(message)]);
    const q = preparedOf(t.app.services.orm.em.fork());
    const seen = await contextMessages(q, principal, 'inline-era', 10);
    const inline = seen.find((one) => one.taskId === 'turn_inline')!;
    expect(inline.message.parts).toEqual([{ filename: 'old.bin', mediaType: 'application/octet-stream', rawBytes: 1000 }]);
    expect((await readPayload(q, 'turn_inline', 1, 0, inline.message.parts[0]))!.equals(bytes)).toBe(true);
    expect((await rpc(t, key, rpcCall(1, 'GetTask', { id: 'turn_inline' }))).body.result.history[0].parts).toEqual(message.parts);
  });

  test('ListTasks with artifacts answers within its byte budget: 10 tasks × 20 files of 1000 KiB, five pages at once, and the heap grows by less than 200 MiB', async () => {
    // Tasks as a finished turn leaves them, written straight to the tables (a turn per file would
    // take minutes): 20 inline artifacts of 1000 KiB each, 273 MB as the old answer's JSON.
    const seed = await sendNow(userMessage('a task of this key'));
    const [{ principal, owner_id: ownerId }] = await t.sql(`select principal, owner_id from a2a_tasks where id = $1`, [seed.id]);
    const file = Buffer.alloc(1000 * 1024, 7).toString('base64');
    const ids = Array.from({ length: 10 }, (_, i) => `turn_budget${i}`);
    for (const id of ids) {
      await t.sql(
        `insert into a2a_tasks (id, context_id, principal, owner_id, state, last_seq) values ($1, 'budget-context', $2, $3, 'TASK_STATE_COMPLETED', 0)`,
        [id, principal, ownerId],
      );
      await t.sql(
        `insert into a2a_artifacts (task_id, artifact_id, artifact, position)
         select $1, $1 || '-file-' || n, jsonb_build_object('artifactId', $1 || '-file-' || n, 'name', 'f' || n || '.bin', 'parts', jsonb_build_array(jsonb_build_object('raw', $2::text, 'filename', 'f' || n || '.bin', 'mediaType', 'application/octet-stream'))), n
           from generate_series(0, 19) as n`,
        [id, file],
      );
    }
    const page = () => rpc(t, key, rpcCall(1, 'ListTasks', { contextId: 'budget-context', pageSize: 10, includeArtifacts: true }));
    let answers: Awaited<ReturnType<typeof page>>[] = [];
    const { peak } = await peakGrowth(async () => (answers = await Promise.all([page(), page(), page(), page(), page()])));
    expect(peak).toBeLessThan(200 * MiB);
    for (const answer of answers) {
      expect(answer.body.error).toBeUndefined();
      expect(Buffer.byteLength(answer.text)).toBeLessThan(ANSWER_ARTIFACT_BYTES * 1.4 + 64 * 1024);
      const artifacts = answer.body.result.tasks.flatMap((task: any) => task.artifacts);
      expect(artifacts).toHaveLength(200);
      const inline = artifacts.filter((artifact: any) => artifact.parts[0].raw !== undefined);
      const byUrl = artifacts.filter((artifact: any) => artifact.parts[0].url !== undefined);
      // The first ones whole (in page order), every later one by URL: nothing is dropped.
      expect(inline.length).toBeGreaterThan(0);
      expect(inline.length + byUrl.length).toBe(200);
      expect(artifacts.slice(0, inline.length)).toEqual(inline);
      expectProtoJson(answer.body.result);
    }
    // A URL part is the artifact endpoint's, with the file's name and type; it serves the bytes.
    const last = answers[0].body.result.tasks.at(-1);
    const lastArtifact = last.artifacts.at(-1);
    expect(lastArtifact.parts).toEqual([
      { url: `${t.app.url}/a2a/v1/artifacts/${last.id}/19`, filename: 'f19.bin', mediaType: 'application/octet-stream' },
    ]);
    const served = await fetch(lastArtifact.parts[0].url, { headers: { authorization: `Bearer ${key}` } });
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(Buffer.alloc(1000 * 1024, 7))).toBe(true);
    // GetTask of one such task: the same budget.
    const got = await rpc(t, key, rpcCall(1, 'GetTask', { id: ids[0], historyLength: 0 }));
    expect(Buffer.byteLength(got.text)).toBeLessThan(ANSWER_ARTIFACT_BYTES * 1.4 + 64 * 1024);
    expect(got.body.result.artifacts).toHaveLength(20);
    expect(got.body.result.artifacts.filter((artifact: any) => artifact.parts[0].url)).not.toHaveLength(0);
  }, 180_000);

  test('five maximal SendMessages (a 100 MiB file part each) at once: one large body is read at a time, the others are refused before they are parsed (503, Retry-After), and the heap grows by less than 1 GiB', async () => {
    // Sent by curl from files, so that this process (the server's) holds no copy of the bodies.
    const bodyFile = path.join(dataDir, 'large-body.json');
    fs.writeFileSync(
      bodyFile,
      JSON.stringify(
        rpcCall(1, 'SendMessage', {
          message: {
            ...userMessage('a large file', { contextId: 'large-bodies' }),
            parts: [{ text: 'a large file' }, rawPart(Buffer.alloc(100 * MiB, 3), 'large.bin')],
          },
          configuration: { returnImmediately: true },
        }),
      ),
    );
    expect(fs.statSync(bodyFile).size).toBeGreaterThan(133 * 1000 * 1000);
    const post = async () => {
      const [head, ...rest] = (await curlA2a(t.app.url, key, bodyFile, ['-D', '-'])).split('\r\n\r\n');
      return {
        status: Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1]),
        retryAfter: /^retry-after: *(\S+)/im.exec(head)?.[1] ?? null,
        body: JSON.parse(rest.join('\r\n\r\n')),
      };
    };
    let replies: Awaited<ReturnType<typeof post>>[] = [];
    const { peak } = await peakGrowth(async () => (replies = await Promise.all([post(), post(), post(), post(), post()])));
    const admitted = replies.filter((reply) => reply.status === 200);
    const refused = replies.filter((reply) => reply.status === 503);
    expect(admitted.length).toBeGreaterThanOrEqual(1);
    expect(admitted.length + refused.length).toBe(5);
    for (const reply of admitted) expect(reply.body.result.task.status.state).toMatch(/SUBMITTED|WORKING|COMPLETED/);
    for (const reply of refused) {
      expect(reply.retryAfter).toBe('5');
      expect(reply.body.error).toEqual({
        code: -32000,
        message: 'this server is receiving other large messages; send this one again in a few seconds',
      });
    }
    // Three such bodies at once took the process to 2.15 GB before; one is held at a time now (about five times its size).
    expect(peak).toBeLessThan(1024 * MiB);
  }, 180_000);
});
