import type { Span } from '@opentelemetry/api';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isHttpUrl, redactUrl } from './config';
import type { Logger } from './logger';

/**
 * Traces (docs/operations.md, "Traces"): OpenTelemetry, off unless an OTLP endpoint is set.
 * When off, nothing of the SDK, the exporter or the instrumentations is loaded (they are
 * required inside `startTracing`, not imported), so traces cost nothing then.
 */

/** The standard variables that name where traces go; either turns them on. */
export const TRACE_ENDPOINT_SETTINGS = ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_EXPORTER_OTLP_ENDPOINT'] as const;

/** Requests that come every few seconds from every balancer and scraper: no trace of their own. */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Query parameters whose values a server span's `url.query` never shows: single sign-on's
 * callback (`code`, `state`), the device login page's code, anything named like a token, and
 * the signatures the instrumentation hides by default.
 */
const REDACTED_QUERY_PARAMETERS = [
  'code',
  'state',
  'token',
  'access_token',
  'sig',
  'Signature',
  'AWSAccessKeyId',
  'X-Goog-Signature',
  'X-Amz-Signature',
  'X-Amz-Credential',
  'X-Amz-Security-Token',
];

/** The samplers `OTEL_TRACES_SAMPLER` may name (the specification's, less the Jaeger remote sampler). */
const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

/** How long `stopTracing` waits for the last spans to be sent: a shutdown must not hang on a collector that is down. */
const FLUSH_TIMEOUT_MS = 5_000;

export interface TracingPlan {
  /** Where traces go, as the variable gave it (the exporter reads the variables itself). */
  endpoint: string;
  /** Standard settings given that this build does not follow, said once in the start log. */
  warnings: string[];
}

/**
 * Whether the environment asks for traces: an OTLP endpoint set (`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`,
 * else `OTEL_EXPORTER_OTLP_ENDPOINT`), unless `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none`.
 * Undefined also for an endpoint that is not an http(s) URL: `loadConfig` then refuses the start
 * and names it, as for any setting.
 */
export function tracingPlan(env: NodeJS.ProcessEnv): TracingPlan | undefined {
  const endpoint = TRACE_ENDPOINT_SETTINGS.map((name) => env[name]?.trim()).find(Boolean);
  if (!endpoint || !isHttpUrl(endpoint)) return undefined;
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  if (exporters.includes('none')) return undefined;
  const warnings: string[] = [];
  const other = exporters.filter((name) => name !== 'otlp');
  if (other.length) warnings.push(`OTEL_TRACES_EXPORTER=${other.join(',')} is not supported: traces go to the OTLP endpoint only`);
  for (const name of ['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', 'OTEL_EXPORTER_OTLP_PROTOCOL']) {
    const protocol = env[name]?.trim();
    if (protocol && protocol !== 'http/json')
      warnings.push(`${name}=${protocol} is not supported: traces are sent as OTLP over HTTP with JSON (http/json)`);
  }
  return { endpoint, warnings };
}

let provider: { shutdown(): Promise<void> } | undefined;

/**
 * Starts tracing: registers the tracer provider (W3C trace context), its batching OTLP exporter
 * and the instrumentations of `http`, `express`, `graphql`, `pg` and `undici`. Those patch their
 * modules as they are required, so this runs before any of them is (src/cli/tracing.ts). The
 * SDK's own complaints (an export that failed) become log lines through `logger`.
 * Every other `OTEL_*` setting is the SDK's own: batching (`OTEL_BSP_*`), sampling
 * (`OTEL_TRACES_SAMPLER`, `_ARG`), headers, time-out and compression of the export, resource
 * attributes (`OTEL_SERVICE_NAME`, default `labdesk`; `OTEL_RESOURCE_ATTRIBUTES`).
 */
/** Whether traces are on (`startTracing` ran): code that makes spans of its own skips them otherwise. */
export const tracingOn = () => provider !== undefined;

