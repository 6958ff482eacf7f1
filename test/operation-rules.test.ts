import { randomBytes } from 'node:crypto';
import {
  execute,
  getNamedType,
  GraphQLArgument,
  GraphQLField,
  GraphQLInputType,
  GraphQLObjectType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  Kind,
  parse,
} from 'graphql';
import { createClient } from 'graphql-ws';
import { buildSchemaSync, Extensions, Query, Resolver } from 'type-graphql';
import WebSocket from 'ws';
import { JSONRPC_OPERATIONS } from '../facade/generated/tables';
import { operationOf, type EventStreamRoute, type OperationRoute } from '../facade/route';
import { ROUTES } from '../facade/routes';
import { snake } from '../src/http/answers';
import { Caller, enforceOperationRules, rulesOf, SIGNED_IN, ANYONE, type Access } from '../src/operation-rules';
import type { Viewer } from '../src/modules/auth/viewer';
import { makePubSub } from '../src/pubsub';
import { buildAppSchema } from '../src/schema';
import { makeUser, startTestApp, TestApp, TestUser } from './support/app';

/**
 * Each operation's rules (src/operation-rules.ts) hold on every transport that runs it: GraphQL
 * over HTTP and over the WebSocket, and the REST routes of the facade. The operations are found
 * by their declarations in the schema, so a new one that declares a rule is tested here as it is.
 * Each call sends arguments of the right shape but no meaning: the rules act before the resolver.
 */

type RootKind = 'query' | 'mutation' | 'subscription';

const pubsub = makePubSub();
const schema = buildAppSchema(pubsub);
afterAll(() => pubsub.close());

type Field = GraphQLField<unknown, unknown>;
const roots: { kind: RootKind; type: GraphQLObjectType }[] = [
  { kind: 'query', type: schema.getQueryType()! },
  { kind: 'mutation', type: schema.getMutationType()! },
];
const subscriptions: { kind: RootKind; type: GraphQLObjectType } = { kind: 'subscription', type: schema.getSubscriptionType()! };
const declared = (rule: (field: Field) => boolean, among = roots) =>
  among.flatMap(({ kind, type }) => Object.values(type.getFields()).flatMap((field) => (rule(field) ? [{ kind, field }] : [])));
const adminOnly = (field: Field) => rulesOf(field).access === 'admin';

const mintsCredential = declared((field) => rulesOf(field).mintsCredential);
const authLimited = declared((field) => rulesOf(field).rateLimit === 'auth');
const startsSession = declared((field) => rulesOf(field).startsSession);

/** A value of `type` that passes GraphQL's variable coercion. */
function sample(type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return sample(type.ofType);
  if (isListType(type)) return [];
  if (isEnumType(type)) return type.getValues()[0].name;
  if (isInputObjectType(type))
    return Object.fromEntries(
      Object.values(type.getFields())
        .filter((field) => isNonNullType(field.type) && field.defaultValue === undefined)
        .map((field) => [field.name, sample(field.type)]),
    );
  const scalar = getNamedType(type);
  if (isScalarType(scalar) && /Int|Float/.test(scalar.name)) return 1;
  if (scalar.name === 'Boolean') return false;
  if (scalar.name === 'DateTime') return new Date(0).toISOString();
  if (/JSON/.test(scalar.name)) return {};
  return 'sample';
}

const requiredArgs = (field: Field) => field.args.filter((arg) => isNonNullType(arg.type));
const typeText = (arg: GraphQLArgument) => String(arg.type);

/** A GraphQL document calling `field` alone, with sample variables for its required arguments. */
function documentOf(kind: RootKind, field: Field) {
  const args = requiredArgs(field);
  const named = getNamedType(field.type);
  const selection = named instanceof GraphQLObjectType ? ' { __typename }' : '';
  const declarations = args.length ? `(${args.map((arg) => `$${arg.name}: ${typeText(arg)}`).join(', ')})` : '';
  const passed = args.length ? `(${args.map((arg) => `${arg.name}: $${arg.name}`).join(', ')})` : '';
  return {
    query: `${kind}${declarations} { ${field.name}${passed}${selection} }`,
    variables: Object.fromEntries(args.map((arg) => [arg.name, sample(arg.type)])),
  };
}

/** Keys of an input object on the REST wire: snake_case, all the way down. */
const onWire = (value: unknown): unknown =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [snake(key), onWire(inner)]))
    : value;

type Outcome = { code?: string; status: number; message: string };

