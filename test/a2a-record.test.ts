import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SendMessageRequest, Task } from '@a2a-js/sdk';
import { startFakeLlm, ScriptedToolCall, Step } from './support/fake-llm';
import { startTestApp, TestApp } from './support/app';
import { createA2aKey, enableA2a, officialClient, rpc, rpcCall, userMessage } from './support/a2a';
import { contextSessionId, recordTurn } from '../src/modules/a2a/a2a-record';
import { startTurn } from '../src/modules/a2a/a2a-turn.repository';
import { sqlOf } from '../src/db/sql';
import { workspaceOf } from '../src/modules/agent/loop/agent-tools';

/** Files sent in (saved to the context's workspace) and each context's `a2a` trajectory record: the official client, the real sandbox, the scripted model as the only fake. */

const tools = (calls: ScriptedToolCall[]): Step => ({ kind: 'tools', calls, tokensIn: 11, tokensOut: 7 });
const answer = (text: string): Step => ({ kind: 'answer', text, tokensIn: 13, tokensOut: 5 });
const python = (id: string, code: string): ScriptedToolCall => ({ id, name: 'run_code', input: { language: 'python', code } });
const rawPart = (content: string | Buffer, extra: Record<string, unknown> = {}) => ({
  raw: Buffer.from(content).toString('base64'),
  ...extra,
});

