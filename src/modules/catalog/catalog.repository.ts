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
