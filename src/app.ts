import { createLanguageModel } from './llm/language-model';
import 'reflect-metadata';
import fs from 'node:fs';
import http from 'node:http';
import type { Socket } from 'node:net';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { ApolloServer } from '@apollo/server';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { expressMiddleware } from '@as-integrations/express5';
import express, { type Express, NextFunction, Request, Response } from 'express';
import { DocumentNode, GraphQLError, GraphQLFormattedError, GraphQLSchema, Kind, OperationDefinitionNode } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { MAX_RANGE_HEADER_BYTES } from './http/byte-ranges';
import { bodyErrors, describe, refuseCharsetOtherThanUtf8, refuseInvalidUtf8, sendError } from './http/answers';
import { facadeRouter } from '../facade/http';
import { a2aRouter, A2A_MAX_BODY_BYTES, A2A_RPC_PATH } from '../facade/a2a';
import { largeBodyBudget } from '../facade/large-bodies';
import { rpcErrorOf, rpcFailure } from '../facade/rpc';
import { buildOpenApi } from '../facade/openapi';
import { ROUTES } from '../facade/routes';
import type { Config } from './config';
import { Ctx, makeContext, requestFacts, Services, sessionCookieOf, trustedOrigins } from './context';
import { crossSiteRefusal } from './http/same-origin';
import { startEmbeddedPostgres } from './db/embedded';
import { openBlobs } from './blobs';
import { LocalComputeProvider } from './modules/compute/local-provider';
import { CodeJail } from './modules/agent/workspace/jail';
import { Workspaces } from './modules/agent/workspace/workspace';
import { WorkspaceJobs } from './modules/agent/workspace/workspace-jobs';
import { startMeter } from './modules/compute/meter';
import { sweepUnownedBlobs } from './modules/figures/figure.service';
import { startLimitSweep } from './modules/usage/model-limits';
import { startRetentionSweep } from './modules/a2a/a2a-retention';
import { startPeriodic } from './jobs/periodic';
import { startNoticeSweep } from './modules/notices/notice.service';
import { startReviewReminders } from './modules/reviews/review.service';
import { JobQueue } from './jobs/queue';
import { jobCounts } from './jobs/jobs.repository';
import {
  appMetrics,
  countGraphQLErrors,
  graphqlErrorMetrics,
  knowOperations,
  OperationType,
  operationTypeOf,
  countRequest,
  RequestLabels,
  routeOf,
} from './metrics';
import { tasksByState } from './modules/a2a/a2a-task.repository';
import { CREDENTIAL_CHANNEL, CredentialCache } from './modules/auth/credential-cache';
import { listenForNotices } from './db/change-notices';
import { authenticate } from './modules/auth/auth.service';
import { registerSummaryJobs } from './modules/trajectories/summaries.service';
import { loadSealer } from './db/instance-keys';
import { checkDatabaseReady, openDatabase, type Orm } from './db/orm';
import { connectionPool } from './db/pool';
import { sqlOf } from './db/sql';
import { AppError, ERROR_CODES, toAppError } from './errors';
import { GRAPHQL_LIMITS, operationLimits, PARSE_OPTIONS } from './graphql-limits';
import { graphQLErrorOf, makePipeline, Pipeline, screenRefusal } from './pipeline';
import { isAdmin } from './modules/admin/admin.policy';
import { Logger, makeLogger } from './logger';
import { ensureBootstrapAdmin } from './modules/users/user.service';
import { makePubSub } from './pubsub';
import { buildAppSchema } from './schema';
import { webRouter } from './web';
import { SingleSignOn } from './modules/auth/oidc.service';
import { ActivityRecorder } from './modules/activity/activity.recorder';
import { A2aGate, logA2aMounting } from './modules/a2a/a2a-gate.service';
import { importA2aFiles } from './modules/a2a/a2a-settings.repository';
import { isLoopbackHost, isLoopbackHostHeader } from './modules/a2a/a2a.policy';
import { registerA2aJobs } from './modules/a2a/a2a-task.service';
import { agentExecutor } from './modules/agent/loop/agent-turn';
import { startPushDeliveries } from './modules/a2a/a2a-push.service';
import cors from 'cors';
import { attemptLimit, clientAddress, rateLimits } from './rate-limits';
import { smtpMailer } from './mail';
import { issuePasswordLink, SIGN_IN_ATTEMPTS } from './modules/auth/session.service';

