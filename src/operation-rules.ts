import {
  DirectiveLocation,
  GraphQLDirective,
  GraphQLField,
  GraphQLFieldResolver,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  Kind,
  OperationDefinitionNode,
  parse,
} from 'graphql';
import { createParameterDecorator } from 'type-graphql';
import type { Ctx } from './context';
import { AppError, forbidden } from './errors';
import type { A2aCaller } from './modules/a2a/a2a-caller';
import { requireAdmin } from './modules/admin/admin.policy';
import { isSandboxToken } from './modules/auth/token.policy';
import { requireViewerNow, type Viewer } from './modules/auth/viewer';
import { requireReleaseToken } from './modules/releases/release.policy';

/**
 * Rules that belong to an operation, whatever transport runs it (GraphQL over HTTP or WebSocket,
 * the REST facade, JSON-RPC): declared once on the root field with `@Extensions(…)`, enforced by
 * `enforceOperationRules` before its resolver runs (docs/api/authentication.md, "Operation rules"). A transport
 * that executes the schema cannot skip them: they are part of the field.
 */

/**
 * Who may call an operation: every root field declares exactly one of these (building the schema
 * fails otherwise), and it is checked before anything else the operation does.
 */
export type Access = 'anyone' | 'user' | 'admin' | 'a2a' | 'a2aOrUser' | 'release';
export const ACCESS_LEVELS: readonly Access[] = ['anyone', 'user', 'admin', 'a2a', 'a2aOrUser', 'release'];

/** Anonymous callers too (a credential given must still be valid wherever the operation reads it). */
export const ANYONE = { access: 'anyone' } as const;
/** A signed-in user (a token or a browser session): else 401 `UNAUTHENTICATED`. */
export const SIGNED_IN = { access: 'user' } as const;
/** An administrator: anonymous 401, anyone else 403 `admin only`. */
export const ADMIN = { access: 'admin' } as const;
/** An A2A caller: the principal the A2A endpoint (`POST /a2a/v1`) admitted; anywhere else 403. */
export const A2A_CALLER = { access: 'a2a' } as const;
/** An A2A caller, or else a signed-in user (401 without one); the operation tells the two apart. */
export const A2A_CALLER_OR_SIGNED_IN = { access: 'a2aOrUser' } as const;
/** The release token (`RELEASE_TOKEN`, docs/api/releases.md): 403 while unset, else 401 without it. */
export const RELEASE_TOKEN = { access: 'release' } as const;

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
  /** Undefined only for a field that declares none: `enforceOperationRules` refuses the schema then. */
  access?: Access;
  mintsCredential: boolean;
  rateLimit?: 'auth';
  startsSession: boolean;
}

/** The rules a root field declares. */
export function rulesOf(field: Pick<GraphQLField<unknown, unknown>, 'extensions'>): OperationRules {
  const extensions = field.extensions as Record<string, unknown>;
  return {
    access: ACCESS_LEVELS.find((level) => level === extensions.access),
    mintsCredential: extensions.mintsCredential === true,
    rateLimit: extensions.rateLimit === 'auth' ? 'auth' : undefined,
    startsSession: extensions.startsSession === true,
  };
}

const A2A_ONLY = 'A2A protocol operations run through the A2A endpoint (POST /a2a/v1) only';

/** Done: at once when it was (undefined), else once the promise settles. */
const settledOf = (value: unknown): void | Promise<void> => (value instanceof Promise ? value.then(() => undefined) : undefined);

/**
 * Lets in a caller of an operation of `access`, or refuses it (with the codes and messages each
 * level documents). The facade asks it before reading a route's body, the pipeline before the
 * resolver; the second time, a caller already checked is let in at once (no promise).
 * @throws AppError UNAUTHENTICATED, FORBIDDEN (at once, or as the promise's rejection)
 */
export function admit(access: Access, ctx: Ctx): void | Promise<void> {
  switch (access) {
    case 'anyone':
      return;
    case 'user':
      return settledOf(requireViewerNow(ctx));
    case 'admin':
      return settledOf(requireAdmin(ctx));
    case 'a2a':
      if (!ctx.a2a) throw forbidden(A2A_ONLY);
      return;
    case 'a2aOrUser':
      return ctx.a2a ? undefined : settledOf(requireViewerNow(ctx));
    case 'release':
      requireReleaseToken(ctx);
  }
}

