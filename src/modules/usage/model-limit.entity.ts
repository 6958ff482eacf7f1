import { Entity, Index, Opt, PrimaryKey, PrimaryKeyProp, Property } from '@mikro-orm/core';

/**
 * Schema only: the counts one model limit reads, per subject and window (a UTC minute or day);
 * usage.repository.ts counts into it and drops windows no limit reads any more.
 */
@Entity({ tableName: 'model_limits' })
export class ModelLimitWindow {
  [PrimaryKeyProp]?: ['subject', 'windowKind', 'windowStart'];

  @PrimaryKey({ type: 'text' })
  subject!: string;

  /** `minute` or `day`. */
  @PrimaryKey({ type: 'text' })
  windowKind!: string;

  /** The window's start in UTC, without a zone (as `date_trunc(…, now() at time zone 'utc')` gives it). */
  @Index()
  @PrimaryKey({ columnType: 'timestamp(6)' })
  windowStart!: Date;

  @Property({ type: 'integer', default: 0 })
  requests!: number & Opt;

  @Property({ type: 'bigint', default: 0 })
  tokens!: string & Opt;
}
