import express, { Request, RequestHandler, Response } from 'express';
import type { RequestLabels } from '../src/metrics';
import { Ctx, makeContext, requestFacts, Services, varyByOrigin } from '../src/context';
import { AppError, invalid, toAppError } from '../src/errors';
import type { Logger } from '../src/logger';
import type { Pipeline } from '../src/pipeline';
import { accessOfOperation, admit, type Access } from '../src/operation-rules';
import { describe, LocateIssue, locateInBody, refuseCharsetOtherThanUtf8, refuseInvalidUtf8, sendError } from '../src/http/answers';
import { locOf, planVariables, RawBodyRequest, readVariables, VariablePlan, wirePath } from './inputs';
import { serveEvents } from './events';
import { EventStreamRoute, operationOf, OperationRoute, Operations, Route, RouteAuth } from './route';
import { declaredLength, dropBodyForAWhile, hasBody, type LargeBodies } from './large-bodies';

/** Express path syntax for an OpenAPI template: `/api/labs/{lab_id}` → `/api/labs/:lab_id`. */
export const expressPath = (template: string) => template.replace(/\{([^}]+)\}/g, ':$1');

/** A domain issue's path starts with the GraphQL argument; the route says where that came from. */
const locateFor =
  (plans: VariablePlan[]): LocateIssue =>
  (issue) => {
    const [head, ...rest] = issue.path;
    const plan = plans.find((p) => p.name === head);
    return plan ? { loc: [...locOf(plan.source), ...wirePath(plan.type, rest)], msg: issue.msg, type: issue.type } : locateInBody(issue);
  };

interface CompiledOperation<R extends OperationRoute | EventStreamRoute = OperationRoute> {
  route: R;
  plans: VariablePlan[];
  /** Who may call it: what its root field declares (src/operation-rules.ts). */
  access: Access;
}

/** A stream route's `auth` as the access level the pipeline admits by. */
const ACCESS_OF_ROW: Record<RouteAuth, Access> = { none: 'anyone', user: 'user', admin: 'admin', release: 'release' };

/** Checks every operation document against the schema once, at start, so a bad table fails fast. */
function compile<R extends OperationRoute | EventStreamRoute>(pipeline: Pipeline, route: R): CompiledOperation<R> {
  const errors = pipeline.validate(route.operation);
  if (errors.length) throw new Error(`${route.method} ${route.path}: ${errors.map((e) => e.message).join('; ')}`);
  const operation = operationOf(route.operation);
  const access = accessOfOperation(pipeline.schema, operation);
  if (!access) throw new Error(`${route.method} ${route.path}: its root field declares no access`);
  return { route, plans: planVariables(pipeline.schema, operation, route.variables), access };
}

export interface FacadeOptions {
  pipeline: Pipeline;
  services: Services;
  logger: Logger;
  routes: Route[];
  /** The instance's budget of large bodies read at once, shared with `/a2a/v1`. */
  largeBodies: LargeBodies;
}

/** A request handler of the facade, given its path's parameters (decoded). */
type RouteHandler = (req: Request, res: Response) => Promise<void>;

/**
 * The table's paths matched segment by segment: a `{name}` segment takes any one non-empty
 * segment, anything else must be equal (case-sensitive; a trailing slash is a segment of its
 * own, so never matches). One lookup per request instead of Express testing a pattern per row.
 */
function pathTable() {
  const templates: { template: string; segments: string[]; methods: Map<string, RouteHandler> }[] = [];
  return {
    add(template: string, method: string, handler: RouteHandler) {
      let entry = templates.find((known) => known.template === template);
      if (!entry) templates.push((entry = { template, segments: template.split('/'), methods: new Map() }));
      entry.methods.set(method, handler);
    },
    /** The template `path` matches (the most literal one, were two to match) with its raw parameters. */
    match(path: string) {
      const parts = path.split('/');
      let best: { entry: (typeof templates)[number]; params: Record<string, string>; literal: number } | undefined;
      for (const entry of templates) {
        if (entry.segments.length !== parts.length) continue;
        const params: Record<string, string> = {};
        let literal = 0;
        let matches = true;
        for (let i = 0; i < parts.length && matches; i++) {
          const segment = entry.segments[i];
          if (segment.startsWith('{')) {
            params[segment.slice(1, -1)] = parts[i];
            matches = parts[i] !== '';
          } else {
            literal++;
            matches = segment === parts[i];
          }
        }
        if (matches && (!best || literal > best.literal)) best = { entry, params, literal };
      }
      return best;
    },
  };
}

