/**
 * Which tables an SQL statement touches, read from its text: the names after FROM, JOIN, INTO
 * and UPDATE that are tables of the database (so CTE names, aliases, functions and EXTRACT's
 * `from` are not). Statement-count tests assert these, not the SQL's wording: a refactor that
 * keeps the statements passes, one that adds a statement or a table fails. A comma join
 * (`from a, b`) is read for its first table only: the house's SQL joins with JOIN.
 */
import type { TestApp } from './app';

const NAMED = /\b(?:from|join|into|update)\s+((?:"?[a-z_][a-z0-9_]*"?\s*\.\s*)?"?[a-z_][a-z0-9_]*"?)/gi;

/** The tables of `public` (unqualified) and of the other schemas the app owns (qualified: `pgboss.job`). */
export async function tablesOfDatabase(t: Pick<TestApp, 'sql'>): Promise<Set<string>> {
  const rows = await t.sql<{ name: string }>(
    `select case when table_schema = 'public' then table_name else table_schema || '.' || table_name end as name
       from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')`,
  );
  return new Set(rows.map((row) => row.name));
}

/** The tables `statement` names among `known`, once each, sorted. */
export function tablesOf(statement: string, known: ReadonlySet<string>): string[] {
  const found = new Set<string>();
  for (const [, name] of statement.matchAll(NAMED)) {
    const table = name
      .replace(/["\s]/g, '')
      .toLowerCase()
      .replace(/^public\./, '');
    if (known.has(table)) found.add(table);
  }
  return [...found].sort();
}
