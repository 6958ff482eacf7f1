import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { useFakeLlm } from './support/fake-llm';
import { createA2aKey, enableA2a } from './support/a2a';
import { startTestApp, TestApp } from './support/app';

/**
 * What the A2A request path costs in SQL statements, counted at the driver (so every layer
 * counts: the ORM, the query builder, the prepared statements). The job queue's statements
 * (pg-boss's schema) are left out: its poll runs on a timer, not on the request.
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

const matching = (statements: string[], pattern: RegExp) => statements.filter((text) => pattern.test(text));
/** The A2A gate's one statement: the settings, the owner's plan facts and the keys (src/modules/a2a/a2a-settings.repository.ts, gateFacts). */
const GATE =
  /^select s\.enabled, .* from \(select 1\) one left join a2a_settings s on true left join users u on u\.email = s\.owner_email$/;

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
    // The gate: the A2A settings, the owner's plan and lab membership and the keys together, the
    // only statement that reads the settings, and the only one that reads the owner (the
    // trajectory record's quota is read from the row it charges).
    expect(matching(statements, GATE)).toHaveLength(1);
    expect(matching(statements, /a2a_settings|a2a_keys/)).toHaveLength(1);
    expect(matching(statements, /\busers u\b/)).toEqual([expect.stringMatching(GATE)]);
    // The task, its first message and its turn's job (claimed by this instance) in one statement:
    // nothing else inserts a task or re-reads it before the turn.
    expect(matching(statements, /insert into a2a_tasks/)).toHaveLength(1);
    expect(
      matching(statements, /^with job as \(insert into pgboss\.job .*\btask as \(insert into a2a_tasks .*\binsert into a2a_messages/),
    ).toHaveLength(1);
    // Not read back once settled: the turn that completed it knows the whole task (see the next test).
    expect(matching(statements, /json_agg/)).toHaveLength(0);
    // The turn (no tools), handed the task as created (WORKING) and, in the context the message
    // began, the conversation (that message): neither read back; its loop state stored once, with
    // the model call's ledger row, in the statement that checks the task is still open; no file
    // rows asked for (none was sent); the model's prices picked by PostgreSQL; the trajectory
    // record appended once, at the end; the completion one statement, which also checks that
    // nothing more was asked (the task row's last_seq: no separate read of it) and completes the
    // turn's job.
    expect(matching(statements, /^with started as \(update a2a_tasks/)).toHaveLength(0);
    expect(matching(statements, /from a2a_messages m join a2a_tasks t on t\.id = m\.task_id/)).toHaveLength(0);
    expect(matching(statements, /insert into a2a_turns/)).toHaveLength(1);
    expect(matching(statements, /'model_call'/)).toEqual([
      expect.stringMatching(
        /^with ledger as \(insert into usage_entries .*\), open as \(select id from a2a_tasks .* for update\), saved as \(insert into a2a_turns/,
      ),
    ]);
    expect(matching(statements, /^select seq, case when jsonb_typeof/)).toHaveLength(0);
    expect(matching(statements, /from a2a_input_files/)).toHaveLength(0);
    // The owner's outbound agents not read: the gate saw there are none.
    expect(matching(statements, /from a2a_agents where user_id = \$1 and enabled/)).toHaveLength(0);
    // The call priced by PostgreSQL in the statement that writes its ledger row: the catalog is not read before.
    expect(matching(statements, /model_catalogs/)).toEqual([
      expect.stringMatching(/^with ledger as \(insert into usage_entries .*model_catalogs/),
    ]);
    // The context's trajectory made with the turn's records in one statement, not looked for
    // first (the context began with this task).
    expect(matching(statements, /from trajectories/)).toHaveLength(0);
    expect(matching(statements, /insert into trajectory_records/)).toEqual([
      expect.stringMatching(/^with made as \( insert into trajectories /),
    ]);
    expect(
      matching(
        statements,
        /^with open as \(select id as open_id, greatest\(t\.last_seq, .*\) \+ 1 as answer_seq from a2a_tasks t .*last_seq <= \$3 .*insert into a2a_artifacts.*insert into a2a_messages.*delete from a2a_turns.*update pgboss\.job set completed_on = now\(\), state = 'completed'.*update a2a_tasks set state = 'TASK_STATE_COMPLETED'/,
      ),
    ).toHaveLength(1);
    expect(matching(statements, /a2a_artifacts|a2a_turns/)).toHaveLength(2);
    // No transaction round trips: each write is one statement.
    expect(matching(statements, /^(begin|commit|rollback);?$/i)).toHaveLength(0);
    // The key's model limits: its request counted and its day's tokens read in one statement, before anything is stored.
    expect(matching(statements, /model_limits/)).toEqual([expect.stringMatching(/^with asked as \(.*insert into model_limits/)]);
    // 36 before the turn was made leaner (the task and its turn read apart, the messages read
    // three times, the completion seven statements, …); 13 before the job's claim and completion
    // went into the task's statements (then not counted here), the turn was handed the task and
    // the settled task was no longer read back. Now: the gate, the limits, the task with its job,
    // the loop state with the ledger row, the trajectory record, the completion with the job.
    expect(statements.length).toBeLessThanOrEqual(6);
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
    const jobStatements: string[] = [];
    const counting = function (this: Client, ...args: unknown[]) {
      const statement = args[0] as string | { text?: string };
      const text = typeof statement === 'string' ? statement : (statement?.text ?? '');
      if (/\bpgboss\.job\b/.test(text)) jobStatements.push(text.replace(/\s+/g, ' ').trim());
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
    // The claim: the job row inserted running, for this task, by the statement that made the
    // task; completed by the one that completed it. pg-boss's own insert (a queued job) and
    // completion never ran.
    expect(
      matching(jobStatements, /^with job as \(insert into pgboss\.job \(name, data, singleton_key, state.*insert into a2a_tasks/),
    ).toHaveLength(1);
    expect(
      matching(jobStatements, /update pgboss\.job set completed_on = now\(\), state = 'completed'.*TASK_STATE_COMPLETED/),
    ).toHaveLength(1);
    expect(matching(jobStatements, /^INSERT INTO pgboss\.job|^WITH results AS \( UPDATE pgboss\.job/)).toHaveLength(0);
    const jobs = await t.sql(`select state from pgboss.job where singleton_key = $1`, [result!.task.id]);
    expect(jobs).toEqual([{ state: 'completed' }]);
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
    expect(statements).toEqual([expect.stringMatching(GATE), expect.stringMatching(/json_agg/)]);
  });
});
