import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';

/** Per-request loaders for user fields. */
export function makeUserLoaders(em: EntityManager) {
  return {
    /** Whether each user is an active member of an active lab (grants the lab tier). */
    inActiveLabByUserId: new DataLoader<string, boolean>(async (userIds) => {
      const rows = await em.getConnection().execute<{ user_id: string }[]>(
        `select distinct m.user_id from lab_members m join labs l on l.id = m.lab_id
          where m.status = 'active' and l.status = 'active' and m.user_id in (?)`,
        [userIds as string[]],
      );
      const members = new Set(rows.map((r) => r.user_id));
      return userIds.map((id) => members.has(id));
    }),
  };
}