/** The transports of an operation: GraphQL over HTTP (not for a subscription) and WebSocket, and each REST route running it. */
function transportsOf(kind: RootKind, field: Field) {
  const { query, variables } = documentOf(kind, field);
  const transports: { name: string; run(t: TestApp, headers: Record<string, string>): Promise<Outcome> }[] = [
    ...(kind === 'subscription' ? [] : [graphqlOverHttp(query, variables)]),
    {
      name: 'GraphQL over WebSocket',
      async run(t, headers) {
        const client = createClient({
          url: `${t.url.replace('http', 'ws')}/graphql`,
          webSocketImpl: class extends WebSocket {
            constructor(url: string, protocols: string[]) {
              super(url, protocols, { headers });
            }
          },
          connectionParams: headers.authorization ? { authorization: headers.authorization } : {},
          retryAttempts: 0,
        });
        type Errors = readonly { message: string; extensions?: { code?: unknown } }[];
        try {
          // A refusal before execution (the screen) ends the subscription with its errors.
          const errors = await new Promise<Errors | undefined>((resolve, reject) => {
            client.subscribe(
              { query, variables },
              {
                next: (result) => resolve(result.errors),
                error: (error) => (Array.isArray(error) ? resolve(error as Errors) : reject(error as Error)),
                complete: () => undefined,
              },
            );
          });
          const error = errors?.[0];
          return { code: error?.extensions?.code as string | undefined, status: 200, message: error?.message ?? '' };
        } finally {
          await client.dispose();
        }
      },
    },
    ...routesRunning(field).map((route) => ({
      name: `REST ${route.method} ${route.path}`,
      run: (t: TestApp, headers: Record<string, string>) => callRoute(t, route, variables, headers),
    })),
  ];
  return transports;
}

function graphqlOverHttp(query: string, variables: Record<string, unknown>) {
  return {
    name: 'GraphQL over HTTP',
    async run(t: TestApp, headers: Record<string, string>): Promise<Outcome> {
      const reply = await t.call('POST', '/graphql', { body: { query, variables }, headers });
      const error = reply.body?.errors?.[0];
      return { code: error?.extensions?.code, status: reply.status, message: error?.message ?? '' };
    },
  };
}

/** The REST routes (operation routes and event streams) whose operation's root field is `field`. */
const routesRunning = (field: Field) =>
  ROUTES.filter(
    (route): route is OperationRoute | EventStreamRoute =>
      (route.kind === 'operation' || route.kind === 'events') && rootFieldOf(route) === field.name,
  );

function rootFieldOf(route: OperationRoute | EventStreamRoute): string | undefined {
  const [root] = operationOf(route.operation).selectionSet.selections;
  return root.kind === Kind.FIELD ? root.name.value : undefined;
}

async function callRoute(
  t: TestApp,
  route: OperationRoute | EventStreamRoute,
  variables: Record<string, unknown>,
  headers: Record<string, string>,
): Promise<Outcome> {
  let path = route.path;
  const query: Record<string, string> = {};
  let body: unknown;
  for (const [name, source] of Object.entries(route.variables)) {
    const value = variables[name] as string | number | boolean | object | undefined;
    const text = typeof value === 'object' || value === undefined ? '1' : String(value);
    if (source.from === 'path') path = path.replace(`{${source.name}}`, encodeURIComponent(text));
    else if (source.from === 'query' && value !== undefined) query[source.name] = text;
    else if (source.from === 'body') body = onWire(value ?? {});
  }
  const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
  const reply = await t.call(route.method, path, { query, headers, ...(hasBody ? { body: body ?? {} } : {}) });
  return { status: reply.status, message: typeof reply.body?.detail === 'string' ? reply.body.detail : reply.text };
}

const RELEASE_TOKEN = `release-${randomBytes(16).toString('hex')}`;

const refusedAs = (outcome: Outcome, code: string, status: number) =>
  outcome.code !== undefined ? outcome.code === code : outcome.status === status;

let setup: TestApp;
let t: TestApp;
const AUTH_PER_MINUTE = 3;

beforeAll(async () => {
  // Users and tokens come from an instance without limits; the instance under test counts the sign-in limit low.
  setup = await startTestApp();
  t = await startTestApp(
    { TRUST_PROXY: 'true', RATE_LIMIT_AUTH_PER_MINUTE: String(AUTH_PER_MINUTE), RELEASE_TOKEN },
    { sameDatabaseAs: setup },
  );
});
afterAll(async () => {
  await t?.close();
  await setup?.close();
});

