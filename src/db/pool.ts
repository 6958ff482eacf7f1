import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * knex's pool of pg connections, as far as this service uses it (knex types its `client` as
 * `any`): a connection borrowed and given back, and the pool's counts for `/metrics`. `C` is what
 * the caller reads of a connection.
 */
export interface ConnectionPool<C> {
  acquireConnection(): Promise<C>;
  releaseConnection(connection: C): Promise<void>;
  pool: { numUsed(): number; numFree(): number; numPendingAcquires(): number };
}

export const connectionPool = <C>(em: EntityManager): ConnectionPool<C> => em.getConnection().getKnex().client as ConnectionPool<C>;
