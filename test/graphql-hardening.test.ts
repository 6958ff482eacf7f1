import { buildClientSchema, getIntrospectionQuery, IntrospectionOptions, printSchema } from 'graphql';
import WebSocket from 'ws';
import { ROUTES } from '../facade/routes';
import { rulesOf } from '../src/operation-rules';
import { makePubSub } from '../src/pubsub';
import { buildAppSchema } from '../src/schema';
import { makeLab, makeUser, TestLab, TestUser, useTestApp } from './support/app';

/**
 * `/graphql` and its WebSocket under hostile documents (issue 10, finding 1), the cost limit
 * (finding 2), introspection for signed-in users only (finding 10) and admin fields refused
 * before any validation (finding 8). Each case is refused quickly and the process keeps
 * answering; the time taken is printed, never asserted.
 */

const t = useTestApp();

let member: TestUser;
let lab: TestLab;
beforeAll(async () => {
  member = await makeUser(t);
  lab = await makeLab(t, { owner: member });
});

async function graphql(query: string, opts: { token?: string; variables?: Record<string, unknown> } = {}) {
  const started = performance.now();
  const reply = await t.call('POST', '/graphql', { token: opts.token, body: { query, variables: opts.variables } });
  return { ...reply, ms: performance.now() - started };
}

/** `levels` fragments, each spreading the next twice; the last spreads an unknown fragment. */
function fragmentBomb(levels: number): string {
  const fragments = Array.from({ length: levels }, (_, i) =>
    i === levels - 1 ? `fragment F${i} on Query { ...Nope }` : `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`,
  );
  return `query { ...F0 }\n${fragments.join('\n')}`;
}

describe('GraphQL’s own directives', () => {
  test('@include and @skip work beside the schema’s own directives', async () => {
    const query = `query($yes: Boolean!) { me { id name @include(if: $yes) email @skip(if: $yes) } }`;
    const shown = await graphql(query, { token: member.token, variables: { yes: true } });
    expect(shown.body).toEqual({ data: { me: { id: member.id, name: expect.any(String) } } });
    const hidden = await graphql(query, { token: member.token, variables: { yes: false } });
    expect(hidden.body).toEqual({ data: { me: { id: member.id, email: member.email } } });
  });
});

describe('document bombs', () => {
  test('a chain of fragments each spreading the next twice (2^40 expansions) is refused, anonymously, and /healthz answers meanwhile', async () => {
    const bomb = graphql(fragmentBomb(40));
    const health = await t.call('GET', '/healthz');
    expect(health.status).toBe(200);
    const reply = await bomb;
    expect(reply.status).toBe(400);
    expect(reply.body.errors.map((e: { message: string }) => e.message).join('\n')).toMatch(/Unknown fragment "Nope"/);
    process.stdout.write(`fragment bomb of 40 levels (${fragmentBomb(40).length} bytes) refused in ${reply.ms.toFixed(1)} ms\n`);
  });

  test('a chain of real fields spread 2^40 times is refused by the field limit, each fragment counted once', async () => {
    const levels = 40;
    const fragments = Array.from({ length: levels }, (_, i) =>
      i === levels - 1 ? `fragment F${i} on Query { __typename }` : `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`,
    );
    const reply = await graphql(
      `
        query {
          ...F0
        }
        ${fragments.join('\n')}
      `,
      { token: member.token },
    );
    expect(reply.status).toBe(400);
    expect(reply.body.errors[0].message).toMatch(/more than 1000 fields/);
    process.stdout.write(`field bomb of ${levels} levels refused in ${reply.ms.toFixed(1)} ms\n`);
  });

  test('a 9.5 MB document is refused at the token limit, not parsed whole', async () => {
    const query = `query { ${'__typename '.repeat(950_000)}}`;
    expect(query.length).toBeGreaterThan(9_000_000);
    const reply = await graphql(query);
    expect(reply.status).toBe(400);
    expect(reply.body.errors[0].message).toMatch(/10000 tokens. Parsing aborted/);
    process.stdout.write(`9.5 MB document refused in ${reply.ms.toFixed(1)} ms\n`);
  });
});

