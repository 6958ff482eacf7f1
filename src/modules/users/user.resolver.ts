import { Ctx as Context, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import type { Ctx } from '../../context';
import { requireViewer } from '../auth/viewer';
import { effectiveTier } from './plans';
import { User } from './user.entity';
import { storageQuotaOf } from './user.service';
import { canSeeEmail } from './user.policy';
import { Person, PlanCodeValue, PlanSourceValue, UserNode } from './user.types';
import { isAdmin } from '../admin/admin.policy';

type UserSource = UserNode & { entity: User };

export function presentUser(user: User): UserNode {
  return Object.assign(new UserNode(), {
    id: user.id,
    email: user.email,
    name: user.name,
    phone: user.phone,
    planCode: user.planCode as PlanCodeValue,
    planSource: user.planSource as PlanSourceValue,
    planExpiresAt: user.planExpiresAt,
    isAdmin: user.isAdmin,
    disabled: user.disabled,
    domain: user.domain,
    institution: user.institution,
    institutionTier: user.institutionTier,
    institutionType: user.institutionType,
    institutionName: user.institutionName,
    storageQuotaBytes: storageQuotaOf(user),
    storageUsedBytes: user.storageUsedBytes,
    createdAt: user.createdAt,
    lastActiveAt: user.lastActiveAt,
    entity: user,
  });
}

@Resolver(() => UserNode)
export class UserResolver {
  @Query(() => UserNode, { description: 'The signed-in caller.' })
  async me(@Context() ctx: Ctx): Promise<UserNode> {
    return presentUser((await requireViewer(ctx)).user);
  }

  @FieldResolver(() => PlanCodeValue)
  async effectiveTier(@Root() node: UserSource, @Context() ctx: Ctx): Promise<PlanCodeValue> {
    return effectiveTier(node.entity, await ctx.loaders.inActiveLabByUserId.load(node.id)) as PlanCodeValue;
  }
}

/** A person before the viewer's rights are applied: their email is kept apart from the `email` field. */
export type PersonSource = Person & { knownEmail: string | null };

/** Name shown for an id whose account is gone (notes keep their author's id, not a foreign key). */
const FORMER_USER = 'Former user';

/** The person with this id, read through the request's loader (one statement for every person of a response). */
export async function loadPerson(ctx: Ctx, userId: string): Promise<PersonSource> {
  const found = await ctx.loaders.personByUserId.load(userId);
  return Object.assign(new Person(), { userId, name: found?.name ?? FORMER_USER, email: null, knownEmail: found?.email ?? null });
}

@Resolver(() => Person)
export class PersonResolver {
  @FieldResolver(() => String, { nullable: true })
  async email(@Root() person: PersonSource, @Context() ctx: Ctx): Promise<string | null> {
    if (person.knownEmail === null) return null;
    const viewer = await requireViewer(ctx);
    const self = viewer.user.id === person.userId;
    const mentorsThem =
      !self && !isAdmin(viewer) && (await ctx.loaders.mentorsByPair.load({ viewerId: viewer.user.id, userId: person.userId }));
    return canSeeEmail(viewer, person.userId, mentorsThem) ? person.knownEmail : null;
  }
}
