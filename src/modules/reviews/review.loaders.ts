import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlOf } from '../../db/sql';
import { latestReviewsOf, reviewsOfTrajectories, type ReviewRow } from './review.repository';

/** Per-request loaders for review fields. */
export function makeReviewLoaders(emOf: () => EntityManager) {
  return {
    /** Every review of a trajectory, newest first (its readers see some: `seesReview`), per trajectory. */
    reviewsBySessionId: new DataLoader<string, ReviewRow[]>(async (ids) => {
      const reviews = await reviewsOfTrajectories(sqlOf(emOf()), ids);
      return ids.map((id) => reviews.get(id) ?? []);
    }),
    /** The newest review of a lab-shared trajectory (the lab board's column), per trajectory. */
    latestReviewBySessionId: new DataLoader<string, ReviewRow | null>(async (ids) => {
      const latest = await latestReviewsOf(sqlOf(emOf()), ids);
      return ids.map((id) => latest.get(id) ?? null);
    }),
  };
}