/**
 * Applies one root field's rules to a call: its access, then the others, cheapest first. At once
 * when only the access applies and the caller is known already (most reads).
 * @throws AppError (at once, or as the promise's rejection)
 */
function enforce(field: string, rules: OperationRules & { access: Access }, ctx: Ctx): void | Promise<void> {
  // Who may call comes first, before what the call would count or change.
  const admitted = admit(rules.access, ctx);
  const more = rules.startsSession || rules.rateLimit !== undefined || (rules.mintsCredential && ctx.authorization !== undefined);
  return admitted || more ? enforceTheRest(field, rules, ctx, admitted) : undefined;
}

async function enforceTheRest(field: string, rules: OperationRules, ctx: Ctx, admitted: void | Promise<void>): Promise<void> {
  await admitted;
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

const rootTypesOf = (schema: GraphQLSchema) =>
  [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter((type): type is GraphQLObjectType => !!type);

/**
 * Wraps the resolver (and a subscription's `subscribe`) of every root field, so that its rules
 * hold on every transport. Called once on the built schema.
 * @throws Error naming each root field that declares no access: a new operation cannot forget it
 */
export function enforceOperationRules(schema: GraphQLSchema): GraphQLSchema {
  const undeclared = rootTypesOf(schema).flatMap((type) =>
    Object.values(type.getFields())
      .filter((field) => !rulesOf(field).access)
      .map((field) => `${type.name}.${field.name}`),
  );
  if (undeclared.length)
    throw new Error(
      `every root field declares who may call it (@Extensions(ANYONE | SIGNED_IN | ADMIN | A2A_CALLER | A2A_CALLER_OR_SIGNED_IN | RELEASE_TOKEN), src/operation-rules.ts); these do not: ${undeclared.join(', ')}`,
    );
  for (const type of rootTypesOf(schema)) {
    for (const field of Object.values(type.getFields())) {
      const rules = { ...rulesOf(field), access: rulesOf(field).access! };
      const guard =
        (inner: GraphQLFieldResolver<unknown, Ctx> | undefined): GraphQLFieldResolver<unknown, Ctx> =>
        (source, args, ctx, info) => {
          const resolve = () => (inner ? inner(source, args, ctx, info) : (source as Record<string, unknown> | undefined)?.[field.name]);
          // A refusal may throw at once: GraphQL takes a resolver's throw as it takes a rejection.
          const enforced = enforce(field.name, rules, ctx);
          return enforced ? enforced.then(resolve) : resolve();
        };
      // A subscription is checked when it starts, not again for each of its events.
      if (field.subscribe) field.subscribe = guard(field.subscribe as GraphQLFieldResolver<unknown, Ctx>);
      else field.resolve = guard(field.resolve as GraphQLFieldResolver<unknown, Ctx> | undefined);
    }
  }
  return schema;
}

/** The access a root field of an operation declares (its first selection: the facade's routes select one). */
export function accessOfOperation(schema: GraphQLSchema, operation: OperationDefinitionNode): Access | undefined {
  const type = schema.getRootType(operation.operation);
  const [root] = operation.selectionSet.selections;
  const field = root?.kind === Kind.FIELD ? type?.getFields()[root.name.value] : undefined;
  return field && rulesOf(field).access;
}

/**
 * `@access(level: …)` on each root field of the printed SDL (schema/schema.graphql): what the
 * field declares, for readers of the schema and for the facade's codegen (facade/codegen/tables.js),
 * which copies it into the route table and the OpenAPI document. It changes nothing at run time.
 */
export const ACCESS_DIRECTIVE = new GraphQLDirective({
  name: 'access',
  description: `Who may call the operation (src/operation-rules.ts), checked before anything else on every transport: ${ACCESS_LEVELS.join(', ')}.`,
  locations: [DirectiveLocation.FIELD_DEFINITION],
  args: { level: { type: new GraphQLNonNull(GraphQLString), description: 'The declared access level.' } },
});

/**
 * `sdl` (printed from `schema`) with each root field's declared access as `@access(level: …)`
 * after its type, inserted in place so the rest of the text stays as printed.
 */
export function withAccessDirectives(schema: GraphQLSchema, sdl: string): string {
  const document = parse(sdl);
  const inserts: { at: number; text: string }[] = [];
  const roots = new Map(rootTypesOf(schema).map((type) => [type.name, type]));
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION || !roots.has(definition.name.value)) continue;
    const fields = roots.get(definition.name.value)!.getFields();
    for (const node of definition.fields ?? []) {
      const access = rulesOf(fields[node.name.value]).access;
      if (access) inserts.push({ at: node.loc!.end, text: ` @access(level: "${access}")` });
    }
  }
  let out = sdl;
  for (const { at, text } of inserts.sort((a, b) => b.at - a.at)) out = out.slice(0, at) + text + out.slice(at);
  return out;
}

