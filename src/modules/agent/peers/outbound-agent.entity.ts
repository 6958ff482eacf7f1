import { Check, Entity, ManyToOne, Opt, PrimaryKey, PrimaryKeyProp, Property } from '@mikro-orm/core';
import { User } from '../../users/user.entity';

/**
 * Schema only: an outbound agent in a user's registry (outbound-agent.repository.ts reads and
 * writes it). Its status says what the last check found, and the check keeps the three together.
 */
@Entity({ tableName: 'a2a_agents' })
@Check({
  name: 'a2a_agents_status_check',
  expression:
    `((status = 'pending'::text) and (error is null) and (checked_at is null))` +
    ` or ((status = 'ok'::text) and (error is null) and (checked_at is not null))` +
    ` or ((status = 'failed'::text) and (error is not null) and (checked_at is not null))`,
})
export class OutboundAgentEntity {
  [PrimaryKeyProp]?: ['user', 'id'];

  @ManyToOne(() => User, { primary: true, deleteRule: 'cascade', updateRule: 'no action' })
  user!: User;

  @PrimaryKey({ type: 'text' })
  id!: string;

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text' })
  url!: string;

  /** Sealed with the instance key, never stored in clear. */
  @Property({ type: 'text', nullable: true })
  apiKeySealed: string | null = null;

  @Property({ type: 'boolean', default: true })
  enabled!: boolean & Opt;

  @Property({ type: 'boolean', default: false })
  allowPrivate!: boolean & Opt;

  @Property({ type: 'text', default: 'pending' })
  status!: 'pending' | 'ok' | ('failed' & Opt);

  @Property({ type: 'text', nullable: true })
  error: string | null = null;

  @Property({ type: 'datetime', nullable: true })
  checkedAt: Date | null = null;

  @Property({ type: 'datetime', nullable: true })
  testUntil: Date | null = null;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt!: Date & Opt;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  updatedAt!: Date & Opt;
}
