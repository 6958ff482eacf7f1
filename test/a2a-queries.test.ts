import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { useFakeLlm } from './support/fake-llm';
import { createA2aKey, enableA2a } from './support/a2a';
import { startTestApp, TestApp } from './support/app';
import { tablesOf, tablesOfDatabase } from './support/sql-tables';

/**
 * What the A2A request path costs in SQL statements, counted at the driver (so every layer
 * counts: the ORM, the query builder, the prepared statements). The job queue's statements
 * (pg-boss's schema) are left out: its poll runs on a timer, not on the request. Each statement
 * is asserted by the tables it touches (test/support/sql-tables.ts), not by its wording: the
 * same statements written another way pass, one more statement (or one more table) fails.
 */
const sent: string[] = [];
// eslint-disable-next-line @typescript-eslint/unbound-method -- the driver's own method, kept to be called with `.apply(this, …)` on its client and put back; never called unbound
const driverQuery = Client.prototype.query;

function countedQuery(this: Client, ...args: unknown[]) {
  const statement = args[0] as string | { text?: string };
  const text = typeof statement === 'string' ? statement : (statement?.text ?? '');
  // The job queue's and the push dispatcher's polls run on timers, and a new pooled connection
  // sets its statement time-out once: none of them is the request's. (A task's own statements
  // that claim or complete its turn's job name pg-boss's table too: they count.)
  const timers = /\bpgboss\.|\ba2a_push_deliveries\b|^set statement_timeout/.test(text) && !/\ba2a_tasks\b/.test(text);
  if (!timers) sent.push(text.replace(/\s+/g, ' '));
  return (driverQuery as (...a: unknown[]) => unknown).apply(this, args);
}

async function statementsOf(run: () => Promise<unknown>): Promise<string[]> {
  sent.length = 0;
  await run();
  return [...sent];
}

/**
 * The A2A gate's one statement: the settings, the owner's plan facts and lab membership, the
 * keys and whether the owner has outbound agents (src/modules/a2a/a2a-settings.repository.ts, gateFacts).
 */
const GATE = ['a2a_agents', 'a2a_keys', 'a2a_settings', 'lab_members', 'labs', 'users'];

