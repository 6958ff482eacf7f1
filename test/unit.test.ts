import 'reflect-metadata';
import { buildSchema, parse } from 'graphql';
import { retryAfterMs } from '../src/llm/retry';
import type { AppError } from '../src/errors';
import { protoJson } from '../src/modules/a2a/a2a-proto-json';
import { Rules } from '../src/modules/a2a/a2a-rules';
import type { A2aMessage, A2aPart } from '../src/modules/a2a/a2a.types';
import { rawArrayElements, replaceStringValues } from '../facade/raw-json';
import { nestedDeeperThan } from '../src/modules/trajectories/records';
import { loadConfig } from '../src/config';
import { sandboxEnvironment } from '../src/modules/compute/local-provider';
import type { Viewer } from '../src/modules/auth/viewer';
import type { Lab } from '../src/modules/labs/lab.entity';
import { can, canSeeLab, LabAction, OwnMembership } from '../src/modules/labs/lab.policy';
import { normalizeCode } from '../src/modules/labs/lab.service';
import { normalizeInstitutionName, resolveInstitution } from '../src/modules/users/institutions';
import { effectiveTier } from '../src/modules/users/plans';
import { tablesOf } from './support/sql-tables';

describe('configuration', () => {
  test("defaults follow README's configuration table", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8080,
      blobStore: 'file',
      publicUrl: 'http://127.0.0.1:8080',
      databaseUrl: undefined,
      databasePoolSize: 20,
    });
    expect(config.dataDir.endsWith('/data')).toBe(true);
  });

  test('every problem is reported at once', () => {
    expect(() =>
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        BLOB_STORE: 'ftp',
        LLM_PROVIDER: 'x',
        BOOTSTRAP_ADMIN_TOKEN: 'short',
        DATABASE_POOL_SIZE: '1',
      }),
    ).toThrow(/PORT[\s\S]*DATABASE_URL[\s\S]*DATABASE_POOL_SIZE[\s\S]*BOOTSTRAP_ADMIN_TOKEN[\s\S]*BLOB_STORE[\s\S]*LLM_PROVIDER/);
  });

  test('LLM_*: a wrong provider lists the valid ones; a provider needs a model; the base URL is http(s); retries 0-10; defaults 60 s and 2 retries', () => {
    expect(() => loadConfig({ LLM_PROVIDER: 'gemini', LLM_MODEL: 'm' })).toThrow(
      'LLM_PROVIDER must be one of openai, anthropic (got "gemini")',
    );
    expect(() => loadConfig({ LLM_PROVIDER: 'openai' })).toThrow(/LLM_MODEL is required when LLM_PROVIDER is set/);
    expect(() => loadConfig({ LLM_PROVIDER: 'openai', LLM_MODEL: 'm', LLM_BASE_URL: '127.0.0.1:11434/v1' })).toThrow(
      /LLM_BASE_URL must be an http\(s\) URL/,
    );
    expect(() => loadConfig({ LLM_PROVIDER: 'openai', LLM_MODEL: 'm', LLM_MAX_RETRIES: '11' })).toThrow(
      /LLM_MAX_RETRIES must be an integer 0-10/,
    );
    expect(() => loadConfig({ LLM_PROVIDER: 'openai', LLM_MODEL: 'm', LLM_TIMEOUT_SECONDS: '0' })).toThrow(
      /LLM_TIMEOUT_SECONDS must be a positive integer/,
    );
    expect(loadConfig({ LLM_PROVIDER: 'openai', LLM_MODEL: 'llama3.1', LLM_BASE_URL: 'http://127.0.0.1:11434/v1' }).llm).toEqual({
      provider: 'openai',
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKey: undefined,
      model: 'llama3.1',
      timeoutSeconds: 60,
      maxRetries: 2,
    });
    expect(loadConfig({ LLM_MODEL: 'ignored without a provider' }).llm).toBeUndefined();
  });

  test('Retry-After is read as seconds or an HTTP date', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs('Wed, 25 Nov 2026 18:00:10 GMT', Date.parse('Wed, 25 Nov 2026 18:00:00 GMT'))).toBe(10_000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });

  test('FIGURE_CDN_HOSTS takes host names, or *. for subdomains; TRUST_PROXY is true or false (default false)', () => {
    expect(loadConfig({ FIGURE_CDN_HOSTS: ' CDN.example.org ,*.media.example.net' }).figureCdnHosts).toEqual([
      'cdn.example.org',
      '*.media.example.net',
    ]);
    expect(loadConfig({}).figureCdnHosts).toEqual([]);
    expect(() => loadConfig({ FIGURE_CDN_HOSTS: 'https://cdn.example.org/' })).toThrow(/FIGURE_CDN_HOSTS/);
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(() => loadConfig({ TRUST_PROXY: 'yes' })).toThrow(/TRUST_PROXY must be one of false, true/);
  });

  test('s3 needs its bucket and keys', () => {
    expect(() => loadConfig({ BLOB_STORE: 's3' })).toThrow(/S3_BUCKET[\s\S]*S3_ACCESS_KEY_ID[\s\S]*S3_SECRET_ACCESS_KEY/);
  });
});

