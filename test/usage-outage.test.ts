import { sqlOf } from '../src/db/sql';
import type { Completion, LanguageModelClient } from '../src/llm/language-model';
import { meteredCompletionInOne } from '../src/modules/usage/usage.service';
import { makeUser } from './support/app';
import { useDatabaseBehindProxy } from './support/outage';
import { until } from './support/until';

/**
 * A model's answer that arrives while PostgreSQL cannot be reached (restarting) is kept once it
 * can be, while its caller still wants it: in the deployment's fault run a turn's answer was
 * lost with the database down, and the turn's retry paid for the same call again.
 */
const held = useDatabaseBehindProxy();
/** The current outage's end: each test starts with the database up. */
let outageOver: Promise<void> = Promise.resolve();
afterEach(() => outageOver);
const outageFor = (downMs: number) => {
  held.proxy.shutDownPostgres();
  outageOver = new Promise((resolve) => setTimeout(() => resolve(held.proxy.comeBack()), downMs));
};

/** A model whose answer comes while the database is down; it is back `downMs` later. */
const modelAnsweringDuringOutage = (downMs: number): LanguageModelClient => {
  const complete = async (): Promise<Completion> => {
    outageFor(downMs);
    // The outage starts during the call: the pool has seen its connections close by the answer.
    await new Promise((resolve) => setTimeout(resolve, 100));
    return { text: 'kept', toolCalls: [], tokensIn: 3, tokensOut: 4, attempts: 1 };
  };
  return { provider: 'openai', model: 'gpt-5', complete, stream: complete };
};

const ledgerRows = async (userId: string) =>
  (
    await held.t.sql<{ n: number }>(`select count(*)::int as n from usage_entries where user_id = $1 and feature = 'outage-test'`, [userId])
  )[0].n;

test('the answer and its ledger row are kept once the database is back, in one write', async () => {
  const user = await makeUser(held.t);
  const em = held.orm.em.fork();
  let keeps = 0;
  const kept = await meteredCompletionInOne(
    em,
    modelAnsweringDuringOutage(1500),
    { userId: user.id, labId: null, sessionId: null, feature: 'outage-test' },
    { system: '', messages: [{ role: 'user', content: 'hi' }], signal: new AbortController().signal },
    async (ledger, completion) => {
      keeps++;
      await sqlOf(em)(ledger.sql, ledger.params);
      return completion.text;
    },
  );
  expect(kept).toBe('kept');
  expect(keeps).toBeGreaterThan(1); // refused while down, then written
  expect(await ledgerRows(user.id)).toBe(1);
}, 30_000);

test('without a signal (nobody bounds the wait) the failure is the caller’s at once, as before', async () => {
  const user = await makeUser(held.t);
  const em = held.orm.em.fork();
  await expect(
    meteredCompletionInOne(
      em,
      modelAnsweringDuringOutage(1000),
      { userId: user.id, labId: null, sessionId: null, feature: 'outage-test' },
      { system: '', messages: [{ role: 'user', content: 'hi' }] },
      async (ledger) => sqlOf(em)(ledger.sql, ledger.params),
    ),
  ).rejects.toMatchObject({ code: 'ECONNREFUSED' });
}, 30_000);

test('the write done but its answer lost with the connection (a restart): sent again once the database is back, it bills the call once', async () => {
  const user = await makeUser(held.t);
  const em = held.orm.em.fork();
  const answer = async (): Promise<Completion> => ({ text: 'kept', toolCalls: [], tokensIn: 3, tokensOut: 4, attempts: 1 });
  let keeps = 0;
  const kept = await meteredCompletionInOne(
    em,
    { provider: 'openai', model: 'gpt-5', complete: answer, stream: answer },
    { userId: user.id, labId: null, sessionId: null, feature: 'outage-test' },
    { system: '', messages: [{ role: 'user', content: 'hi' }], signal: new AbortController().signal },
    async (ledger, completion) => {
      keeps++;
      if (keeps > 1) await sqlOf(em)(ledger.sql, ledger.params);
      else {
        await sqlOf(em)('select 1'); // the pool's one connection open, before the replies are held
        held.proxy.holdReplies();
        const sent = sqlOf(em)(ledger.sql, ledger.params);
        // Done by the server (seen past the proxy), its answer held: then the restart cuts the connection.
        await until('the ledger row to be written', async () => (await ledgerRows(user.id)) === 1);
        outageFor(500);
        await sent;
      }
      return completion.text;
    },
  );
  expect(kept).toBe('kept');
  expect(keeps).toBeGreaterThan(1);
  expect(await ledgerRows(user.id)).toBe(1);
}, 30_000);
