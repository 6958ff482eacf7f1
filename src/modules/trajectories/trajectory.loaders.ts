import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { OPEN_NOTE } from './annotation.service';

/** Per-request loaders for trajectory fields. */
export function makeTrajectoryLoaders(em: EntityManager) {
  return {
    /** Annotations without a resolve entry, per session. */
    openAnnotationsBySessionId: new DataLoader<string, number>(async (sessionIds) => {
      const rows = await em.getConnection().execute<{ session_id: string; n: number }[]>(
        `select n.session_id, count(*)::int as n from annotation_entries n
          where ${OPEN_NOTE} and n.session_id in (?) group by n.session_id`,
        [sessionIds as string[]],
      );
      const counts = new Map(rows.map((r) => [r.session_id, r.n]));
      return sessionIds.map((id) => counts.get(id) ?? 0);
    }),
    /** Rows of the figure map, per session. */
    figureCountBySessionId: new DataLoader<string, number>(async (sessionIds) => {
      const rows = await em.getConnection().execute<{ session_id: string; n: number }[]>(
        `select session_id, count(*)::int as n from figures where session_id in (?) group by session_id`,
        [sessionIds as string[]],
      );
      const counts = new Map(rows.map((r) => [r.session_id, r.n]));
      return sessionIds.map((id) => counts.get(id) ?? 0);
    }),
  };
}