// The caller the operation's access let in, for its resolver: resolvers do not check access
// themselves. On a root field the pipeline has checked it already; on a field below one (a
// type's field resolver, reached from operations of any access) an anonymous caller is refused
// as a root field declaring SIGNED_IN would refuse it.

/** The signed-in caller (at once when checked already). @throws UNAUTHENTICATED (below an operation that lets anyone in) */
export const callerOf = (ctx: Pick<Ctx, 'viewer' | 'settledViewer'>): Viewer | Promise<Viewer> => requireViewerNow(ctx);

/** The A2A caller of an operation declaring `A2A_CALLER`. @throws FORBIDDEN elsewhere */
export function a2aCallerOf(ctx: Pick<Ctx, 'a2a'>): A2aCaller {
  if (!ctx.a2a) throw forbidden(A2A_ONLY);
  return ctx.a2a;
}

/** Who called an operation declaring `A2A_CALLER_OR_SIGNED_IN`. */
export type A2aOrUserCaller = { a2a: A2aCaller; viewer?: undefined } | { a2a?: undefined; viewer: Viewer };

/** The caller of an operation declaring `A2A_CALLER_OR_SIGNED_IN`. @throws UNAUTHENTICATED without one */
export async function a2aOrUserCallerOf(ctx: Pick<Ctx, 'a2a' | 'viewer' | 'settledViewer'>): Promise<A2aOrUserCaller> {
  return ctx.a2a ? { a2a: ctx.a2a } : { viewer: await callerOf(ctx) };
}

/** The A2A principal's id when an A2A caller runs the operation, else null (for fields that show it less). */
export const a2aPrincipalIdOf = (ctx: Pick<Ctx, 'a2a'>): string | null => ctx.a2a?.principal.id ?? null;

/**
 * The caller a parameter decorator hands a resolver, once it is sure the field's declaration
 * promises one: on a root field declaring another access it fails (a programming error, not an
 * access check of its own); below the root fields `take` decides.
 */
function declaredCaller<T>(promised: readonly Access[], decorator: string, take: (ctx: Ctx) => T | Promise<T>) {
  // Each field is checked on its first call; the check cannot change for a field afterwards.
  const checked = new WeakMap<GraphQLObjectType, Set<string>>();
  return createParameterDecorator<Ctx>(({ context, info }) => {
    let fields = checked.get(info.parentType);
    if (!fields?.has(info.fieldName)) {
      const root = rootTypesOf(info.schema).includes(info.parentType);
      const access = root ? rulesOf(info.parentType.getFields()[info.fieldName]).access : undefined;
      if (root && !promised.includes(access!))
        throw new Error(`${info.parentType.name}.${info.fieldName} declares ${access} access: ${decorator} is for ${promised.join(', ')}`);
      if (!fields) checked.set(info.parentType, (fields = new Set()));
      fields.add(info.fieldName);
    }
    return take(context);
  });
}

/** Parameter: the signed-in caller (`SIGNED_IN`, `ADMIN`), as `callerOf`. */
export const Caller = () => declaredCaller(['user', 'admin'], '@Caller()', callerOf);
/** Parameter: the A2A caller (`A2A_CALLER`), as `a2aCallerOf`. */
export const CallerA2a = () => declaredCaller(['a2a'], '@CallerA2a()', a2aCallerOf);
/** Parameter: the A2A caller or signed-in user (`A2A_CALLER_OR_SIGNED_IN`), as `a2aOrUserCallerOf`. */
export const CallerA2aOrUser = () => declaredCaller(['a2aOrUser'], '@CallerA2aOrUser()', a2aOrUserCallerOf);
/** Parameter: the A2A principal's id, or null when no A2A caller runs the operation (any access). */
export const CallerA2aPrincipalId = () => createParameterDecorator<Ctx>(({ context }) => a2aPrincipalIdOf(context));
