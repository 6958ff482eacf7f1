import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestApp, TestApp } from './support/app';
import { createTestDatabase } from './support/databases';
import { startFakeLlm, untilAsked } from './support/fake-llm';
import { ChildServer, startChildServer } from './support/child';
import { callA2a, createA2aKey, enableA2a, userMessage, waitForState } from './support/a2a';
import { until } from './support/until';
import { workspaceOf } from '../src/modules/agent/loop/agent-tools';
import { Client } from 'pg';

/**
 * Restart safety of A2A turns: an instance killed while its turn runs (SIGKILL, so nothing of its
 * shutdown runs) leaves the turn's job running in the table; another instance notices the dead
 * instance's missing heartbeat within JOB_INSTANCE_TIMEOUT_SECONDS, and the task is resumed
 * (its turn retried) or, with no attempt left, FAILED with a clear message: never stuck WORKING.
 */
let fake: Awaited<ReturnType<typeof startFakeLlm>>;
beforeAll(async () => {
  fake = await startFakeLlm(() => ({ kind: 'answer', text: 'Answered after the restart.', tokensIn: 2, tokensOut: 3 }));
});
afterAll(async () => fake?.close());

async function setUp() {
  const database = await createTestDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-a2a-restart-'));
  await enableA2a({ databaseUrl: database.url });
  const key = (await createA2aKey({ databaseUrl: database.url }, 'peer')).plaintext;
  const env = {
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    BOOTSTRAP_ADMIN_TOKEN: `ldk_pat_testadmin${process.pid}xrestartxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx`,
    LLM_PROVIDER: 'openai',
    LLM_MODEL: 'gpt-5',
    LLM_API_KEY: 'sk-test',
    LLM_BASE_URL: fake.baseUrl,
    LLM_MAX_RETRIES: '0',
    JOB_INSTANCE_TIMEOUT_SECONDS: '3',
  };
  return { database, dataDir, key, env };
}

type Caller = Pick<ChildServer, 'call'>;
/** Starts a task on `server` whose model call hangs, and returns once the model has been asked. */
async function hangingTask(server: Caller, key: string): Promise<string> {
  const asked = fake.seen.length;
  fake.script.push({ kind: 'hang' });
  const sent = await callA2a(server, key, 'SendMessage', {
    message: userMessage('a long question'),
    configuration: { returnImmediately: true },
  });
  expect(sent.body).toMatchObject({ result: { task: { id: expect.any(String) } } });
  await untilAsked(fake, asked, 30);
  return sent.body.result.task.id as string;
}

test('an instance killed mid-turn: another instance fails its attempt over and the retried turn completes the task', async () => {
  const { database, key, env } = await setUp();
  let survivor: TestApp | undefined;
  const doomed = await startChildServer(env);
  try {
    const id = await hangingTask(doomed, key);
    await doomed.kill();
    survivor = await startTestApp(env, { sameDatabaseAs: { databaseUrl: database.url, adminToken: env.BOOTSTRAP_ADMIN_TOKEN } as TestApp });
    const task = await waitForState(survivor, key, id, ['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED'], { seconds: 60 });
    expect(task).toMatchObject({
      status: { state: 'TASK_STATE_COMPLETED' },
      artifacts: [{ parts: [{ text: 'Answered after the restart.' }] }],
    });
  } finally {
    await doomed.kill();
    await survivor?.close();
    await database.drop();
  }
}, 90_000);

test('killed on its last attempt too: the task is FAILED saying its instance stopped, not left WORKING', async () => {
  const { database, key, env } = await setUp();
  let survivor: TestApp | undefined;
  const first = await startChildServer(env);
  let second: ChildServer | undefined;
  try {
    const id = await hangingTask(first, key);
    await first.kill();
    // The second instance fails the first attempt over and runs the retry, whose model call hangs too.
    fake.script.push({ kind: 'hang' });
    const asked = fake.seen.length;
    second = await startChildServer(env);
    await untilAsked(fake, asked, 30);
    expect((await callA2a(second, key, 'GetTask', { id })).body.result.status.state).toBe('TASK_STATE_WORKING');
    await second.kill();
    survivor = await startTestApp(env, { sameDatabaseAs: { databaseUrl: database.url, adminToken: env.BOOTSTRAP_ADMIN_TOKEN } as TestApp });
    const task = await waitForState(survivor, key, id, ['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED'], { seconds: 60 });
    expect(task.status).toMatchObject({
      state: 'TASK_STATE_FAILED',
      message: { role: 'ROLE_AGENT', parts: [{ text: expect.stringMatching(/the instance running it stopped/) }] },
    });
  } finally {
    await first.kill();
    await second?.kill();
    await survivor?.close();
    await database.drop();
  }
}, 120_000);