describe('the WebSocket', () => {
  /** Opens a raw graphql-ws socket, sends `messages`, and answers how it closed (or the first message it got). */
  function exchange(messages: string[], headers: Record<string, string> = {}) {
    return new Promise<{ closeCode?: number; message?: any }>((resolve, reject) => {
      const socket = new WebSocket(`${t.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws', { headers });
      socket.on('open', () => messages.forEach((m) => socket.send(m)));
      socket.on('message', (data) => {
        resolve({ message: JSON.parse((data as Buffer).toString('utf8')) });
        socket.close();
      });
      socket.on('close', (code) => resolve({ closeCode: code }));
      socket.on('error', reject);
    });
  }

  test('a message over 1 MiB is refused before it is parsed (close 1009), even connection_init', async () => {
    const big = JSON.stringify({ type: 'connection_init', payload: { padding: 'x'.repeat(2 * 1024 * 1024) } });
    const consoleError = jest.spyOn(console, 'error');
    expect(await exchange([big])).toEqual({ closeCode: 1009 });
    // The client's bad frame is not the server's internal error: no stack trace on the console.
    expect(consoleError).not.toHaveBeenCalled();
    consoleError.mockRestore();
    // A small connection_init is still acknowledged.
    expect(await exchange([JSON.stringify({ type: 'connection_init' })])).toEqual({ message: { type: 'connection_ack' } });
  });

  test('a subscribe carrying a fragment bomb gets an error, not a stalled process', async () => {
    const socket = new WebSocket(`${t.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
    const received: any[] = [];
    await new Promise<void>((resolve, reject) => {
      socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init' })));
      socket.on('message', (data) => {
        const message = JSON.parse((data as Buffer).toString('utf8'));
        received.push(message);
        if (message.type === 'connection_ack') {
          socket.send(
            JSON.stringify({ id: '1', type: 'subscribe', payload: { query: fragmentBomb(40).replace('query', 'subscription') } }),
          );
        } else {
          resolve();
        }
      });
      socket.on('error', reject);
    });
    socket.close();
    expect(received[1]).toMatchObject({ id: '1', type: 'error' });
    expect(received[1].payload.map((e: { message: string }) => e.message).join('\n')).toMatch(/Unknown fragment "Nope"/);
  });
});

describe('cost', () => {
  test('ten aliases of labBoard(limit: 500) are refused before any resolver runs; one is fine', async () => {
    const aliases = Array.from({ length: 10 }, (_, i) => `b${i}: labBoard(labId: $lab, limit: 500) { rows: items { sessionId } }`).join(
      '\n',
    );
    const reply = await graphql(`query ($lab: ID!) { ${aliases} }`, { token: member.token, variables: { lab: lab.id } });
    expect(reply.body.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/costs 50000.*at most 5000/),
      extensions: { code: 'BAD_REQUEST' },
    });
    expect(reply.body.data).toBeUndefined();

    const one = await graphql(
      `
        query ($lab: ID!) {
          labBoard(labId: $lab, limit: 500) {
            items {
              sessionId
            }
          }
        }
      `,
      { token: member.token, variables: { lab: lab.id } },
    );
    expect(one.body).toEqual({ data: { labBoard: { items: [] } } });
  });

  test('a share link’s records cost by the page size asked (`first`): three full pages are refused, anonymously', async () => {
    const pages = (first: number, n: number) =>
      Array.from({ length: n }, (_, i) => `p${i}: sharedTrajectoryRecords(token: $token, first: ${first}) { hasMore }`).join('\n');
    const refused = await graphql(`query ($token: String!) { ${pages(200, 3)} }`, { variables: { token: 'ldk_shr_x' } });
    expect(refused.body.errors?.[0]).toMatchObject({ message: expect.stringMatching(/costs 6000.*at most 5000/) });
    // Two pass the cost and reach the resolver, which finds no such link.
    const two = await graphql(`query ($token: String!) { ${pages(200, 2)} }`, { variables: { token: 'ldk_shr_x' } });
    expect(two.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  test('the limit counts variables by their value, and fragments by how often they are spread', async () => {
    const viaVariable = await graphql(
      `
        query ($lab: ID!, $n: Int) {
          a: labBoard(labId: $lab, limit: $n) {
            items {
              sessionId
            }
          }
          b: labBoard(labId: $lab, limit: $n) {
            items {
              sessionId
            }
          }
        }
      `,
      {
        token: member.token,
        variables: { lab: lab.id, n: 300 },
      },
    );
    expect(viaVariable.body.errors?.[0].message).toMatch(/costs 6000/);
    const viaFragments = await graphql(
      `query { ...A ...A } fragment A on Query { labBoard(labId: "${lab.id}", limit: 300) { items { sessionId } } }`,
      { token: member.token },
    );
    expect(viaFragments.body.errors?.[0].message).toMatch(/costs 6000/);
  });
});

describe('introspection', () => {
  const INTROSPECT = '{ __schema { queryType { name } } }';

  test('anonymous callers are refused (UNAUTHENTICATED); __typename is fine', async () => {
    const reply = await graphql(INTROSPECT);
    expect(reply.body.errors?.[0]).toMatchObject({ extensions: { code: 'UNAUTHENTICATED' } });
    expect(reply.body.data).toBeUndefined();
    expect((await graphql('{ __type(name: "Query") { name } }')).body.errors?.[0]).toMatchObject({
      extensions: { code: 'UNAUTHENTICATED' },
    });
    expect((await graphql('{ __typename }')).body).toEqual({ data: { __typename: 'Query' } });
  });

  test('any signed-in user may introspect (GraphQL IDEs need it)', async () => {
    expect((await graphql(INTROSPECT, { token: member.token })).body).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
  });

  test("graphql-js's standard getIntrospectionQuery() (GraphiQL, Apollo Sandbox, codegen), with every option, works for a signed-in user and builds the schema", async () => {
    const schema = buildAppSchema(makePubSub());
    const asked = async (options: IntrospectionOptions) => {
      const reply = await t.call('POST', '/graphql', {
        token: member.token,
        body: { query: getIntrospectionQuery(options), operationName: 'IntrospectionQuery' },
      });
      expect({ status: reply.status, errors: reply.body.errors }).toEqual({ status: 200, errors: undefined });
      return buildClientSchema(reply.body.data);
    };
    // The defaults leave out scalars' @specifiedBy: the same types, fields and arguments otherwise.
    expect(Object.keys((await asked({})).getTypeMap()).sort()).toEqual(Object.keys(schema.getTypeMap()).sort());
    const everything = await asked({
      descriptions: true,
      specifiedByUrl: true,
      directiveIsRepeatable: true,
      schemaDescription: true,
      inputValueDeprecation: true,
      oneOf: true,
    });
    expect(printSchema(everything)).toBe(printSchema(schema));
  });

  test('anonymously, the standard introspection query is still refused (UNAUTHENTICATED)', async () => {
    const reply = await t.call('POST', '/graphql', { body: { query: getIntrospectionQuery(), operationName: 'IntrospectionQuery' } });
    expect(reply.status).toBe(401);
    expect(reply.body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'UNAUTHENTICATED' }) })]);
    expect(reply.body.data).toBeUndefined();
  });

  test('only the introspection subtrees are exempt from the depth limit: the rest of the document is measured, and their fields count', async () => {
    const deep = `me ${'{ a '.repeat(12)}{ b }${' }'.repeat(12)}`;
    const mixed = await graphql(`{ __schema { types { name } } ${deep} }`, { token: member.token });
    expect(mixed.status).toBe(400);
    expect(mixed.body.errors.map((e: { message: string }) => e.message)).toContainEqual(expect.stringMatching(/deeper than 12/));
    // The same through a fragment spread inside and outside introspection.
    const viaFragment = await graphql(
      `query { __type(name: "Query") { ...T } ...Deep } fragment T on __Type { name } fragment Deep on Query { ${deep} }`,
      { token: member.token },
    );
    expect(viaFragment.body.errors.map((e: { message: string }) => e.message)).toContainEqual(expect.stringMatching(/deeper than 12/));
    // Deep inside introspection is fine; 1,001 fields inside it are not.
    const ofTypes = `{ __type(name: "Query") { fields { type ${'{ ofType '.repeat(20)}{ name }${' }'.repeat(20)} } } }`;
    expect((await graphql(ofTypes, { token: member.token })).body.errors).toBeUndefined();
    const wide = `{ __schema { types { ${Array.from({ length: 1001 }, (_, i) => `n${i}: name`).join(' ')} } } }`;
    const tooWide = await graphql(wide, { token: member.token });
    expect(tooWide.status).toBe(400);
    expect(tooWide.body.errors[0].message).toMatch(/more than 1000 fields/);
  });
});