describe('compute settings', () => {
  test('requests may choose among the enabled providers only: manual by default, local when the operator says so', () => {
    expect(loadConfig({}).compute).toMatchObject({ provider: 'manual', providers: ['manual'], maxOpenLeases: 3 });
    expect(loadConfig({ COMPUTE_PROVIDERS: 'manual, local', COMPUTE_MAX_OPEN_LEASES: '10' }).compute).toMatchObject({
      provider: 'manual',
      providers: ['manual', 'local'],
      maxOpenLeases: 10,
    });
    expect(loadConfig({ COMPUTE_PROVIDERS: 'local', COMPUTE_PROVIDER: 'local' }).compute).toMatchObject({
      provider: 'local',
      providers: ['local'],
    });
    // Only local enabled: approved plans use it without saying so twice.
    expect(loadConfig({ COMPUTE_PROVIDERS: 'local' }).compute).toMatchObject({ provider: 'local', providers: ['local'] });
    // COMPUTE_PROVIDER=local alone (as before COMPUTE_PROVIDERS existed) enables local next to manual.
    expect(loadConfig({ COMPUTE_PROVIDER: 'local' }).compute).toMatchObject({ provider: 'local', providers: ['manual', 'local'] });
  });

  test('the provider of approved plans must be enabled; unknown providers and a cap below 1 are refused', () => {
    expect(() => loadConfig({ COMPUTE_PROVIDERS: 'manual', COMPUTE_PROVIDER: 'local' })).toThrow(
      /COMPUTE_PROVIDER \(local\) must be one of COMPUTE_PROVIDERS \(manual\)/,
    );
    expect(() => loadConfig({ COMPUTE_PROVIDERS: 'manual,cloud' })).toThrow(
      /COMPUTE_PROVIDERS must list providers among manual, local \(got "cloud"\)/,
    );
    expect(() => loadConfig({ COMPUTE_PROVIDERS: ',' })).toThrow(/COMPUTE_PROVIDERS must list providers among manual, local/);
    expect(() => loadConfig({ COMPUTE_MAX_OPEN_LEASES: '0' })).toThrow(/COMPUTE_MAX_OPEN_LEASES must be a positive integer/);
  });
});

describe('sandbox environment', () => {
  test("built from an allowlist and the claim token: none of the server's settings or secrets", () => {
    const server = {
      PATH: '/usr/bin:/bin',
      HOME: '/home/labdesk',
      LANG: 'C.UTF-8',
      TZ: 'UTC',
      DATABASE_URL: 'postgres://labdesk:pw@db/labdesk',
      RELEASE_TOKEN: 'rel_secret',
      BOOTSTRAP_ADMIN_TOKEN: 'ldk_pat_secret',
      LLM_API_KEY: 'sk-secret',
      S3_SECRET_ACCESS_KEY: 's3-secret',
      NODE_OPTIONS: '--inspect=0.0.0.0:9229',
      LABDESK_CLAIM_TOKEN: 'ldk_ct_not_this_one',
      UNDEFINED: undefined,
    };
    expect(sandboxEnvironment(server, 'ldk_ct_abc')).toEqual({
      PATH: '/usr/bin:/bin',
      HOME: '/home/labdesk',
      LANG: 'C.UTF-8',
      TZ: 'UTC',
      LABDESK_CLAIM_TOKEN: 'ldk_ct_abc',
    });
    expect(sandboxEnvironment({}, 'ldk_ct_abc')).toEqual({ LABDESK_CLAIM_TOKEN: 'ldk_ct_abc' });
  });
});

