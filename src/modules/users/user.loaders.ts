import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { preparedOf } from '../../db/sql';
import { usersInActiveLabs } from '../labs/membership.repository';

/** Per-request loaders for user fields. */
export function makeUserLoaders(em: EntityManager) {
  return {
    /** Whether each user is an active member of an active lab (grants the lab tier). */
    inActiveLabByUserId: new DataLoader<string, boolean>(async (userIds) => {
      const members = await usersInActiveLabs(preparedOf(em), userIds as string[]);
      return userIds.map((id) => members.has(id));
    }),
  };
}
