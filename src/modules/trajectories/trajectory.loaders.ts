import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlOf } from '../../db/sql';
import { openNoteCounts } from './annotation.repository';
import { figureCounts } from './trajectory.repository';

/** Per-request loaders for trajectory fields. */
export function makeTrajectoryLoaders(em: EntityManager) {
  return {
    /** Annotations without a resolve entry, per trajectory. */
    openAnnotationsBySessionId: new DataLoader<string, number>(async (ids) => {
      const counts = await openNoteCounts(sqlOf(em), ids as string[]);
      return ids.map((id) => counts.get(id) ?? 0);
    }),
    /** Rows of the figure map, per trajectory. */
    figureCountBySessionId: new DataLoader<string, number>(async (ids) => {
      const counts = await figureCounts(sqlOf(em), ids as string[]);
      return ids.map((id) => counts.get(id) ?? 0);
    }),
  };
}
