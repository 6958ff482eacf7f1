import type { AppPubSub } from '../../pubsub';
import type { LeaseRow } from './compute.service';

/** Tells a lease's live viewers (after the commit) that its state or spend moved. */
export function publishLease(pubsub: AppPubSub, lease: LeaseRow) {
  pubsub.publish('LEASE_CHANGED', String(lease.id), {
    leaseId: lease.id,
    state: lease.state,
    spentCredits: lease.spent_credits,
    ceilingCredits: lease.ceiling_credits,
    at: new Date().toISOString(),
  });
}