export function startTracing(plan: TracingPlan, logger: Logger): void {
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only when traces are on */
  const api = require('@opentelemetry/api') as typeof import('@opentelemetry/api');
  const sdk = require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const resources = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const { registerInstrumentations } = require('@opentelemetry/instrumentation') as typeof import('@opentelemetry/instrumentation');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const express = require('@opentelemetry/instrumentation-express') as typeof import('@opentelemetry/instrumentation-express');
  const { GraphQLInstrumentation } =
    require('@opentelemetry/instrumentation-graphql') as typeof import('@opentelemetry/instrumentation-graphql');
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  const { UndiciInstrumentation } =
    require('@opentelemetry/instrumentation-undici') as typeof import('@opentelemetry/instrumentation-undici');
  /* eslint-enable @typescript-eslint/no-require-imports */

  const say =
    (write: Logger['warn']) =>
    (message: string, ...args: unknown[]) =>
      write(`OpenTelemetry: ${message}`, args.length ? { details: args.map(String) } : undefined);
  api.diag.setLogger(
    { error: say(logger.error), warn: say(logger.warn), info: say(logger.debug), debug: say(logger.debug), verbose: say(logger.debug) },
    api.DiagLogLevel.WARN,
  );
  for (const warning of plan.warnings) logger.warn(warning);

  // The name is ours unless OTEL_SERVICE_NAME (or OTEL_RESOURCE_ATTRIBUTES) says otherwise.
  const resource = resources
    .defaultResource()
    .merge(resources.resourceFromAttributes({ 'service.name': 'labdesk' }))
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const tracerProvider = new sdk.NodeTracerProvider({
    resource,
    sampler: requestsAndJobs(api, sdk, configuredSampler(sdk, process.env)),
    spanProcessors: [new sdk.BatchSpanProcessor(new OTLPTraceExporter())],
  });
  tracerProvider.register();
  registerInstrumentations({
    tracerProvider,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => UNTRACED_PATHS.has((request.url ?? '').split('?', 1)[0]),
        // Outgoing calls are traced within a request or a job, not on their own (push deliveries' timers, S3 sweeps).
        requireParentforOutgoingSpans: true,
        redactedQueryParamsServer: REDACTED_QUERY_PARAMETERS,
        headersToSpanAttributes: { server: { responseHeaders: ['x-request-id'] } },
        applyCustomAttributesOnSpan: (span, _request, response) => tagRequestId(span, response),
      }),
      // Only the route handlers: the app's middleware (request log, host check, rate limits, body parsers) would be a dozen spans a request.
      new express.ExpressInstrumentation({ ignoreLayersType: [express.ExpressLayerType.MIDDLEWARE, express.ExpressLayerType.ROUTER] }),
      // Resolver spans would outnumber everything else; the operation's span holds its statements and calls.
      new GraphQLInstrumentation({ ignoreResolveSpans: true }),
      // The job queue polls, heartbeats and sweeps every few seconds: statements outside a request or a job are not traced.
      new PgInstrumentation({ requireParentSpan: true }),
      new UndiciInstrumentation({ requireParentforSpans: true }),
    ],
  });
  provider = tracerProvider;
  logger.info('traces on', { endpoint: redactUrl(plan.endpoint) });
}

type Api = typeof import('@opentelemetry/api');
type Sdk = typeof import('@opentelemetry/sdk-trace-node');
type Sampler = import('@opentelemetry/sdk-trace-node').Sampler;

/**
 * A trace begins only at a request (a server span) or a job's attempt (a consumer span, src/jobs/queue.ts):
 * not at what runs on its own (the schema's checks at start, the job queue's polling, sweeps).
 * Spans with a parent, and those roots, are sampled by `sampler`.
 */
function requestsAndJobs(api: Api, sdk: Sdk, sampler: Sampler): Sampler {
  const starts = new Set([api.SpanKind.SERVER, api.SpanKind.CONSUMER]);
  return {
    shouldSample: (context, traceId, name, kind, attributes, links) =>
      api.trace.getSpanContext(context) || starts.has(kind)
        ? sampler.shouldSample(context, traceId, name, kind, attributes, links)
        : { decision: sdk.SamplingDecision.NOT_RECORD },
    toString: () => `RequestsAndJobs{${sampler.toString()}}`,
  };
}

/**
 * The sampler `OTEL_TRACES_SAMPLER` (and `OTEL_TRACES_SAMPLER_ARG`, a ratio 0-1, default 1) names,
 * as the SDK reads them (the SDK, reading them too, logs a value it does not know); by default,
 * and for such a value, every trace (`parentbased_always_on`).
 */
function configuredSampler(sdk: Sdk, env: NodeJS.ProcessEnv): Sampler {
  const given = Number(env.OTEL_TRACES_SAMPLER_ARG?.trim() || 1);
  const ratio = () => new sdk.TraceIdRatioBasedSampler(given >= 0 && given <= 1 ? given : 1);
  const parentBased = (root: Sampler) => new sdk.ParentBasedSampler({ root });
  const samplers: Record<(typeof SAMPLERS)[number], () => Sampler> = {
    always_on: () => new sdk.AlwaysOnSampler(),
    always_off: () => new sdk.AlwaysOffSampler(),
    traceidratio: ratio,
    parentbased_always_on: () => parentBased(new sdk.AlwaysOnSampler()),
    parentbased_always_off: () => parentBased(new sdk.AlwaysOffSampler()),
    parentbased_traceidratio: () => parentBased(ratio()),
  };
  const name = env.OTEL_TRACES_SAMPLER?.trim() as (typeof SAMPLERS)[number] | undefined;
  return (name && SAMPLERS.includes(name) ? samplers[name] : samplers.parentbased_always_on)();
}

/**
 * The request id (src/app.ts sets `X-Request-Id` on every answer before any route runs) on the
 * request's server span, read as the span ends: the root of the request's trace.
 */
function tagRequestId(span: Span, response: IncomingMessage | ServerResponse): void {
  const requestId = 'getHeader' in response ? response.getHeader('x-request-id') : undefined;
  if (typeof requestId === 'string') span.setAttribute('labdesk.request_id', requestId);
}

/** Sends the spans still buffered and stops tracing (waiting FLUSH_TIMEOUT_MS at most); nothing when tracing is off. */
export async function stopTracing(): Promise<void> {
  const stopping = provider?.shutdown();
  provider = undefined;
  if (!stopping) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    stopping.catch(() => undefined),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, FLUSH_TIMEOUT_MS).unref())),
  ]);
  clearTimeout(timer);
}
