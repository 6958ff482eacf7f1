import type { EntityManager } from '@mikro-orm/postgresql';
import { preparedOf } from '../../db/sql';

export interface CatalogModel {
  id: string;
  provider: string;
  name: string;
  context_window: number;
  input_price: number;
  output_price: number;
  capabilities: string[];
}

/**
 * SQL: a model call's credits at the stored catalog's prices (as `creditsOf`: prices per million
 * tokens, six decimals), worked out by PostgreSQL in the statement that writes the ledger row, so
 * a metered call need not read the catalog first: 0 for a model the stored catalog does not list,
 * the last parameter (the shipped catalog's credits) when none is stored. Parameters, in order:
 * tokens in, tokens out, the model id, the shipped credits.
 */
export const CATALOG_CREDITS_SQL = `coalesce(
    (select round((?::bigint * (m->>'input_price')::numeric + ?::bigint * (m->>'output_price')::numeric) / 1000000, 6)
       from model_catalogs c cross join lateral jsonb_array_elements(c.body::jsonb->'models') m where c.id = 1 and m->>'id' = ? limit 1),
    case when exists (select from model_catalogs where id = 1) then 0 else ?::numeric end)`;

/**
 * The stored catalog's entry of one model (null when it lists none), or undefined when no catalog
 * is stored: one prepared statement, PostgreSQL picking the entry, so a metered call neither
 * hydrates the catalog nor parses and hashes it.
 */
export async function storedCatalogModel(em: EntityManager, modelId: string): Promise<CatalogModel | null | undefined> {
  const [stored] = await preparedOf(em)<{ model: CatalogModel | null }>(
    `select (select m from jsonb_array_elements(body::jsonb->'models') m where m->>'id' = ? limit 1) as model from model_catalogs where id = 1`,
    [modelId],
  );
  return stored?.model;
}
