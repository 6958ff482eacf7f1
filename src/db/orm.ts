import path from 'node:path';
import { inspect, stripVTControlCharacters } from 'node:util';
import { MikroORM } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { AppError } from '../errors';
import type { Logger } from '../logger';
import { ENTITIES } from './entities';
import { connectionPool } from './pool';

export type Orm = MikroORM<PostgreSqlDriver>;

/** The connection options that bound how long the database may keep the service waiting, and who hears its notices. */
export interface DatabaseLimits {
  /** How long opening a connection may take (the pg driver's `connectionTimeoutMillis`). */
  connectTimeoutMs?: number;
  /** PostgreSQL's `statement_timeout` on every connection of the pool; see `limitAnswers`. */
  statementTimeoutMs?: number;
  /**
   * Where the ORM's and its query builder's (knex) own messages go, such as knex's "Connection
   * Error: Connection ended unexpectedly" when a pooled connection was closed under it; without
   * it they are printed as plain text on stdout (the CLI's commands), not as log lines.
   */
  log?: Logger;
  /**
   * Told of every NOTICE a statement of the pool's raises (message and detail), as it arrives:
   * during the statement, so before its transaction's commit answers.
   */
  notices?: (message: string, detail: string | undefined) => void;
}

/** A knex or MikroORM message as text: a string as it is (without colours), anything else inspected. */
const messageText = (message: unknown) => stripVTControlCharacters(typeof message === 'string' ? message : inspect(message));

/** The knex `log` option and the MikroORM `logger` option that write through `log`. */
function ormLogging(log: Logger | undefined) {
  if (!log) return {};
  const as = (level: 'debug' | 'warn' | 'error') => (message: unknown) => log[level](messageText(message), { source: 'knex' });
  return {
    knexLog: { debug: as('debug'), warn: as('warn'), error: as('error'), deprecate: as('warn') },
    // MikroORM's deprecation notices (and its SQL lines under LABDESK_SQL_DEBUG).
    logger: (message: string) => log.info(messageText(message), { source: 'mikro-orm' }),
  };
}

/**
 * How much longer than the statement time-out a connection may stay silent while a statement
 * waits for its answer: PostgreSQL's own cancel (a clean error, the connection kept) comes first.
 */
export const ANSWER_GRACE_MS = 2_000;

const ROOT = path.resolve(__dirname, '..', '..', '..');
const IS_COMPILED = __dirname.includes(`${path.sep}dist${path.sep}`);

/** MikroORM options shared by the service, the CLI and the tests. */
export function ormOptions(clientUrl: string, opts: { preferTs?: boolean; poolMax?: number } & DatabaseLimits = {}) {
  const projectRoot = IS_COMPILED ? ROOT : path.resolve(__dirname, '..', '..');
  const { knexLog, logger } = ormLogging(opts.log);
  return {
    driver: PostgreSqlDriver,
    clientUrl,
    entities: ENTITIES,
    extensions: [Migrator],
    preferTs: opts.preferTs ?? !IS_COMPILED,
    migrations: {
      path: path.join(projectRoot, 'dist', 'migrations'),
      pathTs: path.join(projectRoot, 'migrations'),
      glob: '!(*.d).{js,ts}',
      emit: 'ts' as const,
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      silent: true,
    },
    pool: { min: 0, max: opts.poolMax ?? 20, afterCreate: prepareConnection(opts) },
    driverOptions: {
      connection: opts.connectTimeoutMs ? { connectionTimeoutMillis: opts.connectTimeoutMs } : {},
      ...(knexLog ? { log: knexLog } : {}),
    },
    ...(logger ? { logger } : {}),
    // Entities are plain data here; the request context forks the EM.
    allowGlobalContext: false,
    dataloader: true,
    debug: process.env.LABDESK_SQL_DEBUG === '1',
    ensureDatabase: false,
  };
}

/**
 * Connects and applies pending migrations (idempotent, safe to run from several instances).
 * With a statement time-out, the migrations run on connections without it (an index built on a
 * large table may take minutes, and the lock waits for another instance's migrations), and the
 * pool is then opened again with it for everything else.
 */
export async function openDatabase(
  clientUrl: string,
  opts: { preferTs?: boolean; poolMax?: number; migrate?: boolean } & DatabaseLimits = {},
): Promise<Orm> {
  if (opts.migrate === false) return MikroORM.init<PostgreSqlDriver>(ormOptions(clientUrl, opts));
  const orm = await MikroORM.init<PostgreSqlDriver>(ormOptions(clientUrl, { ...opts, statementTimeoutMs: undefined }));
  const applied = await migrate(orm);
  // Which instance upgraded the schema, and to what: the operator's record of an upgrade.
  if (applied.length) opts.log?.info(`applied ${applied.length} migration(s)`, { migrations: applied });
  if (opts.statementTimeoutMs) {
    const { pool, driverOptions } = ormOptions(clientUrl, opts);
    await orm.reconnect({ pool, driverOptions });
  }
  return orm;
}

