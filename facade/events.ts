import type { Request, Response } from 'express';
import { ExecutionResult, GraphQLSchema, subscribe } from 'graphql';
import type { Ctx } from '../src/context';
import { invalid, toAppError } from '../src/errors';
import type { Logger } from '../src/logger';
import * as Op from './generated/operations';
import { readVariables, VariablePlan } from './inputs';
import { body, EventStreamRoute, eventStream, path } from './route';
import { write } from './streams';

/** One server-sent event; JSON text holds no raw line break, so `data` is one line. */
const sse = (name: string, data: object) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * Runs the route's subscription and writes its events as server-sent events. Input, credentials,
 * visibility, the subscription's own checks and a failure before the first event (a model that
 * answers 500 every time) all answer as JSON errors: the status is sent with the first event.
 * From then on, a failure is an `error` event. The caller leaving returns the subscription at
 * once, so its source stops the work it was waiting on.
 */
export async function serveEvents(req: Request, res: Response, ctx: Ctx, route: EventStreamRoute, plans: VariablePlan[], schema: GraphQLSchema, logger: Logger): Promise<void> {
  const { variables, issues } = readVariables(req, plans);
  // Already at their wire locations, which sendError keeps.
  if (issues.length) throw invalid(issues.map(({ loc, msg, type }) => ({ path: loc, msg, type })));
  const subscription = await subscribe({ schema, document: route.operation, variableValues: variables, contextValue: ctx });
  if (!(Symbol.asyncIterator in subscription)) throw failureOf(subscription);
  const events = subscription as AsyncGenerator<ExecutionResult>;
  const leave = () => void events.return(undefined);
  res.once('close', leave);
  try {
    const first = await events.next();
    if (!first.done && first.value.errors?.length) throw failureOf(first.value);
    res.status(200).set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' });
    if (first.done) return void res.end();
    await writeEvents(res, route, first.value, events, logger);
  } finally {
    res.off('close', leave);
    // Ends the subscription if a failure left it open (a no-op once it is over).
    await events.return(undefined);
  }
}

/** The first event, then the rest; a failure becomes one `error` event and ends the stream. */
async function writeEvents(res: Response, route: EventStreamRoute, first: ExecutionResult, rest: AsyncGenerator<ExecutionResult>, logger: Logger) {
  const eventOf = (result: ExecutionResult) => {
    const { name, data } = route.event((result.data as Record<string, never>)[route.result]);
    return sse(name, data);
  };
  try {
    await write(res, eventOf(first));
    for await (const result of rest) {
      if (result.errors?.length) {
        await write(res, sse('error', { detail: detailOf(failureOf(result), res, logger) }));
        break;
      }
      await write(res, eventOf(result));
    }
  } catch (error) {
    // The caller is gone (nothing to tell), or the source failed outside a resolver.
    if (!res.destroyed) await write(res, sse('error', { detail: detailOf(error, res, logger) })).catch(() => undefined);
  }
  res.end();
}

/** The error a GraphQL result reports: the domain's own when a resolver threw one. */
function failureOf(result: ExecutionResult): unknown {
  const [first] = result.errors ?? [];
  return first?.originalError ?? new Error(first?.message ?? 'the subscription failed');
}

/** An error as the `detail` of an `error` event: the API's message, never a stack. */
function detailOf(error: unknown, res: Response, logger: Logger): string {
  const appError = toAppError(error);
  if (appError.code === 'INTERNAL') logger.error('event stream failed', { requestId: res.locals.requestId, error: error instanceof Error ? error.message : String(error) });
  return appError.message;
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
    done: { type: 'object', required: ['answer', 'turn_id'], properties: { answer: { type: 'string', description: 'The whole answer' }, turn_id: { type: 'string' } } },
  },
  errors: { UNAVAILABLE: null },
});