export interface RunningApp {
  url: string;
  services: Services;
  /** The bootstrap admin token when this start created the admin account. */
  bootstrapToken?: string;
  /** Stops accepting, finishes in-flight requests, then closes the pool and the embedded database. */
  close(): Promise<void>;
}

/** How often unowned figure blobs are deleted from the store. */
const BLOB_SWEEP_SECONDS = 10 * 60;

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Request headers may total 48 KiB (Node's default is 16 KiB, beyond which it answers 431): a
 * Range header of up to MAX_RANGE_HEADER_BYTES (32 KiB: electron-updater's 1,000 ranges) plus
 * 16 KiB for the rest.
 */
const MAX_REQUEST_HEADER_BYTES = MAX_RANGE_HEADER_BYTES + 16 * 1024;

/** How long `/readyz` waits for the database (a probe must answer well within its own time-out). */
const READINESS_TIMEOUT_MS = 2_000;

/** Starts the whole service: database (embedded if no DATABASE_URL), migrations, GraphQL, facade. */
export async function startApp(config: Config, logger: Logger = makeLogger(config.logLevel)): Promise<RunningApp> {
  const embedded = config.databaseUrl
    ? undefined
    : await startEmbeddedPostgres(config.dataDir, { notice: (message) => logger.warn(message) });
  for (const warning of config.warnings) logger.warn(warning);
  if (embedded) logger.info('embedded PostgreSQL started', { dataDir: config.dataDir });
  const databaseUrl = config.databaseUrl ?? embedded!.url;
  const credentials = new CredentialCache();
  const orm = await openDatabase(databaseUrl, {
    notices: (message, detail) => {
      if (message === CREDENTIAL_CHANNEL && detail) credentials.changed(detail);
    },
    poolMax: config.databasePoolSize,
    statementTimeoutMs: config.databaseStatementTimeoutMs,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
    log: logger,
  });
  try {
    // The files that held the A2A settings and keys before they moved into the database.
    await importA2aFiles(orm.em.fork(), config.dataDir, logger);
  } catch (error) {
    await orm.close(true);
    await embedded?.stop();
    throw error;
  }
  const sealer = await loadSealer(orm.em.fork(), config.sealKey);
  const pubsub = makePubSub(config.redisUrl, logger);
  const blobs = await openBlobs(config, orm.em.fork());
  const sandboxes = new LocalComputeProvider(config.compute.heartbeatSeconds, logger);
  const llm = config.llm ? createLanguageModel(config.llm) : null;
  const workspaces = new Workspaces(config.agent, new CodeJail(config.agent, logger));
  // Once at start: code execution is refused (with the reason logged here) unless bubblewrap works.
  await workspaces.checkSandbox();
  const agent = { workspaces, jobs: new WorkspaceJobs(workspaces, orm, logger) };
  const jobs = new JobQueue(databaseUrl, logger, config.jobInstanceTimeoutSeconds);
  const bootstrap = await ensureBootstrapAdmin(orm.em.fork(), config.bootstrapAdminToken);
  if (bootstrap && !config.bootstrapAdminToken) announceAdminToken(config, bootstrap.token, logger);

  await logA2aMounting(orm.em.fork(), config.host, logger);
  const a2aGate = new A2aGate(config.host);
  const limits = rateLimits(config.rateLimits, { redisUrl: config.redisUrl, trustProxy: config.trustProxy, logger, refuse });
  const credentialNotices = listenForNotices(
    databaseUrl,
    CREDENTIAL_CHANNEL,
    { notice: (userId) => credentials.changed(userId), gap: () => credentials.suspended(), listening: () => credentials.resumed() },
    logger,
  );

  const services: Services = {
    config,
    llm,
    orm,
    sealer,
    pubsub,
    blobs,
    sandboxes,
    jobs,
    agent,
    clock: { now: () => new Date() },
    credentials,
    activity: new ActivityRecorder(),
    mailer: config.mail ? smtpMailer(config.mail, logger) : null,
    sso: config.oidc ? new SingleSignOn(config.oidc, sealer) : null,
    signInAttempts: attemptLimit('sign-in-email', SIGN_IN_ATTEMPTS.perEmail, SIGN_IN_ATTEMPTS.windowSeconds, config.redisUrl),
    authLimit: limits.authLimit,
    background: new Set(),
  };

  registerSummaryJobs(jobs, services, logger);
  // A2A turns and push deliveries run on every instance with a model: A2A may be enabled at any time.
  const stopA2aSweep = registerA2aJobs(jobs, services, logger, agentExecutor(services, logger));
  await jobs.start();

  const schema = buildAppSchema(pubsub);
  const pipeline = makePipeline(schema);
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  const httpServer = http.createServer({ maxHeaderSize: MAX_REQUEST_HEADER_BYTES, ...bornWithPrototypesOf(app) }, app);

  // Messages over the limit close the socket (1009) before they are buffered whole or parsed.
  const servesHost = hostsServed(config);
  const wsServer = new WebSocketServer({
    server: httpServer,
    path: '/graphql',
    maxPayload: GRAPHQL_LIMITS.websocketMessageBytes,
    verifyClient: ({ req }, allow) =>
      allow(
        servesHost(req.headers.host) &&
          crossSiteRefusal({ headers: req.headers, upgrade: true }, () => trustedOrigins(config, req)) === undefined,
        403,
        'Forbidden',
      ),
  });
  // What onSubscribe learnt of an operation, for counting the errors onError sees: its type, and
  // for a refusal the code of the errors graphql-ws sends without one (parse, validation).
  const wsOperations = new WeakMap<object, { operationType: OperationType; uncoded?: string }>();
  const wsCleanup = useServer(
    {
      schema,
      // Parsed, screened and validated here, as /graphql does, so both transports refuse the same documents.
      onSubscribe: async (wsCtx, _id, payload) => {
        const { headers } = wsCtx.extra.request;
        const auth = websocketAuthorization(wsCtx.connectionParams, headers.authorization);
        // The cookie counts only on an upgrade `verifyClient` found same-origin.
        const session = sessionCookieOf(config, wsCtx.extra.request);
        const address = clientAddress(wsCtx.extra.request, config.trustProxy);
        const contextValue = makeContext(services, { authorization: auth, address, session, requestId: randomUUID() });
        let document: DocumentNode;
        try {
          document = pipeline.parse(payload.query);
        } catch (error) {
          wsOperations.set(payload, { operationType: 'unknown', uncoded: 'GRAPHQL_PARSE_FAILED' });
          return [error instanceof GraphQLError ? error : graphQLErrorOf(toAppError(error))];
        }
        const operationType = operationTypeOf(document, payload.operationName);
        wsOperations.set(payload, { operationType });
        const request = { document, operationName: payload.operationName, variables: payload.variables };
        const refusal = await screenRefusal(pipeline, request, contextValue);
        if (refusal) return [refusal];
        const errors = pipeline.validate(document);
        if (errors.length) {
          wsOperations.set(payload, { operationType, uncoded: 'GRAPHQL_VALIDATION_FAILED' });
          return [...errors];
        }
        return pipeline.argsOf(request, contextValue);
      },
      onNext: (_ctx, _id, _payload, args, result) => {
        if (!result.errors) return result;
        const errors = result.errors.map((error) => formatGraphQLError(error.toJSON(), error, logger));
        countGraphQLErrors(operationTypeOf(args.document, args.operationName), errors);
        return { ...result, errors };
      },
      // Sent as they are; counted here, as they leave (refusals, and a subscription's source failing).
      onError: (_ctx, _id, payload, errors) => {
        const known = wsOperations.get(payload);
        countGraphQLErrors(
          known?.operationType ?? 'unknown',
          errors.map((error) => error.toJSON()),
          known?.uncoded,
        );
      },
    },
    wsServer,
  );
  // A socket error is the client's doing (an oversized or malformed frame; ws closes the socket
  // itself): one warning line, not graphql-ws's console.error with a stack for every such frame.
  wsServer.on('connection', (socket) => {
    socket.removeAllListeners('error');
    socket.on('error', (error) => logger.warn('websocket closed on a bad frame', { error: error.message }));
  });

  const apollo = new ApolloServer({
    schema,
    parseOptions: PARSE_OPTIONS,
    includeStacktraceInErrorResponses: false,
    stopOnTerminationSignals: false, // `labdesk serve` owns shutdown: drain, then close the database
    validationRules: [operationLimits],
    formatError: (formatted, error) => formatGraphQLError(formatted, error, logger),
    plugins: [
      graphqlErrorMetrics,
      ApolloServerPluginDrainHttpServer({ httpServer }),
      // Apollo's landing page loads Apollo Sandbox from a CDN; browsers get GraphiQL from `webRouter` instead.
      ApolloServerPluginLandingPageDisabled(),
      {
        async serverWillStart() {
          return {
            async drainServer() {
              await wsCleanup.dispose();
            },
          };
        },
      },
    ],
  });
  await apollo.start();

  knowOperations(rootOperations(schema));
  const metrics = metricsOf(orm);
  app.use(observeRequests(logger));
  app.use((req: Request, res: Response, next: NextFunction) => (servesHost(req.headers.host) ? next() : refuse(req, res, HOST_REFUSED)));
  // No cross-origin access unless an origin is allowed: then only from there, with a bearer token (no cookies).
  if (config.corsAllowedOrigins.length) {
    app.use(
      cors({
        origin: config.corsAllowedOrigins,
        allowedHeaders: ['Authorization', 'Content-Type', 'A2A-Version', 'X-Request-Id'],
        exposedHeaders: ['X-Request-Id', 'Retry-After', 'RateLimit-Policy', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'],
        maxAge: 600,
      }),
    );
  }
  app.use((req: Request, res: Response, next: NextFunction) => {
    const refusal = crossSiteRefusal(req, () => trustedOrigins(config, req));
    return refusal === undefined ? next() : refuse(req, res, new AppError('FORBIDDEN', refusal));
  });
  app.use(limits.middleware);
  // First: the API's own paths are the hot ones, and no page or other route shares them.
  // One budget for both, as memory is per process: one maximal A2A message at a time, or two
  // maximal trajectory writes (64 MiB each), or more smaller large bodies.
  const largeBodies = largeBodyBudget(A2A_MAX_BODY_BYTES);
  app.use(facadeRouter({ pipeline, services, logger, routes: ROUTES, largeBodies }));
  app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  app.get('/readyz', async (_req, res) => {
    try {
      await checkDatabaseReady(orm, READINESS_TIMEOUT_MS);
      res.json({ status: 'ready' });
    } catch (error) {
      const appError = toAppError(error);
      sendError(res, appError.code === 'UNAVAILABLE' ? appError : new AppError('UNAVAILABLE', 'database unreachable'));
    }
  });
  // Prometheus scrapes, for administrators' tokens only (docs/operations.md, "Metrics").
  app.get('/metrics', async (req, res) => {
    try {
      const viewer = await authenticate(() => orm.em.fork(), req.headers.authorization, { cache: services.credentials });
      if (!viewer) throw new AppError('UNAUTHENTICATED', "metrics need an administrator's token: Authorization: Bearer <token>");
      if (!isAdmin(viewer)) throw new AppError('FORBIDDEN', 'metrics are for administrators');
      res.type(metrics.contentType).send(await metrics.text());
    } catch (error) {
      sendError(res, toAppError(error));
    }
  });
  const web = webRouter(schema, services, logger);
  app.use(web.router);
  app.use(
    '/graphql',
    (req: Request, _res: Response, next: NextFunction) => next(attempt(() => refuseCharsetOtherThanUtf8(req))),
    express.json({ limit: config.maxJsonBodyBytes, verify: (_req, _res, buffer) => refuseInvalidUtf8(buffer) }),
    bodyErrors,
    screenGraphQLRequests(pipeline, services),
    expressMiddleware(apollo, { context: async ({ res }) => res.locals.graphqlContext as Ctx }),
  );
  const openApi = buildOpenApi(schema, ROUTES);
  app.get('/openapi.json', (_req, res) => void res.json(openApi));
  app.use(a2aRouter(services, a2aGate, pipeline, logger, largeBodies));
  app.use(web.missingPage);
  app.use((_req: Request, res: Response) => sendError(res, new AppError('NOT_FOUND', 'no such endpoint')));
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    logger.error('unhandled error', { requestId: res.locals.requestId, error: describe(error) });
    if (res.headersSent) return void res.destroy();
    sendError(res, toAppError(error));
  });

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(config.port, config.host, () => resolve());
  });
  const { port } = httpServer.address() as { port: number };
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  // PORT=0 asks for any free port: the one taken is this service's own from now on (outbound
  // requests must not point at it, and URLs handed out name it).
  if (config.port === 0) {
    config.port = port;
    if (!config.publicUrlFromEnv) config.publicUrl = url;
  }
  logger.info('labdesk listening', { url, database: embedded ? 'embedded' : 'external', redis: Boolean(config.redisUrl) });
  if (bootstrap && !config.bootstrapAdminToken) await announceAdminPasswordLink(orm.em.fork(), config, bootstrap.userId, logger);
  sandboxes.serverUrl = url;
  const stopMeter = startMeter(services, logger);
  const stopPushDispatcher = startPushDeliveries(services, logger);
  const stopLimitSweep = startLimitSweep(() => orm.em.fork(), logger);
  const stopRetentionSweep = startRetentionSweep(services, logger);
  const stopNoticeSweep = startNoticeSweep(() => orm.em.fork(), logger);
  const stopReviewReminders = startReviewReminders(services, logger);
  const store = blobs.store;
  const stopSweeper = store
    ? startPeriodic('blob sweep', BLOB_SWEEP_SECONDS, async () => void (await sweepUnownedBlobs(orm.em.fork(), store)), logger)
    : async () => undefined;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await stopMeter();
      await stopSweeper();
      await stopLimitSweep();
      await stopRetentionSweep();
      await stopNoticeSweep();
      await stopReviewReminders();
      await stopA2aSweep();
      await stopPushDispatcher();
      await jobs.stop(); // running attempts are aborted and retried (here after a restart, or on another instance)
      await sandboxes.close();
      await agent.jobs.close();
      workspaces.sandbox.close();
      await apollo.stop(); // drains the HTTP server and the WebSocket server
      await Promise.allSettled(services.background);
      await blobs.releaseFiles.close();
      await pubsub.close();
      await limits.close();
      await services.signInAttempts.close();
      await credentialNotices.close();
      services.mailer?.close();
      await orm.close(true);
      await embedded?.stop();
      logger.info('labdesk stopped');
    })());
  return { url, services, bootstrapToken: bootstrap?.token, close };
}

