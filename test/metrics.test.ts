import WebSocket from 'ws';
import { makeLab, makeUser, TestApp, TestUser, useTestApp } from './support/app';
import { createA2aKey, enableA2a, rpc, rpcCall, userMessage } from './support/a2a';
import { useFakeLlm } from './support/fake-llm';

/**
 * `GET /metrics` (docs/operations.md, "Metrics"): Prometheus text for administrators only; every
 * family named in the docs; counters that move by exactly what was sent; label values that are
 * templates and names from the code, never ids or what a client sent.
 */
const { env } = useFakeLlm(() => ({ kind: 'answer', text: 'Measured.', tokensIn: 11, tokensOut: 7 }), {
  LLM_PROVIDER: 'openai',
  LLM_MODEL: 'gpt-5',
  LLM_API_KEY: 'sk-test',
  LLM_MAX_RETRIES: '0',
});
const t: TestApp = useTestApp(env);

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text answer (the format's escapes are not needed: our values have none). */
function samples(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line)!;
      const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/([a-zA-Z_]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
      return { name: match[1], labels, value: Number(match[3]) };
    });
}

async function scrape(token = t.adminToken): Promise<Sample[]> {
  const response = await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return samples(await response.text());
}

/** The value of one sample (0 when absent: a counter not yet incremented has no sample). */
const valueOf = (all: Sample[], name: string, labels: Record<string, string>) =>
  all.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value ?? 0;

let member: TestUser;
let key: string;
let labId: string;

beforeAll(async () => {
  member = await makeUser(t);
  labId = (await makeLab(t, { owner: member })).id;
  await enableA2a(t);
  key = (await createA2aKey(t, 'metrics')).plaintext;
});

test("an administrator scrapes; no token is 401, a member's token 403", async () => {
  expect((await fetch(`${t.url}/metrics`)).status).toBe(401);
  const forbidden = await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${member.token}` } });
  expect(forbidden.status).toBe(403);
  expect(await forbidden.json()).toEqual({ detail: 'metrics are for administrators' });
  const text = await (await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${t.adminToken}` } })).text();
  for (const family of [
    'labdesk_http_requests_total',
    'labdesk_http_request_duration_seconds',
    'labdesk_db_pool_connections',
    'labdesk_jobs',
    'labdesk_a2a_tasks',
    'labdesk_model_calls_total',
    'labdesk_model_tokens_total',
    'labdesk_model_call_duration_seconds',
    'labdesk_sandbox_runs_total',
    'labdesk_push_delivery_attempts_total',
    'labdesk_graphql_errors_total',
    'labdesk_process_cpu_seconds_total',
    'labdesk_process_resident_memory_bytes',
    'labdesk_nodejs_eventloop_lag_seconds',
  ])
    expect([family, text.includes(`# TYPE ${family} `)]).toEqual([family, true]);
});

