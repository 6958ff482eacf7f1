import { createHash } from 'node:crypto';
import type { EntityManager, Knex } from '@mikro-orm/postgresql';
import { databaseNeverReached, databaseOutage } from '../errors';
import { type ConnectionPool, connectionPool } from './pool';

/** An ILIKE pattern matching `text` anywhere, with the caller's `%`, `_` and `\` taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Builds a WHERE condition from optional parts, keeping each part's parameters with it. */
export function conditions() {
  const clauses: string[] = [];
  const params: unknown[] = [];
  return {
    params,
    add(clause: string, ...values: unknown[]) {
      clauses.push(clause);
      params.push(...values);
    },
    sql: () => (clauses.length ? clauses.join(' and ') : 'true'),
  };
}

/** One raw timestamp column as a Date (raw SQL gets timestamps as text); null stays null. */
export const dateOf = (value: unknown): Date | null => (value === null || value === undefined ? null : new Date(value as string));

/** A part of a statement (a CTE's body, say) with its parameters, for a caller to put in its own statement. */
export interface SqlPart {
  sql: string;
  params: unknown[];
}

/** Raw SQL with `?` placeholders, answering rows. */
export type Query = <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>;

/** Runs raw SQL inside `em`'s current transaction (if any). */
export const sqlOf =
  (em: EntityManager): Query =>
  async (sql, params = []) => {
    // Through knex so parameters travel as bind values ($1…): MikroORM's `execute` would inline
    // them as escaped literals, which for a batch of records means escaping its whole text.
    const knex = em.getTransactionContext<Knex.Transaction>() ?? em.getConnection().getKnex();
    const result = await knex.raw<{ rows: never[] }>(sql, params as Knex.RawBinding[]);
    return result.rows;
  };

/** A pooled connection as the pg driver hands it out. */
interface PgClient {
  query(text: Statement, values?: unknown[]): Promise<{ rows: unknown[] }>;
  /** The driver's record of the statements it has prepared on this connection (not public API). */
  connection?: { parsedStatements?: Record<string, string> };
}

/** SQL text, or a named statement, which the driver prepares once per connection. */
type Statement = string | { name: string; text: string };

/** `?` placeholders to the driver's `$1…` (no literal `?` in SQL). */
export const numbered = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

/**
 * Whether the server's copy of a prepared statement no longer serves: gone (a pooler's
 * `DISCARD ALL`, say), or its result changed type under it (another instance's migration).
 */
const preparedStatementLost = (error: unknown) => {
  const { code, message } = error as { code?: string; message?: string };
  return code === '26000' || (code === '0A000' && message === 'cached plan must not change result type');
};

/**
 * Runs `work` on the connection of `em`'s transaction when it is in one (so that what it reads
 * and writes belongs to that unit of work), else on a pooled connection of its own; without the
 * ORM or the query builder either way. `inUnitOfWork` says which. Its statements go through the
 * ORM's query log all the same (`LABDESK_SQL_DEBUG`, tests).
 */
async function onConnection<T>(
  em: EntityManager,
  work: (run: (statement: Statement, params?: unknown[]) => Promise<unknown[]>, inUnitOfWork: boolean) => Promise<T>,
): Promise<T> {
  const transaction = em.getTransactionContext<Knex.Transaction>();
  // A transaction's client hands out its one connection and never gives it back to the pool.
  const pool = (transaction?.client as ConnectionPool<PgClient> | undefined) ?? connectionPool<PgClient>(em);
  const logger = em.config.getLogger();
  const client = await pool.acquireConnection();
  // A copy: the driver writes the values onto the statement object it is given. In a
  // transaction, a named statement goes as its text: a failed attempt to use a lost one would
  // abort the transaction, where it could not be prepared again.
  const send = (statement: Statement, params: unknown[]) =>
    client.query(typeof statement === 'string' ? statement : transaction ? statement.text : { ...statement }, params);
  const run = async (statement: Statement, params: unknown[] = []) => {
    const began = Date.now();
    const { rows } = await send(statement, params).catch(async (error: unknown) => {
      if (typeof statement === 'string' || transaction || !preparedStatementLost(error)) throw error;
      // Prepared again, once. Outside a transaction the failed attempt left nothing to roll back.
      await client.query(`deallocate "${statement.name}"`).catch(() => undefined);
      delete client.connection?.parsedStatements?.[statement.name];
      return send(statement, params);
    });
    logger.logQuery({
      query: typeof statement === 'string' ? statement : statement.text,
      took: Date.now() - began,
      results: rows.length,
      level: 'info',
    });
    return rows;
  };
  try {
    return await work(run, transaction !== undefined);
  } finally {
    await pool.releaseConnection(client);
  }
}

