import { randomUUID } from 'node:crypto';
import PgBoss from 'pg-boss';
import { beatInstance, failOverOrphanedJobs, fetchDueJobs, JOB_SCHEMA } from '../src/jobs/jobs.repository';
import { createTestDatabase, query } from './support/databases';

/**
 * The fail-over of a dead instance's running jobs (our own statement on pg-boss's `job` table):
 * a job with an attempt left is retried after its delay, one without is failed (and copied to its
 * dead-letter queue), as pg-boss's maintenance fails a job that timed out. pg-boss itself runs
 * here without its maintenance, so every change of state is the statement's.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let boss: PgBoss;
const KIND = 'failover';
const DEAD = 'failover-dead';
const liveInstance = randomUUID();
const deadInstance = randomUUID(); // never beats

beforeAll(async () => {
  database = await createTestDatabase();
  boss = new PgBoss({ connectionString: database.url, schema: JOB_SCHEMA, max: 2, schedule: false, supervise: false });
  await boss.start();
  await boss.createQueue(DEAD, { name: DEAD, policy: 'standard' });
  await boss.createQueue(KIND, {
    name: KIND,
    policy: 'stately',
    retryLimit: 1,
    retryDelay: 5,
    retryBackoff: true,
    expireInSeconds: 600,
    deadLetter: DEAD,
  });
  await beatInstance(boss.getDb(), liveInstance);
}, 60_000);

afterAll(async () => {
  await boss?.stop({ graceful: false, close: true });
  await database?.drop();
}, 60_000);

interface JobRow {
  id: string;
  state: string;
  retry_count: number;
  delay: number;
  completed: boolean;
  message: string | null;
}

const jobsOf = (key: string) =>
  query<JobRow>(
    database.url,
    `select id, state::text, retry_count, extract(epoch from start_after - now())::float as delay, completed_on is not null as completed,
            output->'value'->>'message' as message
       from ${JOB_SCHEMA}.job where name = $1 and singleton_key = $2 order by created_on`,
    [KIND, key],
  );

/** Sends a job of `key` and has `instance` fetch it (it runs there). */
async function runOn(instance: string, key: string): Promise<string> {
  await boss.send(KIND, { key }, { singletonKey: key });
  const fetched = await fetchDueJobs(boss.getDb(), KIND, 1, instance);
  expect(fetched).toHaveLength(1);
  return fetched[0].id;
}

/** Makes the retry of `id` due now, and has `instance` fetch it again. */
async function refetch(instance: string, id: string): Promise<void> {
  await query(database.url, `update ${JOB_SCHEMA}.job set start_after = now() - interval '1 second' where id = $1`, [id]);
  const fetched = await fetchDueJobs(boss.getDb(), KIND, 1, instance);
  expect(fetched.map((job) => job.id)).toEqual([id]);
}

test('a dead instance’s job is retried after its delay while it has an attempt left, then failed and dead-lettered', async () => {
  const id = await runOn(deadInstance, 'k1');

  expect(await failOverOrphanedJobs(boss.getDb(), [KIND], 60)).toEqual([{ id, name: KIND, data: { key: 'k1' }, state: 'retry' }]);
  const [retry] = await jobsOf('k1');
  expect(retry).toMatchObject({ id, state: 'retry', retry_count: 0, completed: false, message: 'job failed over: its instance stopped' });
  // Backoff: between one and two delays (5 s) from now.
  expect(retry.delay).toBeGreaterThan(3);
  expect(retry.delay).toBeLessThanOrEqual(10);
  // Not due yet: nothing is fetched.
  expect(await fetchDueJobs(boss.getDb(), KIND, 1, deadInstance)).toEqual([]);

  await refetch(deadInstance, id);
  expect(await failOverOrphanedJobs(boss.getDb(), [KIND], 60)).toEqual([{ id, name: KIND, data: { key: 'k1' }, state: 'failed' }]);
  expect(await jobsOf('k1')).toEqual([expect.objectContaining({ id, state: 'failed', retry_count: 1, completed: true })]);
  const dead = await query<{ data: object }>(database.url, `select data from ${JOB_SCHEMA}.job where name = $1`, [DEAD]);
  expect(dead).toEqual([{ data: { key: 'k1' } }]);

  // Done once: a second sweep finds nothing.
  expect(await failOverOrphanedJobs(boss.getDb(), [KIND], 60)).toEqual([]);
});

test('a live instance’s job, and a job of a kind not swept, are left running', async () => {
  const live = await runOn(liveInstance, 'k2');
  const other = await runOn(deadInstance, 'k3');
  expect(await failOverOrphanedJobs(boss.getDb(), ['another-kind'], 60)).toEqual([]);
  expect(await failOverOrphanedJobs(boss.getDb(), [KIND], 60)).toEqual([{ id: other, name: KIND, data: { key: 'k3' }, state: 'retry' }]);
  expect(await jobsOf('k2')).toEqual([expect.objectContaining({ id: live, state: 'active' })]);
});

test('a job whose key has a retry waiting already is failed (the stately policy keeps one)', async () => {
  const running = await runOn(deadInstance, 'k4');
  await boss.send(KIND, { key: 'k4' }, { singletonKey: 'k4' });
  await query(database.url, `update ${JOB_SCHEMA}.job set state = 'retry' where name = $1 and singleton_key = 'k4' and state = 'created'`, [
    KIND,
  ]);
  expect(await failOverOrphanedJobs(boss.getDb(), [KIND], 60)).toEqual([{ id: running, name: KIND, data: { key: 'k4' }, state: 'failed' }]);
  expect((await jobsOf('k4')).map((job) => job.state).sort()).toEqual(['failed', 'retry']);
});
