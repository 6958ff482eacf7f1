import type { EntityManager, Knex } from '@mikro-orm/postgresql';

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

/**
 * A raw row with `columns` made Dates: raw SQL gets timestamps as text (the ORM's type parsers
 * leave them so), and null stays null.
 */
export function withDates<T>(row: Record<string, unknown>, ...columns: string[]): T {
  const out: Record<string, unknown> = { ...row };
  for (const column of columns) if (out[column] !== null && out[column] !== undefined) out[column] = new Date(out[column] as string);
  return out as T;
}

/** Raw SQL with `?` placeholders, answering rows. */
export type Query = <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>;

/** Runs raw SQL inside `em`'s current transaction (if any). */
export const sqlOf = (em: EntityManager): Query => async (sql, params = []) => {
  // Through knex so parameters travel as bind values ($1…): MikroORM's `execute` would inline
  // them as escaped literals, which for a batch of records means escaping its whole text.
  const knex = (em.getTransactionContext() as Knex.Transaction | undefined) ?? em.getConnection().getKnex();
  const result = (await knex.raw(sql, params as Knex.RawBinding[])) as { rows: never[] };
  return result.rows;
};

/** A pooled connection as the pg driver hands it out. */
interface PgClient {
  query(text: string | { name: string; text: string }, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** `?` placeholders to the driver's `$1…` (no literal `?` in SQL). */
const numbered = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

/** Runs `work` on a pooled connection of its own, without the ORM or the query builder. */
async function onConnection<T>(em: EntityManager, work: (client: PgClient) => Promise<T>): Promise<T> {
  const pool = em.getConnection().getKnex().client;
  const client = (await pool.acquireConnection()) as PgClient;
  try {
    return await work(client);
  } finally {
    await pool.releaseConnection(client);
  }
}

/**
 * One statement straight to the driver, in its own implicit transaction: for the hot paths.
 * `$1…` placeholders, as the driver takes them. A named statement is prepared once per
 * connection and then runs without being parsed or planned again.
 */
export const directQuery = <T = Record<string, unknown>>(em: EntityManager, statement: string | { name: string; text: string }, params: unknown[] = []): Promise<T[]> =>
  onConnection(em, async (client) => (await client.query(statement, params)).rows as T[]);

/**
 * Runs `work` in one transaction on a pooled connection, without the ORM or the query builder:
 * the write paths that carry whole batches of records.
 */
export function inTransaction<T>(em: EntityManager, work: (q: Query) => Promise<T>): Promise<T> {
  return onConnection(em, async (client) => {
    const q: Query = async (sql, params = []) => (await client.query(numbered(sql), params)).rows as never[];
    try {
      await client.query('begin');
      const result = await work(q);
      await client.query('commit');
      return result;
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    }
  });
}