describe('lab policy', () => {
  const owner = { user: { id: 'usr_owner', isAdmin: false } } as Viewer;
  const other = { user: { id: 'usr_other', isAdmin: false } } as Viewer;
  const admin = { user: { id: 'usr_admin', isAdmin: true } } as Viewer;
  const lab = { owner: { id: 'usr_owner' } } as Lab;
  const row = (role: string, status: string) => ({ role, status }) as OwnMembership;

  const actors: [string, Viewer, OwnMembership][] = [
    ['outsider', other, null],
    ['pending', other, row('member', 'pending')],
    ['left', other, row('member', 'left')],
    ['member', other, row('member', 'active')],
    ['mentor', other, row('mentor', 'active')],
    ['owner', owner, row('owner', 'active')],
    ['admin', admin, null],
  ];
  const expected: Record<LabAction, string[]> = {
    view: ['member', 'mentor', 'owner', 'admin'],
    viewMembers: ['mentor', 'owner', 'admin'],
    viewUsage: ['owner'],
    viewCode: ['owner'],
    rotateCode: ['owner'],
    manageMembers: ['owner'],
  };
  for (const [action, allowed] of Object.entries(expected) as [LabAction, string[]][]) {
    test.each(actors)(`${action}: %s`, (name, viewer, membership) => {
      expect(can(viewer, action, lab, membership)).toBe(allowed.includes(name));
    });
  }

  test('only active members and admins see the lab at all', () => {
    expect(actors.filter(([, v, m]) => canSeeLab(v, m)).map(([name]) => name)).toEqual(['member', 'mentor', 'owner', 'admin']);
  });
});

describe('small rules', () => {
  test('invitation codes are read leniently', () => {
    expect(normalizeCode(' ab1o-il2z 9xyz ')).toBe('AB10112Z9XYZ');
  });

  test('effective tier: the higher of the unexpired plan and lab membership', () => {
    const past = new Date(Date.now() - 1000);
    expect(effectiveTier({ planCode: 'pro' }, false)).toBe('pro');
    expect(effectiveTier({ planCode: 'pro' }, true)).toBe('lab');
    expect(effectiveTier({ planCode: 'enterprise' }, true)).toBe('enterprise');
    expect(effectiveTier({ planCode: 'enterprise', planExpiresAt: past }, false)).toBe('free');
    expect(effectiveTier({ planCode: 'enterprise', planExpiresAt: past }, true)).toBe('lab');
  });

  test('institutions resolve by name, alias, or email domain and its parents', () => {
    expect(resolveInstitution('MIT', 'x@gmail.com')?.name).toBe('Massachusetts Institute of Technology');
    expect(resolveInstitution(null, 'x@bio.mit.edu')?.name).toBe('Massachusetts Institute of Technology');
    expect(resolveInstitution('Unknown College', 'x@gmail.com')).toBeNull();
  });

  test.each([
    ['Univ. of Oxford', 'University of Oxford'],
    ['THE UNIVERSITY OF OXFORD', 'University of Oxford'],
    ['university  oxford!', 'University of Oxford'],
    ['Universität Zürich', 'University of Zurich'],
    ['Univ of Zurich', 'University of Zurich'],
    ['Ecole Polytechnique Federale de Lausanne', 'École Polytechnique Fédérale de Lausanne'],
    ['Cold Spring Harbor Lab', 'Cold Spring Harbor Laboratory'],
    ['jane@dfci.harvard.edu', 'Dana-Farber Cancer Institute'],
    ['https://www.stanford.edu/', 'Stanford University'],
    ['mit.edu', 'Massachusetts Institute of Technology'],
  ])('institution names are normalised: %s → %s', (written, name) => {
    expect(resolveInstitution(written, 'x@gmail.com')?.name).toBe(name);
  });

  test('normalisation keeps word order and distinct institutions apart', () => {
    expect(normalizeInstitutionName('Univ. of Zürich')).toBe('university zurich');
    expect(resolveInstitution('University of Washington', 'x@gmail.com')?.name).toBe('University of Washington');
    expect(resolveInstitution('Washington University in St. Louis', 'x@gmail.com')?.name).toBe('Washington University in St. Louis');
    expect(resolveInstitution('Oxford Brookes University', 'x@gmail.com')).toBeNull();
  });
});

