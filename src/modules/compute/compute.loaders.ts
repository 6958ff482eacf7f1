import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { idleRefreshes } from './compute.service';

/** Per-request loaders for lease fields. */
export function makeComputeLoaders(em: EntityManager) {
  return {
    /** The last idle-clock refreshes of each lease, one query for all leases of a request. */
    idleRefreshesByLeaseId: new DataLoader((leaseIds: readonly number[]) => idleRefreshes(em, leaseIds)),
  };
}
