import { Check, Entity, Opt, PrimaryKey, Property } from '@mikro-orm/core';

/** The model catalog as an admin last replaced it (absent: the catalog shipped with the project). */
@Entity({ tableName: 'model_catalogs' })
/** One row at most. */
@Check({ name: 'model_catalogs_one', expression: 'id = 1' })
export class ModelCatalog {
  /** Always 1: there is one catalog. */
  @PrimaryKey({ type: 'integer', autoincrement: false })
  id!: number;

  /** The catalog exactly as served, so the manifest's sha256 is of these bytes. */
  @Property({ type: 'text' })
  body!: string;

  @Property({ type: 'text' })
  updatedBy!: string;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  updatedAt: Date & Opt = new Date();
}
