import { Ctx as Context, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Ctx } from '../../context';
import { isAdmin } from '../admin/admin.policy';
import type { Viewer } from '../auth/viewer';
import { Caller } from '../../operation-rules';
import { canSeeEmail } from './user.policy';
import { Person } from './user.types';

/** A person before the viewer's rights are applied: their email is kept apart from the `email` field. */
export type PersonSource = Person & { knownEmail: string | null };

/** Name shown for an id whose account is gone (notes keep their author's id, not a foreign key). */
export const FORMER_USER = 'Former user';

/** The person with this id, read through the request's loader (one statement for every person of a response). */
export async function loadPerson(ctx: Ctx, userId: string): Promise<PersonSource> {
  const found = await ctx.loaders.personByUserId.load(userId);
  return Object.assign(new Person(), { userId, name: found?.name ?? FORMER_USER, email: null, knownEmail: found?.email ?? null });
}

@Resolver(() => Person)
export class PersonResolver {
  @FieldResolver(() => String, { nullable: true })
  async email(@Root() person: PersonSource, @Context() ctx: Ctx, @Caller() viewer: Viewer): Promise<string | null> {
    if (person.knownEmail === null) return null;
    const self = viewer.user.id === person.userId;
    const mentorsThem =
      !self && !isAdmin(viewer) && (await ctx.loaders.mentorsByPair.load({ viewerId: viewer.user.id, userId: person.userId }));
    return canSeeEmail(viewer, person.userId, mentorsThem) ? person.knownEmail : null;
  }
}
