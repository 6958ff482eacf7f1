import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlOf } from '../../db/sql';
import { latestReviewsOf, type ReviewRow } from './review.repository';

/** Per-request loaders for review fields. */
export function makeReviewLoaders(emOf: () => EntityManager) {
  return {
    /** The newest review of a lab-shared trajectory (the lab board's column), per trajectory. */
    latestReviewBySessionId: new DataLoader<string, ReviewRow | null>(async (ids) => {
      const latest = await latestReviewsOf(sqlOf(emOf()), ids);
      return ids.map((id) => latest.get(id) ?? null);
    }),
  };
}
