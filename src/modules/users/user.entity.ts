import { BigIntType, Check, Entity, Enum, Index, Opt, Property, Unique } from '@mikro-orm/core';
import { BaseEntity } from '../../db/base.entity';
import { PLAN_CODES, PLAN_SOURCES } from './plans';

@Entity({ tableName: 'users' })
/** Registrations of the day (admin stats). */
@Index({ properties: ['createdAt'] })
@Check({
  name: 'users_storage_check',
  expression: '(storage_used_bytes >= 0) and ((storage_quota_bytes is null) or (storage_quota_bytes >= 0))',
})
export class User extends BaseEntity {
  /** Stored lower-cased; unique. */
  @Unique()
  @Property({ type: 'text' })
  email!: string;

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text', nullable: true })
  phone: string | null = null;

  @Index()
  @Enum({ items: [...PLAN_CODES], default: 'free' })
  planCode: string & Opt = 'free';

  @Enum({ items: [...PLAN_SOURCES], default: 'admin' })
  planSource: string & Opt = 'admin';

  @Property({ type: 'datetime', nullable: true })
  planExpiresAt: Date | null = null;

  @Property({ type: 'boolean', default: false })
  isAdmin: boolean & Opt = false;

  @Property({ type: 'boolean', default: false })
  disabled: boolean & Opt = false;

  /** Segmentation reads one domain's users. */
  @Index()
  @Property({ type: 'text', default: 'omics' })
  domain: string & Opt = 'omics';

  @Property({ type: 'text', nullable: true })
  institution: string | null = null;

  @Property({ type: 'text', nullable: true })
  institutionTier: string | null = null;

  @Property({ type: 'text', nullable: true })
  institutionType: string | null = null;

  @Property({ type: 'text', nullable: true })
  institutionName: string | null = null;

  /** Admin override; null = the plan's quota. */
  @Property({ type: new BigIntType('number'), nullable: true })
  storageQuotaBytes: number | null = null;

  /** Maintained in the same transaction as every write that stores bytes for this user. */
  @Property({ type: new BigIntType('number'), default: 0 })
  storageUsedBytes: number & Opt = 0;

  /** The latest activity, written together with user_activity_days (activity.repository.ts); admin stats' online/WAU/MAU read its index. */
  @Index()
  @Property({ type: 'datetime', nullable: true })
  lastActiveAt: Date | null = null;

  /** Argon2id in PHC form (password.ts), or null: no password set. Lazy: read only to check one. */
  @Property({ type: 'text', nullable: true, lazy: true, hidden: true })
  passwordHash: string | null = null;
}