/** First start: the admin token goes to DATA_DIR/admin-token (0600); the log says where, never the token (`docker logs` keeps it). */
function announceAdminToken(config: Config, token: string, logger: Logger) {
  const file = writeCredentialFile(config.dataDir, ADMIN_TOKEN_FILE, token);
  logger.info('admin account admin@localhost created; its token is in the file (readable by this user only)', { file });
}

/**
 * First start, once listening (the link names the port taken): a one-time link that sets the
 * admin's password, so the console can be used without an API call. Like the token, it is a
 * credential: in a file, never in the log.
 */
async function announceAdminPasswordLink(em: EntityManager, config: Config, adminId: string, logger: Logger) {
  const link = await issuePasswordLink(em, adminId, null, new Date());
  const file = writeCredentialFile(config.dataDir, ADMIN_PASSWORD_LINK_FILE, `${config.publicUrl}/set-password#${link.token}`);
  logger.info('to sign in to the web console as admin@localhost, open the one-time link in the file (it sets the password; 24 hours)', {
    file,
    newLink: 'labdesk users set-password-link admin@localhost',
  });
}

/** The first start's admin token, under DATA_DIR (the CLI reads it there too). */
const ADMIN_TOKEN_FILE = 'admin-token';
/** The first start's one-time link that sets the admin's password, under DATA_DIR. */
const ADMIN_PASSWORD_LINK_FILE = 'admin-password-link';