const BWRAP_PRESENT = fs.existsSync('/usr/bin/bwrap');
const testWithSandbox = BWRAP_PRESENT || process.env.LABDESK_SANDBOX_TESTS === 'required' ? test : test.skip;

/**
 * Issue 21, finding 7: a model's answer is stored (with its ledger row) before the turn acts on
 * it, so a turn resumed after its instance died mid-tool runs the stored tool call again and
 * never repeats the model call that asked for it. A call still in flight at the kill is made
 * again (the test above): its answer never arrived, so no ledger row names it.
 */
testWithSandbox(
  'killed while a tool runs: the resumed turn runs the stored tool call again, not the model call that asked for it',
  async () => {
    const { database, key, env: base } = await setUp();
    const workspaceParent = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-a2a-restart-ws-'));
    fs.chmodSync(workspaceParent, 0o711);
    const env = { ...base, AGENT_WORKSPACE_DIR: path.join(workspaceParent, 'workspaces') };
    const db = new Client({ connectionString: database.url });
    await db.connect();
    let survivor: TestApp | undefined;
    const doomed = await startChildServer(env);
    try {
      const setup = await callA2a(doomed, key, 'SendMessage', { message: userMessage('setup', { contextId: 'resume' }) });
      const taskOf = async (id: string) =>
        (await db.query(`select principal from a2a_tasks where id = $1`, [id])).rows[0].principal as string;
      const principal = await taskOf(setup.body.result.task.id);
      await db.query(`insert into a2a_context_grants (principal, context_id) values ($1, 'resume')`, [principal]);
      const started = path.join(env.AGENT_WORKSPACE_DIR, workspaceOf(principal, 'resume'), 'outputs', 'started');
      const asked = fake.seen.length;
      const code = `if [ -e outputs/started ]; then echo resumed; else echo started > outputs/started; sleep 60; fi`;
      fake.script.push({
        kind: 'tools',
        calls: [{ id: 'slow-1', name: 'run_code', input: { language: 'shell', code } }],
        tokensIn: 5,
        tokensOut: 5,
      });
      const sent = await callA2a(doomed, key, 'SendMessage', {
        message: userMessage('run it', { contextId: 'resume' }),
        configuration: { returnImmediately: true },
      });
      const id = sent.body.result.task.id as string;
      await until('the tool to start', () => fs.existsSync(started), { seconds: 30 });
      await doomed.kill();
      survivor = await startTestApp(env, {
        sameDatabaseAs: { databaseUrl: database.url, adminToken: env.BOOTSTRAP_ADMIN_TOKEN } as TestApp,
      });
      const task = await waitForState(survivor, key, id, ['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED'], { seconds: 60 });
      expect(task).toMatchObject({
        status: { state: 'TASK_STATE_COMPLETED' },
        artifacts: [{ parts: [{ text: 'Answered after the restart.' }] }, { name: 'started' }],
      });
      // Two model calls for the task: the one that asked for the tool (made once, before the kill)
      // and the answer after the resumed tool; the resumed run's output went to the second.
      const calls = fake.seen.slice(asked);
      expect(calls).toHaveLength(2);
      expect(JSON.stringify(calls[1].toolResults)).toContain('resumed');
      const ledger = await db.query(`select outcome, tokens_in::int from usage_entries where feature = 'a2a' order by id`);
      expect(ledger.rows).toEqual([
        { outcome: 'ok', tokens_in: 2 },
        { outcome: 'ok', tokens_in: 5 },
        { outcome: 'ok', tokens_in: 2 },
      ]);
    } finally {
      await doomed.kill();
      await survivor?.close();
      await db.end();
      await database.drop();
      fs.rmSync(workspaceParent, { recursive: true, force: true });
    }
  },
  120_000,
);