describe('raw record extraction', () => {
  test.each([
    ['plain', '{"records":[{"a":1},{"b":2}]}', ['{"a":1}', '{"b":2}']],
    ['spacing kept', '{ "records" : [ {"a" : 1} ,\n {"b":[1, 2]} ] }', ['{"a" : 1}', '{"b":[1, 2]}']],
    [
      'escaped quotes and backslashes',
      String.raw`{"records":[{"s":"a\"b\\"},{"t":"\\\"}"}]}`,
      [String.raw`{"s":"a\"b\\"}`, String.raw`{"t":"\\\"}"}`],
    ],
    ['brackets inside strings', '{"records":[{"s":"]},{["}]}', ['{"s":"]},{["}']],
    ['last duplicate key wins', '{"records":[1],"x":"y","records":[{"z":true}]}', ['{"z":true}']],
    ['absent', '{"other":[1]}', null],
    ['not an array', '{"records":{"a":1}}', null],
  ])('%s', (_name, text, expected) => {
    expect(rawArrayElements(text, 'records')).toEqual(expected);
    for (const element of expected ?? []) expect(() => JSON.parse(element)).not.toThrow();
  });
});

describe('rewriting string values of a record (figure paths to serve URLs)', () => {
  const urls = new Map([
    ['fig/a.png', 'https://x/a'],
    ['q"uote', 'https://x/q'],
  ]);
  const rewrite = (text: string) => replaceStringValues(text, (value) => urls.get(value));
  test.each([
    ['a value', '{"path":"fig/a.png"}', '{"path":"https://x/a"}'],
    [
      'values in arrays and nested objects, spacing kept',
      '{ "a" : [ "fig/a.png" , {"b" :"fig/a.png"} ] }',
      '{ "a" : [ "https://x/a" , {"b" :"https://x/a"} ] }',
    ],
    ['a key equal to a path stays', '{"fig/a.png":"fig/a.png"}', '{"fig/a.png":"https://x/a"}'],
    // The former scanner looked for the ':' only within 63 characters after a string, so it took this key for a value.
    ['a key with 70 spaces before its colon stays', `{"fig/a.png"${' '.repeat(70)}:1}`, `{"fig/a.png"${' '.repeat(70)}:1}`],
    [
      'a key after a comma, with line breaks before its colon, stays',
      `{"x":1,
"fig/a.png"

${' '.repeat(100)}:"fig/a.png"}`,
      `{"x":1,
"fig/a.png"

${' '.repeat(100)}:"https://x/a"}`,
    ],
    ['an escaped value is compared unescaped', String.raw`{"p":"fig\/a.png","q":"q\"uote"}`, '{"p":"https://x/a","q":"https://x/q"}'],
    [
      'numbers beyond double precision and other values stay as written',
      '{"n":12345678901234567890,"t":true,"z":null,"e":1E+2,"p":"fig/a.png"}',
      '{"n":12345678901234567890,"t":true,"z":null,"e":1E+2,"p":"https://x/a"}',
    ],
    ['nothing to rewrite: the same text', '{"a":"b","c":[]}', '{"a":"b","c":[]}'],
    ['empty containers', '{"a":{},"b":[],"c":"fig/a.png"}', '{"a":{},"b":[],"c":"https://x/a"}'],
  ])('%s', (_name, text, expected) => {
    expect(rewrite(text)).toBe(expected);
    expect(() => JSON.parse(rewrite(text))).not.toThrow();
  });
});

