import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { A2A_RPC_PATH, AGENT_CARD_PATH } from '../facade/a2a';
import { ARTIFACTS_PATH } from '../src/modules/a2a/a2a-artifacts';
import { ROUTES } from '../facade/routes';
import { RPC_METHODS } from '../facade/rpc';
import { operationOf } from '../facade/route';
import { print } from 'graphql';
import { makePubSub } from '../src/pubsub';
import { buildAppSchema, printAppSchema, SCHEMA_FILE } from '../src/schema';
import { useTestApp } from './support/app';

/** The documented endpoint list (the spec's table), kept in the repository so a clone tests alone. */
const ENDPOINTS_FILE = path.resolve(__dirname, '..', 'docs', 'endpoints.tsv');

/** Documented endpoints that later issues build; every other one must have exactly one route. */
const NOT_YET_BUILT: RegExp[] = [];

/** The A2A server's own paths: not REST routes but facade/a2a.ts (the card, JSON-RPC through facade/rpc.ts, artifact downloads). */
const A2A_SERVER = new Set([`GET ${AGENT_CARD_PATH}`, `POST ${A2A_RPC_PATH}`, `GET ${ARTIFACTS_PATH}/{task_id}/{index}`]);

const documented = fs
  .readFileSync(ENDPOINTS_FILE, 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => {
    const [method, route] = line.split('\t');
    return { method, route };
  });

