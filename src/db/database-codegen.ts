/**
 * Writes src/db/database.ts, the `Database` interface the typed queries (`typed-sql.ts`) are
 * checked against, from a migrated database's catalogue: one interface per table, each column
 * typed as the pg driver hands it over here (see `SELECT_TYPES`). test/database-types.test.ts
 * compares it with a freshly migrated database, and rewrites it with `npm run db:types`.
 */

/** A column as `information_schema.columns` describes it. */
export interface CatalogColumn {
  table_name: string;
  column_name: string;
  udt_name: string;
  is_nullable: 'YES' | 'NO';
  /** A default, or an identity or generated column: an insert may leave it out. */
  defaulted: boolean;
}

/** The columns of every table and view of the `public` schema, in the order migrations made them. */
export const CATALOG_SQL = `select c.table_name, c.column_name, c.udt_name, c.is_nullable,
    (c.column_default is not null or c.is_identity = 'YES' or c.is_generated = 'ALWAYS') as defaulted
  from information_schema.columns c
  join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
 where c.table_schema = 'public' and t.table_type in ('BASE TABLE', 'VIEW')
 order by c.table_name, c.ordinal_position`;

/**
 * PostgreSQL types (by `udt_name`; `_x` is an array of `x`) to the TypeScript the driver answers
 * with under the ORM's type parsers: bigint and numeric as text (exact), timestamps and dates as
 * text (`dateOf` makes Dates), json as parsed values. A type not listed fails the generation.
 */
const SELECT_TYPES: Record<string, string> = {
  int2: 'number',
  int4: 'number',
  float4: 'number',
  float8: 'number',
  int8: 'Int8',
  numeric: 'Numeric',
  bool: 'boolean',
  text: 'string',
  varchar: 'string',
  bpchar: 'string',
  uuid: 'string',
  citext: 'string',
  inet: 'string',
  timestamptz: 'Timestamp',
  timestamp: 'Timestamp',
  date: 'Timestamp',
  interval: 'string',
  jsonb: 'Json',
  json: 'Json',
  bytea: 'Buffer',
};

const ARRAY_TYPES: Record<string, string> = { text: 'string[]', varchar: 'string[]', int4: 'number[]', int2: 'number[]', uuid: 'string[]' };

const typeOf = (column: CatalogColumn): string => {
  const type = column.udt_name.startsWith('_') ? ARRAY_TYPES[column.udt_name.slice(1)] : SELECT_TYPES[column.udt_name];
  if (!type) throw new Error(`${column.table_name}.${column.column_name}: no TypeScript type for PostgreSQL type ${column.udt_name}`);
  const nullable = column.is_nullable === 'YES' ? `${type} | null` : type;
  return column.defaulted ? `Defaulted<${nullable}>` : nullable;
};

/** `trajectory_records` → `TrajectoryRecordsTable`. */
const interfaceName = (table: string) => `${table.replace(/(^|_)([a-z0-9])/g, (_, _sep: string, c: string) => c.toUpperCase())}Table`;

const HEADER = `/**
 * The database's tables as the pg driver answers them. Generated from a freshly migrated database by
 * src/db/database-codegen.ts: do not edit; run \`npm run db:types\` after adding a migration
 * (test/database-types.test.ts fails while this file differs from what migrations/ make).
 */
import type { ColumnType } from 'kysely';

/** bigint: text (exact); a number or a bigint may be written. */
export type Int8 = ColumnType<string, string | number | bigint, string | number | bigint>;
/** numeric: text (exact); a number may be written. */
export type Numeric = ColumnType<string, string | number, string | number>;
/** Timestamps and dates: text, as the ORM's type parsers leave them (\`dateOf\` makes a Date); a Date may be written. */
export type Timestamp = ColumnType<string, string | Date, string | Date>;
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
/** json and jsonb: the parsed value; written as JSON text. */
export type Json = ColumnType<JsonValue, string, string>;
/** A column with a default (or an identity): an insert may leave it out. */
export type Defaulted<T> =
  T extends ColumnType<infer S, infer I, infer U> ? ColumnType<S, I | undefined, U> : ColumnType<T, T | undefined, T>;
`;

/** The text of src/db/database.ts for these columns (formatted as prettier leaves it). */
export function databaseModule(columns: CatalogColumn[]): string {
  const tables = new Map<string, CatalogColumn[]>();
  for (const column of columns) tables.set(column.table_name, [...(tables.get(column.table_name) ?? []), column]);
  const names = [...tables.keys()].sort();
  const database = `export interface Database {\n${names.map((name) => `  ${name}: ${interfaceName(name)};\n`).join('')}}\n`;
  const interfaces = names.map(
    (name) =>
      `export interface ${interfaceName(name)} {\n${tables
        .get(name)!
        .map((column) => `  ${column.column_name}: ${typeOf(column)};\n`)
        .join('')}}\n`,
  );
  return [HEADER, database, ...interfaces].join('\n');
}
