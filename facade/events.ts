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
 * visibility and the subscription's own checks all answer as JSON errors (thrown here, before
 * the status is sent); from the first byte on, a failure is an `error` event. The caller leaving
 * returns the subscription at once, so its source stops the work it was waiting on.
 */
export async function serveEvents(req: Request, res: Response, ctx: Ctx, route: EventStreamRoute, plans: VariablePlan[], schema: GraphQLSchema, logger: Logger): Promise<void> {
  const { variables, issues } = readVariables(req, plans);
  // Already at their wire locations, which sendError keeps.
  if (issues.length) throw invalid(issues.map(({ loc, msg, type }) => ({ path: loc, msg, type })));
  const subscription = await subscribe({ schema, document: route.operation, variableValues: variables, contextValue: ctx });
  if (!(Symbol.asyncIterator in subscription)) {
    const [first] = subscription.errors ?? [];
    throw first?.originalError ?? new Error(first?.message ?? 'the subscription did not start');
  }
  const events = subscription as AsyncGenerator<ExecutionResult>;
  const leave = () => void events.return(undefined);
  res.once('close', leave);
  res.status(200).set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' });
  res.flushHeaders();
  try {
    for await (const result of events) {
      if (result.errors?.length) {
        await write(res, sse('error', { detail: detailOf(result.errors[0].originalError ?? result.errors[0], res, logger) }));
        break;
      }
      const { name, data } = route.event((result.data as Record<string, never>)[route.result]);
      await write(res, sse(name, data));
    }
  } catch (error) {
    // The caller is gone (nothing to tell), or the source failed outside a resolver.
    if (!res.destroyed) await write(res, sse('error', { detail: detailOf(error, res, logger) })).catch(() => undefined);
  } finally {
    res.off('close', leave);
  }
  res.end();
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