describe('A2A files in and the a2a trajectory record', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-a2a-record-'));
  // Bubblewrap runs as another uid (the tests run as root): it must be able to search the parents.
  const workspaceParent = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-a2a-record-ws-'));
  fs.chmodSync(workspaceParent, 0o711);
  const workspaces = path.join(workspaceParent, 'workspaces');
  let fake: Awaited<ReturnType<typeof startFakeLlm>>;
  let t: TestApp;
  let alice: { id: string; plaintext: string };
  let bob: { id: string; plaintext: string };

  const send = async (key: string, message: Record<string, unknown>) =>
    Task.toJSON((await (await officialClient(t, key)).sendMessage(SendMessageRequest.fromJSON({ message }))) as Task) as any;
  /** Lets execution calls of the key's context run without an approval. */
  const grant = (key: { id: string }, contextId: string) =>
    t.sql(`insert into a2a_context_grants (principal, context_id) values ($1, $2) on conflict do nothing`, [`key:${key.id}`, contextId]);
  const inputsOf = (key: { id: string }, contextId: string) => path.join(workspaces, workspaceOf(`key:${key.id}`, contextId), 'inputs');
  /** The user message the model saw last in request `index`. */
  const lastUserText = (index: number) => fake.seen[index].body.messages.filter((m) => m.role === 'user').at(-1)!.content;

  beforeAll(async () => {
    fake = await startFakeLlm(() => answer('fallback answer'));
    t = await startTestApp({
      DATA_DIR: dataDir,
      AGENT_WORKSPACE_DIR: workspaces,
      AGENT_SANDBOX_MAX_FILE_BYTES: String(1024 * 1024),
      LLM_PROVIDER: 'openai',
      LLM_MODEL: 'gpt-5',
      LLM_API_KEY: 'sk-test',
      LLM_BASE_URL: fake.baseUrl,
      LLM_TIMEOUT_SECONDS: '30',
      LLM_MAX_RETRIES: '0',
    });
    await enableA2a(t);
    alice = await createA2aKey(t, 'alice');
    bob = await createA2aKey(t, 'bob');
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  test('a CSV sent as a raw part is saved to inputs/, the model is told where, a run_code reads it and the answer and the output artifact show its content', async () => {
    await grant(alice, 'csv-context');
    const csv = 'x,y\n1,2\n3,4\n';
    const code =
      'import csv\nrows = list(csv.DictReader(open("inputs/data.csv")))\ntotal = sum(int(r["y"]) for r in rows)\nprint(total)\nopen("outputs/total.txt", "w").write(f"total of y: {total}")';
    fake.script.push(tools([python('f-1', code)]), answer('The y column sums to 6.'));
    const before = fake.seen.length;
    const done = await send(alice.plaintext, {
      ...userMessage('Sum the y column', { contextId: 'csv-context' }),
      parts: [{ text: 'Sum the y column' }, rawPart(csv, { filename: 'data.csv', mediaType: 'text/csv' })],
    });
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    expect(lastUserText(before)).toBe(`Sum the y column\n[file inputs/data.csv (text/csv, ${csv.length} bytes)]`);
    expect(JSON.parse(fake.seen[before + 1].toolResults.at(-1)!.content)).toMatchObject({ exitCode: 0, stdout: '6\n' });
    expect(done.artifacts[0].parts).toEqual([{ text: 'The y column sums to 6.' }]);
    expect(done.artifacts[1]).toMatchObject({
      name: 'total.txt',
      parts: [{ raw: Buffer.from('total of y: 6').toString('base64'), filename: 'total.txt' }],
    });
    // Saved once: the file is in the workspace, not in outputs/, and recorded.
    expect(fs.readFileSync(path.join(inputsOf(alice, 'csv-context'), 'data.csv'), 'utf8')).toBe(csv);
    expect(await t.sql(`select path, media_type, bytes::int from a2a_input_files where task_id = $1`, [done.id])).toEqual([
      { path: 'inputs/data.csv', media_type: 'text/csv', bytes: csv.length },
    ]);
  }, 60_000);

  test('hostile and missing file names land as safe names inside inputs/; a clash gets a numbered suffix; a link is neither followed nor replaced; a file over the cap is not saved and the model is told why', async () => {
    const contextId = 'names-context';
    // A first file, and a link the code could have planted pointing outside the workspace.
    expect(
      (
        await send(alice.plaintext, {
          ...userMessage('first', { contextId }),
          parts: [rawPart('one', { filename: 'data.csv', mediaType: 'text/csv' })],
        })
      ).status.state,
    ).toBe('TASK_STATE_COMPLETED');
    const outside = path.join(workspaceParent, 'outside.txt');
    fs.writeFileSync(outside, 'untouched');
    fs.symlinkSync(outside, path.join(inputsOf(alice, contextId), 'link.txt'));

    const long = `${'a'.repeat(300)}.csv`;
    const parts = [
      rawPart('etc', { filename: '../../etc/x', mediaType: 'text/plain' }),
      rawPart('rc', { filename: '.bashrc' }),
      rawPart('long', { filename: long, mediaType: 'text/csv' }),
      rawPart('anonymous', { mediaType: 'text/csv' }),
      rawPart('two', { filename: 'data.csv', mediaType: 'text/csv' }),
      rawPart('via link', { filename: 'link.txt', mediaType: 'text/plain' }),
      rawPart('ctrl', { filename: 'a\u0001b\nc/..', mediaType: 'text/plain' }),
      rawPart(Buffer.alloc(1024 * 1024 + 1), { filename: 'big.bin', mediaType: 'application/octet-stream' }),
    ];
    const before = fake.seen.length;
    expect((await send(alice.plaintext, { ...userMessage('files', { contextId }), parts })).status.state).toBe('TASK_STATE_COMPLETED');
    const longSaved = `${'a'.repeat(116)}.csv`;
    expect(lastUserText(before).split('\n')).toEqual([
      '[file inputs/x (text/plain, 3 bytes)]',
      '[file inputs/bashrc (application/octet-stream, 2 bytes)]',
      `[file inputs/${longSaved} (text/csv, 4 bytes)]`,
      '[file inputs/input-4.csv (text/csv, 9 bytes)]',
      '[file inputs/data-1.csv (text/csv, 3 bytes)]',
      '[file inputs/link-1.txt (text/plain, 8 bytes)]',
      '[file inputs/input-7.txt (text/plain, 4 bytes)]',
      '[file big.bin (application/octet-stream, 1,048,577 bytes) not saved in the workspace: content: at most 1048576 bytes per file]',
    ]);
    const dir = inputsOf(alice, contextId);
    expect(fs.readdirSync(dir).sort()).toEqual(
      ['bashrc', 'data-1.csv', 'data.csv', 'input-4.csv', 'input-7.txt', 'link-1.txt', 'link.txt', longSaved, 'x'].sort(),
    );
    expect(fs.readFileSync(path.join(dir, 'data.csv'), 'utf8')).toBe('one');
    expect(fs.readFileSync(outside, 'utf8')).toBe('untouched');
    expect(fs.lstatSync(path.join(dir, 'link.txt')).isSymbolicLink()).toBe(true);
    expect(fs.existsSync(path.join(workspaceParent, 'etc'))).toBe(false);

    // A later turn of the context still sees where the earlier message's files are.
    const later = fake.seen.length;
    expect((await send(alice.plaintext, userMessage('and now?', { contextId }))).status.state).toBe('TASK_STATE_COMPLETED');
    expect(
      fake.seen[later].body.messages.some((m) => m.role === 'user' && m.content.includes('[file inputs/data-1.csv (text/csv, 3 bytes)]')),
    ).toBe(true);
  }, 60_000);

  const listA2a = async (query: Record<string, string> = { source: 'a2a' }) => {
    const reply = await t.call('GET', '/api/trajectories', { token: t.adminToken, query });
    expect(reply.status).toBe(200);
    return reply.body.items as { session_id: string; [member: string]: unknown }[];
  };
  const recordsOf = async (sessionId: string) => {
    const reply = await t.call('GET', `/api/trajectories/${sessionId}`, { token: t.adminToken });
    expect(reply.status).toBe(200);
    return reply.body.records as any[];
  };
  const sessionOf = async (taskId: string) => {
    const [task] = await t.sql(`select owner_id, principal, context_id from a2a_tasks where id = $1`, [taskId]);
    return contextSessionId(task.owner_id, task.principal, task.context_id);
  };
  const expectChained = (records: any[]) => {
    expect(records[0].parentUuid).toBeNull();
    for (let i = 1; i < records.length; i++) expect(records[i].parentUuid).toBe(records[i - 1].uuid);
    for (const record of records) expect(Date.parse(record.timestamp)).not.toBeNaN();
  };

  test("a turn with a tool call is the owner's a2a trajectory: listed with source=a2a only, private, no lab, titled from the first message, its records in order and chained; the next turn of the context appends to it, another key's context is another trajectory", async () => {
    await grant(alice, 'traj-context');
    fake.script.push(tools([python('r-1', 'print(21 * 2)')]), answer('It is 42.'));
    const first = await send(alice.plaintext, userMessage('What is 21 times 2?\nShow your work.', { contextId: 'traj-context' }));
    expect(first.status.state).toBe('TASK_STATE_COMPLETED');
    const sessionId = await sessionOf(first.id);
    expect(sessionId).toMatch(/^a2a:[0-9a-f]{40}$/);

    const listed = (await listA2a()).find((item) => item.session_id === sessionId);
    expect(listed).toMatchObject({ source: 'a2a', title: 'What is 21 times 2?', visibility: 'private', lab_id: null, count: 4 });
    expect((await listA2a({})).map((item) => item.session_id)).not.toContain(sessionId);

    const records = await recordsOf(sessionId);
    expect(records.map((r) => [r.type, r.uuid])).toEqual([
      ['user', `${first.id}:m1`],
      ['tool_use', expect.stringMatching(new RegExp(`^${first.id}:t\\d+:use0$`))],
      ['tool_result', expect.stringMatching(new RegExp(`^${first.id}:t\\d+:result0$`))],
      ['assistant', expect.stringMatching(new RegExp(`^${first.id}:t\\d+$`))],
    ]);
    expectChained(records);
    expect(records[0].message).toEqual({ role: 'user', content: 'What is 21 times 2?\nShow your work.' });
    expect(records[1]).toMatchObject({ toolUseId: 'r-1', name: 'run_code', input: { language: 'python', code: 'print(21 * 2)' } });
    expect(records[2]).toMatchObject({ toolUseId: 'r-1', name: 'run_code', isError: false });
    expect(JSON.parse(records[2].content)).toMatchObject({ exitCode: 0, stdout: '42\n' });
    expect(records[3].message).toEqual({ role: 'assistant', content: 'It is 42.' });

    // The next turn of the context: the same trajectory, appended after its head.
    const second = await send(alice.plaintext, userMessage('Thanks', { contextId: 'traj-context' }));
    expect(second.status.state).toBe('TASK_STATE_COMPLETED');
    expect(await sessionOf(second.id)).toBe(sessionId);
    const both = await recordsOf(sessionId);
    expect(both.map((r) => r.uuid)).toEqual([
      ...records.map((r) => r.uuid),
      `${second.id}:m1`,
      expect.stringMatching(new RegExp(`^${second.id}:t\\d+$`)),
    ]);
    expectChained(both);
    expect(both[5].message.content).toBe('fallback answer');

    // Bob's context of the same name is his own conversation, and its own trajectory.
    const bobs = await send(bob.plaintext, userMessage('Hello from bob', { contextId: 'traj-context' }));
    const bobSession = await sessionOf(bobs.id);
    expect(bobSession).not.toBe(sessionId);
    expect((await recordsOf(bobSession)).map((r) => r.type)).toEqual(['user', 'assistant']);
    expect((await recordsOf(bobSession))[0].uuid).toBe(`${bobs.id}:m1`);
    expect((await listA2a()).map((item) => item.session_id)).toEqual(expect.arrayContaining([sessionId, bobSession]));
  }, 60_000);

  test('the peer has no way to the trajectory: its key is no platform credential, and ListTasks shows only its tasks', async () => {
    const done = await send(alice.plaintext, userMessage('private', { contextId: 'peer-context' }));
    const sessionId = await sessionOf(done.id);
    expect((await recordsOf(sessionId)).length).toBe(2);
    for (const route of ['/api/trajectories?source=a2a', `/api/trajectories/${sessionId}`])
      expect((await t.call('GET', route, { token: alice.plaintext })).status).toBe(401);
    const listed = (await rpc(t, alice.plaintext, rpcCall(1, 'ListTasks', { contextId: 'peer-context', historyLength: 10 }))).body.result;
    expect(listed.tasks.map((task: any) => task.id)).toEqual([done.id]);
    expect(JSON.stringify(listed)).not.toContain(sessionId);
  }, 60_000);

  test('a resumed or retried turn appends each record once: the calls recorded while waiting for an approval are not appended again, however often the turn is brought up to date', async () => {
    fake.script.push(tools([python('a-1', 'print("approved")')]), answer('Ran it.'));
    const waiting = await send(alice.plaintext, userMessage('Run after approval', { contextId: 'approval-context' }));
    expect(waiting.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const sessionId = await sessionOf(waiting.id);
    expect((await recordsOf(sessionId)).map((r) => r.type)).toEqual(['user', 'tool_use']);

    // What a retried attempt does: the same turn state brought up to date again.
    const services = t.app.services;
    const q = sqlOf(services.orm.em.fork());
    const { task, turn: state } = (await startTurn(q, waiting.id))!;
    const logger = { warn: jest.fn(), error: jest.fn(), info: jest.fn(), debug: jest.fn() } as any;
    await recordTurn(services, task, state!, logger);
    await recordTurn(services, task, state!, logger);
    expect([logger.warn.mock.calls, logger.error.mock.calls]).toEqual([[], []]);
    expect((await recordsOf(sessionId)).map((r) => r.type)).toEqual(['user', 'tool_use']);

    const done = await send(alice.plaintext, {
      messageId: `m-${Date.now()}`,
      role: 'ROLE_USER',
      taskId: waiting.id,
      parts: [{ data: { decision: 'allow_once' } }],
    });
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    const records = await recordsOf(sessionId);
    expect(records.map((r) => r.type)).toEqual(['user', 'tool_use', 'tool_result', 'assistant']);
    expect(new Set(records.map((r) => r.uuid)).size).toBe(4);
    expectChained(records);
    // The decision is for the server: not a request in the record.
    expect(records.filter((r) => r.type === 'user').map((r) => r.message.content)).toEqual(['Run after approval']);
  }, 60_000);
});