/** A client address no other test sends from (the limits count per address). */
const freshAddress = () => `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0] % 250)}`;

/** A direct lease of `owner`, bootstrapped: the sandbox's access token. */
async function sandboxTokenOf(owner: TestUser): Promise<string> {
  const lease = await setup.call('POST', '/api/compute/sessions', { token: owner.token, body: {} });
  expect(lease.status).toBe(201);
  const booted = await setup.call('POST', '/api/compute/bootstrap', { body: { claim_token: lease.body.claim_token } });
  expect(booted.status).toBe(200);
  return booted.body.access_token as string;
}

test('the declarations are found: credential, sign-in limit and session-start operations', () => {
  // The operations the hardening probe named are among them; others declared later are tested alike.
  expect(mintsCredential.map(({ field }) => field.name)).toEqual(
    expect.arrayContaining([
      'setPassword',
      'authLogin',
      'passwordLinkUse',
      'passwordLink',
      'authCliApprove',
      'adminTokenCreate',
      'a2aKeyCreate',
    ]),
  );
  expect(authLimited.map(({ field }) => field.name)).toEqual(
    expect.arrayContaining(['authLogin', 'passwordLinkUse', 'labJoin', 'labPreview', 'authCliApprove', 'authRefresh']),
  );
  expect(startsSession.map(({ field }) => field.name).sort()).toEqual(['authLogin', 'passwordLinkUse']);
});

describe('a sandbox token never mints or changes a credential, on any transport', () => {
  test.each(mintsCredential.map(({ kind, field }) => [field.name, kind, field] as const))(
    '%s is refused (403 / FORBIDDEN)',
    async (_name, kind, field) => {
      const owner = await makeUser(setup, { is_admin: true });
      const sandbox = await sandboxTokenOf(owner);
      for (const transport of transportsOf(kind, field)) {
        const outcome = await transport.run(t, { authorization: `Bearer ${sandbox}`, 'x-forwarded-for': freshAddress() });
        expect({ transport: transport.name, refused: refusedAs(outcome, 'FORBIDDEN', 403) }).toEqual({
          transport: transport.name,
          refused: true,
        });
      }
    },
  );

  test('the attack of the probe: an admin sandbox cannot set its owner’s password and sign in with it', async () => {
    const admin = await makeUser(setup, { is_admin: true });
    const sandbox = await sandboxTokenOf(admin);
    const set = await t.call('PUT', '/api/me/password', {
      token: sandbox,
      body: { new_password: 'a password the sandbox chose' },
      headers: { 'x-forwarded-for': freshAddress() },
    });
    expect({ status: set.status, detail: set.body.detail }).toEqual({ status: 403, detail: expect.stringContaining('sandbox token') });
    const login = await setup.call('POST', '/api/auth/login', { body: { email: admin.email, password: 'a password the sandbox chose' } });
    expect(login.status).toBe(401);
    // Nor a new lease, whose claim token would give it a pair that outlives its own lease.
    const lease = await t.call('POST', '/api/compute/sessions', {
      token: sandbox,
      body: {},
      headers: { 'x-forwarded-for': freshAddress() },
    });
    expect(lease.status).toBe(403);
    // The sandbox still does its owner's work.
    expect((await t.call('GET', '/api/me', { token: sandbox, headers: { 'x-forwarded-for': freshAddress() } })).status).toBe(200);
  });
});

describe('the sign-in limit counts every call of an operation that declares it, on any transport', () => {
  test.each(authLimited.map(({ kind, field }) => [field.name, kind, field] as const))(
    `%s: ${AUTH_PER_MINUTE} calls from one address go on, the next is refused (429 / RATE_LIMITED)`,
    async (_name, kind, field) => {
      for (const transport of transportsOf(kind, field)) {
        // A caller of its own (admin for admin operations), so that the operation is reached and the per-token count is fresh.
        const caller = await makeUser(setup, adminOnly(field) ? { is_admin: true } : {});
        const headers = { authorization: `Bearer ${caller.token}`, 'x-forwarded-for': freshAddress() };
        const outcomes: boolean[] = [];
        for (let i = 0; i <= AUTH_PER_MINUTE; i++) outcomes.push(refusedAs(await transport.run(t, headers), 'RATE_LIMITED', 429));
        expect({ transport: transport.name, limited: outcomes }).toEqual({
          transport: transport.name,
          limited: [...Array<boolean>(AUTH_PER_MINUTE).fill(false), true],
        });
      }
    },
  );

  test('the probe’s spray: 150 GraphQL sign-ins, each for another account, from one address: 3 are checked, 147 refused', async () => {
    const address = freshAddress();
    const codes: string[] = [];
    for (let i = 0; i < 150; i++) {
      const reply = await t.call('POST', '/graphql', {
        body: {
          query: 'mutation ($input: SignInInput!) { authLogin(input: $input) { __typename } }',
          variables: { input: { email: `sprayed-${i}@example.org`, password: 'Winter2026!' } },
        },
        headers: { 'x-forwarded-for': address },
      });
      codes.push(reply.body.errors[0].extensions.code);
    }
    expect(codes).toEqual([
      ...Array<string>(AUTH_PER_MINUTE).fill('UNAUTHENTICATED'),
      ...Array<string>(150 - AUTH_PER_MINUTE).fill('RATE_LIMITED'),
    ]);
  });
});