/**
 * One statement straight to the driver, in `em`'s transaction if it is in one, else in its own
 * implicit transaction: for the hot paths. `$1…` placeholders, as the driver takes them. A named
 * statement is prepared once per connection and then runs without being planned again.
 */
export const directQuery = <T = Record<string, unknown>>(em: EntityManager, statement: Statement, params: unknown[] = []): Promise<T[]> =>
  onConnection(em, async (run) => (await run(statement, params)) as T[]);

/** Prepared statements of `preparedOf`, by their SQL text (`?` placeholders). */
const preparedByText = new Map<string, { name: string; text: string }>();

/**
 * Raw SQL with `?` placeholders as a named prepared statement (run like `directQuery`: in `em`'s
 * transaction if it is in one): for the fixed lookups run on every request,
 * such as the loaders' batches. They skip the ORM and the query builder, and PostgreSQL parses
 * and plans each text once per connection. Only for SQL text written in code, never built from
 * input: each distinct text stays prepared on every pooled connection.
 */
export const preparedOf =
  (em: EntityManager): Query =>
  (sql, params = []) => {
    let statement = preparedByText.get(sql);
    if (!statement) {
      statement = { name: `q_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`, text: numbered(sql) };
      preparedByText.set(sql, statement);
    }
    return directQuery(em, statement, params);
  };

/**
 * Runs `work` in one transaction without the ORM or the query builder: the write paths that
 * carry whole batches of records. Inside `em`'s transaction it is a savepoint of that one, so
 * that it commits with it (or, on failure, undoes only its own part).
 */
export function inTransaction<T>(em: EntityManager, work: (q: Query) => Promise<T>): Promise<T> {
  return onConnection(em, async (run, inUnitOfWork) => {
    const [begin, commit, rollback] = inUnitOfWork
      ? ['savepoint batch', 'release savepoint batch', 'rollback to savepoint batch']
      : ['begin', 'commit', 'rollback'];
    try {
      await run(begin);
      const result = await work(async (sql, params) => (await run(numbered(sql), params)) as never[]);
      await run(commit);
      return result;
    } catch (error) {
      await run(rollback).catch(() => undefined);
      throw error;
    }
  });
}

/**
 * Runs `work` again while the database cannot be reached (a restart) and `signal` says the caller
 * still wants the answer, waiting 250 ms, then twice as long each time, 5 s at most; any other
 * failure, or one once the signal is aborted, is thrown. For a write that keeps what was already
 * paid for (a model call), which must not be lost and paid again. By default only failures whose
 * statements were never sent are waited out; `idempotent` work, which may be sent again after its
 * connection was lost under it (done or not), waits out every outage (`databaseOutage`).
 */
export async function whileDatabaseUnreachable<T>(work: () => Promise<T>, signal: AbortSignal | undefined, idempotent = false): Promise<T> {
  const waitsOut = idempotent ? databaseOutage : databaseNeverReached;
  for (let waitMs = 250; ; waitMs = Math.min(waitMs * 2, 5000)) {
    try {
      return await work();
    } catch (error) {
      if (!signal || signal.aborted || !waitsOut(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
}
