import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { preparedOf } from '../../db/sql';
import { countActiveSeats, MemberRecord, readMembers } from './lab.repository';
import { activeRolesIn, type LabRole } from './membership.repository';

/** A user and a lab: whose role in which lab. */
export interface RoleKey {
  userId: string;
  labId: string;
}

/** Per-request loaders for lab fields, so a list of N labs costs one query per field, not N. */
export function makeLabLoaders(emOf: () => EntityManager) {
  return {
    seatsUsedByLabId: new DataLoader<string, number>((labIds) => countActiveSeats(emOf(), labIds)),
    membersByLabId: new DataLoader<string, MemberRecord[]>((labIds) => readMembers(emOf(), labIds)),
    /** The user's role in the lab while active there and the lab is active (`activeRoleIn`), else null. */
    activeRoleByLab: new DataLoader<RoleKey, LabRole, string>(
      async (keys) => {
        const roles = new Map<string, Map<string, LabRole>>();
        // A request has one viewer: one statement for all the labs it asks about.
        for (const userId of new Set(keys.map((key) => key.userId)))
          roles.set(
            userId,
            await activeRolesIn(preparedOf(emOf()), userId, [...new Set(keys.filter((k) => k.userId === userId).map((k) => k.labId))]),
          );
        return keys.map((key) => roles.get(key.userId)!.get(key.labId) ?? null);
      },
      { cacheKeyFn: (key) => `${key.userId} ${key.labId}` },
    ),
  };
}