describe('record nesting limit', () => {
  const nest = (levels: number, inner = '1') => `${'['.repeat(levels)}${inner}${']'.repeat(levels)}`;
  test('counts arrays and objects, not brackets inside strings or after escapes; stops at the limit', () => {
    expect(nestedDeeperThan(nest(100), 100)).toBe(false);
    expect(nestedDeeperThan(nest(101), 100)).toBe(true);
    expect(nestedDeeperThan(`{"a":${nest(99)}}`, 100)).toBe(false);
    expect(nestedDeeperThan(`{"a":${nest(100)}}`, 100)).toBe(true);
    const brackets = `"${'['.repeat(500)}\\"${'{'.repeat(500)}\\\\"`;
    expect(nestedDeeperThan(`{"s":${brackets},"t":${nest(10)}}`, 100)).toBe(false);
    expect(nestedDeeperThan(nest(100_000), 100)).toBe(true);
  });
});

describe('A2A ProtoJSON projection', () => {
  test('members that are null or unset are left out; metadata and data values are written as they are', () => {
    const task = {
      id: 'turn_1',
      contextId: 'ctx_1',
      status: { state: 'TASK_STATE_COMPLETED', message: null, timestamp: '2026-11-27T00:00:00.000Z' },
      artifacts: [{ artifactId: 'a', name: null, parts: [{ text: 'x', raw: null, data: null, metadata: { kept: null } }] }],
      history: undefined,
    };
    expect(protoJson({ task })).toEqual({
      task: {
        id: 'turn_1',
        contextId: 'ctx_1',
        status: { state: 'TASK_STATE_COMPLETED', timestamp: '2026-11-27T00:00:00.000Z' },
        artifacts: [{ artifactId: 'a', parts: [{ text: 'x', metadata: { kept: null } }] }],
      },
    });
    expect(protoJson({ data: { a: null, b: [null, { c: null }] } })).toEqual({ data: { a: null, b: [null, { c: null }] } });
    expect(protoJson([])).toEqual([]);
  });
});

describe('A2A request rules', () => {
  const message = (parts: A2aPart[], extra: Partial<A2aMessage> = {}): A2aMessage => ({
    messageId: 'm',
    role: 'ROLE_USER',
    parts,
    ...extra,
  });
  const issuesOf = (check: (rules: Rules) => void) => {
    const rules = new Rules();
    check(rules);
    try {
      rules.check();
      return [];
    } catch (error) {
      return (error as AppError).issues!.map((issue) => issue.path.join('.'));
    }
  };

  test('every broken rule of a message is reported at its path, at once', () => {
    const broken = message([{ text: 'a', data: {} }, { raw: 'not base64!' }, { url: 'https://example.org/f' }, {}], {
      role: 'ROLE_AGENT',
      messageId: '',
      contextId: 'x'.repeat(201),
    });
    expect(issuesOf((rules) => rules.message(broken, ['message']))).toEqual([
      'message.messageId',
      'message.role',
      'message.contextId',
      'message.parts.0',
      'message.parts.1.raw',
      'message.parts.2.url',
      'message.parts.3',
    ]);
    expect(issuesOf((rules) => rules.message(message([{ text: 'hi' }, { raw: 'aGk=' }, { data: 0 }]), ['message']))).toEqual([]);
    expect(issuesOf((rules) => rules.message(message([]), ['message']))).toEqual(['message.parts']);
  });

  test('a push config: id, header-safe token and credentials, an HTTP auth scheme', () => {
    const config = {
      url: 'https://example.org/hook',
      id: 'has space',
      token: 'a\r\nb',
      authentication: { scheme: 'Bearer x', credentials: 'ok' },
    };
    expect(issuesOf((rules) => rules.pushConfig(config, ['push']))).toEqual(['push.id', 'push.token', 'push.authentication.scheme']);
    expect(
      issuesOf((rules) => rules.pushConfig({ url: 'https://example.org/hook', token: 't', authentication: { scheme: 'Basic' } }, [])),
    ).toEqual([]);
  });

  test('ranges and timestamps', () => {
    expect(
      issuesOf((rules) => {
        rules.historyLength(-1, ['historyLength']);
        rules.historyLength(2_147_483_647, ['ok']);
        rules.range(101, ['pageSize'], [1, 100]);
        rules.timestamp('2026-13-45T00:00:00Z', ['after']);
        rules.timestamp('2026-11-27T10:00:00+01:00', ['fine']);
      }),
    ).toEqual(['historyLength', 'pageSize', 'after']);
  });
});

