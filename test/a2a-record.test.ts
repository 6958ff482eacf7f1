import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SendMessageRequest, Task } from '@a2a-js/sdk';
import { startFakeLlm, ScriptedToolCall, Step } from './support/fake-llm';
import { startTestApp, TestApp } from './support/app';
import { createA2aKey, enableA2a, officialClient, userMessage } from './support/a2a';
import { workspaceOf } from '../src/modules/a2a/a2a-agent-tools';

/** Files sent in (saved to the context's workspace) and each context's `a2a` trajectory record: the official client, the real sandbox, the scripted model as the only fake. */

const tools = (calls: ScriptedToolCall[]): Step => ({ kind: 'tools', calls, tokensIn: 11, tokensOut: 7 });
const answer = (text: string): Step => ({ kind: 'answer', text, tokensIn: 13, tokensOut: 5 });
const python = (id: string, code: string): ScriptedToolCall => ({ id, name: 'run_code', input: { language: 'python', code } });
const rawPart = (content: string | Buffer, extra: Record<string, unknown> = {}) => ({ raw: Buffer.from(content).toString('base64'), ...extra });

describe('A2A files in and the a2a trajectory record', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-a2a-record-'));
  // Bubblewrap runs as another uid (the tests run as root): it must be able to search the parents.
  const workspaceParent = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-a2a-record-ws-'));
  fs.chmodSync(workspaceParent, 0o711);
  const workspaces = path.join(workspaceParent, 'workspaces');
  let fake: Awaited<ReturnType<typeof startFakeLlm>>;
  let t: TestApp;
  let alice: { id: string; plaintext: string };


  const send = async (key: string, message: Record<string, unknown>) =>
    Task.toJSON((await (await officialClient(t, key)).sendMessage(SendMessageRequest.fromJSON({ message }))) as Task) as any;
  /** Lets execution calls of the key's context run without an approval. */
  const grant = (key: { id: string }, contextId: string) => t.sql(`insert into a2a_context_grants (principal, context_id) values ($1, $2) on conflict do nothing`, [`key:${key.id}`, contextId]);
  const inputsOf = (key: { id: string }, contextId: string) => path.join(workspaces, workspaceOf(`key:${key.id}`, contextId), 'inputs');
  /** The user message the model saw last in request `index`. */
  const lastUserText = (index: number) => fake.seen[index].body.messages.filter((m) => m.role === 'user').at(-1)!.content;

  beforeAll(async () => {
    fake = await startFakeLlm(() => answer('fallback answer'));
    await enableA2a(dataDir);
    alice = await createA2aKey(dataDir, 'alice');

    t = await startTestApp({
      DATA_DIR: dataDir, AGENT_WORKSPACE_DIR: workspaces, AGENT_SANDBOX_MAX_FILE_BYTES: String(1024 * 1024), LLM_PROVIDER: 'openai', LLM_MODEL: 'gpt-5', LLM_API_KEY: 'sk-test',
      LLM_BASE_URL: fake.baseUrl, LLM_TIMEOUT_SECONDS: '30', LLM_MAX_RETRIES: '0',
    });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  test('a CSV sent as a raw part is saved to inputs/, the model is told where, a run_code reads it and the answer and the output artifact show its content', async () => {
    await grant(alice, 'csv-context');
    const csv = 'x,y\n1,2\n3,4\n';
    const code = 'import csv\nrows = list(csv.DictReader(open("inputs/data.csv")))\ntotal = sum(int(r["y"]) for r in rows)\nprint(total)\nopen("outputs/total.txt", "w").write(f"total of y: {total}")';
    fake.script.push(tools([python('f-1', code)]), answer('The y column sums to 6.'));
    const before = fake.seen.length;
    const done = await send(alice.plaintext, { ...userMessage('Sum the y column', { contextId: 'csv-context' }), parts: [{ text: 'Sum the y column' }, rawPart(csv, { filename: 'data.csv', mediaType: 'text/csv' })] });
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    expect(lastUserText(before)).toBe(`Sum the y column\n[file inputs/data.csv (text/csv, ${csv.length} bytes)]`);
    expect(JSON.parse(fake.seen[before + 1].toolResults.at(-1)!.content)).toMatchObject({ exitCode: 0, stdout: '6\n' });
    expect(done.artifacts[0].parts).toEqual([{ text: 'The y column sums to 6.' }]);
    expect(done.artifacts[1]).toMatchObject({ name: 'total.txt', parts: [{ raw: Buffer.from('total of y: 6').toString('base64'), filename: 'total.txt' }] });
    // Saved once: the file is in the workspace, not in outputs/, and recorded.
    expect(fs.readFileSync(path.join(inputsOf(alice, 'csv-context'), 'data.csv'), 'utf8')).toBe(csv);
    expect(await t.sql(`select path, media_type, bytes::int from a2a_input_files where task_id = $1`, [done.id])).toEqual([{ path: 'inputs/data.csv', media_type: 'text/csv', bytes: csv.length }]);
  }, 60_000);

  test('hostile and missing file names land as safe names inside inputs/; a clash gets a numbered suffix; a link is neither followed nor replaced; a file over the cap is not saved and the model is told why', async () => {
    const contextId = 'names-context';
    // A first file, and a link the code could have planted pointing outside the workspace.
    expect((await send(alice.plaintext, { ...userMessage('first', { contextId }), parts: [rawPart('one', { filename: 'data.csv', mediaType: 'text/csv' })] })).status.state).toBe('TASK_STATE_COMPLETED');
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
    expect(fs.readdirSync(dir).sort()).toEqual(['bashrc', 'data-1.csv', 'data.csv', 'input-4.csv', 'input-7.txt', 'link-1.txt', 'link.txt', longSaved, 'x'].sort());
    expect(fs.readFileSync(path.join(dir, 'data.csv'), 'utf8')).toBe('one');
    expect(fs.readFileSync(outside, 'utf8')).toBe('untouched');
    expect(fs.lstatSync(path.join(dir, 'link.txt')).isSymbolicLink()).toBe(true);
    expect(fs.existsSync(path.join(workspaceParent, 'etc'))).toBe(false);

    // A later turn of the context still sees where the earlier message's files are.
    const later = fake.seen.length;
    expect((await send(alice.plaintext, userMessage('and now?', { contextId }))).status.state).toBe('TASK_STATE_COMPLETED');
    expect(fake.seen[later].body.messages.some((m) => m.role === 'user' && m.content.includes('[file inputs/data-1.csv (text/csv, 3 bytes)]'))).toBe(true);
  }, 60_000);
});
