import { randomBytes } from 'node:crypto';
import {
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
} from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { OPERATION_ROUTES } from '../facade/generated/tables';
import type { Route } from '../facade/route';
import { snake } from '../src/http/answers';
import { rulesOf } from '../src/operation-rules';
import { makePubSub } from '../src/pubsub';
import { buildAppSchema } from '../src/schema';
import { makeUser, startTestApp, TestApp, TestUser } from './support/app';

/**
 * Each operation's rules (src/operation-rules.ts) hold on every transport that runs it: GraphQL
 * over HTTP and over the WebSocket, and the REST routes of the facade. The operations are found
 * by their declarations in the schema, so a new one that declares a rule is tested here as it is.
 * Each call sends arguments of the right shape but no meaning: the rules act before the resolver.
 */

const pubsub = makePubSub();
const schema = buildAppSchema(pubsub);
afterAll(() => pubsub.close());

type Field = GraphQLField<unknown, unknown>;
const roots: { kind: 'query' | 'mutation'; type: GraphQLObjectType }[] = [
  { kind: 'query', type: schema.getQueryType()! },
  { kind: 'mutation', type: schema.getMutationType()! },
];
const declared = (rule: (field: Field) => boolean) =>
  roots.flatMap(({ kind, type }) => Object.values(type.getFields()).flatMap((field) => (rule(field) ? [{ kind, field }] : [])));
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
function documentOf(kind: 'query' | 'mutation', field: Field) {
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

/** The transports of an operation: GraphQL over HTTP and WebSocket, and each REST route running it. */
function transportsOf(kind: 'query' | 'mutation', field: Field) {
  const { query, variables } = documentOf(kind, field);
  const transports: { name: string; run(t: TestApp, headers: Record<string, string>): Promise<Outcome> }[] = [
    {
      name: 'GraphQL over HTTP',
      async run(t, headers) {
        const reply = await t.call('POST', '/graphql', { body: { query, variables }, headers });
        const error = reply.body?.errors?.[0];
        return { code: error?.extensions?.code, status: reply.status, message: error?.message ?? '' };
      },
    },
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
    ...OPERATION_ROUTES.filter((route) => route.kind === 'operation' && route.result === field.name).map((route) => ({
      name: `REST ${route.method} ${route.path}`,
      run: (t: TestApp, headers: Record<string, string>) => callRoute(t, route, variables, headers),
    })),
  ];
  return transports;
}

async function callRoute(t: TestApp, route: Route, variables: Record<string, unknown>, headers: Record<string, string>): Promise<Outcome> {
  if (route.kind !== 'operation') throw new Error('not an operation route');
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

const refusedAs = (outcome: Outcome, code: string, status: number) =>
  outcome.code !== undefined ? outcome.code === code : outcome.status === status;

let setup: TestApp;
let t: TestApp;
const AUTH_PER_MINUTE = 3;

beforeAll(async () => {
  // Users and tokens come from an instance without limits; the instance under test counts the sign-in limit low.
  setup = await startTestApp();
  t = await startTestApp({ TRUST_PROXY: 'true', RATE_LIMIT_AUTH_PER_MINUTE: String(AUTH_PER_MINUTE) }, { sameDatabaseAs: setup });
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
