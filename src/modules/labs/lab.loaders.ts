import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { countActiveSeats, MemberRecord, readMembers } from './lab.repository';

/** Per-request loaders for lab fields, so a list of N labs costs one query per field, not N. */
export function makeLabLoaders(em: EntityManager) {
  return {
    seatsUsedByLabId: new DataLoader<string, number>((labIds) => countActiveSeats(em, labIds)),
    membersByLabId: new DataLoader<string, MemberRecord[]>((labIds) => readMembers(em, labIds)),
  };
}