describe('route table', () => {
  test.each(documented.filter((e) => !NOT_YET_BUILT.some((p) => p.test(e.route)) && !A2A_SERVER.has(`${e.method} ${e.route}`)))(
    '$method $route has exactly one route',
    ({ method, route }) => {
      expect(ROUTES.filter((r) => r.method === method && r.path === route)).toHaveLength(1);
    },
  );

  test('every A2A 1.0 method has a row: the operation whose @jsonrpc names it, or the one capability not declared', () => {
    const A2A_METHODS = [
      'SendMessage',
      'SendStreamingMessage',
      'GetTask',
      'ListTasks',
      'CancelTask',
      'SubscribeToTask',
      'CreateTaskPushNotificationConfig',
      'GetTaskPushNotificationConfig',
      'ListTaskPushNotificationConfigs',
      'DeleteTaskPushNotificationConfig',
      'GetExtendedAgentCard',
    ];
    expect(RPC_METHODS.map((method) => method.name).sort()).toEqual([...A2A_METHODS].sort());
    for (const method of RPC_METHODS) {
      if (method.name === 'GetExtendedAgentCard') expect(method).toEqual({ name: method.name, refuse: expect.any(Object) });
      else {
        const served = operationOf(method.document!).directives?.find((directive) => directive.name.value === 'jsonrpc');
        expect(served && print(served)).toBe(`@jsonrpc(method: "${method.name}")`);
      }
    }
  });

  test('the documented A2A server paths are the ones facade/a2a.ts serves, and no REST route takes them', () => {
    const documentedA2a = documented.filter((e) => /^\/(\.well-known|a2a)\//.test(e.route) && !NOT_YET_BUILT.some((p) => p.test(e.route)));
    expect(new Set(documentedA2a.map((e) => `${e.method} ${e.route}`))).toEqual(A2A_SERVER);
    expect(ROUTES.filter((r) => A2A_SERVER.has(`${r.method} ${r.path}`))).toEqual([]);
  });

  test('no two routes share a method and path', () => {
    const keys = ROUTES.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  test('every route declares auth and a summary', () => {
    for (const route of ROUTES) {
      expect(['none', 'user', 'admin', 'release']).toContain(route.auth);
      expect(route.summary.length).toBeGreaterThan(0);
    }
  });

  test('/api/labs/preview is matched before /api/labs/{lab_id}', () => {
    const keys = ROUTES.map((r) => `${r.method} ${r.path}`);
    expect(keys.indexOf('GET /api/labs/preview')).toBeLessThan(keys.indexOf('GET /api/labs/{lab_id}'));
  });
});

describe('generated artifacts are up to date', () => {
  test('schema/schema.graphql matches the code-first schema (run npm run schema:emit)', () => {
    expect(fs.readFileSync(SCHEMA_FILE, 'utf8')).toBe(printAppSchema(buildAppSchema(makePubSub())));
  });

  test("facade/generated/ and the console's gql/ match the documents and the schema (run npm run codegen)", () => {
    // Codegen is ESM-heavy and cannot load inside jest's VM: run the real CLI into a temp directory.
    const root = path.resolve(__dirname, '..');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-codegen-'));
    const config = fs
      .readFileSync(path.join(root, 'codegen.yml'), 'utf8')
      .replaceAll('facade/generated/', `${dir}/`)
      .replaceAll('web/console/src/gql/', `${dir}/console-gql/`);
    fs.writeFileSync(path.join(dir, 'codegen.yml'), config);
    execFileSync(
      process.execPath,
      [path.join(root, 'node_modules/@graphql-codegen/cli/cjs/bin.js'), '--config', path.join(dir, 'codegen.yml'), '--silent'],
      { cwd: root },
    );
    for (const file of ['operations.ts', 'tables.ts'])
      expect({ file, text: fs.readFileSync(path.join(root, 'facade/generated', file), 'utf8') }).toEqual({
        file,
        text: fs.readFileSync(path.join(dir, file), 'utf8'),
      });
    for (const file of ['gql.ts', 'graphql.ts', 'index.ts'])
      expect({ file, text: fs.readFileSync(path.join(root, 'web/console/src/gql', file), 'utf8') }).toEqual({
        file,
        text: fs.readFileSync(path.join(dir, 'console-gql', file), 'utf8'),
      });
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('served documents', () => {
  const t = useTestApp();

  test('GET /openapi.json is OpenAPI 3.1.0, version 0.1.0, with every route', async () => {
    const { status, body } = await t.call('GET', '/openapi.json');
    expect(status).toBe(200);
    expect(body.openapi).toBe('3.1.0');
    expect(body.info.version).toBe('0.1.0');
    for (const route of ROUTES) expect(body.paths[route.path]?.[route.method.toLowerCase()]).toBeDefined();
    const createLab = body.paths['/api/labs'].post;
    expect(createLab.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/LabCreateInput');
    expect(body.components.schemas.LabCreateInput.properties).toHaveProperty('seat_quota');
    expect(createLab.responses['200'].content['application/json'].schema.properties).toHaveProperty('invitation_code');
  });

  test('health and readiness', async () => {
    expect(await t.call('GET', '/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await t.call('GET', '/readyz')).toMatchObject({ status: 200, body: { status: 'ready' } });
  });

  test('every response carries a request id, and a sane given one is echoed', async () => {
    const given = await t.call('GET', '/healthz', { headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers.get('x-request-id')).toBe('abc-123');
    const made = await t.call('GET', '/healthz', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('/graphql serves the same domain with the same error codes', async () => {
    const reply = await t.call('POST', '/graphql', { body: { query: '{ me { id } }' } });
    expect(reply.status).toBe(200);
    expect(reply.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const me = await t.call('POST', '/graphql', { token: t.adminToken, body: { query: '{ me { email isAdmin } }' } });
    expect(me.body.data.me).toEqual({ email: 'admin@localhost', isAdmin: true });
  });
});

describe('GraphQL operation limits', () => {
  const t = useTestApp();

  test('a query with more than 1000 fields is refused before it runs', async () => {
    const aliases = Array.from({ length: 1001 }, (_, i) => `a${i}: me { id }`).join(' ');
    const reply = await t.call('POST', '/graphql', { token: t.adminToken, body: { query: `{ ${aliases} }` } });
    expect(reply.status).toBe(400);
    expect(reply.body.errors[0].message).toMatch(/more than 1000 fields/);
  });

  test('a query nested deeper than 12 levels is refused', async () => {
    // The domain's types do not nest that deep: the depth is measured before fields are checked.
    const nested = `{ me ${'{ a '.repeat(12)}{ b }${' }'.repeat(12)} }`;
    const reply = await t.call('POST', '/graphql', { token: t.adminToken, body: { query: nested } });
    expect(reply.status).toBe(400);
    expect(reply.body.errors.map((e: { message: string }) => e.message)).toContainEqual(expect.stringMatching(/deeper than 12/));
  });
});
