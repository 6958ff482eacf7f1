import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { planGoals, recentIdleRefreshes } from './compute.repository';

/** Lease answers show this many of the latest idle-clock refreshes: why the lease is still alive. */
const IDLE_REFRESHES_SHOWN = 10;

/** Per-request loaders for lease fields. */
export function makeComputeLoaders(emOf: () => EntityManager) {
  return {
    /** The last idle-clock refreshes of each lease, newest first, one query for all leases of a request. */
    idleRefreshesByLeaseId: new DataLoader((leaseIds: readonly number[]) => recentIdleRefreshes(emOf(), leaseIds, IDLE_REFRESHES_SHOWN)),
    /** The goal of each lease's plan (what the lease is for), one query for all leases of a request. */
    planGoalByPlanId: new DataLoader((planIds: readonly number[]) => planGoals(emOf(), planIds)),
  };
}
