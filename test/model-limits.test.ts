import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config';
import { useFakeLlm } from './support/fake-llm';
import { createA2aKey, enableA2a } from './support/a2a';
import { makeUser, startTestApp, TestApp } from './support/app';
import { newSessionId, newUuid, sessionPath, trajectoryCalls } from './support/trajectories';

/**
 * Issue 21, finding 6: every model-backed request is admitted against limits per user and per
 * A2A key, counted in PostgreSQL. With the defaults, one key's 60 simultaneous turns and one
 * user's 20 simultaneous discuss calls are partly refused (429 with Retry-After; over JSON-RPC
 * an error in the -32000 range with the same words), and a refused request makes no model call.
 */

const DEFAULTS = loadConfig({ DATA_DIR: os.tmpdir() }).modelLimits;
const DEFAULT_ENV = {
  LLM_USER_REQUESTS_PER_MINUTE: String(DEFAULTS.userRequestsPerMinute),
  LLM_USER_TOKENS_PER_DAY: String(DEFAULTS.userTokensPerDay),
  A2A_KEY_REQUESTS_PER_MINUTE: String(DEFAULTS.keyRequestsPerMinute),
  A2A_KEY_TOKENS_PER_DAY: String(DEFAULTS.keyTokensPerDay),
};

describe('model limits', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-model-limits-'));
  const model = useFakeLlm(() => ({ kind: 'answer', text: 'an answer', tokensIn: 30, tokensOut: 20 }), {
    LLM_PROVIDER: 'openai',
    LLM_MODEL: 'gpt-5',
    LLM_API_KEY: 'sk-test',
    LLM_TIMEOUT_SECONDS: '30',
    LLM_MAX_RETRIES: '0',
  });
  let t: TestApp;
  let second: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp({ ...model.env, ...DEFAULT_ENV, DATA_DIR: dataDir });
    await enableA2a(t);
    key = (await createA2aKey(t, 'limited')).plaintext;
    // A second instance on the same database: the counts are shared, not per process.
    second = await startTestApp({ ...model.env, ...DEFAULT_ENV, DATA_DIR: dataDir }, { sameDatabaseAs: t });
  }, 120_000);
  afterAll(async () => {
    await second?.close();
    await t?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const modelCalls = () => model.fake.seen.length;

  test('the defaults are what docs/api/limits.md states', () => {
    expect(DEFAULTS).toEqual({
      userRequestsPerMinute: 10,
      userTokensPerDay: 2_000_000,
      keyRequestsPerMinute: 20,
      keyTokensPerDay: 2_000_000,
    });
    expect(() => loadConfig({ LLM_USER_REQUESTS_PER_MINUTE: '-1', A2A_KEY_TOKENS_PER_DAY: 'lots' })).toThrow(
      /LLM_USER_REQUESTS_PER_MINUTE must be a whole number.*A2A_KEY_TOKENS_PER_DAY must be a whole number/s,
    );
  });

  test("an A2A key's turns count against the key's and the owner's day, and the ledger names the key", async () => {
    const reply = await t.call('POST', '/a2a/v1', {
      token: key,
      headers: { 'A2A-Version': '1.0' },
      body: {
        jsonrpc: '2.0',
        id: 'day',
        method: 'SendMessage',
        params: { message: { messageId: 'day-1', role: 'ROLE_USER', parts: [{ text: 'count me' }] } },
      },
    });
    expect(reply.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    const knex = t.app.services.orm.em.getConnection().getKnex();
    const { rows } = await knex.raw(`select subject, tokens from model_limits where window_kind = 'day' and subject like 'a2a:%'`);
    expect(rows).toEqual([{ subject: expect.stringMatching(/^a2a:/), tokens: expect.any(String) }]);
    const ledger = await knex.raw(`select count(*)::int as n from usage_entries where feature = 'a2a' and a2a_principal = ?`, [
      rows[0].subject.slice(4),
    ]);
    expect(ledger.rows[0].n).toBeGreaterThan(0);
    expect(Number(rows[0].tokens)).toBe(50 * ledger.rows[0].n);
  });
  test("one key's 60 simultaneous SendMessages over two instances: at most its limit is admitted, the rest 429 with Retry-After, and only the admitted call the model", async () => {
    const taskCount = async () =>
      (
        await t.call('POST', '/a2a/v1', {
          token: key,
          headers: { 'A2A-Version': '1.0' },
          body: { jsonrpc: '2.0', id: 'l', method: 'ListTasks', params: { pageSize: 1 } },
        })
      ).body.result.totalSize as number;
    const tasksBefore = await taskCount();
    const before = modelCalls();
    const replies = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        (i % 2 ? second : t).call('POST', '/a2a/v1', {
          token: key,
          headers: { 'A2A-Version': '1.0' },
          body: {
            jsonrpc: '2.0',
            id: i,
            method: 'SendMessage',
            params: {
              message: { messageId: `burst-${i}`, role: 'ROLE_USER', parts: [{ text: 'hello' }] },
              configuration: { returnImmediately: true },
            },
          },
        }),
      ),
    );
    const admitted = replies.filter((reply) => reply.status === 200 && reply.body.result);
    const refused = replies.filter((reply) => reply.status === 429);
    expect(admitted.length + refused.length).toBe(60);
    expect(admitted.length).toBeGreaterThan(0);
    // One UTC minute may end during the burst: at most two minutes' worth get in.
    expect(admitted.length).toBeLessThanOrEqual(2 * DEFAULTS.keyRequestsPerMinute);
    for (const reply of refused) {
      expect(reply.body.error.code).toBeLessThanOrEqual(-32000);
      expect(reply.body.error.code).toBeGreaterThanOrEqual(-32099);
      expect(reply.body.error.message).toMatch(/^too many model requests: this A2A key may make 20 a minute; try again in \d+ s$/);
      expect(Number(reply.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(reply.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    }
    // A refused message stored nothing: the key has exactly the admitted tasks.
    expect((await taskCount()) - tasksBefore).toBe(admitted.length);
    // Every admitted turn runs (one model call each); no refused one does.
    const ids = admitted.map((reply) => reply.body.result.task.id as string);
    for (let i = 0; i < 300 && modelCalls() - before < ids.length; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(modelCalls() - before).toBe(ids.length);
  }, 120_000);

  test("one user's 20 simultaneous discuss calls: at most the user's limit is answered, the rest 429 with Retry-After, nothing else changed", async () => {
    const user = await makeUser(t);
    const sessionId = newSessionId('limits');
    expect(
      (await trajectoryCalls(t).append(user, sessionId, null, [{ uuid: newUuid(), type: 'user', content: 'a question about limits' }]))
        .status,
    ).toBeLessThan(300);
    const before = modelCalls();
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? second : t).call('POST', sessionPath(sessionId, '/discuss'), { token: user.token, body: { question: `question ${i}` } }),
      ),
    );
    const answered = replies.filter((reply) => reply.status === 200);
    const refused = replies.filter((reply) => reply.status === 429);
    expect(answered.length + refused.length).toBe(20);
    expect(refused.length).toBeGreaterThan(0);
    expect(answered.length).toBeLessThanOrEqual(2 * DEFAULTS.userRequestsPerMinute);
    for (const reply of refused) {
      expect(reply.body).toEqual({
        detail: expect.stringMatching(/^too many model requests: your account may make 10 a minute; try again in \d+ s$/),
      });
      expect(Number(reply.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    expect(modelCalls() - before).toBe(answered.length);
  }, 60_000);

  test('a day whose token budget is used up refuses until 00:00 UTC, and says so', async () => {
    const user = await makeUser(t);
    const sessionId = newSessionId('budget');
    expect(
      (await trajectoryCalls(t).append(user, sessionId, null, [{ uuid: newUuid(), type: 'user', content: 'budget' }])).status,
    ).toBeLessThan(300);
    const ask = () => t.call('POST', sessionPath(sessionId, '/discuss'), { token: user.token, body: { question: 'how much?' } });
    expect((await ask()).status).toBe(200);
    // The ledger trigger counted the call's tokens (30 in, 20 out) into the user's day.
    const { rows } = await t.app.services.orm.em
      .getConnection()
      .getKnex()
      .raw(`select tokens from model_limits where subject = ? and window_kind = 'day'`, [`user:${user.id}`]);
    expect(rows.map((row: { tokens: string }) => Number(row.tokens))).toEqual([50]);
    await t.app.services.orm.em
      .getConnection()
      .getKnex()
      .raw(`update model_limits set tokens = ? where subject = ? and window_kind = 'day'`, [DEFAULTS.userTokensPerDay, `user:${user.id}`]);
    const before = modelCalls();
    const refused = await ask();
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toMatch(
      /^the daily model token budget of your account \(2000000 tokens\) is used up; it renews at 00:00 UTC, in \d+ s$/,
    );
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    expect(modelCalls()).toBe(before);
  });
});