/**
 * Writes a credential to `dataDir/name`, readable by this user only (0600), and returns its path.
 * A file left there before is removed first: a new file gets the mode, an existing one would keep its own.
 */
function writeCredentialFile(dataDir: string, name: string, secret: string): string {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, name);
  fs.rmSync(file, { force: true });
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  return file;
}

/** GraphQL errors carry the same codes as the REST API, and never internals. */
export function formatGraphQLError(formatted: GraphQLFormattedError, error: unknown, logger: Logger): GraphQLFormattedError {
  const original = (error as { originalError?: unknown }).originalError;
  if (!original || original instanceof GraphQLError) return formatted; // GraphQL's own syntax/validation errors
  const appError = toAppError(original);
  if (appError.code === 'INTERNAL') logger.error('resolver failed', { error: describe(original) });
  return {
    message: appError.message,
    locations: formatted.locations,
    path: formatted.path,
    extensions: { code: appError.code, status: ERROR_CODES[appError.code].http, ...(appError.issues ? { issues: appError.issues } : {}) },
  };
}

/**
 * The credential of a graphql-ws connection: `connectionParams.authorization`, or
 * `Authorization` as many clients spell it (browsers cannot set headers on a WebSocket), else
 * the upgrade request's `Authorization` header. The value is the header's, `Bearer <token>`;
 * anything but a string is a bad credential (UNAUTHENTICATED), not an anonymous caller.
 */