test('a mixed load moves each request counter by exactly the number sent, labelled by route template, operation and status', async () => {
  const before = await scrape();
  const sent = { me: 7, lab: 5, graphql: 4, rpc: 3, missing: 2, model: 2 };
  const calls: Promise<unknown>[] = [];
  for (let i = 0; i < sent.me; i++) calls.push(t.call('GET', '/api/me', { token: member.token }));
  for (let i = 0; i < sent.lab; i++) calls.push(t.call('GET', `/api/labs/${labId}`, { token: member.token }));
  for (let i = 0; i < sent.graphql; i++) calls.push(t.call('POST', '/graphql', { token: member.token, body: { query: '{ me { id } }' } }));
  for (let i = 0; i < sent.rpc; i++) calls.push(rpc(t, key, rpcCall(i, 'GetTask', { id: `turn_unknown${i}` })));
  for (let i = 0; i < sent.missing; i++) calls.push(t.call('GET', `/api/no/such/${i}`, { token: member.token }));
  await Promise.all(calls);
  for (let i = 0; i < sent.model; i++)
    expect((await rpc(t, key, rpcCall(i, 'SendMessage', { message: userMessage('measure') }))).body.result.task.status.state).toBe(
      'TASK_STATE_COMPLETED',
    );
  const after = await scrape();

  const moved = (labels: Record<string, string>) =>
    valueOf(after, 'labdesk_http_requests_total', labels) - valueOf(before, 'labdesk_http_requests_total', labels);
  expect(moved({ method: 'GET', route: '/api/me', status: '200' })).toBe(sent.me);
  expect(moved({ method: 'GET', route: '/api/labs/:lab_id', status: '200' })).toBe(sent.lab);
  expect(moved({ method: 'POST', route: '/graphql', operation: 'query:me', status: '200' })).toBe(sent.graphql);
  expect(moved({ method: 'POST', route: '/a2a/v1', operation: 'GetTask', status: '200' })).toBe(sent.rpc);
  expect(moved({ method: 'POST', route: '/a2a/v1', operation: 'SendMessage', status: '200' })).toBe(sent.model);
  expect(moved({ method: 'GET', route: 'unmatched', status: '404' })).toBe(sent.missing);
  const histogramCount = (s: Sample[]) =>
    valueOf(s, 'labdesk_http_request_duration_seconds_count', { method: 'GET', route: '/api/me', status: '200' });
  expect(histogramCount(after) - histogramCount(before)).toBe(sent.me);

  const model = (s: Sample[], name: string, labels: Record<string, string>) => valueOf(s, name, labels);
  expect(
    model(after, 'labdesk_model_calls_total', { feature: 'a2a', outcome: 'ok' }) -
      model(before, 'labdesk_model_calls_total', { feature: 'a2a', outcome: 'ok' }),
  ).toBe(sent.model);
  expect(
    model(after, 'labdesk_model_tokens_total', { feature: 'a2a', direction: 'input' }) -
      model(before, 'labdesk_model_tokens_total', { feature: 'a2a', direction: 'input' }),
  ).toBe(11 * sent.model);
  expect(
    model(after, 'labdesk_model_tokens_total', { feature: 'a2a', direction: 'output' }) -
      model(before, 'labdesk_model_tokens_total', { feature: 'a2a', direction: 'output' }),
  ).toBe(7 * sent.model);
  expect(valueOf(after, 'labdesk_a2a_tasks', { state: 'TASK_STATE_COMPLETED' })).toBe(sent.model);
  expect(
    valueOf(after, 'labdesk_db_pool_connections', { state: 'idle' }) + valueOf(after, 'labdesk_db_pool_connections', { state: 'in_use' }),
  ).toBeGreaterThan(0);
});

test('label sets: route templates and names from the code, never an id or what the client sent', async () => {
  await t.call('POST', '/graphql', { token: member.token, body: { query: '{ aFieldNobodyHas }' } });
  await t.call('POST', '/graphql', { token: member.token, body: { query: 'query Chosen_By_The_Client { me { id } }' } });
  await rpc(t, key, rpcCall(1, 'NoSuchMethodAnywhere', {}));
  const all = await scrape();
  const labelSets = all.filter((s) => s.name === 'labdesk_http_requests_total').map((s) => s.labels);
  const values = labelSets.flatMap((labels) => Object.values(labels));
  for (const secretish of [
    labId,
    member.id,
    key,
    'aFieldNobodyHas',
    'Chosen_By_The_Client',
    'NoSuchMethodAnywhere',
    'turn_unknown',
    '/api/no/such',
  ]) {
    expect([secretish, values.some((value) => value.includes(secretish))]).toEqual([secretish, false]);
  }
  for (const labels of labelSets) {
    expect(Object.keys(labels).sort()).toEqual(['method', 'operation', 'route', 'status']);
    expect(labels.route).toMatch(/^(unmatched|console|\/[a-z0-9_/:.-]*)$/i);
    expect(labels.operation).toMatch(/^(|other|(query|mutation|subscription):[A-Za-z0-9_]+|[A-Z][A-Za-z]+)$/);
    expect(labels.status).toMatch(/^[1-5]\d\d$/);
  }
  expect(labelSets).toContainEqual(expect.objectContaining({ route: '/graphql', operation: 'other' }));
  // Printed for the closing note and the docs: the label sets a scrape had.
  console.log(
    labelSets
      .map((labels) => JSON.stringify(labels))
      .sort()
      .join('\n'),
  );
});