describe('A2A statements per call', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-a2a-queries-'));
  const model = useFakeLlm(() => ({ kind: 'answer', text: 'an answer', tokensIn: 3, tokensOut: 2 }), {
    LLM_PROVIDER: 'openai',
    LLM_MODEL: 'gpt-5',
    LLM_API_KEY: 'sk-test',
    LLM_TIMEOUT_SECONDS: '30',
    LLM_MAX_RETRIES: '0',
  });
  let t: TestApp;
  let key: string;
  let known: Set<string>;
  /** Each statement's tables, in the order sent. */
  const tablesOfAll = (statements: string[]) => statements.map((text) => tablesOf(text, known));

  beforeAll(async () => {
    // The limits on, as in production (the suites' default is off), high enough never to refuse here.
    t = await startTestApp({
      ...model.env,
      DATA_DIR: dataDir,
      A2A_KEY_REQUESTS_PER_MINUTE: '100000',
      A2A_KEY_TOKENS_PER_DAY: '1000000000',
      LLM_USER_TOKENS_PER_DAY: '1000000000',
    });
    await enableA2a(t);
    key = (await createA2aKey(t, 'counted')).plaintext;
    known = await tablesOfDatabase(t);
    Client.prototype.query = countedQuery as typeof Client.prototype.query;
  }, 120_000);
  afterAll(async () => {
    Client.prototype.query = driverQuery;
    await t?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const rpc = async (method: string, params: unknown) => {
    const reply = await t.call('POST', '/a2a/v1', {
      token: key,
      headers: { 'A2A-Version': '1.0' },
      body: { jsonrpc: '2.0', id: 1, method, params },
    });
    expect(reply.body.error).toBeUndefined();
    return reply.body.result;
  };
  const ask = (text: string) => ({
    message: { messageId: `m-${Math.random().toString(36).slice(2)}`, role: 'ROLE_USER', parts: [{ text }] },
  });

  test('blocking SendMessage: the gate and the new task with its first message one statement each, the settled task not read back', async () => {
    let result: { task: { id: string; status: { state: string }; history: unknown[]; artifacts: unknown[] } } | undefined;
    const statements = await statementsOf(async () => (result = await rpc('SendMessage', ask('How many statements?'))));
    expect(result!.task).toMatchObject({
      status: { state: 'TASK_STATE_COMPLETED' },
      history: [expect.anything(), expect.anything()],
      artifacts: [expect.anything()],
    });
    expect(tablesOfAll(statements)).toEqual([
      // The gate: the only statement that reads the settings, the keys and the owner (the
      // trajectory record's quota is read from the row it charges).
      GATE,
      // The key's model limits: its request counted and its day's tokens read in one statement, before anything is stored.
      ['model_limits'],
      // The task, its first message and its turn's job (claimed by this instance, with its
      // queue's settings) in one statement: nothing else inserts a task or re-reads it before the turn.
      ['a2a_messages', 'a2a_tasks', 'pgboss.job', 'pgboss.queue'],
      // The turn (no tools), handed the task as created (WORKING) and, in the context the
      // message began, the conversation (that message): neither read back, no file rows asked
      // for (none was sent), the owner's outbound agents not read (the gate saw there are none).
      // The model answers at once: its loop state is never stored.
      // The context's trajectory made with the turn's records in one statement, not looked for
      // first (the context began with this task), charged to the owner's quota.
      ['trajectories', 'trajectory_records', 'usage_entries', 'users'],
      // The completion: the answer artifact and message, the loop state deleted (were there
      // one), the turn's job completed, the model call's ledger row (priced by PostgreSQL from
      // the catalog) and the task COMPLETED, checking that nothing more was asked (the task's
      // last_seq: no separate read of it). Not read back once settled: the turn that completed
      // it knows the whole task (see the next test). No transaction round trips: each write is
      // one statement.
      ['a2a_artifacts', 'a2a_messages', 'a2a_tasks', 'a2a_turns', 'model_catalogs', 'pgboss.job', 'usage_entries'],
    ]);
    // 36 before the turn was made leaner (the task and its turn read apart, the messages read
    // three times, the completion seven statements, …); 13 before the job's claim and completion
    // went into the task's statements (then not counted here), the turn was handed the task and
    // the settled task was no longer read back; 6 before the answer's ledger row went into the
    // completion. Now 5.
    expect(statements).toHaveLength(5);
  });

  test('blocking SendMessage answers the task the turn completed, as GetTask reads it, for any historyLength', async () => {
    for (const historyLength of [undefined, 0, 1, 2, 5]) {
      const configuration = historyLength === undefined ? undefined : { historyLength };
      const { task } = (await rpc('SendMessage', { ...ask(`Answer with history ${historyLength}`), configuration })) as {
        task: { id: string };
      };
      expect(await rpc('GetTask', { id: task.id, ...(historyLength === undefined ? {} : { historyLength }) })).toEqual(task);
    }
    // A message with data parts too: its stored form is what is answered.
    const { task } = (await rpc('SendMessage', {
      message: {
        messageId: 'm-data',
        role: 'ROLE_USER',
        parts: [{ text: 'see' }, { data: { b: 1, a: [1.5, 'x'] } }],
        metadata: { k: 'v' },
      },
    })) as { task: { id: string; history: unknown[] } };
    expect(task.history).toHaveLength(2);
    expect(await rpc('GetTask', { id: task.id })).toEqual(task);
  });

  test('blocking SendMessage: the turn runs on the instance that took the call, claimed and completed in its task statements, never queued', async () => {
    // Every statement on pg-boss's jobs (timers' too), with its parameters.
    const jobStatements: { tables: string[]; values: string }[] = [];
    const counting = function (this: Client, ...args: unknown[]) {
      const statement = args[0] as string | { text?: string; values?: unknown[] };
      const text = typeof statement === 'string' ? statement : (statement?.text ?? '');
      // Parameters beside the text, or in the statement's config (a prepared statement).
      const values = (typeof statement === 'string' ? undefined : statement?.values) ?? args[1];
      const tables = tablesOf(text, known);
      if (tables.includes('pgboss.job')) jobStatements.push({ tables, values: JSON.stringify(values ?? []) });
      return countedQuery.apply(this, args);
    };
    Client.prototype.query = counting as typeof Client.prototype.query;
    let result: { task: { id: string; status: { state: string } } } | undefined;
    try {
      result = await rpc('SendMessage', ask('Run it here'));
    } finally {
      Client.prototype.query = countedQuery as typeof Client.prototype.query;
    }
    expect(result!.task.status.state).toBe('TASK_STATE_COMPLETED');
    const jobs = await t.sql<{ id: string; state: string }>(`select id, state from pgboss.job where singleton_key = $1`, [result!.task.id]);
    expect(jobs.map((job) => job.state)).toEqual(['completed']);
    // The statements that named this task's job (by the task, its key, or the job's id): the
    // claim, the job row inserted running by the statement that made the task, and the
    // completion, by the one that completed the task. pg-boss's own insert (a queued job) and
    // completion, which touch no task, never ran.
    const ofThisJob = jobStatements.filter(({ values }) => values.includes(result!.task.id) || values.includes(jobs[0].id));
    expect(ofThisJob.map(({ tables }) => tables)).toEqual([
      ['a2a_messages', 'a2a_tasks', 'pgboss.job', 'pgboss.queue'],
      ['a2a_artifacts', 'a2a_messages', 'a2a_tasks', 'a2a_turns', 'model_catalogs', 'pgboss.job', 'usage_entries'],
    ]);
  });

  test("a turn's model call is priced where its ledger row is written: shipped prices, then a stored catalog's, nothing for a model it does not list", async () => {
    const lastCredits = async () =>
      (await t.sql<{ credits: string }>(`select credits from usage_entries where feature = 'a2a' order by id desc limit 1`))[0].credits;
    const replace = async (id: string) => {
      const reply = await t.call('POST', '/graphql', {
        token: t.adminToken,
        body: {
          query: 'mutation ($input: ModelCatalogInput!) { modelCatalogReplace(input: $input) { version } }',
          variables: {
            input: {
              version: `a2a-${id}`,
              models: [
                { id, provider: 'openai', name: 'GPT-5', contextWindow: 400000, inputPrice: 20000, outputPrice: 100000, capabilities: [] },
              ],
            },
          },
        },
      });
      expect(reply.body.errors).toBeUndefined();
    };
    try {
      // 3 tokens in and 2 out (the fake model's answer); the shipped catalog's gpt-5: 1.25 and 10 a million.
      await rpc('SendMessage', ask('Price me'));
      expect(await lastCredits()).toBe('0.000024');
      await replace('gpt-5');
      await rpc('SendMessage', ask('Price me again'));
      expect(await lastCredits()).toBe('0.260000'); // 3 × 20,000 + 2 × 100,000 a million
      await replace('another-model');
      await rpc('SendMessage', ask('And now?'));
      expect(await lastCredits()).toBe('0.000000');
    } finally {
      await t.sql('delete from model_catalogs');
    }
  });

  test('GetTask: two statements, the gate and the task with its history and artifacts', async () => {
    const { task } = await rpc('SendMessage', ask('Read me back'));
    const statements = await statementsOf(() => rpc('GetTask', { id: task.id, historyLength: 10 }));
    expect(tablesOfAll(statements)).toEqual([GATE, ['a2a_artifacts', 'a2a_messages', 'a2a_part_payloads', 'a2a_tasks']]);
  });
});