export function websocketAuthorization(
  params: Readonly<Record<string, unknown>> | undefined,
  header: string | undefined,
): string | undefined {
  const given = params?.authorization ?? params?.Authorization;
  if (given === undefined || given === null) return header;
  return typeof given === 'string' ? given : 'invalid';
}

/** The error `check` throws, if any (for Express's `next`). */
function attempt(check: () => void): unknown {
  try {
    check();
    return undefined;
  } catch (error) {
    return error;
  }
}

/**
 * In front of Apollo on `/graphql`: makes the request's context, and screens the operation
 * (admin fields, anonymous introspection, cost: `screenOperation`) before Apollo validates it,
 * so that a refusal is the first thing a caller learns. The document is parsed here under the
 * same token limit as Apollo's; one that does not parse goes on to Apollo, which says why.
 */
function screenGraphQLRequests(pipeline: Pipeline, services: Services) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const ctx = makeContext(services, requestFacts(req, res, services.config));
    res.locals.graphqlContext = ctx;
    res.locals.metrics = { route: '/graphql' } satisfies RequestLabels;
    const request = (req.method === 'GET' ? req.query : req.body) as Record<string, unknown> | undefined;
    if (typeof request?.query !== 'string') return next();
    let document: DocumentNode;
    try {
      document = pipeline.parse(request.query);
    } catch {
      return next();
    }
    res.locals.metrics = { route: '/graphql', operation: operationLabelOf(document, request.operationName) } satisfies RequestLabels;
    try {
      const variables =
        typeof request.variables === 'string'
          ? parseJsonObject(request.variables)
          : (request.variables as Record<string, unknown> | undefined);
      const operationName = typeof request.operationName === 'string' ? request.operationName : undefined;
      await pipeline.screen({ document, operationName, variables }, ctx);
    } catch (error) {
      const appError = toAppError(error);
      const errors = [graphQLErrorOf(appError).toJSON()];
      countGraphQLErrors(operationTypeOf(document, request.operationName), errors);
      return void res.status(ERROR_CODES[appError.code].http).json({ errors });
    }
    next();
  };
}

