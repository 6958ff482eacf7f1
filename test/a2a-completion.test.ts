import { Client } from 'pg';
import { preparedOf, Query } from '../src/db/sql';
import { randomUUID } from 'node:crypto';
import { appendMessage, completeTask, createTask, findTaskById } from '../src/modules/a2a/a2a-task.repository';
import { modelCallInsert } from '../src/modules/usage/usage.repository';
import { useTestApp } from './support/app';
import { until } from './support/until';

/**
 * A turn completes its task only while it holds the task's newest message, checked on the locked
 * row: a request SendMessage commits while the completion waits for the lock is not dropped.
 */
const t = useTestApp();
const q = (): Query => preparedOf(t.app.services.orm.em.fork());
const owner = async () => (await t.sql<{ id: string }>(`select id from users order by created_at limit 1`))[0].id;

async function newTask(id: string) {
  const ownerId = await owner();
  return createTask(
    q(),
    { id, contextId: `ctx-${id}`, principal: 'key-1', ownerId, state: 'TASK_STATE_WORKING' },
    { messageId: `m-${id}`, role: 'ROLE_USER', parts: [{ text: 'first' }] },
  );
}
const answer = (text: string) => ({ messageId: `a-${text}`, role: 'ROLE_AGENT', parts: [{ text }] });
const artifacts = (id: string) => [{ artifactId: `${id}-answer`, name: 'answer', parts: [{ text: 'done' }] }];
const stored = (id: string) =>
  t.sql<{ seq: number; role: string }>(`select seq, message->>'role' as role from a2a_messages where task_id = $1 order by seq`, [id]);

test('a new task holds its first message; an append moves last_seq with the message it numbers', async () => {
  const task = await newTask('turn_seq');
  expect(task.lastSeq).toBe(1);
  await appendMessage(q(), task.id, { messageId: 'm-2', role: 'ROLE_USER', parts: [{ text: 'second' }] });
  expect((await findTaskById(q(), task.id))!.lastSeq).toBe(2);
  expect(await stored(task.id)).toEqual([
    { seq: 1, role: 'ROLE_USER' },
    { seq: 2, role: 'ROLE_USER' },
  ]);
});

test('the completion of a turn that saw every message stores the answer after them and COMPLETES; one that did not changes nothing', async () => {
  const task = await newTask('turn_saw');
  await appendMessage(q(), task.id, { messageId: 'm-late', role: 'ROLE_USER', parts: [{ text: 'late' }] });
  expect(await completeTask(q(), task.id, 1, artifacts(task.id), answer('stale'))).toBeNull();
  expect((await findTaskById(q(), task.id))!.state).toBe('TASK_STATE_WORKING');
  expect(await t.sql(`select 1 from a2a_artifacts where task_id = $1`, [task.id])).toEqual([]);

  const done = await completeTask(q(), task.id, 2, artifacts(task.id), answer('fresh'));
  expect(done).toMatchObject({ state: 'TASK_STATE_COMPLETED', lastSeq: 3 });
  expect(await stored(task.id)).toEqual([
    { seq: 1, role: 'ROLE_USER' },
    { seq: 2, role: 'ROLE_USER' },
    { seq: 3, role: 'ROLE_AGENT' },
  ]);
  expect(await completeTask(q(), task.id, 3, artifacts(task.id), answer('again'))).toBeNull(); // terminal: once
});

test('the completion sent again after it was done (its answer lost with the connection) changes nothing and bills the call once', async () => {
  const task = await newTask('turn_resent');
  const callId = randomUUID();
  const ledger = modelCallInsert(
    {
      userId: task.ownerId,
      labId: null,
      sessionId: null,
      feature: 'a2a',
      model: 'openai/gpt-5',
      tokensIn: 3,
      tokensOut: 4,
      credits: 0,
      latencyMs: 5,
      outcome: 'ok',
      callId,
    },
    { catalogModelId: 'gpt-5' },
  );
  expect(await completeTask(q(), task.id, 1, artifacts(task.id), answer('once'), { ledger })).toMatchObject({
    state: 'TASK_STATE_COMPLETED',
  });
  expect(await completeTask(q(), task.id, 1, artifacts(task.id), answer('once'), { ledger })).toBeNull();
  expect(await stored(task.id)).toEqual([
    { seq: 1, role: 'ROLE_USER' },
    { seq: 2, role: 'ROLE_AGENT' },
  ]);
  expect(await t.sql(`select tokens_out::int as tokens from usage_entries where call_id = $1`, [callId])).toEqual([{ tokens: 4 }]);
});

test('a message committed while the completion waits for the task lock stops the completion', async () => {
  const task = await newTask('turn_race');
  // SendMessage adding to the task: its transaction holds the row lock …
  const sender = new Client({ connectionString: t.databaseUrl });
  await sender.connect();
  try {
    await sender.query('begin');
    await sender.query('select 1 from a2a_tasks where id = $1 for update', [task.id]);
    // … while the turn tries to complete with what it saw (message 1).
    const completing = completeTask(q(), task.id, 1, artifacts(task.id), answer('too early'));
    // Its statement is waiting for the lock (so its snapshot was taken before the commit below).
    await until(
      'the completion to wait for the task lock',
      async () =>
        (
          await t.sql(
            `select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like 'with "open" as (select "id" as "open_id"%'`,
          )
        ).length > 0,
    );
    await sender.query(
      `with moved as (update a2a_tasks set last_seq = last_seq + 1 where id = $1 returning last_seq) insert into a2a_messages (task_id, seq, message) select $1, last_seq, $2::jsonb from moved`,
      [task.id, JSON.stringify({ messageId: 'm-race', role: 'ROLE_USER', parts: [{ text: 'one more thing' }] })],
    );
    await sender.query('commit');
    expect(await completing).toBeNull();
  } finally {
    await sender.end();
  }
  expect(await findTaskById(q(), task.id)).toMatchObject({ state: 'TASK_STATE_WORKING', lastSeq: 2 });
  expect(await stored(task.id)).toEqual([
    { seq: 1, role: 'ROLE_USER' },
    { seq: 2, role: 'ROLE_USER' },
  ]);
});
