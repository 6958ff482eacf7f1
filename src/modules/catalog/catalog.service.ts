import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { checks } from '../../validation';
import shipped from './models.json';
import { ModelCatalog } from './catalog.entity';
import { type CatalogModel, storedCatalogModel } from './catalog.repository';

export interface Catalog {
  models: CatalogModel[];
  version: string;
}

/** The catalog as served: its exact body (the manifest's sha256 is of these bytes) and when it changed. */
export interface ServedCatalog {
  body: string;
  catalog: Catalog;
  updatedAt: Date;
  sha256: string;
}

/** One canonical text per catalog: members in the contract's order, no whitespace. */
function bodyOf(catalog: Catalog): string {
  const models = catalog.models.map(({ id, provider, name, context_window, input_price, output_price, capabilities }) => ({
    id,
    provider,
    name,
    context_window,
    input_price,
    output_price,
    capabilities,
  }));
  return JSON.stringify({ models, version: catalog.version });
}

const SHIPPED_AT = new Date('2026-11-01T00:00:00.000Z');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The admin's catalog if one was stored, else the one shipped with the project. */
export async function currentCatalog(em: EntityManager): Promise<ServedCatalog> {
  const stored = await em.findOne(ModelCatalog, { id: 1 });
  const body = stored?.body ?? bodyOf(shipped);
  return { body, catalog: JSON.parse(body) as Catalog, updatedAt: stored?.updatedAt ?? SHIPPED_AT, sha256: sha256(body) };
}

/** The shipped catalog's entry of one model (what prices it when no catalog is stored). */
export const shippedCatalogModel = (modelId: string): CatalogModel | undefined => shipped.models.find((model) => model.id === modelId);

/** The catalog's entry of one model (its prices; undefined when the catalog has none), for the metered model calls. */
export async function catalogModel(em: EntityManager, modelId: string): Promise<CatalogModel | undefined> {
  const stored = await storedCatalogModel(em, modelId);
  return stored === undefined ? shippedCatalogModel(modelId) : (stored ?? undefined);
}

const ID = /^[A-Za-z0-9._:/-]+$/;

/** A replacement catalog as the GraphQL input carries it (camelCase members). */
export interface CatalogInput {
  version: string;
  models: {
    id: string;
    provider: string;
    name: string;
    contextWindow: number;
    inputPrice: number;
    outputPrice: number;
    capabilities: string[];
  }[];
}

/**
 * Replaces the catalog (admins). Ids must be unique; prices are per million tokens, ≥ 0.
 * @throws VALIDATION_FAILED
 */
export async function replaceCatalog(em: EntityManager, adminId: string, catalog: CatalogInput): Promise<ServedCatalog> {
  const check = checks()
    .text(['input', 'version'], catalog.version, { min: 1, max: 100 })
    .int(['input', 'models'], catalog.models.length, { min: 1, max: 1000 });
  const seen = new Set<string>();
  catalog.models.forEach((model, i) => {
    const at = (field: string) => ['input', 'models', i, field];
    check
      .text(at('id'), model.id, { min: 1, max: 200, pattern: ID, hint: 'must be 1-200 of A-Z a-z 0-9 . _ : / -' })
      .text(at('provider'), model.provider, { min: 1, max: 100 })
      .text(at('name'), model.name, { min: 1, max: 200 })
      .int(at('contextWindow'), model.contextWindow, { min: 1, max: 100_000_000 })
      .int(at('inputPrice'), model.inputPrice, { min: 0, max: 1_000_000 })
      .int(at('outputPrice'), model.outputPrice, { min: 0, max: 1_000_000 })
      .int(at('capabilities'), model.capabilities.length, { max: 50 });
    model.capabilities.forEach((capability, j) => check.text([...at('capabilities'), j], capability, { min: 1, max: 100 }));
    if (seen.has(model.id)) check.add(at('id'), 'appears twice in the catalog', 'duplicate');
    seen.add(model.id);
  });
  check.done();
  const body = bodyOf({
    version: catalog.version,
    models: catalog.models.map((m) => ({ ...m, context_window: m.contextWindow, input_price: m.inputPrice, output_price: m.outputPrice })),
  });
  await em.upsert(ModelCatalog, { id: 1, body, updatedBy: adminId, updatedAt: new Date() });
  return currentCatalog(em);
}