/** Every `query:<field>`, `mutation:<field>` and `subscription:<field>` the schema has: the operation labels of /graphql requests. */
function rootOperations(schema: GraphQLSchema): string[] {
  const roots = { query: schema.getQueryType(), mutation: schema.getMutationType(), subscription: schema.getSubscriptionType() };
  return Object.entries(roots).flatMap(([kind, type]) => Object.keys(type?.getFields() ?? {}).map((field) => `${kind}:${field}`));
}

/** A request's operation label: its kind and first root field (`query:me`); unknown fields count as `other` in the metrics. */
function operationLabelOf(document: DocumentNode, operationName: unknown): string | undefined {
  const operations = document.definitions.filter(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  );
  const operation =
    typeof operationName === 'string'
      ? operations.find((o) => o.name?.value === operationName)
      : operations.length === 1
        ? operations[0]
        : undefined;
  const first = operation?.selectionSet.selections[0];
  return operation && first?.kind === Kind.FIELD ? `${operation.operation}:${first.name.value}` : undefined;
}

/** What `/metrics` reads at scrape time from this app: its pool, and the job queue and A2A tasks over every instance. */
function metricsOf(orm: Orm) {
  const q = () => sqlOf(orm.em.fork());
  const { pool } = connectionPool(orm.em);
  return appMetrics({
    pool: () => ({ used: pool.numUsed(), free: pool.numFree(), waiting: pool.numPendingAcquires() }),
    jobs: () => jobCounts(q()),
    a2aTasks: () => tasksByState(q()),
  });
}

