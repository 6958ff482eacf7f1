import type { ApolloServerPlugin } from '@apollo/server';
import { ApolloServerErrorCode } from '@apollo/server/errors';
import type { Request, Response } from 'express';
import { DocumentNode, getOperationAST, GraphQLFormattedError } from 'graphql';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { ERROR_CODES } from './errors';

/**
 * Prometheus metrics (`GET /metrics`, docs/operations.md "Metrics"). Events counted as they
 * happen (requests, model calls, sandbox runs, push deliveries) live in one registry per process,
 * as a process serves one app; what is read at scrape time (the database pool, the job queue,
 * A2A tasks by state) is registered by each app on its own registry (`appMetrics`).
 *
 * Label values are bounded by construction: route templates, operation names the schema or the
 * JSON-RPC method table defines (`other` for anything else), status codes, feature and outcome
 * names from the code. Never an id, a path as sent, or user data.
 */
export const processRegistry = new Registry();
collectDefaultMetrics({ register: processRegistry, prefix: 'labdesk_' });

const requests = new Counter({
  name: 'labdesk_http_requests_total',
  help: 'HTTP requests answered, by method, route template, operation (GraphQL root field or JSON-RPC method) and status.',
  labelNames: ['method', 'route', 'operation', 'status'],
  registers: [processRegistry],
});
const requestSeconds = new Histogram({
  name: 'labdesk_http_request_duration_seconds',
  help: 'Time from a request arriving to its answer finishing, by method, route template, operation and status.',
  labelNames: ['method', 'route', 'operation', 'status'],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [processRegistry],
});
const modelCalls = new Counter({
  name: 'labdesk_model_calls_total',
  help: 'Language model calls, by feature and outcome (ok, error).',
  labelNames: ['feature', 'outcome'],
  registers: [processRegistry],
});
const modelTokens = new Counter({
  name: 'labdesk_model_tokens_total',
  help: 'Tokens of language model calls, by feature and direction (input, output).',
  labelNames: ['feature', 'direction'],
  registers: [processRegistry],
});
const modelSeconds = new Histogram({
  name: 'labdesk_model_call_duration_seconds',
  help: 'Language model call latency, by feature and outcome.',
  labelNames: ['feature', 'outcome'],
  buckets: [0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
  registers: [processRegistry],
});
const sandboxRuns = new Counter({
  name: 'labdesk_sandbox_runs_total',
  help: "Code runs in the agent's sandbox, by outcome (exited, failed, timed_out, killed, refused).",
  labelNames: ['outcome'],
  registers: [processRegistry],
});
const pushDeliveries = new Counter({
  name: 'labdesk_push_delivery_attempts_total',
  help: 'A2A push notification delivery attempts, by verdict (delivered, retry, failed).',
  labelNames: ['verdict'],
  registers: [processRegistry],
});

const graphqlErrors = new Counter({
  name: 'labdesk_graphql_errors_total',
  help: 'GraphQL errors answered (over HTTP and WebSocket), by operation type and extensions.code; the HTTP status of most is 200.',
  labelNames: ['operation_type', 'code'],
  registers: [processRegistry],
});

/**
 * The codes a GraphQL error is counted under: this service's error table and Apollo's own codes
 * (`GRAPHQL_PARSE_FAILED`, `GRAPHQL_VALIDATION_FAILED`, `BAD_USER_INPUT`, …). A code from
 * anywhere else (a library's, or none) is `OTHER`, so the label stays bounded.
 */
const GRAPHQL_ERROR_CODES = new Set<string>([...Object.keys(ERROR_CODES), ...Object.values(ApolloServerErrorCode)]);

/** `unknown`: the document did not parse, or names no single operation. */
export type OperationType = 'query' | 'mutation' | 'subscription' | 'unknown';

/** The type of the operation a document runs (its only one, or the one `operationName` names). */
export function operationTypeOf(document: DocumentNode | undefined, operationName: unknown): OperationType {
  if (!document) return 'unknown';
  return getOperationAST(document, typeof operationName === 'string' ? operationName : undefined)?.operation ?? 'unknown';
}

/**
 * Counts the errors of one GraphQL answer, as sent (formatted). `uncoded` is the code of an
 * error that carries none: graphql-ws sends graphql-js's parse and validation errors as they
 * are, where Apollo adds `GRAPHQL_PARSE_FAILED` / `GRAPHQL_VALIDATION_FAILED`.
 */
export function countGraphQLErrors(
  operationType: OperationType,
  errors: readonly GraphQLFormattedError[] | undefined,
  uncoded = 'OTHER',
): void {
  for (const error of errors ?? []) {
    const code = error.extensions?.code ?? uncoded;
    graphqlErrors.inc({ operation_type: operationType, code: typeof code === 'string' && GRAPHQL_ERROR_CODES.has(code) ? code : 'OTHER' });
  }
}

/** Counts the errors of every answer Apollo sends (`/graphql` over HTTP), once `formatError` has given them their codes. */
export const graphqlErrorMetrics: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async willSendResponse({ response, operation, document, request }) {
        // Incremental delivery (@defer/@stream) is not enabled: every answer is a single result.
        if (response.body.kind !== 'single') return;
        countGraphQLErrors(operation?.operation ?? operationTypeOf(document, request.operationName), response.body.singleResult.errors);
      },
    };
  },
};

