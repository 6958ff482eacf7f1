import { Opt, PrimaryKey, Property } from '@mikro-orm/core';

/** Columns every resource table shares. Ids are prefixed strings made by `newId`. */
export abstract class BaseEntity {
  @PrimaryKey({ type: 'text' })
  id!: string;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'datetime', defaultRaw: 'now()', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}
