import { Ctx as Context, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import type { Ctx } from '../../context';
import { requireViewer } from '../auth/viewer';
import { effectiveTier } from './plans';
import { User } from './user.entity';
import { storageQuotaOf } from './user.service';
import { PlanCodeValue, PlanSourceValue, UserNode } from './user.types';

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