/**
 * The REST facade: one handler per row of the table, found by its path (`pathTable`); what
 * matches no row goes on to the next middleware. Operation routes run their GraphQL document
 * in-process against the same schema, resolvers, policies and loaders as `/graphql`.
 */
export function facadeRouter({ pipeline, services, logger, routes, largeBodies }: FacadeOptions): RequestHandler {
  const table = pathTable();
  const parsers = new Map<number, ReturnType<typeof express.json>>();
  /**
   * Parses a JSON body of at most `limit` bytes, only once the caller is known to be allowed to
   * send one and its declared length is within the limit. One of unknown length
   * (chunked) is refused as soon as it passes the limit, not once its sender has finished
   * (body-parser reads a refused body to its end before it answers); the rest is dropped.
   */
  const readJsonBody = (req: Request, res: Response, limit: number, tooLarge: () => AppError, { keepParser = true } = {}) => {
    let parse = parsers.get(limit);
    if (!parse) {
      // Not strict: a JSON string body is valid JSON, answered with a 422 where an object is due.
      // The raw buffer is kept (not copied) for routes that store parts of it verbatim.
      parse = express.json({
        limit,
        strict: false,
        verify: (request, _res, buffer) => {
          refuseInvalidUtf8(buffer);
          (request as RawBodyRequest).rawBody = buffer;
        },
      });
      // Routes have a few limits between them; the storage left to each caller is not kept.
      if (keepParser) parsers.set(limit, parse);
    }
    refuseCharsetOtherThanUtf8(req);
    return new Promise<void>((resolve, reject) => {
      let received = 0;
      const count = (chunk: Buffer) => {
        received += chunk.length;
        if (received <= limit) return;
        req.off('data', count);
        dropBodyForAWhile(req);
        reject(tooLarge());
      };
      let settled = false;
      parse(req, res, (error?: Error) => {
        settled = true;
        req.off('data', count);
        if (error) reject(error);
        else resolve();
      });
      // After the parser's own listener (it attaches it at once), so that no chunk flows past it.
      if (!settled && declaredLength(req) === undefined) req.on('data', count);
    });
  };

  for (const route of routes) {
    const compiled = route.kind === 'operation' ? compile(pipeline, route) : undefined;
    const compiledEvents = route.kind === 'events' ? compile(pipeline, route) : undefined;
    const handler = async (req: Request, res: Response) => {
      const plans = compiled?.plans ?? compiledEvents?.plans ?? [];
      try {
        const ctx = makeContext(services, requestFacts(req, res, services.config));
        // Credentials first: a caller without valid ones learns nothing about the request's shape.
        // A route that runs an operation asks its root field's declared access (which the operation
        // checks again as it runs, as on every transport); a stream route's row says its own, which
        // its `authorize` operation declares too.
        await admit((compiled ?? compiledEvents)?.access ?? ACCESS_OF_ROW[route.auth], ctx);
        const ops: Operations = {
          run: (operation, variables) => pipeline.run(operation, variables, ctx),
          subscribe: (operation, variables) => pipeline.events(operation, variables, ctx),
        };
        const authorized: unknown = route.kind === 'stream' ? await route.authorize(req, ctx, ops) : undefined;
        if (route.kind !== 'stream' || !route.consumes) {
          const routeLimit = route.maxBodyBytes ?? services.config.maxJsonBodyBytes;
          const declared = declaredLength(req);
          let limit = routeLimit;
          const tooLarge = () =>
            new AppError(
              'PAYLOAD_TOO_LARGE',
              limit < routeLimit
                ? `storage quota exceeded: this write could store a body of at most ${limit} bytes; nothing was stored`
                : `request body larger than ${limit} bytes`,
            );
          if (hasBody(req))
            try {
              if (route.bodyLimit) limit = Math.min(limit, await route.bodyLimit(req, ctx, declared, ops));
              // Refused by its declared length before any of it is read.
              if (declared !== undefined && declared > limit) throw tooLarge();
              // N large bodies read at once would hold N times the memory: past the instance's budget
              // the next is refused (503) until one is done. One of unknown length counts as the limit.
              largeBodies.admit(res, declared ?? limit);
            } catch (error) {
              dropBodyForAWhile(req);
              throw error;
            }
          // Without a body there is nothing to parse (`req.body` stays undefined, as the parser leaves it).
          if (hasBody(req)) await readJsonBody(req, res, limit, tooLarge, { keepParser: limit === routeLimit });
        }
        if (route.kind === 'stream') return await route.handle(req, res, ctx, authorized, ops);
        if (route.kind === 'events') return await serveEvents(req, res, ctx, route as EventStreamRoute, plans, pipeline, logger);
        await runOperation(req, res, ctx, compiled! as CompiledOperation, pipeline);
      } catch (error) {
        const appError = toAppError(error);
        if (appError.code === 'INTERNAL') logger.error('request failed', { requestId: res.locals.requestId, error: describe(error) });
        if (res.headersSent) return void res.destroy();
        // An upload refused before its body was read: close rather than drain the rest of it.
        if (route.kind === 'stream' && route.consumes && !req.readableEnded) res.setHeader('Connection', 'close');
        sendError(res, appError, locateFor(plans));
      }
    };
    table.add(route.path, route.method, handler);
  }

  return (req, res, next) => {
    const found = table.match(req.path);
    if (!found) return next();
    const { methods, template } = found.entry;
    const handler = methods.get(req.method) ?? (req.method === 'HEAD' ? methods.get('GET') : undefined);
    // The template, as Express would name the route, labels the request's metrics and log line.
    res.locals.metrics = { route: expressPath(template) } satisfies RequestLabels;
    if (!handler) {
      // A known path with a method it does not have: 405 with the allowed methods.
      const allowed = [...methods.keys()].join(', ');
      res.setHeader('Allow', allowed);
      return sendError(res, new AppError('METHOD_NOT_ALLOWED', `method not allowed; use ${allowed}`));
    }
    try {
      // Decoded as Express decodes them: a malformed escape is a 400 (URIError, see toAppError).
      req.params = Object.fromEntries(Object.entries(found.params).map(([name, raw]) => [name, decodeURIComponent(raw)]));
    } catch (error) {
      return sendError(res, toAppError(error));
    }
    handler(req, res).catch(next);
  };
}

