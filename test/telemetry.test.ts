import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ChildServer, startChildServer } from './support/child';
import { createTestDatabase } from './support/databases';
import { startFakeLlm } from './support/fake-llm';
import { tracingPlan } from '../src/telemetry';
import { callA2a, createA2aKey, enableA2a, userMessage, waitForState } from './support/a2a';

/**
 * Traces (docs/operations.md, "Traces"): `labdesk serve` with an OTLP endpoint sends one trace
 * per request, from its HTTP server span through the GraphQL operation to its SQL statements and
 * the model call; without one it loads nothing of OpenTelemetry's SDK. An OTLP/HTTP receiver
 * runs in this process; the service runs as a child, as an operator runs it.
 */

test('traces are on with an OTLP endpoint (the traces one first), unless the standard settings turn them off', () => {
  const endpoint = 'http://collector:4318';
  const plan = (env: Record<string, string>) => tracingPlan(env);
  expect(plan({})).toBeUndefined();
  expect(plan({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ' })).toBeUndefined();
  expect(plan({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint })).toEqual({ endpoint, warnings: [] });
  expect(plan({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${endpoint}/traces` })).toEqual({
    endpoint: `${endpoint}/traces`,
    warnings: [],
  });
  // Not a URL: off here, and loadConfig refuses the start naming the setting (test/config.test.ts).
  expect(plan({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toBeUndefined();
  expect(plan({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
  expect(plan({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_TRACES_EXPORTER: 'none' })).toBeUndefined();
  expect(plan({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toEqual({
    endpoint,
    warnings: [],
  });
  expect(
    plan({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_TRACES_EXPORTER: 'otlp,zipkin', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })?.warnings,
  ).toEqual([
    'OTEL_TRACES_EXPORTER=zipkin is not supported: traces go to the OTLP endpoint only',
    'OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported: traces are sent as OTLP over HTTP with JSON (http/json)',
  ]);
});

/** One span as OTLP/JSON carries it (ids in hex, attributes as typed values). */
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  attributes?: { key: string; value: Record<string, unknown> }[];
  /** The resource of the batch it came in (the service's name). */
  resource?: { attributes?: { key: string; value: Record<string, unknown> }[] };
}
/** OTLP's span kinds. */
const SERVER = 2;
const CLIENT = 3;

/** An OTLP/HTTP receiver on loopback: every span POSTed to /v1/traces, and the requests it took. */
async function startReceiver() {
  const spans: OtlpSpan[] = [];
  const requests: { path: string; contentType?: string }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', contentType: req.headers['content-type'] });
      if (req.method !== 'POST' || req.url !== '/v1/traces') return void res.writeHead(404).end();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      for (const resource of body.resourceSpans ?? [])
        for (const scope of resource.scopeSpans ?? [])
          for (const span of scope.spans ?? []) spans.push({ ...span, resource: resource.resource });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A span attribute's value, whatever its type. */
function attribute(span: OtlpSpan, key: string): unknown {
  const value = span.attributes?.find((a) => a.key === key)?.value;
  if (!value) return undefined;
  if ('intValue' in value) return Number(value.intValue);
  if ('arrayValue' in value) return ((value.arrayValue as { values?: Record<string, unknown>[] }).values ?? []).map((v) => v.stringValue);
  return Object.values(value)[0];
}

/** The trace as an indented outline (name, kind, and the attributes that tell spans apart), for a failure's message. */
function outline(spans: OtlpSpan[], parent: string | undefined = undefined, depth = 0): string {
  return spans
    .filter((span) => (span.parentSpanId || undefined) === parent)
    .sort((a, b) => Number(BigInt(a.startTimeUnixNano) - BigInt(b.startTimeUnixNano)))
    .map((span) => {
      const facts = ['labdesk.request_id', 'http.route', 'db.query.text', 'db.statement', 'url.full', 'labdesk.job.queue']
        .map((key) => [key, attribute(span, key)])
        .filter(([, value]) => value !== undefined)
        .map(([key, value]) => `${String(key)}=${String(value).replace(/\s+/g, ' ').slice(0, 70)}`);
      return `${'  '.repeat(depth)}${span.name} [${span.kind}] ${facts.join(' ')}\n${outline(spans, span.spanId, depth + 1)}`;
    })
    .join('');
}

/** Whether `span` lies beneath `ancestor` in `spans`. */
function beneath(spans: OtlpSpan[], span: OtlpSpan, ancestor: OtlpSpan): boolean {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  for (let at = byId.get(span.parentSpanId ?? ''); at; at = byId.get(at.parentSpanId ?? '')) if (at === ancestor) return true;
  return false;
}

/**
 * A preloaded script (NODE_OPTIONS=--require) that writes, as the process exits, the files of
 * every OpenTelemetry package module it loaded.
 */
function moduleReport(dir: string) {
  const file = path.join(dir, 'otel-modules.json');
  const script = path.join(dir, 'report-modules.js');
  fs.writeFileSync(
    script,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(file)}, JSON.stringify(Object.keys(require.cache).filter((f) => f.includes('/node_modules/@opentelemetry/')))));\n`,
  );
  return { env: { NODE_OPTIONS: `--require ${script}` }, loaded: () => JSON.parse(fs.readFileSync(file, 'utf8')) as string[] };
}

/** The OpenTelemetry packages among loaded module files (`@opentelemetry/api`, `@opentelemetry/sdk-trace-node`, …). */
const packagesOf = (files: string[]) =>
  [...new Set(files.map((file) => /\/node_modules\/(@opentelemetry\/[^/]+)\//.exec(file)![1]))].sort();

/** SIGTERM, as an orchestrator stops it: the service drains, sends its last spans and exits. */
async function stop(server: ChildServer): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => server.process.once('exit', (code) => resolve(code)));
  server.process.kill('SIGTERM');
  return exited;
}

let fake: Awaited<ReturnType<typeof startFakeLlm>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  fake = await startFakeLlm(() => ({ kind: 'answer', text: 'Traced answer.', tokensIn: 2, tokensOut: 3 }));
  receiver = await startReceiver();
});
afterAll(async () => {
  await fake?.close();
  await receiver?.close();
});

/** A child `labdesk serve` on a fresh database with A2A enabled and one key, reporting the OpenTelemetry modules it loaded. */
async function serve(env: Record<string, string>) {
  const database = await createTestDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-telemetry-'));
  await enableA2a({ databaseUrl: database.url });
  const key = (await createA2aKey({ databaseUrl: database.url }, 'traced')).plaintext;
  const report = moduleReport(dataDir);
  const server = await startChildServer({
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    LLM_PROVIDER: 'openai',
    LLM_MODEL: 'gpt-5',
    LLM_API_KEY: 'sk-test',
    LLM_BASE_URL: fake.baseUrl,
    LLM_MAX_RETRIES: '0',
    ...report.env,
    ...env,
  });
  return { server, key, report, database };
}

/** One blocking SendMessage: the turn runs within the request, and the answer is the completed task. */
async function oneTurn(server: ChildServer, key: string) {
  const sent = await callA2a(server, key, 'SendMessage', { message: userMessage('What does the trace show?') });
  expect(sent.body).toMatchObject({ result: { task: { status: { state: 'TASK_STATE_COMPLETED' } } } });
  return sent;
}

test('with an OTLP endpoint, one A2A turn is one trace: the request span, the operation, its statements and the model call', async () => {
  const { server, key, report, database } = await serve({
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_BSP_SCHEDULE_DELAY: '100',
    OTEL_SERVICE_NAME: 'labdesk-under-test',
  });
  let exitCode: number | null;
  let requestId: string;
  try {
    const sent = await oneTurn(server, key);
    requestId = sent.headers.get('x-request-id')!;
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    // A code in a query (the device login page's, single sign-on's callback) is never shown in a span.
    expect((await server.call('GET', '/device?code=WXYZ-2345')).status).toBe(200);
  } finally {
    // Stopped before reading: the spans still buffered are sent as it shuts down.
    exitCode = await stop(server);
    await database.drop();
  }
  expect(exitCode).toBe(0);
  expect(receiver.requests.every((r) => r.path === '/v1/traces' && r.contentType === 'application/json')).toBe(true);

  const roots = receiver.spans.filter((span) => attribute(span, 'labdesk.request_id') === requestId);
  expect(roots.map((span) => [span.name, span.kind, span.parentSpanId || undefined])).toEqual([['POST /a2a/v1', SERVER, undefined]]);
  const [root] = roots;
  expect(attribute(root, 'http.response.header.x-request-id')).toEqual([requestId]);
  expect(attribute(root, 'http.route')).toBe('/a2a/v1');
  const trace = receiver.spans.filter((span) => span.traceId === root.traceId);
  const tree = outline(trace);
  // One tree: every span of the trace hangs from the request's span.
  expect({ orphans: trace.filter((span) => span !== root && !beneath(trace, span, root)).map((span) => span.name), tree }).toEqual({
    orphans: [],
    tree,
  });
  const operations = trace.filter((span) => span.name === 'mutation SendMessage');
  expect({ operations: operations.length, tree }).toEqual({ operations: 1, tree });
  const [operation] = operations;
  expect(beneath(trace, operation, root)).toBe(true);
  expect(attribute(operation, 'graphql.operation.name')).toBe('SendMessage');

  const statements = trace.filter(
    (span) => attribute(span, 'db.system.name') === 'postgresql' || attribute(span, 'db.system') === 'postgresql',
  );
  const [job] = trace.filter((span) => span.name === 'job a2a-turn');
  expect({ job: job !== undefined && beneath(trace, job, operation), tree }).toEqual({ job: true, tree });
  // The operation's statements (the task stored, the turn claimed) and the turn's own (the answer stored): the turn ran within it.
  const ofOperation = statements.filter((span) => beneath(trace, span, operation) && !beneath(trace, span, job));
  const ofTurn = statements.filter((span) => beneath(trace, span, job));
  expect({ ofOperation: ofOperation.length > 0, ofTurn: ofTurn.length > 0, tree }).toEqual({ ofOperation: true, ofTurn: true, tree });

  const modelPort = Number(new URL(fake.baseUrl).port);
  const modelCalls = trace.filter((span) => span.kind === CLIENT && attribute(span, 'server.port') === modelPort);
  expect({ modelCalls: modelCalls.map((span) => [span.name, attribute(span, 'url.full')]), tree }).toEqual({
    modelCalls: [['POST', `${fake.baseUrl}/chat/completions`]],
    tree,
  });
  expect(beneath(trace, modelCalls[0], job)).toBe(true);

  const [device] = receiver.spans.filter((span) => attribute(span, 'url.path') === '/device');
  expect(attribute(device, 'url.query')).toBe('code=REDACTED');

  // The service's name is OTEL_SERVICE_NAME's; the SDK was loaded for it.
  expect(root.resource?.attributes).toEqual(
    expect.arrayContaining([{ key: 'service.name', value: { stringValue: 'labdesk-under-test' } }]),
  );
  expect(packagesOf(report.loaded())).toEqual(
    expect.arrayContaining(['@opentelemetry/sdk-trace-node', '@opentelemetry/instrumentation-pg']),
  );
}, 90_000);

test('a turn queued by a non-blocking SendMessage runs as a job whose span joins the trace of the request that queued it', async () => {
  const { server, key, database } = await serve({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '100' });
  let requestId: string;
  try {
    const sent = await callA2a(server, key, 'SendMessage', {
      message: userMessage('Answer when you can.'),
      configuration: { returnImmediately: true },
    });
    expect(sent.body).toMatchObject({ result: { task: { id: expect.any(String) } } });
    requestId = sent.headers.get('x-request-id')!;
    await waitForState(server, key, sent.body.result.task.id, ['TASK_STATE_COMPLETED']);
  } finally {
    expect(await stop(server)).toBe(0);
    await database.drop();
  }
  const [root] = receiver.spans.filter((span) => attribute(span, 'labdesk.request_id') === requestId);
  const trace = receiver.spans.filter((span) => span.traceId === root.traceId);
  const tree = outline(trace);
  const jobs = trace.filter((span) => span.name === 'job a2a-turn');
  const modelCalls = trace.filter((span) => span.kind === CLIENT && String(attribute(span, 'url.full')).startsWith(fake.baseUrl));
  expect({ jobs: jobs.length, modelCalls: modelCalls.length, tree }).toEqual({ jobs: 1, modelCalls: 1, tree });
  // The request answered before the job ran: the job's span is the request's operation's child all the same.
  const [operation] = trace.filter((span) => span.name === 'mutation SendMessage');
  expect([beneath(trace, jobs[0], operation), beneath(trace, modelCalls[0], jobs[0])]).toEqual([true, true]);
  expect(attribute(jobs[0], 'labdesk.job.attempt')).toBe(1);
}, 90_000);

test('without an endpoint, nothing of the SDK or the instrumentations is loaded, and nothing is sent', async () => {
  const before = receiver.requests.length;
  const { server, key, report, database } = await serve({});
  try {
    await oneTurn(server, key);
  } finally {
    expect(await stop(server)).toBe(0);
    await database.drop();
  }
  // The API alone is loaded (the model SDK, `ai`, imports it); without a registered SDK it records nothing.
  expect(packagesOf(report.loaded())).toEqual(['@opentelemetry/api']);
  expect(receiver.requests.length).toBe(before);
}, 90_000);