describe('a session starts only from this service’s own pages, on any transport', () => {
  test.each(startsSession.map(({ kind, field }) => [field.name, kind, field] as const))(
    '%s from Origin http://evil.example or null is refused; from the own origin it goes on',
    async (_name, kind, field) => {
      for (const transport of transportsOf(kind, field).filter((each) => !each.name.includes('WebSocket'))) {
        for (const origin of ['http://evil.example', 'null']) {
          const outcome = await transport.run(t, { origin, 'x-forwarded-for': freshAddress() });
          expect({ transport: transport.name, origin, refused: refusedAs(outcome, 'FORBIDDEN', 403), message: outcome.message }).toEqual({
            transport: transport.name,
            origin,
            refused: true,
            message: expect.stringContaining('only this service'),
          });
        }
        const own = await transport.run(t, { origin: t.url, 'x-forwarded-for': freshAddress() });
        expect({ transport: transport.name, refused: refusedAs(own, 'FORBIDDEN', 403) }).toEqual({
          transport: transport.name,
          refused: false,
        });
      }
    },
  );
});

/**
 * Callers each access level refuses, and how: the code over GraphQL (HTTP status on REST). A
 * bearer token of `user` or `admin` is made for the call.
 */
const REFUSED: Record<Exclude<Access, 'anyone'>, { caller: 'anonymous' | 'user'; code: 'UNAUTHENTICATED' | 'FORBIDDEN' }[]> = {
  user: [{ caller: 'anonymous', code: 'UNAUTHENTICATED' }],
  admin: [
    { caller: 'anonymous', code: 'UNAUTHENTICATED' },
    { caller: 'user', code: 'FORBIDDEN' },
  ],
  // Outside the A2A endpoint nobody is an A2A caller, signed in or not.
  a2a: [
    { caller: 'anonymous', code: 'FORBIDDEN' },
    { caller: 'user', code: 'FORBIDDEN' },
  ],
  a2aOrUser: [{ caller: 'anonymous', code: 'UNAUTHENTICATED' }],
  // A user's token is not the release token.
  release: [{ caller: 'user', code: 'UNAUTHENTICATED' }],
};
const STATUS = { UNAUTHENTICATED: 401, FORBIDDEN: 403 } as const;

const guarded = declared((field) => rulesOf(field).access !== 'anyone', [...roots, subscriptions]).flatMap(({ kind, field }) =>
  REFUSED[rulesOf(field).access as Exclude<Access, 'anyone'>].map(
    ({ caller, code }) => [field.name, rulesOf(field).access!, caller, code, kind, field] as const,
  ),
);

