import Redis from 'ioredis';
import { makeLogger } from '../src/logger';
import { makePubSub, RecordsAppended } from '../src/pubsub';
import { FreezableProxy } from './support/freezable-proxy';
import { until } from './support/until';

/**
 * Redis stopped under a running instance (the deployment's fault run, test/deployment.test.ts):
 * publishing went on and each refused publish was an unhandled rejection, which ended the process
 * (both instances restarted in a loop). Now events are dropped while Redis is away, the outage is
 * logged once, and delivery resumes when it answers again.
 */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const describeRedis = process.env.REDIS_URL ? describe : describe.skip;

describeRedis('pub/sub while Redis is down', () => {
  let proxy: FreezableProxy;
  const lines: { level: string; msg: string }[] = [];
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason);

  beforeAll(async () => {
    proxy = await FreezableProxy.start(REDIS_URL);
    process.on('unhandledRejection', onRejection);
  });
  afterAll(async () => {
    process.off('unhandledRejection', onRejection);
    await proxy?.close();
  });

  test('publishing goes on without failing, the outage is logged once, and events flow again after it, to late subscribers too', async () => {
    const logger = makeLogger('info', { write: (line: string) => void lines.push(JSON.parse(line) as { level: string; msg: string }) });
    const pubsub = makePubSub(proxy.urlFor(REDIS_URL), logger);
    const topic = `outage-${process.pid}`;
    const seen: number[] = [];
    const subscription = pubsub.subscribe('RECORDS_APPENDED', topic);
    void (async () => {
      for await (const event of subscription) seen.push(event.count);
    })();
    const publish = (count: number) => pubsub.publish('RECORDS_APPENDED', topic, { count } as RecordsAppended);

    await until('an event through Redis', () => {
      publish(1);
      return seen.includes(1);
    });
    proxy.goDown();
    for (let count = 2; count < 12; count++) {
      publish(count);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // A subscriber that comes while Redis is away: its SUBSCRIBE is sent once Redis answers.
    const late: number[] = [];
    const lateSubscription = pubsub.subscribe('RECORDS_APPENDED', `${topic}-late`);
    void (async () => {
      for await (const event of lateSubscription) late.push(event.count);
    })();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await proxy.comeBack();
    await until(
      'events through Redis again',
      () => {
        publish(100);
        return seen.includes(100);
      },
      { seconds: 20, intervalMs: 200 },
    );

    await until(
      'events to the late subscriber',
      () => {
        pubsub.publish('RECORDS_APPENDED', `${topic}-late`, { count: 7 } as RecordsAppended);
        return late.includes(7);
      },
      { seconds: 20, intervalMs: 200 },
    );

    expect(rejections).toEqual([]);
    const warnings = lines.filter((line) => line.msg.startsWith('Redis does not answer'));
    expect(warnings).toHaveLength(1);
    expect(lines.some((line) => line.msg.startsWith('Redis answers again'))).toBe(true);
    await subscription.return?.();
    await lateSubscription.return?.();
    await pubsub.close();
  }, 60_000);
});

describeRedis('A2A task events through Redis', () => {
  test('cross instances on one shared channel: no SUBSCRIBE per task', async () => {
    const [one, two] = [makePubSub(REDIS_URL), makePubSub(REDIS_URL)];
    const redis = new Redis(REDIS_URL);
    try {
      const taskId = `task-${process.pid}-${Date.now()}`;
      const heard: string[] = [];
      const events = two.subscribe('A2A_TASK', taskId);
      const listening = (async () => {
        for await (const event of events) {
          heard.push(event.state);
          if (event.state === 'TASK_STATE_COMPLETED') return;
        }
      })();
      const channels = await until('the shared channel to be subscribed', async () => {
        const named = (await redis.pubsub('CHANNELS', 'A2A_TASK*')) as string[];
        return named.includes('A2A_TASK') && named;
      });
      // The task's own channel is never subscribed: every instance hears the kind's one channel.
      expect(channels).not.toContain(`A2A_TASK:${taskId}`);
      // Another task's event on the shared channel is not this subscriber's.
      one.publish('A2A_TASK', 'another-task', { taskId: 'another-task', state: 'TASK_STATE_FAILED' });
      await until('the event to cross instances', async () => {
        one.publish('A2A_TASK', taskId, { taskId, state: 'TASK_STATE_WORKING' });
        return heard.length > 0;
      });
      one.publish('A2A_TASK', taskId, { taskId, state: 'TASK_STATE_COMPLETED' });
      await listening;
      expect(new Set(heard)).toEqual(new Set(['TASK_STATE_WORKING', 'TASK_STATE_COMPLETED']));
    } finally {
      redis.disconnect();
      await one.close();
      await two.close();
    }
  });
});
