import type { EntityManager } from '@mikro-orm/postgresql';
import { makeA2aLoaders } from './modules/a2a/a2a.loaders';
import { makeComputeLoaders } from './modules/compute/compute.loaders';
import { makeLabLoaders } from './modules/labs/lab.loaders';
import { makeReviewLoaders } from './modules/reviews/review.loaders';
import { makeTrajectoryLoaders } from './modules/trajectories/trajectory.loaders';
import { makeUserLoaders } from './modules/users/user.loaders';

/** Each module's loaders, made together. */
const GROUPS = [makeLabLoaders, makeUserLoaders, makeTrajectoryLoaders, makeComputeLoaders, makeA2aLoaders, makeReviewLoaders] as const;

export type Loaders = ReturnType<typeof makeLabLoaders> &
  ReturnType<typeof makeUserLoaders> &
  ReturnType<typeof makeTrajectoryLoaders> &
  ReturnType<typeof makeComputeLoaders> &
  ReturnType<typeof makeA2aLoaders> &
  ReturnType<typeof makeReviewLoaders>;

/**
 * The DataLoaders of one request, never shared across requests. A module's loaders are made
 * when one of them is first asked for, and `emOf` is called only when a batch runs: a request
 * that reads one primed value (its caller's lab tier) makes one module's loaders and no fork.
 */
class RequestLoaders {
  readonly made: Record<string, unknown>[] = [];
  constructor(readonly emOf: () => EntityManager) {}
}
// The loaders' names, once: making them calls nothing (batches run only when loads are asked).
GROUPS.forEach((make, index) => {
  for (const name of Object.keys(make(() => undefined as never)))
    Object.defineProperty(RequestLoaders.prototype, name, {
      get(this: RequestLoaders) {
        return (this.made[index] ??= make(this.emOf))[name];
      },
    });
});

export const makeLoaders = (emOf: () => EntityManager) => new RequestLoaders(emOf) as unknown as Loaders;
