import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { preparedOf } from '../../db/sql';
import { SessionCounts, sessionCounts, sessionTokens } from './trajectory.repository';

const NONE: SessionCounts = { figures: 0, openAnnotations: 0 };

/** Per-request loaders for trajectory fields. */
export function makeTrajectoryLoaders(emOf: () => EntityManager) {
  return {
    /** Rows of the figure map and annotations without a resolve entry, per trajectory. */
    countsBySessionId: new DataLoader<string, SessionCounts>(async (ids) => {
      const counts = await sessionCounts(preparedOf(emOf()), ids as string[]);
      return ids.map((id) => counts.get(id) ?? NONE);
    }),
    /** Tokens the records reported, per trajectory. */
    tokensBySessionId: new DataLoader<string, { input: number; output: number }>(async (ids) => {
      const tokens = await sessionTokens(preparedOf(emOf()), ids as string[]);
      return ids.map((id) => tokens.get(id) ?? { input: 0, output: 0 });
    }),
  };
}
