import { Arg, Ctx as Context, Extensions, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Ctx } from '../../context';
import type { Viewer } from '../auth/viewer';
import { effectiveTier } from './plans';
import type { UserFacts } from './user-facts';
import { storageQuotaOf } from './user.service';
import { IssuedTokenNode, PersonalTokenPage, PlanCodeValue, PlanSourceValue, UserNode } from './user.types';
import { checkTokenLabel, TokenCreateInput } from './user.inputs';
import { createPersonalToken, listPersonalTokens } from './user.service';
import { revokeToken } from '../auth/auth.service';
import { AUTH_LIMITED, Caller, MINTS_CREDENTIAL, SIGNED_IN } from '../../operation-rules';
import { pageArgs } from '../../validation';

type UserSource = UserNode & { entity: UserFacts };

export function presentUser(user: UserFacts): UserNode {
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
  @Extensions(SIGNED_IN)
  @Query(() => UserNode, { description: 'The signed-in caller.' })
  async me(@Context() ctx: Ctx, @Caller() viewer: Viewer): Promise<UserNode> {
    return presentUser(viewer.user);
  }

  @Extensions(SIGNED_IN)
  @Query(() => PersonalTokenPage, {
    description: "The caller's personal access tokens, newest first, revoked ones too (never their secrets).",
  })
  async myTokens(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('limit', () => Int, { nullable: true, description: '1-500 (default 100).' }) limit?: number,
    @Arg('offset', () => Int, { nullable: true, description: '≥ 0 (default 0).' }) offset?: number,
  ): Promise<PersonalTokenPage> {
    return listPersonalTokens(ctx.em, viewer.user.id, pageArgs(limit, offset, { max: 500, default: 100 }));
  }

  @Extensions({ ...SIGNED_IN, ...MINTS_CREDENTIAL, ...AUTH_LIMITED })
  @Mutation(() => IssuedTokenNode, { description: 'A personal access token of the caller (the plaintext is shown only in this answer).' })
  async myTokenCreate(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('input', () => TokenCreateInput) input: TokenCreateInput,
  ): Promise<IssuedTokenNode> {
    checkTokenLabel(input);
    return createPersonalToken(ctx.em, viewer.user.id, viewer.user.id, input);
  }

  @Extensions(SIGNED_IN)
  @Mutation(() => Boolean, {
    description: "Revokes one of the caller's tokens; it stops working on the next request. Another's is not found.",
  })
  async myTokenRevoke(@Context() ctx: Ctx, @Caller() viewer: Viewer, @Arg('tokenId', () => ID) tokenId: string): Promise<boolean> {
    await revokeToken(ctx.em, viewer.user.id, viewer.user.id, tokenId);
    return true;
  }

  @FieldResolver(() => PlanCodeValue)
  async effectiveTier(@Root() node: UserSource, @Context() ctx: Ctx): Promise<PlanCodeValue> {
    return effectiveTier(node.entity, await ctx.loaders.inActiveLabByUserId.load(node.id)) as PlanCodeValue;
  }
}