describe('admin fields: 403 before any validation', () => {
  test('a non-admin selecting an admin field gets FORBIDDEN, with a literal input missing its required members or with variables', async () => {
    const literal = await graphql('mutation { adminUserCreate(input: {}) { id } }', { token: member.token });
    expect(literal.status).toBe(403);
    expect(literal.body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'FORBIDDEN' }) })]);
    expect(JSON.stringify(literal.body)).not.toMatch(/email/);

    const variables = await graphql('mutation ($input: UserCreateInput!) { adminUserCreate(input: $input) { id } }', {
      token: member.token,
      variables: { input: {} },
    });
    expect(variables.body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'FORBIDDEN' }) })]);
    const catalog = await graphql('mutation { modelCatalogReplace(input: {}) { version } }', { token: member.token });
    expect(catalog.body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'FORBIDDEN' }) })]);
    // Anonymous: 401 as before; the admin: the usual validation error.
    expect((await graphql('mutation { adminUserCreate(input: {}) { id } }')).body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect((await graphql('mutation { adminUserCreate(input: {}) { id } }', { token: t.adminToken })).body.errors[0].extensions.code).toBe(
      'GRAPHQL_VALIDATION_FAILED',
    );
  });

  test('REST: POST /api/admin/users {} and PUT /api/admin/models {} from a non-admin → 403 {detail}, not 422', async () => {
    for (const [method, path] of [
      ['POST', '/api/admin/users'],
      ['PUT', '/api/admin/models'],
      ['PATCH', `/api/admin/users/${member.id}`],
      ['POST', `/api/admin/users/${member.id}/credits`],
    ]) {
      const reply = await t.call(method, path, { token: member.token, body: {} });
      expect({ method, path, status: reply.status, body: reply.body }).toEqual({
        method,
        path,
        status: 403,
        body: { detail: expect.any(String) },
      });
    }
    expect((await t.call('POST', '/api/admin/users', { token: member.token, rawBody: '{not json' })).status).toBe(403);
  });
});

