import { createHash } from 'node:crypto';
import express, { NextFunction, Request, Response, Router } from 'express';
import { makeContext, originOf, Services, varyByOrigin } from '../src/context';
import { A2aError, AppError, ERROR_CODES, notFound, toAppError } from '../src/errors';
import type { Logger } from '../src/logger';
import type { Pipeline } from '../src/pipeline';
import type { A2aAdmission, A2aPrincipal } from '../src/modules/a2a/a2a-caller';
import { INPUT_MEDIA_TYPES, OUTPUT_MEDIA_TYPES } from '../src/modules/a2a/a2a-parts';
import { ARTIFACTS_PATH } from '../src/modules/a2a/a2a-artifacts';
import { openArtifactFile } from '../src/modules/a2a/a2a-artifact-file';
import { serveObject } from '../src/http/byte-ranges';
import { SseFormat, streamSubscription } from './events';
import * as Op from './generated/operations';
import { describe, refuseInvalidUtf8, sendError } from '../src/http/answers';
import {
  endsStream,
  MethodPlan,
  PARSE_ERROR,
  planMethod,
  readEnvelope,
  resultOf,
  RPC_METHODS,
  RpcError,
  rpcErrorOf,
  rpcFailure,
  RpcId,
  rpcSuccess,
  variablesOf,
} from './rpc';
import { knowOperations, type RequestLabels } from '../src/metrics';
import { declaredLength, dropBodyForAWhile, type LargeBodies } from './large-bodies';

export const AGENT_CARD_PATH = '/.well-known/agent-card.json';
export const A2A_RPC_PATH = '/a2a/v1';

/**
 * Largest JSON-RPC body read. A2A allows `raw` file parts of up to 100 MiB decoded (spec, A2A
 * command-line management): as base64 that is 4/3 as many bytes, plus room for the envelope.
 * The body is counted as it streams in (and refused at once by its Content-Length) and never
 * read beyond this: HTTP 413 with a JSON-RPC -32602 body.
 */
export const A2A_MAX_BODY_BYTES = Math.ceil((100 * 1024 * 1024 * 4) / 3) + 1024 * 1024;

/**
 * Streams (SendStreamingMessage, SubscribeToTask) one principal may hold open on one instance at
 * once; the next is refused (HTTP 429, -32000) until one closes. Each holds a socket, a
 * subscription and a database read per change.
 */
export const MAX_STREAMS_PER_PRINCIPAL = 32;

/**
 * How long a cache may keep the card before asking again (with its ETag). While keys are
 * required the card's security cannot change under it (revoking the last key locks the endpoint,
 * it never opens it again), so it may be kept a while; the open endpoint's card is asked for
 * again every time, since the first key created changes its `securityRequirements` at once.
 */
const cardCacheControl = (authRequired: boolean) => (authRequired ? 'public, max-age=300' : 'public, max-age=0, must-revalidate');
/** The version of this agent (its skills and behaviour), as the card states it; not the protocol's. */
export const AGENT_VERSION = '0.1.0';

/**
 * The agent card: an allowlisted projection (A2A §5.7; docs/api/a2a.md, "Agent card"), every
 * member written here and nothing taken from the service's internals. Capabilities say what is
 * built now. The bearer scheme is always declared (the card's members per A2A 1.0); it is
 * required (`securityRequirements`) only while keys are, so the open loopback endpoint asks for none.
 */
