import { Arg, Ctx as Context, Extensions, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Ctx } from '../../context';
import { requireViewer } from '../auth/viewer';
import { effectiveTier } from './plans';
import { User } from './user.entity';
import { storageQuotaOf } from './user.service';
import { IssuedTokenNode, PersonalTokenPage, PlanCodeValue, PlanSourceValue, UserNode } from './user.types';
import { checkTokenLabel, TokenCreateInput } from './user.inputs';
import { createPersonalToken, listPersonalTokens } from './user.service';
import { revokeToken } from '../auth/auth.service';
import { AUTH_LIMITED, MINTS_CREDENTIAL } from '../../operation-rules';
import { pageArgs } from '../../validation';

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

  @Query(() => PersonalTokenPage, {
    description: "The caller's personal access tokens, newest first, revoked ones too (never their secrets).",
  })
  async myTokens(
    @Context() ctx: Ctx,
    @Arg('limit', () => Int, { nullable: true, description: '1-500 (default 100).' }) limit?: number,
    @Arg('offset', () => Int, { nullable: true, description: '≥ 0 (default 0).' }) offset?: number,
  ): Promise<PersonalTokenPage> {
    const viewer = await requireViewer(ctx);
    return listPersonalTokens(ctx.em, viewer.user.id, pageArgs(limit, offset, { max: 500, default: 100 }));
  }

  @Extensions({ ...MINTS_CREDENTIAL, ...AUTH_LIMITED })
  @Mutation(() => IssuedTokenNode, { description: 'A personal access token of the caller (the plaintext is shown only in this answer).' })
  async myTokenCreate(@Context() ctx: Ctx, @Arg('input', () => TokenCreateInput) input: TokenCreateInput): Promise<IssuedTokenNode> {
    checkTokenLabel(input);
    const viewer = await requireViewer(ctx);
    return createPersonalToken(ctx.em, viewer.user.id, viewer.user.id, input);
  }

  @Mutation(() => Boolean, {
    description: "Revokes one of the caller's tokens; it stops working on the next request. Another's is not found.",
  })
  async myTokenRevoke(@Context() ctx: Ctx, @Arg('tokenId', () => ID) tokenId: string): Promise<boolean> {
    const viewer = await requireViewer(ctx);
    await revokeToken(ctx.em, viewer.user.id, viewer.user.id, tokenId);
    return true;
  }

  @FieldResolver(() => PlanCodeValue)
  async effectiveTier(@Root() node: UserSource, @Context() ctx: Ctx): Promise<PlanCodeValue> {
    return effectiveTier(node.entity, await ctx.loaders.inActiveLabByUserId.load(node.id)) as PlanCodeValue;
  }
}
