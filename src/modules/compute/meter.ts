import type { Services } from '../../context';
import { startPeriodic } from '../../jobs/periodic';
import type { Logger } from '../../logger';
import { meterOnce, type MeterReport } from './compute.service';
import { publishLease } from './lease-events';

/**
 * One meter pass at the service's clock, then every lease it charged, paused, resumed or ended
 * is published (LEASE_CHANGED, through Redis when the service has it), so that a console on any
 * instance shows the meter move without asking.
 */
export async function meterPass(services: Pick<Services, 'orm' | 'clock' | 'pubsub'>): Promise<MeterReport> {
  // Published batch by batch, as each commits: a batch that fails later does not silence them.
  return meterOnce(services.orm.em.fork(), services.clock.now(), undefined, (changed) => {
    for (const lease of changed) publishLease(services.pubsub, lease);
  });
}

/**
 * Runs the meter every `METER_INTERVAL_SECONDS` on this instance. Nothing is kept in memory:
 * each pass charges every lease from its stored `last_metered_at`, so a restart loses nothing,
 * and instances running passes at once split the leases between them (SKIP LOCKED).
 */
export function startMeter(services: Services, logger: Logger): () => Promise<void> {
  return startPeriodic(
    'meter pass',
    services.config.compute.meterSeconds,
    async () => {
      const report = await meterPass(services);
      if (report.paused || report.expired)
        logger.info('meter', { charged: report.charged, paused: report.paused, expired: report.expired });
    },
    logger,
  );
}