export function agentCard(baseUrl: string, authRequired: boolean) {
  return {
    name: 'labdesk analysis agent',
    description: 'Analyses research questions for collaborators of this labdesk server, answering in text.',
    version: AGENT_VERSION,
    supportedInterfaces: [{ url: `${baseUrl}${A2A_RPC_PATH}`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    capabilities: { streaming: true, pushNotifications: true },
    securitySchemes: {
      bearer: { httpAuthSecurityScheme: { scheme: 'bearer', description: 'An A2A key issued by the server operator (ldk_a2a_…)' } },
    },
    ...(authRequired && { securityRequirements: [{ schemes: { bearer: { list: [] } } }] }),
    defaultInputModes: INPUT_MEDIA_TYPES,
    defaultOutputModes: OUTPUT_MEDIA_TYPES,
    skills: [
      {
        id: 'analysis',
        name: 'Research analysis',
        description: 'Answers a question or carries out an analysis described in text, continuing the conversation of a context.',
        tags: ['analysis', 'research'],
      },
    ],
  };
}

/**
 * The A2A endpoint: the card (anonymous) and JSON-RPC at `POST /a2a/v1` (the gate decides the
 * caller before the body is read: a bad key is 401 whatever the body). Both answer 404 `{detail}`
 * while A2A is not enabled, as if they did not exist.
 */
export function a2aRouter(services: Services, gate: A2aAdmission, pipeline: Pipeline, logger: Logger, largeBodies: LargeBodies): Router {
  const router = Router();
  knowOperations(RPC_METHODS.map((method) => method.name));
  for (const document of [...RPC_METHODS.flatMap((method) => method.document ?? []), Op.A2aArtifactFileDocument]) {
    const errors = pipeline.validate(document);
    if (errors.length) throw new Error(`facade/operations/a2a*.graphql: ${errors.map((e) => e.message).join('; ')}`);
  }

  router.get(AGENT_CARD_PATH, async (req: Request, res: Response) => {
    let authRequired: boolean;
    try {
      authRequired = (await gate.current(services.orm.em.fork())).mounting.authRequired;
    } catch (error) {
      const appError = toAppError(error);
      if (appError.code === 'INTERNAL') logger.error('A2A card: mounting check failed', { error: describe(error) });
      return sendError(res, appError);
    }
    const body = JSON.stringify(agentCard(baseUrlOf(req, services), authRequired));
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    varyByOrigin(res, services.config);
    res.setHeader('Cache-Control', cardCacheControl(authRequired));
    res.setHeader('ETag', etag);
    const ifNoneMatch = req.headers['if-none-match'];
    if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag || tag.trim() === '*'))
      return void res.status(304).end();
    res.type('application/json').send(body);
  });

  const answer = (res: Response, id: RpcId, error: RpcError, status = 200) => void res.status(status).json(rpcFailure(id, error));
  /** An AppError as a JSON-RPC answer, with the headers it carries (a limit's Retry-After, as the REST answer has). */
  const answerError = (res: Response, id: RpcId, error: AppError, status = 200) =>
    answer(res.set(error.headers ?? {}), id, rpcErrorOf(error), status);
  const plans = new Map(
    RPC_METHODS.filter((method) => method.document).map((method) => [method.document!, planMethod(pipeline.schema, method.document!)]),
  );
  /** The context an A2A request's operations run in: the principal the gate admitted, checked again (`readmit`) where a stream goes on. */
  const a2aContext = (req: Request, res: Response, principal: A2aPrincipal, callerGone?: AbortSignal) => {
    const { authorization, host } = req.headers;
    return makeContext(services, {
      requestId: res.locals.requestId as string,
      origin: originOf(req, services.config.trustProxy),
      callerGone,
      a2a: { principal, readmit: (em) => gate.admit(em, authorization, host) },
    });
  };
  /** Streams open on this instance, by principal. */
  const openStreams = new Map<string, number>();

  router.post(
    A2A_RPC_PATH,
    async (req: Request, res: Response, next: NextFunction) => {
      try {
        res.locals.a2aPrincipal = await gate.admit(services.orm.em.fork(), req.headers.authorization, req.headers.host);
        res.locals.caller = (res.locals.a2aPrincipal as A2aPrincipal).id;
      } catch (error) {
        const appError = toAppError(error);
        if (appError.code === 'INTERNAL') logger.error('A2A admission failed', { error: describe(error) });
        if (appError.code === 'NOT_FOUND') return sendError(res, appError);
        if (appError.code === 'UNAUTHENTICATED') res.setHeader('WWW-Authenticate', 'Bearer');
        return answer(res, null, rpcErrorOf(appError), ERROR_CODES[appError.code].http);
      }
      if (!req.is('application/json'))
        return answer(
          res,
          null,
          rpcErrorOf(new A2aError('CONTENT_TYPE_NOT_SUPPORTED', 'send the request as Content-Type: application/json')),
        );
      // Refused by its declared length before the parser reads any of it.
      if (Number(req.headers['content-length']) > A2A_MAX_BODY_BYTES) {
        dropBodyForAWhile(req);
        return answer(
          res,
          null,
          rpcErrorOf(new AppError('PAYLOAD_TOO_LARGE', `request body larger than ${A2A_MAX_BODY_BYTES} bytes`)),
          413,
        );
      }
      // A large body (or one of unknown length, counted as the largest) waits for no one: when the
      // instance is reading as many as it may, it is refused before it is parsed, to be sent again shortly.
      try {
        largeBodies.admit(res, declaredLength(req) ?? A2A_MAX_BODY_BYTES);
      } catch (error) {
        dropBodyForAWhile(req);
        return answerError(res, null, toAppError(error), 503);
      }
      next();
    },
    express.json({ limit: A2A_MAX_BODY_BYTES, strict: false, verify: (_req, _res, buffer) => refuseInvalidUtf8(buffer) }),
    async (req: Request, res: Response) => {
      const versionParameter = req.query['A2A-Version'];
      const call = readEnvelope(
        req.body,
        (req.headers['a2a-version'] as string | undefined) ?? (typeof versionParameter === 'string' ? versionParameter : undefined),
      );
      if ('error' in call) return answer(res, call.id, call.error);
      res.locals.metrics = { operation: call.method.name } satisfies RequestLabels;
      const callerGone = new AbortController();
      res.on('close', () => callerGone.abort());
      try {
        const { document, refuse } = call.method;
        if (!document) return answer(res, call.id, rpcErrorOf(new A2aError(refuse!.reason, refuse!.message)));
        const plan = plans.get(document)!;
        const variables = variablesOf(plan, call.params);
        const principal = res.locals.a2aPrincipal as A2aPrincipal;
        const ctx = a2aContext(req, res, principal, callerGone.signal);
        if (plan.streams) {
          // Counted before any work: one key cannot hold this instance's sockets and wake-ups without bound.
          const open = openStreams.get(principal.id) ?? 0;
          if (open >= MAX_STREAMS_PER_PRINCIPAL)
            throw new AppError(
              'RATE_LIMITED',
              `this key has ${open} streams open on this server (at most ${MAX_STREAMS_PER_PRINCIPAL}): close one first`,
            );
          openStreams.set(principal.id, open + 1);
          try {
            const events = await pipeline.subscribe({ document, variables }, ctx);
            return await streamSubscription(res, events, a2aEvents(call.id, plan, services.config.a2aKeepaliveSeconds), logger);
          } finally {
            const left = openStreams.get(principal.id)! - 1;
            if (left === 0) openStreams.delete(principal.id);
            else openStreams.set(principal.id, left);
          }
        }
        const result = resultOf(plan, await pipeline.run(document, variables, ctx));
        if (!res.headersSent) res.json(rpcSuccess(call.id, result));
      } catch (error) {
        const appError = toAppError(error);
        if (appError.code === 'INTERNAL') logger.error('A2A method failed', { method: call.method.name, error: describe(error) });
        if (!res.headersSent) answerError(res, call.id, appError, appError.code === 'RATE_LIMITED' ? ERROR_CODES.RATE_LIMITED.http : 200);
      }
    },
  );

  // GET /a2a/v1/artifacts/{task_id}/{index}: an artifact's bytes, for the key that made the task.
  // The operation decides who reads what and describes it; the bytes are streamed from there.
  router.get(`${ARTIFACTS_PATH}/:taskId/:index`, async (req: Request, res: Response) => {
    try {
      const principal = await gate.admit(services.orm.em.fork(), req.headers.authorization, req.headers.host);
      const { taskId, index } = req.params;
      if (!/^\d{1,6}$/.test(String(index)) || String(taskId).length > 200) throw notFound('artifact');
      const variables = { taskId: String(taskId), index: Number(index) };
      const file = (await pipeline.run(Op.A2aArtifactFileDocument, variables, a2aContext(req, res, principal))).a2aArtifactFile;
      await serveObject(req, res, {
        etag: file.etag,
        lastModified: new Date(file.lastModified),
        size: file.size,
        contentType: file.mediaType,
        contentDisposition: `attachment; filename="${file.filename.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
        cacheControl: 'private, no-cache',
        // Opened only when bytes are sent (not for HEAD or a 304), and closed once they are.
        open: (range) => openArtifactFile(services, file, range),
      });
    } catch (error) {
      const appError = toAppError(error);
      if (appError.code === 'INTERNAL') logger.error('A2A artifact download failed', { error: describe(error) });
      if (res.headersSent) return void res.destroy();
      sendError(res, appError);
    }
  });

  // A body that is not JSON, too large or unreadable: a JSON-RPC error, never the REST error body.
  router.use(A2A_RPC_PATH, (error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    const appError = toAppError(error);
    if (appError.code === 'PAYLOAD_TOO_LARGE') return answer(res, null, rpcErrorOf(appError), 413);
    if (appError.code === 'INTERNAL') return next(error);
    return answer(res, null, { code: PARSE_ERROR, message: `Invalid JSON payload: ${appError.message}` });
  });
  return router;
}

/**
 * A2A streams (JSON-RPC over SSE, A2A §9.4.2): each event `data: {"jsonrpc":"2.0","id":<request
 * id>,"result":<StreamResponse>}`; a failure after the first event is one `error` event carrying
 * a JSON-RPC error response; `: keepalive` comments while idle.
 */
function a2aEvents(id: RpcId, plan: MethodPlan, keepaliveSeconds: number): SseFormat {
  return {
    headers: { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' },
    event: (data) => {
      const event = resultOf(plan, data);
      return { text: `data: ${JSON.stringify(rpcSuccess(id, event))}\n\n`, last: endsStream(event) };
    },
    failure: (error) => `event: error\ndata: ${JSON.stringify(rpcFailure(id, rpcErrorOf(error)))}\n\n`,
    keepaliveMs: keepaliveSeconds * 1000,
  };
}

/** The absolute base of the URLs the card gives: PUBLIC_URL, else the origin the caller addressed (TRUST_PROXY decides whose word counts). */
function baseUrlOf(req: Request, services: Services): string {
  if (services.config.publicUrlFromEnv) return services.config.publicUrl;
  return originOf(req, services.config.trustProxy) ?? services.config.publicUrl;
}
