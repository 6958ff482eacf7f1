import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { executeOf } from '../../db/sql';
import { openNoteCounts } from './annotation.repository';
import { figureCounts } from './trajectory.repository';

/** Per-request loaders for trajectory fields. */
export function makeTrajectoryLoaders(em: EntityManager) {
  return {
    /** Annotations without a resolve entry, per trajectory. */
    openAnnotationsBySessionId: new DataLoader<string, number>(async (ids) => {
      const counts = await openNoteCounts(executeOf(em), ids as string[]);
      return ids.map((id) => counts.get(id) ?? 0);
    }),
    /** Rows of the figure map, per trajectory. */
    figureCountBySessionId: new DataLoader<string, number>(async (ids) => {
      const counts = await figureCounts(executeOf(em), ids as string[]);
      return ids.map((id) => counts.get(id) ?? 0);
    }),
  };
}