describe('admin-only fields are marked once and agree with the route table', () => {
  test('every admin* root field, and the root field of every admin route, declares ADMIN access; nothing else does', () => {
    const schema = buildAppSchema(makePubSub(undefined));
    const roots = [schema.getQueryType()!, schema.getMutationType()!].flatMap((type) => Object.values(type.getFields()));
    const marked = roots
      .filter((field) => rulesOf(field).access === 'admin')
      .map((field) => field.name)
      .sort();
    const adminRouteFields = ROUTES.filter((route) => route.auth === 'admin' && route.kind === 'operation').map(
      (route) => (route as { result: string }).result,
    );
    for (const name of [...roots.map((f) => f.name).filter((n) => n.startsWith('admin')), ...adminRouteFields])
      expect(marked).toContain(name);
    expect(marked).toEqual([
      'adminAuditEvents',
      'adminCreditGrant',
      'adminLab',
      'adminLabUpdate',
      'adminLabs',
      'adminSegmentation',
      'adminStats',
      'adminStorageSummary',
      'adminTokenCreate',
      'adminTokenRevoke',
      'adminTrajectories',
      'adminUser',
      'adminUserCreate',
      'adminUserTokens',
      'adminUserUpdate',
      'adminUsers',
      'modelCatalogReplace',
      'passwordLink',
      'releaseFiles',
    ]);
  });
});
