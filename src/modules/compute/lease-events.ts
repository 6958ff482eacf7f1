import type { AppPubSub } from '../../pubsub';
import type { Lease } from './compute.repository';

/** Tells a lease's live viewers (after the commit) that its state or spend moved. */
export function publishLease(pubsub: AppPubSub, lease: Lease) {
  pubsub.publish('LEASE_CHANGED', String(lease.id), {
    leaseId: lease.id,
    state: lease.state,
    spentCredits: lease.spentCredits,
    ceilingCredits: lease.ceilingCredits,
    at: new Date().toISOString(),
  });
}
