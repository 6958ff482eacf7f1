import type { EntityManager } from '@mikro-orm/postgresql';
import {
  type Compilable,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type RawBuilder,
  type SelectType,
  sql,
  type Expression,
} from 'kysely';
import type { Database } from './database';
import { directQuery, numbered, type Query } from './sql';

/**
 * Statements whose rows are typed from the schema: Kysely builds and compiles them against
 * `Database` (generated from the migrated database, see database-codegen.ts) and infers each
 * row's type; they run as the hand-written ones do, through a `Query` (so in the caller's
 * transaction, one statement each) or `directQuery`. Kysely never connects: its driver is a dummy.
 */

/** Placeholders as `?`, as a `Query` takes them (so a compiled statement runs through any of them). */
class QuestionMarkCompiler extends PostgresQueryCompiler {
  protected override getCurrentParameterPlaceholder() {
    return '?';
  }
}

export const db = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (kysely) => new PostgresIntrospector(kysely),
    createQueryCompiler: () => new QuestionMarkCompiler(),
  },
});

/** Runs a compiled statement through `q`: its rows, as Kysely inferred them. */
export async function rowsOf<Row>(q: Query, statement: Compilable<Row>): Promise<Row[]> {
  const { sql: text, parameters } = statement.compile();
  return q<Row>(text, [...parameters]);
}

/** Its first row (undefined: none). */
export async function firstRowOf<Row>(q: Query, statement: Compilable<Row>): Promise<Row | undefined> {
  return (await rowsOf(q, statement))[0];
}

/** A value of a statement compiled once (`compiledOnce`): a `?` in its text, typed as the value, given when it runs. */
export const slot = <T>() => sql<T>`?`;

/**
 * A fixed statement compiled once, where it is built (a hot path's: a module-level constant), not
 * on every call: its values are `slot`s (it binds none of its own), which `rows` takes in the
 * order they stand in its text, as a `Query` takes its parameters.
 */
export function compiledOnce<Row>(statement: Compilable<Row>) {
  const { sql: text, parameters } = statement.compile();
  if (parameters.length > 0)
    throw new Error(`a statement compiled once takes its values as slots, not ${parameters.length} bound: ${text}`);
  return { text, rows: (q: Query, values: unknown[]) => q<Row>(text, values) };
}

/** SQL text that names its values `@name`, kept as it is for `namedOnce` (where `named` binds them at once). */
export const namedText = <T = unknown>(text: string) => sql<T>`${sql.raw(text)}`;

/** A value of a statement compiled by `namedOnce`: `@name` in its text. */
export const at = <T>(name: string) => namedText<T>(`@${name}`);

/**
 * A fixed statement compiled once whose values are named in its text (`@name`, as `named` takes
 * them; `at` and `namedText` keep them as they are): each `@name` becomes a placeholder, and the
 * values are given by name when it runs, as a named prepared statement (see `directQuery`).
 * For the hot writes built from many parts: Kysely builds nothing per call.
 */
export function namedOnce<Row>(name: string, statement: Compilable<Row>) {
  const { sql: compiled, parameters } = statement.compile();
  if (parameters.length > 0) throw new Error(`${name}: a statement compiled once names its values, not ${parameters.length} bound`);
  const names: string[] = [];
  const text = numbered(compiled.replace(/@(\w+)/g, (_, value: string) => (names.push(value), '?')));
  return {
    run(em: EntityManager, values: Record<string, unknown>) {
      const missing = names.find((value) => !(value in values));
      if (missing) throw new Error(`${name}: no value for @${missing}`);
      return directQuery<Row>(
        em,
        { name, text },
        names.map((value) => values[value]),
      );
    },
  };
}

/** A compiled statement as a named prepared statement (see `directQuery`), with its parameters. */
export function preparedStatement<Row>(name: string, statement: Compilable<Row>) {
  const { sql: text, parameters } = statement.compile();
  return {
    run: (em: EntityManager) => directQuery<Row>(em, { name, text: numbered(text) }, [...parameters]),
  };
}

/**
 * SQL: a bigint or numeric column of `table` as float8 under its own name: a number (null where
 * the column is nullable), unqualified (for a statement on that one table).
 */
export const float8Column = <T extends keyof Database, C extends keyof Database[T] & string>(_table: T, column: C) =>
  sql<null extends SelectType<Database[T][C]> ? number | null : number>`${sql.ref(column)}::float8`.as(column);

/** SQL: a bigint or numeric as float8, which the driver answers as a number (exact to 2^53); null stays null. */
export const asFloat8 = <V>(value: Expression<V>) => sql<null extends V ? number | null : number>`(${value})::float8`;

/**
 * SQL text with `?` placeholders (the fragments the policies and `conditions()` build) and its
 * values, as a Kysely fragment: the values are bound in order where the placeholders stand.
 */
export function fragment<T = unknown>(text: string, ...values: unknown[]): RawBuilder<T> {
  const parts = text.split('?');
  if (parts.length !== values.length + 1) throw new Error(`${parts.length - 1} placeholder(s) for ${values.length} value(s) in: ${text}`);
  return sql<T>`${sql.raw(parts[0])}${sql.join(
    values.map((value, i) => sql`${value}${sql.raw(parts[i + 1])}`),
    sql``,
  )}`;
}

/** A condition as `fragment` takes it, for a `where` (parenthesized: Kysely joins conditions with a bare `and`). */
export const condition = (text: string, ...values: unknown[]) => fragment<boolean>(`(${text})`, ...values);

/**
 * SQL text naming its values `@name` (a fixed statement that uses a value in several places), as
 * a Kysely fragment: each `@name` of `values` becomes a placeholder bound to that value.
 */
export function named<T = unknown>(text: string, values: Record<string, unknown>): RawBuilder<T> {
  const parts = text.split(/@(\w+)/);
  const pieces = [sql.raw(parts[0])];
  for (let i = 1; i < parts.length; i += 2) {
    if (!(parts[i] in values)) throw new Error(`no value for @${parts[i]} in: ${text}`);
    pieces.push(sql`${values[parts[i]]}`, sql.raw(parts[i + 1]));
  }
  return sql<T>`${sql.join(pieces, sql``)}`;
}

/** A CTE's body as `named` SQL (an insert, an update), parenthesized as a `with` needs it (Kysely adds none to raw SQL). */
export const cteBody = <T>(text: string, values: Record<string, unknown>) => named<T>(`(${text})`, values);

/**
 * `value`, which a nullable column holds for every row the statement reads (a rule the writes
 * keep, not a constraint): checked, never assumed.
 */
export function present<T>(value: T | null, column: string): T {
  if (value === null) throw new Error(`${column} is null where the writes always set it`);
  return value;
}
