import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { LabMember } from './lab.entity';
import { countActiveSeats } from './lab.repository';

/** Per-request loaders for lab fields, so a list of N labs costs one query per field, not N. */
export function makeLabLoaders(em: EntityManager) {
  return {
    seatsUsedByLabId: new DataLoader<string, number>((labIds) => countActiveSeats(em, labIds)),
    membersByLabId: new DataLoader<string, LabMember[]>(async (labIds) => {
      const rows = await em.find(LabMember, { lab: { $in: [...labIds] } }, { populate: ['user'], orderBy: { id: 'asc' } });
      return labIds.map((id) => rows.filter((row) => row.lab.id === id));
    }),
  };
}