/** The pool's `afterCreate`: hears the connection's notices, and bounds its answers (`limitAnswers`) when a time-out is set. */
function prepareConnection({ statementTimeoutMs, notices }: DatabaseLimits) {
  const limit = statementTimeoutMs ? limitAnswers(statementTimeoutMs) : undefined;
  return (connection: PgConnection, done: (error: Error | null, connection: PgConnection) => void) => {
    if (notices) connection.on('notice', (notice) => notices(notice.message ?? '', notice.detail));
    if (limit) limit(connection, done);
    else done(null, connection);
  };
}

/** A pooled connection of the pg driver, as far as `prepareConnection` reads it. */
interface PgConnection {
  on(event: 'notice', listener: (notice: { message?: string; detail?: string }) => void): void;
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  query(text: string, callback: (error: Error | null) => void): void;
  /** False from the moment a statement is sent until the server says it is ready for the next. */
  readyForQuery: boolean;
  connection: { stream: { setTimeout(ms: number): void; on(event: 'timeout', listener: () => void): void; destroy(error: Error): void } };
}

/**
 * The pool's `afterCreate`: sets PostgreSQL's `statement_timeout` on the new connection (a SET
 * rather than a startup parameter, which PgBouncer refuses), and closes the connection when a
 * statement gets no byte of answer for `statementTimeoutMs + ANSWER_GRACE_MS`. The server's time-out
 * cannot fire on a server that is frozen or cut off; closing, rather than giving up on the
 * statement and keeping the connection (the driver's `query_timeout`), matters: the statement may
 * still run once the server wakes, in a transaction the next request would inherit. The caller
 * gets ETIMEDOUT (503); the pool opens a new connection for the next one.
 */
function limitAnswers(statementTimeoutMs: number) {
  const silenceMs = statementTimeoutMs + ANSWER_GRACE_MS;
  return (connection: PgConnection, done: (error: Error | null, connection: PgConnection) => void) => {
    const socket = connection.connection.stream;
    socket.setTimeout(silenceMs); // any byte either way restarts it; idle connections are left alone
    socket.on('timeout', () => {
      if (!connection.readyForQuery)
        socket.destroy(Object.assign(new Error(`the database did not answer within ${silenceMs} ms`), { code: 'ETIMEDOUT' }));
    });
    connection.query(`set statement_timeout = ${Math.trunc(statementTimeoutMs)}`, (error) => done(error, connection));
  };
}

/**
 * Applies pending migrations under a PostgreSQL advisory lock, so that two instances starting
 * together do not both try to run them.
 */
export async function migrate(orm: Orm): Promise<string[]> {
  const pool = connectionPool<PgConnection>(orm.em);
  const conn = await pool.acquireConnection();
  const LOCK_KEY = 727_001;
  try {
    await conn.query('select pg_advisory_lock($1)', [LOCK_KEY]);
    const applied = await orm.getMigrator().up();
    return applied.map((m) => m.name);
  } finally {
    await conn.query('select pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => undefined);
    await pool.releaseConnection(conn);
  }
}

/** Read-only: a standby (in recovery), or transactions read-only by default (a database or role setting, a full disk's guard). */
const READINESS = `select pg_is_in_recovery() as recovery, current_setting('transaction_read_only') = 'on' as read_only`;

/**
 * The readiness probe: the database answers on a pooled connection within `timeoutMs` and takes
 * writes. A connection that did not answer in time is closed (see `limitAnswers`).
 * @throws UNAVAILABLE saying which of these failed
 */
export async function checkDatabaseReady(orm: Orm, timeoutMs: number): Promise<void> {
  const pool = connectionPool<PgConnection>(orm.em);
  const late = new AppError('UNAVAILABLE', `the database did not answer within ${timeoutMs} ms`);
  const deadline = Date.now() + timeoutMs;
  const acquiring = pool.acquireConnection();
  const connection = await before(deadline, acquiring);
  if (connection === TOO_LATE) {
    void acquiring.then(
      (acquired) => pool.releaseConnection(acquired),
      () => undefined,
    );
    throw late;
  }
  try {
    const answer = await before(deadline, connection.query(READINESS));
    if (answer === TOO_LATE) {
      connection.connection.stream.destroy(Object.assign(new Error('readiness probe timed out'), { code: 'ETIMEDOUT' }));
      throw late;
    }
    const [{ recovery, read_only: readOnly }] = answer.rows;
    if (recovery) throw new AppError('UNAVAILABLE', 'the database is read-only: a standby in recovery');
    if (readOnly) throw new AppError('UNAVAILABLE', 'the database is read-only: transaction_read_only is on');
  } finally {
    await pool.releaseConnection(connection);
  }
}

const TOO_LATE = Symbol('too late');

/** `work`'s value, or TOO_LATE once `deadline` (epoch ms) has passed; a failure after that is ignored. */
function before<T>(deadline: number, work: Promise<T>): Promise<T | typeof TOO_LATE> {
  let timer: NodeJS.Timeout | undefined;
  const expiry = new Promise<typeof TOO_LATE>(
    (resolve) => (timer = setTimeout(() => resolve(TOO_LATE), Math.max(0, deadline - Date.now()))),
  );
  work.catch(() => undefined);
  return Promise.race([work, expiry]).finally(() => clearTimeout(timer));
}
