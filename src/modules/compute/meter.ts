import type { EntityManager } from '@mikro-orm/postgresql';
import type { Services } from '../../context';
import type { Logger } from '../../logger';
import { meterOnce } from './compute.service';
import { publishLease } from './lease-events';

/**
 * Runs the meter every `METER_INTERVAL_SECONDS` on this instance. Nothing is kept in memory:
 * each pass charges every lease from its stored `last_metered_at`, so a restart loses nothing,
 * and instances running passes at once split the leases between them (SKIP LOCKED).
 */
export function startMeter(services: Services, logger: Logger): () => Promise<void> {
  let running: Promise<void> | undefined;
  const pass = async () => {
    const report = await meterOnce(services.orm.em.fork() as EntityManager, services.clock.now());
    for (const lease of report.changed) publishLease(services.pubsub, lease);
    if (report.paused || report.expired) logger.info('meter', { charged: report.charged, paused: report.paused, expired: report.expired });
  };
  const timer = setInterval(() => {
    running ??= pass()
      .catch((error: unknown) => logger.error('meter pass failed', { error: String(error) }))
      .finally(() => (running = undefined));
  }, services.config.compute.meterSeconds * 1000);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