describe('facade tables codegen plugin', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the plugin is the CommonJS script codegen loads
  const { plugin } = require('../facade/codegen/tables.js') as {
    plugin: (schema: unknown, documents: { document: unknown; location: string }[]) => string;
  };
  // The root fields' declared access, as schema/schema.graphql prints it.
  const schema = buildSchema(`
    directive @access(level: String!) on FIELD_DEFINITION
    type Query { labBoard(labId: ID!, limit: Int): Board @access(level: "user") lab(id: ID!): Board @access(level: "admin") }
    type Mutation { a2aMessageSend(input: String): Board @access(level: "a2a") }
    type Board { total: Int name: String task: Board id: ID }`);
  const tables = (source: string) => plugin(schema, [{ document: parse(source), location: 'x.graphql' }]);

  test('a route row per @rest, a method per @jsonrpc, variables placed by their names', () => {
    const text = tables(`
      query LabBoard($labId: ID!, $limit: Int) @rest(method: "GET", path: "/api/labs/{lab_id}/board", tag: "labs", summary: "Board", errors: ["NOT_FOUND", "CONFLICT:AppendConflict"]) { labBoard(labId: $labId, limit: $limit) { total } }
      mutation SendMessage($input: A2aMessageSendInput!) @jsonrpc(method: "SendMessage") { a2aMessageSend(input: $input) { task { id } } }`);
    expect(text).toContain("variables: { labId: path('lab_id'), limit: query('limit') }");
    expect(text).toContain("result: 'labBoard'");
    expect(text).toContain("auth: 'user'");
    expect(text).toContain('errors: { NOT_FOUND: null, CONFLICT: NAMED_SCHEMAS.AppendConflict }');
    expect(text).toContain("{ name: 'SendMessage', document: Op.SendMessageDocument }");
  });

  test('a path parameter without its variable is refused, naming the operation', () => {
    expect(() =>
      tables(
        `query Lab($id: ID!) @rest(method: "GET", path: "/api/labs/{lab_id}", tag: "labs", summary: "A lab") { lab(id: $id) { name } }`,
      ),
    ).toThrow('x.graphql: Lab: no variable for path parameter lab_id');
  });

  test('an operation only an A2A caller may run cannot be a REST route', () => {
    expect(() =>
      tables(
        `mutation Send($input: String) @rest(method: "POST", path: "/api/send", tag: "a2a", summary: "Send") { a2aMessageSend(input: $input) { id } }`,
      ),
    ).toThrow('x.graphql: Send: access a2a cannot be served as a REST route');
  });
});

describe('tables of an SQL statement (statement-count tests)', () => {
  const known = new Set(['a2a_tasks', 'a2a_messages', 'users', 'pgboss.job']);
  test('the tables after FROM, JOIN, INTO and UPDATE, quoted or qualified, once each and sorted', () => {
    expect(tablesOf('select "u0".* from "users" as "u0" where "u0"."id" = $1', known)).toEqual(['users']);
    expect(
      tablesOf('insert into public.a2a_messages (task_id) select id from a2a_tasks t join users u on u.id = t.owner_id', known),
    ).toEqual(['a2a_messages', 'a2a_tasks', 'users']);
    expect(tablesOf('UPDATE pgboss . job SET state = $1 where id in (select job_id from a2a_tasks)', known)).toEqual([
      'a2a_tasks',
      'pgboss.job',
    ]);
  });
  test("not CTE names, aliases, functions or EXTRACT's from", () => {
    const statement = `with open as (select id from a2a_tasks), moved as (update a2a_tasks set state = 'x' from open where id = open.id returning *)
      select extract(epoch from j.expire_in), x from moved join unnest($1::text[]) as u(x) on true join pgboss.job j on j.id = moved.id`;
    expect(tablesOf(statement, known)).toEqual(['a2a_tasks', 'pgboss.job']);
    expect(tablesOf('begin', known)).toEqual([]);
  });
});
