import type { Request, Response } from 'express';
import type { ExecutionResult } from 'graphql';
import type { Ctx } from '../src/context';
import { AppError, invalid, toAppError } from '../src/errors';
import type { Logger } from '../src/logger';
import type { Pipeline } from '../src/pipeline';
import * as Op from './generated/operations';
import { readVariables, VariablePlan } from './inputs';
import { body, EventStreamRoute, eventStream, path } from './route';
import { write } from './streams';

/** One server-sent event; JSON text holds no raw line break, so `data` is one line. */
const sse = (name: string, data: object) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * How one subscription's events are written as server-sent events: the REST event routes and
 * the A2A streams share the writer below and differ only here.
 */
export interface SseFormat {
  /** Headers of the 200 answer, sent with the first event. */
  headers: Record<string, string>;
  /** One event's SSE text from the operation's data; `last` ends the stream after it. */
  event(data: Record<string, unknown>): { text: string; last?: boolean };
  /** The SSE text of a failure after the first event (the stream then ends). */
  failure(error: AppError): string;
  /** While no event is due, an SSE comment line this often, so proxies keep an idle stream. */
  keepaliveMs?: number;
}

/** The REST routes' events: `event: <name>`, then `error` with `{detail}`. */
const restFormat = (route: EventStreamRoute): SseFormat => ({
  headers: { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' },
  event: (data) => {
    const { name, data: payload } = route.event((data as Record<string, never>)[route.result]);
    return { text: sse(name, payload) };
  },
  failure: (error) => sse('error', { detail: error.message }),
});

/**
 * Runs the route's subscription and writes its events as server-sent events. Input, credentials,
 * visibility, the subscription's own checks and a failure before the first event (a model that
 * answers 500 every time) all answer as JSON errors: the status is sent with the first event.
 * From then on, a failure is an `error` event. The caller leaving returns the subscription at
 * once, so its source stops the work it was waiting on.
 */
export async function serveEvents(
  req: Request,
  res: Response,
  ctx: Ctx,
  route: EventStreamRoute,
  plans: VariablePlan[],
  pipeline: Pipeline,
  logger: Logger,
): Promise<void> {
  const { variables, issues } = readVariables(req, plans);
  // Already at their wire locations, which sendError keeps.
  if (issues.length) throw invalid(issues.map(({ loc, msg, type }) => ({ path: loc, msg, type })));
  await streamSubscription(res, await pipeline.subscribe({ document: route.operation, variables }, ctx), restFormat(route), logger);
}

/**
 * Writes a subscription (as `graphql`'s `subscribe` returned it) as server-sent events in
 * `format`. A refusal or a failure before the first event is thrown, for the caller to answer
 * in its own error form (nothing is written then); after it, a failure is one `format.failure`
 * event and the end. Each event is written, and drained, before the next is read, so a slow
 * reader holds the source back rather than growing a buffer. The caller leaving returns the
 * subscription at once.
 * @throws the subscription's error before its first event (an `AppError` when a resolver threw one)
 */
export async function streamSubscription(
  res: Response,
  subscription: ExecutionResult | AsyncGenerator<ExecutionResult>,
  format: SseFormat,
  logger: Logger,
): Promise<void> {
  if (!(Symbol.asyncIterator in subscription)) throw failureOf(subscription);
  const events = subscription;
  const leave = () => void events.return(undefined);
  res.once('close', leave);
  try {
    const first = await events.next();
    if (!first.done && first.value.errors?.length) throw failureOf(first.value);
    res.status(200).set(format.headers);
    if (first.done) return void res.end();
    await writeEvents(res, format, first.value, events, logger);
  } finally {
    res.off('close', leave);
    // Ends the subscription if a failure left it open (a no-op once it is over).
    await events.return(undefined);
  }
}

/** The first event, then the rest, with keep-alive comments between; a failure becomes one failure event and ends the stream. */
async function writeEvents(
  res: Response,
  format: SseFormat,
  first: ExecutionResult,
  rest: AsyncGenerator<ExecutionResult>,
  logger: Logger,
) {
  let writing = false;
  const send = async (text: string) => {
    writing = true;
    try {
      await write(res, text);
    } finally {
      writing = false;
    }
  };
  // Skipped while an event is being written or drained: the stream is not idle then.
  const keepalive = format.keepaliveMs
    ? setInterval(() => void (!writing && !res.writableNeedDrain && !res.destroyed && res.write(': keepalive\n\n')), format.keepaliveMs)
    : undefined;
  try {
    let event = format.event(first.data as Record<string, unknown>);
    await send(event.text);
    while (!event.last) {
      const next = await rest.next();
      if (next.done) break;
      if (next.value.errors?.length) {
        await send(format.failure(logged(failureOf(next.value), res, logger)));
        break;
      }
      event = format.event(next.value.data as Record<string, unknown>);
      await send(event.text);
    }
  } catch (error) {
    // The caller is gone (nothing to tell), or the source failed outside a resolver.
    if (!res.destroyed) await write(res, format.failure(logged(error, res, logger))).catch(() => undefined);
  } finally {
    clearInterval(keepalive);
  }
  res.end();
}

/** The error a GraphQL result reports: the domain's own when a resolver threw one. */
function failureOf(result: ExecutionResult): unknown {
  const [first] = result.errors ?? [];
  return first?.originalError ?? new Error(first?.message ?? 'the subscription failed');
}

/** An error as the API states it (an internal one logged, its message never sent). */
function logged(error: unknown, res: Response, logger: Logger): AppError {
  const appError = toAppError(error);
  if (appError.code === 'INTERNAL')
    logger.error('event stream failed', { requestId: res.locals.requestId, error: error instanceof Error ? error.message : String(error) });
  return appError;
}

/** `POST /api/trajectories/{session_id}/discuss/stream`: discuss, the answer as server-sent events. */
export const discussStreamRoute = eventStream({
  method: 'POST',
  path: '/api/trajectories/{session_id}/discuss/stream',
  auth: 'user',
  tag: 'trajectories',
  summary: 'Ask the model about a session, the answer streamed as server-sent events',
  operation: Op.TrajectoryDiscussStreamDocument,
  variables: { sessionId: path('session_id'), input: body() },
  result: 'trajectoryDiscussStream',
  event: (value) => (value.done ? { name: 'done', data: value.done } : { name: 'delta', data: { text: value.delta ?? '' } }),
  events: {
    delta: { type: 'object', required: ['text'], properties: { text: { type: 'string', description: 'The next piece of the answer' } } },
    done: {
      type: 'object',
      required: ['answer', 'turn_id'],
      properties: { answer: { type: 'string', description: 'The whole answer' }, turn_id: { type: 'string' } },
    },
  },
  errors: { UNAVAILABLE: null },
});
