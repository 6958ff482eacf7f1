import { JOB_SCHEMA } from '../src/jobs/jobs.repository';
import { JobQueue } from '../src/jobs/queue';
import { makeLogger } from '../src/logger';
import { createTestDatabase, query } from './support/databases';
import { FreezableProxy } from './support/freezable-proxy';
import { until } from './support/until';

/**
 * An attempt that ends while PostgreSQL is down (restarted under a running instance): its outcome
 * is recorded once the database is back, not left `active` until the job's row expires, which
 * kept an A2A turn WORKING for 15 minutes in the deployment's fault run (test/deployment.test.ts).
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let proxy: FreezableProxy;
let queue: JobQueue;
const entered: string[] = [];
const releases = new Map<string, () => void>();

beforeAll(async () => {
  database = await createTestDatabase();
  proxy = await FreezableProxy.start(database.url);
  queue = new JobQueue(proxy.urlFor(database.url), makeLogger('silent'));
  // Each job waits until the test releases it; `fail-…` jobs then throw.
  queue.register<{ key: string }>('outage', { concurrency: 2, timeoutSeconds: 600, retries: 1, retryDelaySeconds: 1 }, async ({ key }) => {
    entered.push(key);
    await new Promise<void>((resolve) => releases.set(key, resolve));
    if (key.startsWith('fail-')) throw new Error('the work failed');
  });
  await queue.start();
}, 60_000);

afterAll(async () => {
  await proxy?.comeBack();
  for (const release of releases.values()) release();
  await queue?.stop();
  await proxy?.close();
  await database?.drop();
}, 60_000);

/** The states of the job of `key`, oldest first, read past the proxy. */
const states = async (key: string) =>
  (
    await query<{ state: string }>(
      database.url,
      `select state from ${JOB_SCHEMA}.job where name = 'outage' and singleton_key = $1 order by created_on`,
      [key],
    )
  ).map((row) => row.state);

test.each([
  ['done-1', 'completed'],
  ['fail-1', 'retry'],
])(
  'an attempt (%s) that ends while the database is down is recorded %s once it is back',
  async (key, recorded) => {
    await queue.send('outage', key, { key });
    await until(`the job ${key} to start`, () => entered.includes(key));
    proxy.goDown();
    releases.get(key)!();
    // Down for longer than the first tries to record it.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await states(key)).toEqual(['active']);
    await proxy.comeBack();
    await until(`the job ${key} to be recorded`, async () => (await states(key))[0] !== 'active', { seconds: 15 });
    const [state] = await states(key);
    // A failed attempt is retried: it may already have been fetched again.
    expect(recorded === 'retry' ? ['retry', 'active'] : [recorded]).toContain(state);
  },
  60_000,
);
