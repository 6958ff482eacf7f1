import type { AppPubSub } from '../../pubsub';
import type { Lease } from './compute.repository';

/** Tells a lease's live viewers (after the commit) that its state, spend or idle clock moved. */
export function publishLease(pubsub: AppPubSub, lease: Lease) {
  pubsub.publish('LEASE_CHANGED', String(lease.id), {
    leaseId: lease.id,
    state: lease.state,
    spentCredits: lease.spentCredits,
    ceilingCredits: lease.ceilingCredits,
    idleExpiresAt: lease.idleExpiresAt.toISOString(),
    at: new Date().toISOString(),
  });
}
