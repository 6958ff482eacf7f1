import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SendMessageRequest, Task } from '@a2a-js/sdk';
import { startFakeLlm, ScriptedToolCall, Step } from './support/fake-llm';
import { createA2aKey, enableA2a, officialClient, rpc, rpcCall, userMessage } from './support/a2a';
import { startTestApp, TestApp } from './support/app';
import { workspaceOf } from '../src/modules/agent/loop/agent-tools';
import { sweepExpiredContexts } from '../src/modules/a2a/a2a-retention';

/**
 * Issue 21, finding 2: what the agent's outputs cost the host's disk. A sparse file counts its
 * apparent size against the workspace's and the owner's artifact budgets (it is not copied as
 * real disk beyond them), and contexts finished longer ago than the retention are removed with
 * their workspaces and artifact copies. The real sandbox, the official client, the scripted model.
 */

const BWRAP_PRESENT = fs.existsSync('/usr/bin/bwrap');
const REQUIRED = process.env.LABDESK_SANDBOX_TESTS === 'required';
const describeSandbox = BWRAP_PRESENT || REQUIRED ? describe : describe.skip;

const MiB = 1024 ** 2;
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const tools = (calls: ScriptedToolCall[]): Step => ({ kind: 'tools', calls, tokensIn: 11, tokensOut: 7 });
const answer = (text: string): Step => ({ kind: 'answer', text, tokensIn: 13, tokensOut: 5 });
const python = (id: string, code: string): ScriptedToolCall => ({ id, name: 'run_code', input: { language: 'python', code } });

/** Bytes a directory tree takes on disk (allocated blocks, as du counts them; 0 when it is gone). */
function diskBytes(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    total += entry.isDirectory() ? diskBytes(full) : fs.lstatSync(full).blocks * 512;
  }
  return total;
}

