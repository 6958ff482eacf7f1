import type { EntityManager } from '@mikro-orm/postgresql';
import { makeA2aLoaders } from './modules/a2a/a2a.loaders';
import { makeComputeLoaders } from './modules/compute/compute.loaders';
import { makeLabLoaders } from './modules/labs/lab.loaders';
import { makeTrajectoryLoaders } from './modules/trajectories/trajectory.loaders';
import { makeUserLoaders } from './modules/users/user.loaders';

/** Every DataLoader of one request; created on first use, never shared across requests. */
export const makeLoaders = (em: EntityManager) => ({
  ...makeLabLoaders(em),
  ...makeUserLoaders(em),
  ...makeTrajectoryLoaders(em),
  ...makeComputeLoaders(em),
  ...makeA2aLoaders(em),
});

export type Loaders = ReturnType<typeof makeLoaders>;