describe('the web console and GraphQL errors', () => {
  const PASSWORD = 'a long enough metrics password';
  const moved = (before: Sample[], after: Sample[], name: string, labels: Record<string, string>) =>
    valueOf(after, name, labels) - valueOf(before, name, labels);

  test('every console page is route "console", its files "/console/assets", never a path or file name', async () => {
    const reader = await makeUser(t, { name: 'Metrics Reader', password: PASSWORD });
    const login = await t.call('POST', '/api/auth/login', { body: { email: reader.email, password: PASSWORD } });
    const cookie = /^(labdesk_session=[^;]*)/.exec(login.headers.get('set-cookie') ?? '')![1];
    const before = await scrape();
    const pages = ['/', '/labs', `/labs/${labId}`, '/account'];
    let script = '';
    for (const route of pages) {
      const page = await fetch(`${t.url}${route}`, { headers: { cookie }, redirect: 'manual' });
      expect({ route, status: page.status }).toEqual({ route, status: 200 });
      script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(await page.text())![1];
    }
    // A page nothing answers: the console's own "Not found", with a 404.
    expect((await fetch(`${t.url}/no-such-page-${labId}`, { headers: { cookie, accept: 'text/html' } })).status).toBe(404);
    expect((await fetch(`${t.url}/labs`, { method: 'POST' })).status).toBe(405);
    // Read whole: a request is counted when its answer has been sent, not at its headers.
    for (let i = 0; i < 2; i++) {
      const asset = await fetch(`${t.url}${script}`);
      expect(asset.status).toBe(200);
      await asset.arrayBuffer();
    }
    expect((await fetch(`${t.url}/console/assets/nope-${labId}.js`)).status).toBe(404);
    const after = await scrape();

    const requests = (labels: Record<string, string>) => moved(before, after, 'labdesk_http_requests_total', labels);
    expect(requests({ method: 'GET', route: 'console', operation: '', status: '200' })).toBe(pages.length);
    expect(requests({ method: 'GET', route: 'console', operation: '', status: '404' })).toBe(1);
    expect(requests({ method: 'POST', route: 'console', operation: '', status: '405' })).toBe(1);
    expect(requests({ method: 'GET', route: '/console/assets', operation: '', status: '200' })).toBe(2);
    expect(requests({ method: 'GET', route: '/console/assets', operation: '', status: '404' })).toBe(1);
    expect(requests({ method: 'GET', route: 'unmatched', operation: '', status: '200' })).toBe(0);
    const routes = after.filter((s) => s.name === 'labdesk_http_requests_total').map((s) => s.labels.route);
    expect(routes.filter((route) => route.includes(',') || route.includes(labId) || route.includes('.js'))).toEqual([]);
  });

  const errors = 'labdesk_graphql_errors_total';
  const gql = (query: string, variables?: Record<string, unknown>) =>
    t.call('POST', '/graphql', { token: member.token, body: { query, variables } });

  test('GraphQL errors over HTTP are counted by operation type and code, whatever the HTTP status', async () => {
    const before = await scrape();
    // A resolver's refusal (200), the screen's refusal of an admin field (403), an invalid input (200), invalid documents (400).
    const seatQuota = await gql('mutation { labCreate(input: { name: "Mine", seatQuota: 50 }) { id } }');
    const adminOnly = await gql('{ adminUsers { totalCount } }');
    const emptyName = await gql('mutation { labCreate(input: { name: "" }) { id } }');
    const unknownField = await gql('{ aFieldNobodyHas }');
    const unparsable = await gql('{ me { ');
    const codes = [seatQuota, adminOnly, emptyName, unknownField, unparsable].map((r) => [r.status, r.body.errors[0].extensions.code]);
    expect(codes).toEqual([
      [200, 'FORBIDDEN'],
      [403, 'FORBIDDEN'],
      [200, 'VALIDATION_FAILED'],
      [400, 'GRAPHQL_VALIDATION_FAILED'],
      [400, 'GRAPHQL_PARSE_FAILED'],
    ]);
    await gql('{ me { id } }'); // no error: not counted
    const after = await scrape();

    expect(moved(before, after, errors, { operation_type: 'mutation', code: 'FORBIDDEN' })).toBe(1);
    expect(moved(before, after, errors, { operation_type: 'query', code: 'FORBIDDEN' })).toBe(1);
    expect(moved(before, after, errors, { operation_type: 'mutation', code: 'VALIDATION_FAILED' })).toBe(1);
    expect(moved(before, after, errors, { operation_type: 'query', code: 'GRAPHQL_VALIDATION_FAILED' })).toBe(1);
    expect(moved(before, after, errors, { operation_type: 'unknown', code: 'GRAPHQL_PARSE_FAILED' })).toBe(1);
    const total = (s: Sample[]) => s.filter((x) => x.name === errors).reduce((sum, x) => sum + x.value, 0);
    expect(total(after) - total(before)).toBe(5);
  });

  /** Subscribes once over graphql-ws as `member`, and answers the messages up to the operation's end. */
  function overWebSocket(query: string): Promise<{ type: string; payload?: any }[]> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`${t.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
      const received: { type: string; payload?: any }[] = [];
      socket.on('open', () =>
        socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${member.token}` } })),
      );
      socket.on('message', (data) => {
        const message = JSON.parse((data as Buffer).toString('utf8'));
        if (message.type === 'connection_ack') return socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query } }));
        received.push(message);
        if (message.type === 'error' || message.type === 'complete') {
          socket.close();
          resolve(received);
        }
      });
      socket.on('error', reject);
    });
  }

  test('GraphQL errors over the WebSocket are counted alike', async () => {
    const before = await scrape();
    const emptyName = await overWebSocket('mutation { labCreate(input: { name: "" }) { id } }');
    const adminOnly = await overWebSocket('query { adminUsers { totalCount } }');
    const unknownField = await overWebSocket('subscription { aFieldNobodyHas }');
    const unparsable = await overWebSocket('subscription {');
    expect(emptyName[0]).toMatchObject({ type: 'next', payload: { errors: [{ extensions: { code: 'VALIDATION_FAILED' } }] } });
    expect(adminOnly[0]).toMatchObject({ type: 'error', payload: [{ extensions: { code: 'FORBIDDEN' } }] });
    expect(unknownField[0]).toMatchObject({ type: 'error', payload: [{ message: expect.stringMatching(/aFieldNobodyHas/) }] });
    expect(unparsable[0]).toMatchObject({ type: 'error', payload: [{ message: expect.stringMatching(/^Syntax Error/) }] });
    const after = await scrape();

    expect(moved(before, after, errors, { operation_type: 'mutation', code: 'VALIDATION_FAILED' })).toBe(1);
    expect(moved(before, after, errors, { operation_type: 'query', code: 'FORBIDDEN' })).toBe(1);
    expect(moved(before, after, errors, { operation_type: 'subscription', code: 'GRAPHQL_VALIDATION_FAILED' })).toBe(1);
    expect(moved(before, after, errors, { operation_type: 'unknown', code: 'GRAPHQL_PARSE_FAILED' })).toBe(1);
    const total = (s: Sample[]) => s.filter((x) => x.name === errors).reduce((sum, x) => sum + x.value, 0);
    expect(total(after) - total(before)).toBe(4);
  });
});
