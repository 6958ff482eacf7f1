import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { LabMember } from './lab.entity';

/** Per-request loaders for lab fields, so a list of N labs costs one query per field, not N. */
export function makeLabLoaders(em: EntityManager) {
  return {
    seatsUsedByLabId: new DataLoader<string, number>(async (labIds) => {
      const rows = await em.getConnection().execute<{ lab_id: string; n: number }[]>(
        `select lab_id, count(*)::int as n from lab_members where status = 'active' and lab_id in (?) group by lab_id`,
        [labIds as string[]],
      );
      const counts = new Map(rows.map((r) => [r.lab_id, r.n]));
      return labIds.map((id) => counts.get(id) ?? 0);
    }),
    membersByLabId: new DataLoader<string, LabMember[]>(async (labIds) => {
      const rows = await em.find(LabMember, { lab: { $in: [...labIds] } }, { populate: ['user'], orderBy: { id: 'asc' } });
      return labIds.map((id) => rows.filter((row) => row.lab.id === id));
    }),
  };
}
