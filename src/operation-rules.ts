import { GraphQLField, GraphQLFieldResolver, GraphQLSchema } from 'graphql';
import type { Ctx } from './context';
import { AppError } from './errors';
import { isSandboxToken } from './modules/auth/token.policy';

/**
 * Rules that belong to an operation, whatever transport runs it (GraphQL over HTTP or WebSocket,
 * the REST facade, JSON-RPC): declared once on the root field with `@Extensions(…)`, enforced by
 * `enforceOperationRules` before its resolver runs (docs/api/authentication.md, "Operation rules"). A transport
 * that executes the schema cannot skip them: they are part of the field.
 */

/**
 * Mints, changes or hands out a credential: a password, a session, a token, a claim token, a
 * device-login approval, an A2A key. A sandbox's token never may (it dies with its lease, and what
 * it minted would not).
 */
export const MINTS_CREDENTIAL = { mintsCredential: true } as const;
/**
 * Where guessing is the attack (passwords, codes, tokens) or each call makes a credential: counted
 * by the sign-in limit (`RATE_LIMIT_AUTH_PER_MINUTE`) per client address and per bearer token.
 */
export const AUTH_LIMITED = { rateLimit: 'auth' } as const;
/**
 * Begins a browser session: a request that names another site as its origin (`Origin: null`
 * included) is refused, or a forged sign-in would put the victim in the attacker's account.
 */
export const STARTS_SESSION = { startsSession: true } as const;

export interface OperationRules {
  mintsCredential: boolean;
  rateLimit?: 'auth';
  startsSession: boolean;
}

/** The rules a root field declares. */
export function rulesOf(field: Pick<GraphQLField<unknown, unknown>, 'extensions'>): OperationRules {
  const extensions = field.extensions as Record<string, unknown>;
  return {
    mintsCredential: extensions.mintsCredential === true,
    rateLimit: extensions.rateLimit === 'auth' ? 'auth' : undefined,
    startsSession: extensions.startsSession === true,
  };
}

/** Applies one root field's rules to a call, cheapest first. @throws AppError */
async function enforce(field: string, rules: OperationRules, ctx: Ctx): Promise<void> {
  if (rules.startsSession) {
    const refusal = ctx.browser?.foreignOrigin();
    if (refusal) throw new AppError('FORBIDDEN', refusal);
  }
  if (rules.rateLimit) await ctx.services.authLimit({ address: ctx.address, authorization: ctx.authorization });
  // Only a bearer token can be a sandbox's: a browser session or an A2A key never is.
  if (rules.mintsCredential && ctx.authorization) {
    const viewer = await ctx.viewer().catch(() => null);
    if (viewer && isSandboxToken(viewer))
      throw new AppError('FORBIDDEN', `a sandbox token cannot mint or change credentials (${field}); use a token of your own`);
  }
}

/**
 * Wraps the resolver (and a subscription's `subscribe`) of every root field that declares rules,
 * so that they hold on every transport. Called once on the built schema.
 */
export function enforceOperationRules(schema: GraphQLSchema): GraphQLSchema {
  for (const type of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]) {
    for (const field of Object.values(type?.getFields() ?? {})) {
      const rules = rulesOf(field);
      if (!rules.mintsCredential && !rules.rateLimit && !rules.startsSession) continue;
      const guard =
        (inner: GraphQLFieldResolver<unknown, Ctx> | undefined): GraphQLFieldResolver<unknown, Ctx> =>
        async (source, args, ctx, info) => {
          await enforce(field.name, rules, ctx);
          return inner ? inner(source, args, ctx, info) : (source as Record<string, unknown> | undefined)?.[field.name];
        };
      // A subscription is checked when it starts, not again for each of its events.
      if (field.subscribe) field.subscribe = guard(field.subscribe as GraphQLFieldResolver<unknown, Ctx>);
      else field.resolve = guard(field.resolve as GraphQLFieldResolver<unknown, Ctx> | undefined);
    }
  }
  return schema;
}