describe('who may call: each operation refuses a caller its declared access does not let in, alike on every transport', () => {
  test('every root field declares its access; those that let in fewer than anyone are all tried below', () => {
    const all = declared(() => true, [...roots, subscriptions]);
    expect(all.filter(({ field }) => !rulesOf(field).access).map(({ field }) => field.name)).toEqual([]);
    // The levels in use, each with its refusals tried (a level no operation uses would need none).
    const used = new Set(all.map(({ field }) => rulesOf(field).access));
    expect([...used].sort()).toEqual(['a2a', 'a2aOrUser', 'admin', 'anyone', 'release', 'user']);
    expect(new Set(guarded.map(([name]) => name)).size).toBe(
      all.length - all.filter(({ field }) => rulesOf(field).access === 'anyone').length,
    );
  });

  test('each REST route running an operation publishes the access its root field declares (OpenAPI security, 401/403)', () => {
    const routeAuth: Record<Access, string | undefined> = {
      anyone: 'none',
      user: 'user',
      admin: 'admin',
      release: 'release',
      a2aOrUser: 'user',
      a2a: undefined,
    };
    const rows = ROUTES.filter(
      (route): route is OperationRoute | EventStreamRoute => route.kind === 'operation' || route.kind === 'events',
    );
    expect(rows.length).toBeGreaterThan(70);
    for (const route of rows) {
      const operation = operationOf(route.operation);
      const field = schema.getRootType(operation.operation)!.getFields()[rootFieldOf(route)!];
      expect({ route: `${route.method} ${route.path}`, auth: route.auth }).toEqual({
        route: `${route.method} ${route.path}`,
        auth: routeAuth[rulesOf(field).access!],
      });
    }
  });

  test('the A2A endpoint runs only operations an A2A caller may call, so JSON-RPC refuses nobody the other transports let in', () => {
    // Its caller is always an A2A principal (facade/a2a.ts): an operation declaring another access
    // would be refused there to every caller, and needs a JSON-RPC row in the table above.
    const accessOfMethod = JSONRPC_OPERATIONS.map(({ name, document }) => {
      const operation = operationOf(document);
      const [root] = operation.selectionSet.selections;
      const field = root.kind === Kind.FIELD ? schema.getRootType(operation.operation)?.getFields()[root.name.value] : undefined;
      return [name, field && rulesOf(field).access] as const;
    });
    expect(accessOfMethod.length).toBeGreaterThan(5);
    for (const [name, access] of accessOfMethod)
      expect({ name, access: ['a2a', 'a2aOrUser'].includes(access!) }).toEqual({ name, access: true });
  });

  test.each(guarded)('%s (%s): a caller %s is refused with %s on every transport', async (_name, _access, caller, code, kind, field) => {
    const token = caller === 'user' ? (await makeUser(setup)).token : undefined;
    const outcomes: { transport: string; refused: boolean; message: string }[] = [];
    for (const transport of transportsOf(kind, field)) {
      const headers: Record<string, string> = { 'x-forwarded-for': freshAddress(), ...(token ? { authorization: `Bearer ${token}` } : {}) };
      const outcome = await transport.run(t, headers);
      outcomes.push({ transport: transport.name, refused: refusedAs(outcome, code, STATUS[code]), message: outcome.message });
    }
    expect(outcomes.length).toBeGreaterThanOrEqual(1);
    // Refused alike: the code (or its status) and the same words on each.
    expect(outcomes).toEqual(outcomes.map(({ transport }) => ({ transport, refused: true, message: outcomes[0].message })));
    expect(outcomes[0].message).not.toBe('');
  });
});

describe('the declaration cannot be left out or contradicted', () => {
  test('building the schema fails for a root field that declares no access, naming it', () => {
    @Resolver()
    class Forgetful {
      @Extensions(SIGNED_IN)
      @Query(() => String)
      remembered(): string {
        return 'declared';
      }

      @Query(() => String)
      forgotten(): string {
        return 'undeclared';
      }
    }
    const built = buildSchemaSync({ resolvers: [Forgetful], validate: false });
    expect(() => enforceOperationRules(built)).toThrow(/these do not: Query\.forgotten$/);
  });

  test('@Caller() on an operation declaring ANYONE is an error of the code, not a check of its own', async () => {
    @Resolver()
    class Contradicting {
      @Extensions(ANYONE)
      @Query(() => String)
      open(@Caller() viewer: Viewer): string {
        return viewer.user.id;
      }

      @Extensions(SIGNED_IN)
      @Query(() => String)
      closed(@Caller() viewer: Viewer): string {
        return viewer.user.id;
      }
    }
    const built = enforceOperationRules(buildSchemaSync({ resolvers: [Contradicting], validate: false }));
    const signedIn = { viewer: async () => ({ user: { id: 'usr_1' } }) };
    const open = await execute({ schema: built, document: parse('{ open }'), contextValue: signedIn });
    expect(open.errors?.[0].message).toBe('Query.open declares anyone access: @Caller() is for user, admin');
    const closed = await execute({ schema: built, document: parse('{ closed }'), contextValue: signedIn });
    expect(closed).toEqual({ data: { closed: 'usr_1' } });
    const anonymous = await execute({ schema: built, document: parse('{ closed }'), contextValue: { viewer: async () => null } });
    expect(anonymous.errors?.[0].extensions?.code ?? (anonymous.errors?.[0].originalError as { code?: string })?.code).toBe(
      'UNAUTHENTICATED',
    );
  });
});
