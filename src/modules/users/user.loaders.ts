import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { preparedOf } from '../../db/sql';
import { menteesOf, usersInActiveLabs } from '../labs/membership.repository';
import { peopleByIds } from './user.repository';

/** A pair of users: who asks (`viewerId`) about whom (`userId`). */
export interface UserPair {
  viewerId: string;
  userId: string;
}

const pairKey = (pair: UserPair) => `${pair.viewerId} ${pair.userId}`;

/** Groups the pairs by viewer (a request has one), so each viewer costs one statement. */
async function byViewer<T>(pairs: readonly UserPair[], read: (viewerId: string, userIds: string[]) => Promise<(userId: string) => T>) {
  const answers = new Map<string, (userId: string) => T>();
  for (const viewerId of new Set(pairs.map((pair) => pair.viewerId)))
    answers.set(viewerId, await read(viewerId, [...new Set(pairs.filter((p) => p.viewerId === viewerId).map((p) => p.userId))]));
  return pairs.map((pair) => answers.get(pair.viewerId)!(pair.userId));
}

/** Per-request loaders for user fields. */
export function makeUserLoaders(emOf: () => EntityManager) {
  return {
    /** Whether each user is an active member of an active lab (grants the lab tier). */
    inActiveLabByUserId: new DataLoader<string, boolean>(async (userIds) => {
      const members = await usersInActiveLabs(preparedOf(emOf()), userIds as string[]);
      return userIds.map((id) => members.has(id));
    }),
    /** Name and email of each user (null: no such user any more), for the `Person` fields. */
    personByUserId: new DataLoader<string, { name: string; email: string } | null>(async (userIds) => {
      const people = await peopleByIds(preparedOf(emOf()), userIds as string[]);
      return userIds.map((id) => people.get(id) ?? null);
    }),
    /** Whether the viewer mentors the user (`mentorsMember`): an active owner or mentor of an active lab the user is active in. */
    mentorsByPair: new DataLoader<UserPair, boolean, string>(
      (pairs) =>
        byViewer(pairs, async (viewerId, userIds) => {
          const mentees = await menteesOf(preparedOf(emOf()), viewerId, userIds);
          return (userId) => mentees.has(userId);
        }),
      { cacheKeyFn: pairKey },
    ),
  };
}