/** A GET request's `variables` parameter; anything but a JSON object is left for Apollo to refuse. */
function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Which `Host` headers the service answers. On a loopback bind without PUBLIC_URL (a desktop's or
 * a developer's instance) only loopback names (`localhost`, 127.x.x.x, `[::1]`): a web page whose
 * own name was made to resolve to 127.0.0.1 (DNS rebinding) would otherwise reach every endpoint
 * with the browser's blessing, while its requests still name it. The `Host` header alone decides:
 * X-Forwarded-Host is a header any page may send, so TRUST_PROXY does not widen this. Any host
 * otherwise (a public bind, or PUBLIC_URL: the service is meant to be reached by another name).
 */
function hostsServed(config: Config): (host: string | undefined) => boolean {
  if (!isLoopbackHost(config.host) || config.publicUrlFromEnv) return () => true;
  // The verdict per Host header, remembered: a client sends the same one on every request, and
  // parsing an address is most of the check. Bounded, as the header is the client's to vary.
  const verdicts = new Map<string | undefined, boolean>();
  return (host) => {
    let served = verdicts.get(host);
    if (served === undefined) {
      served = isLoopbackHostHeader(host);
      if (verdicts.size >= 64) verdicts.clear();
      verdicts.set(host, served);
    }
    return served;
  };
}

/**
 * Node's request and answer objects made with Express's prototypes from the start. Express gives
 * every request its own by `Object.setPrototypeOf`, which costs V8 the objects' optimised shapes
 * (a trivial Express handler: 97 µs of CPU a request, 32 µs when born with them; docs/performance.md);
 * handed the prototype an object already has, it has nothing to change.
 */
function bornWithPrototypesOf(app: Express): Pick<http.ServerOptions, 'IncomingMessage' | 'ServerResponse'> {
  function ExpressRequest(this: http.IncomingMessage, socket: Socket) {
    http.IncomingMessage.call(this, socket);
  }
  ExpressRequest.prototype = app.request;
  function ExpressResponse(this: http.ServerResponse, req: http.IncomingMessage, options?: unknown) {
    (http.ServerResponse as unknown as (req: http.IncomingMessage, options?: unknown) => void).call(this, req, options);
  }
  ExpressResponse.prototype = app.response;
  return {
    IncomingMessage: ExpressRequest as unknown as typeof http.IncomingMessage,
    ServerResponse: ExpressResponse as unknown as typeof http.ServerResponse,
  };
}

/** A request refused by `hostsServed`: 403, in the error body of the endpoint it was sent to. */
const HOST_REFUSED = new AppError(
  'FORBIDDEN',
  'this server listens on loopback: address it as localhost, 127.0.0.1 or [::1] (or set PUBLIC_URL)',
);

/** A request refused before any route ran, in its path's error shape: JSON-RPC, GraphQL, or `{detail}`. */
function refuse(req: Request, res: Response, error: AppError): void {
  res.set(error.headers ?? {});
  const status = ERROR_CODES[error.code].http;
  if (req.path === A2A_RPC_PATH) return void res.status(status).json(rpcFailure(null, rpcErrorOf(error)));
  if (req.path === '/graphql') return void res.status(status).json({ errors: [graphQLErrorOf(error).toJSON()] });
  sendError(res, error);
}

const PROBES = new Set(['/healthz', '/readyz']);

/**
 * Request id (taken from `X-Request-Id` when sane); once the answer is done, the request's
 * metrics (`countRequest`) and, when it was answered whole, one JSON log line (credentials
 * redacted by the logger).
 */
function observeRequests(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const given = req.headers['x-request-id'];
    const requestId = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    res.locals.requestId = requestId;
    res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    // Probes come every few seconds from every balancer: worth a line only when debugging.
    const log = PROBES.has(req.path) ? logger.debug : logger.info;
    logger.debug('request headers', { requestId, headers: req.headers });
    // One listener: 'close' follows 'finish' for every answer, and comes alone when the connection went first.
    res.once('close', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      countRequest(req, res, seconds);
      if (!res.writableFinished) return;
      log('request', {
        requestId,
        method: req.method,
        // The path as the client sent it: under a mount (`/graphql`) `req.path` is relative to it.
        path: req.originalUrl.split('?', 1)[0],
        route: routeOf(req, res),
        status: res.statusCode,
        ms: seconds * 1000,
        // The user (`user_…`) or A2A key (`key:…`) the credential named, when it was checked.
        caller: res.locals.caller as string | undefined,
      });
    });
    next();
  };
}
