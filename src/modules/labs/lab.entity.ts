import { Check, Entity, Enum, Index, ManyToOne, Opt, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { BaseEntity } from '../../db/base.entity';
import { User } from '../users/user.entity';

export const LAB_STATUSES = ['active', 'suspended', 'archived'] as const;
export type LabStatus = (typeof LAB_STATUSES)[number];

export const MEMBER_ROLES = ['owner', 'mentor', 'member'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export const MEMBER_STATUSES = ['pending', 'active', 'rejected', 'revoked', 'left'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

@Entity({ tableName: 'labs' })
@Check({ name: 'labs_seat_quota_check', expression: 'seat_quota >= 1' })
export class Lab extends BaseEntity {
  @Property({ type: 'text' })
  name!: string;

  @Index()
  @Enum({ items: [...LAB_STATUSES], default: 'active' })
  status: LabStatus & Opt = 'active';

  @Property({ type: 'integer', default: 10 })
  seatQuota: number & Opt = 10;

  @ManyToOne(() => User)
  owner!: User;

  /** SHA-256 of the current invitation code: the only way a code is looked up. */
  @Property({ type: 'text', unique: true, hidden: true })
  codeHash!: string;

  /** The code sealed with the instance key, so the owner can be shown it again. */
  @Property({ type: 'text', hidden: true })
  codeSealed!: string;

  @Property({ type: 'datetime' })
  codeExpiresAt!: Date;
}

@Entity({ tableName: 'lab_members' })
@Unique({ properties: ['lab', 'user'] })
export class LabMember {
  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  @ManyToOne(() => Lab, { deleteRule: 'cascade' })
  lab!: Lab;

  @Index()
  @ManyToOne(() => User)
  user!: User;

  @Enum({ items: [...MEMBER_ROLES] })
  role!: MemberRole;

  @Enum({ items: [...MEMBER_STATUSES] })
  status!: MemberStatus;

  /** When the request was made (or the lab created, for the owner). */
  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date & Opt = new Date();

  /** When the member last became active. */
  @Property({ type: 'datetime', nullable: true })
  joinedAt: Date | null = null;

  @Property({ type: 'datetime', defaultRaw: 'now()', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}