describeSandbox('A2A artifact budgets and retention', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-a2a-budget-'));
  const workspaceParent = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-a2a-budget-ws-'));
  fs.chmodSync(workspaceParent, 0o711);
  const workspaceRoot = path.join(workspaceParent, 'workspaces');
  let fake: Awaited<ReturnType<typeof startFakeLlm>>;
  let t: TestApp;
  let key: string;
  let principal: string;

  const send = async (text: string, contextId: string) =>
    Task.toJSON(
      (await (
        await officialClient(t, key)
      ).sendMessage(SendMessageRequest.fromJSON({ message: userMessage(text, { contextId }) }))) as Task,
    ) as any;
  /** A context whose execution calls run without asking (as after allow_session). */
  const grantedContext = async (contextId: string) => {
    const first = await send('setup', contextId);
    expect(first.status.state).toBe('TASK_STATE_COMPLETED');
    await t.sql(`insert into a2a_context_grants (principal, context_id) select principal, context_id from a2a_tasks where id = $1`, [
      first.id,
    ]);
    principal = (await t.sql(`select principal from a2a_tasks where id = $1`, [first.id]))[0].principal;
    return first;
  };

  beforeAll(async () => {
    fake = await startFakeLlm(() => answer('fallback answer'));
    t = await startTestApp({
      DATA_DIR: dataDir,
      AGENT_WORKSPACE_DIR: workspaceRoot,
      LLM_PROVIDER: 'openai',
      LLM_MODEL: 'gpt-5',
      LLM_API_KEY: 'sk-test',
      LLM_BASE_URL: fake.baseUrl,
      LLM_TIMEOUT_SECONDS: '30',
      LLM_MAX_RETRIES: '0',
      A2A_ARTIFACT_BYTES_PER_WORKSPACE: String(30 * MiB),
      A2A_ARTIFACT_BYTES_PER_OWNER: String(40 * MiB),
      A2A_RETENTION_DAYS: '1',
    });
    await enableA2a(t);
    key = (await createA2aKey(t, 'budget')).plaintext;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
    fs.rmSync(workspaceParent, { recursive: true, force: true });
  });

  test('a 200 MB sparse file counts 200 MB: over the workspace budget it is named, not copied; a real 2 MiB file beside it is attached', async () => {
    await grantedContext('sparse');
    fake.script.push(
      tools([
        python(
          's-1',
          'open("outputs/sparse1", "wb").truncate(200 * 1024 * 1024)\nopen("outputs/real.bin", "wb").write(b"r" * (2 * 1024 * 1024))',
        ),
      ]),
      answer('made two files'),
    );
    const done = await send('Make files', 'sparse');
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    expect(done.artifacts.map((artifact: any) => artifact.name)).toEqual(['answer', 'real.bin']);
    expect(done.artifacts[0].parts[1].text).toMatch(
      /^output files not attached \(.*over the artifact budget of the workspace or its owner.*\): sparse1$/,
    );
    // The copy of the 2 MiB file, and nothing of the sparse one (200 MB of real disk before).
    const copies = path.join(workspaceRoot, '.a2a-artifacts', done.id);
    expect(fs.readdirSync(copies)).toEqual(['1']);
    expect(diskBytes(copies)).toBeLessThan(3 * MiB);
    expect(await t.sql(`select idx, bytes::int from a2a_artifact_files where task_id = $1`, [done.id])).toEqual([
      { idx: 1, bytes: 2 * MiB },
    ]);
  }, 120_000);

  test("the owner's budget spans workspaces: in a second context one 20 MiB file fits, the next does not", async () => {
    await grantedContext('owner-budget');
    fake.script.push(tools([python('o-1', 'open("outputs/a.bin", "wb").write(b"a" * (20 * 1024 * 1024))')]), answer('first'));
    const first = await send('First file', 'owner-budget');
    expect(first.artifacts.map((artifact: any) => artifact.name)).toEqual(['answer', 'a.bin']);
    fake.script.push(tools([python('o-2', 'open("outputs/b.bin", "wb").write(b"b" * (20 * 1024 * 1024))')]), answer('second'));
    const second = await send('Second file', 'owner-budget');
    // 2 MiB + 20 MiB held; 20 MiB more would pass the owner's 40 MiB (the workspace's 30 MiB too).
    expect(second.artifacts.map((artifact: any) => artifact.name)).toEqual(['answer']);
    expect(second.artifacts[0].parts[1].text).toMatch(/: b\.bin$/);
    expect(fs.existsSync(path.join(workspaceRoot, '.a2a-artifacts', second.id))).toBe(false);
  }, 120_000);

  test('a context finished longer ago than A2A_RETENTION_DAYS is removed: its workspace, its artifact copies, its tasks; a recent one stays', async () => {
    const old = await t.sql<{ id: string }>(`select id from a2a_tasks where context_id = 'sparse'`);
    expect(old.length).toBeGreaterThan(0);
    const oldWorkspace = path.join(workspaceRoot, workspaceOf(principal, 'sparse'));
    const recentWorkspace = path.join(workspaceRoot, workspaceOf(principal, 'owner-budget'));
    expect(fs.existsSync(oldWorkspace)).toBe(true);
    // The code left a link to the host in it: removal never follows it.
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-a2a-budget-outside-'));
    fs.writeFileSync(path.join(outside, 'keep.txt'), 'keep');
    fs.symlinkSync(outside, path.join(oldWorkspace, 'outputs', 'host-link'));
    await t.sql(`update a2a_tasks set status_at = now() - interval '2 days' where context_id = 'sparse'`);

    expect(await sweepExpiredContexts(t.app.services, quiet)).toBe(1);
    expect(fs.existsSync(oldWorkspace)).toBe(false);
    for (const { id } of old) expect(fs.existsSync(path.join(workspaceRoot, '.a2a-artifacts', id))).toBe(false);
    expect(await t.sql(`select id from a2a_tasks where context_id = 'sparse'`)).toEqual([]);
    expect(await t.sql(`select task_id from a2a_artifact_files where task_id = any($1)`, [old.map((row) => row.id)])).toEqual([]);
    const gone = await rpc(t, key, rpcCall(1, 'GetTask', { id: old[0].id }));
    expect(gone.body.error.code).toBe(-32001);
    expect(fs.readFileSync(path.join(outside, 'keep.txt'), 'utf8')).toBe('keep');
    fs.rmSync(outside, { recursive: true, force: true });
    // The recent context is untouched, and a second pass finds nothing.
    expect(fs.existsSync(recentWorkspace)).toBe(true);
    expect((await t.sql(`select id from a2a_tasks where context_id = 'owner-budget'`)).length).toBeGreaterThan(0);
    expect(await sweepExpiredContexts(t.app.services, quiet)).toBe(0);
  }, 60_000);
});
