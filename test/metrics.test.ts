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
    expect(labels.route).toMatch(/^(unmatched|\/[a-z0-9_/:.-]*)$/i);
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
