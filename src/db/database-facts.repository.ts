import type { Query } from './sql';

/** The newest migration applied (its name), or null on a database no labdesk has migrated. */
export async function newestMigration(q: Query): Promise<string | null> {
  const [{ migration }] = await q<{ migration: string | null }>(`select max(name) as migration from mikro_orm_migrations`);
  return migration;
}

/** How many tables the database has outside PostgreSQL's own schemas: 0 for an empty one. */
export async function userTableCount(q: Query): Promise<number> {
  const [{ tables }] = await q<{ tables: number }>(
    `select count(*)::int as tables from pg_tables where schemaname not in ('pg_catalog', 'information_schema')`,
  );
  return tables;
}