async function runOperation(req: Request, res: Response, ctx: Ctx, compiled: CompiledOperation, pipeline: Pipeline) {
  const { route, plans } = compiled;
  const { variables, issues } = readVariables(req, plans);
  // Already at their wire locations, which sendError keeps.
  if (issues.length) throw invalid(issues.map(({ loc, msg, type }) => ({ path: loc, msg, type })));
  const data = await pipeline.run(route.operation, variables, ctx);
  if (route.cacheControl) {
    res.setHeader('Cache-Control', route.cacheControl);
    varyByOrigin(res, ctx.services.config);
  }
  let value = data[route.result];
  if (route.status === 204 || (route.noContentWhenNull && value === null)) return void res.status(204).end();
  if (route.omitNulls) value = Object.fromEntries(Object.entries(value as object).filter(([, member]) => member !== null));
  if (route.omitWhenNull)
    value = Array.isArray(value) ? value.map((item) => withoutNull(item, route.omitWhenNull!)) : withoutNull(value, route.omitWhenNull);
  const payload = route.list ? { items: value, total: (value as unknown[]).length } : value;
  res.status(route.status ?? 200).json(payload);
}

/** `value` without those of `members` that are null (itself when none is: no copy). */
function withoutNull(value: unknown, members: readonly string[]): unknown {
  if (value === null || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  if (!members.some((member) => object[member] === null)) return value;
  return Object.fromEntries(Object.entries(object).filter(([key, member]) => !(member === null && members.includes(key))));
}
