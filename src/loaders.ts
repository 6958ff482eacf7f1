import type { EntityManager } from '@mikro-orm/postgresql';
import { makeA2aLoaders } from './modules/a2a/a2a.loaders';
import { makeComputeLoaders } from './modules/compute/compute.loaders';
import { makeLabLoaders } from './modules/labs/lab.loaders';
import { makeTrajectoryLoaders } from './modules/trajectories/trajectory.loaders';
import { makeUserLoaders } from './modules/users/user.loaders';

/**
 * Every DataLoader of one request; created on first use, never shared across requests. `emOf`
 * is called only when a batch runs: a loader primed with what the request knew (its caller's
 * lab tier) costs no unit of work.
 */
export const makeLoaders = (emOf: () => EntityManager) => ({
  ...makeLabLoaders(emOf),
  ...makeUserLoaders(emOf),
  ...makeTrajectoryLoaders(emOf),
  ...makeComputeLoaders(emOf),
  ...makeA2aLoaders(emOf),
});

export type Loaders = ReturnType<typeof makeLoaders>;
