import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/** Keys shared by every instance on one database (e.g. the key that seals invitation codes). */
@Entity({ tableName: 'instance_secrets' })
export class InstanceSecret {
  @PrimaryKey({ type: 'text' })
  name!: string;

  @Property({ type: 'text', hidden: true })
  value!: string;
}
