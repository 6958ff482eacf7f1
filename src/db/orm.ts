import path from 'node:path';
import { MikroORM } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { ENTITIES } from './entities';

export type Orm = MikroORM<PostgreSqlDriver>;

const ROOT = path.resolve(__dirname, '..', '..', '..');
const IS_COMPILED = __dirname.includes(`${path.sep}dist${path.sep}`);

/** MikroORM options shared by the service, the CLI and the tests. */
export function ormOptions(clientUrl: string, opts: { preferTs?: boolean; poolMax?: number } = {}) {
  const projectRoot = IS_COMPILED ? ROOT : path.resolve(__dirname, '..', '..');
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
    pool: { min: 0, max: opts.poolMax ?? 20 },
    // Entities are plain data here; the request context forks the EM.
    allowGlobalContext: false,
    dataloader: true,
    debug: process.env.LABDESK_SQL_DEBUG === '1',
    ensureDatabase: false,
  };
}

/** Connects and applies pending migrations (idempotent, safe to run from several instances). */
export async function openDatabase(clientUrl: string, opts: { preferTs?: boolean; poolMax?: number; migrate?: boolean } = {}): Promise<Orm> {
  const orm = await MikroORM.init<PostgreSqlDriver>(ormOptions(clientUrl, opts));
  if (opts.migrate !== false) await migrate(orm);
  return orm;
}

/**
 * Applies pending migrations under a PostgreSQL advisory lock, so that two instances starting
 * together do not both try to run them.
 */
export async function migrate(orm: Orm): Promise<string[]> {
  const knex = orm.em.getConnection().getKnex();
  const conn = await knex.client.acquireConnection();
  const LOCK_KEY = 727_001;
  try {
    await conn.query('select pg_advisory_lock($1)', [LOCK_KEY]);
    const applied = await orm.getMigrator().up();
    return applied.map((m) => m.name);
  } finally {
    await conn.query('select pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => undefined);
    await knex.client.releaseConnection(conn);
  }
}

/** Whether the database answers (the readiness probe). @throws when it does not */
export async function pingDatabase(orm: Orm): Promise<void> {
  await orm.em.getConnection().execute('select 1');
}