/** The root field names (`query:me`, …) and JSON-RPC methods an operation label may take; `other` otherwise. */
const knownOperations = new Set<string>();
export const knowOperations = (names: Iterable<string>) => {
  for (const name of names) knownOperations.add(name);
};
const operationLabel = (name: string | undefined) => (name === undefined ? '' : knownOperations.has(name) ? name : 'other');

/** What a handler tells the request metrics about the request it answered (on `res.locals.metrics`). */
export interface RequestLabels {
  /** The route template, when the handler is not an Express route (GraphQL, the A2A endpoint). */
  route?: string;
  operation?: string;
}

/** The route template a request matched (`/api/labs/:lab_id`), as a handler told it, or `unmatched`: never the path as sent. */
export function routeOf(req: Request, res: Response): string {
  const told = res.locals.metrics as RequestLabels | undefined;
  return told?.route ?? (req.route ? `${req.baseUrl}${(req.route as { path: string }).path}` : 'unmatched');
}

/** Counts and times a request whose answer is done (finished, or its connection closed), `seconds` after it began. */
export function countRequest(req: Request, res: Response, seconds: number): void {
  const told = (res.locals.metrics ?? {}) as RequestLabels;
  const labels = {
    method: req.method,
    route: routeOf(req, res),
    operation: operationLabel(told.operation),
    status: String(res.statusCode),
  };
  requests.inc(labels);
  requestSeconds.observe(labels, seconds);
}

export function countModelCall(feature: string, outcome: 'ok' | 'error', seconds: number, tokensIn: number, tokensOut: number): void {
  modelCalls.inc({ feature, outcome });
  modelSeconds.observe({ feature, outcome }, seconds);
  if (tokensIn) modelTokens.inc({ feature, direction: 'input' }, tokensIn);
  if (tokensOut) modelTokens.inc({ feature, direction: 'output' }, tokensOut);
}

export type SandboxOutcome = 'exited' | 'failed' | 'timed_out' | 'killed' | 'refused';
export const countSandboxRun = (outcome: SandboxOutcome) => sandboxRuns.inc({ outcome });
export const countPushAttempt = (verdict: 'delivered' | 'retry' | 'failed') => pushDeliveries.inc({ verdict });

/** What an app reads at scrape time. */
export interface ScrapeSources {
  pool(): { used: number; free: number; waiting: number };
  /** Jobs by queue and pg-boss state. */
  jobs(): Promise<{ queue: string; state: string; count: number }[]>;
  /** A2A tasks by state, over every instance. */
  a2aTasks(): Promise<{ state: string; count: number }[]>;
}

/** One app's scrape-time gauges, and its `/metrics` text (with the process's). */
export function appMetrics(sources: ScrapeSources) {
  const registry = new Registry();
  new Gauge({
    name: 'labdesk_db_pool_connections',
    help: "This instance's PostgreSQL pool: connections in use, idle, and requests waiting for one.",
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const { used, free, waiting } = sources.pool();
      this.set({ state: 'in_use' }, used);
      this.set({ state: 'idle' }, free);
      this.set({ state: 'waiting' }, waiting);
    },
  });
  new Gauge({
    name: 'labdesk_jobs',
    help: 'Background jobs over every instance, by queue and state (queued, active, failed; failed: kept 14 days).',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of await sources.jobs()) this.inc({ queue: row.queue, state: row.state }, row.count);
    },
  });
  new Gauge({
    name: 'labdesk_a2a_tasks',
    help: 'A2A tasks over every instance, by state.',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of await sources.a2aTasks()) this.set({ state: row.state }, row.count);
    },
  });
  return {
    contentType: registry.contentType,
    text: () => Registry.merge([processRegistry, registry]).metrics(),
  };
}
