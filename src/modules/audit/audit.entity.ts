import { Entity, Index, Opt, PrimaryKey, Property } from '@mikro-orm/core';

/** Append-only log of membership and other security-relevant changes. */
@Entity({ tableName: 'audit_events' })
@Index({ properties: ['labId', 'createdAt'] })
// The audit log's pages: newest first, or one actor's.
@Index({ properties: ['createdAt', 'id'] })
@Index({ properties: ['actorId', 'createdAt'] })
export class AuditEvent {
  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  @Property({ type: 'text', nullable: true })
  labId: string | null = null;

  @Property({ type: 'text', nullable: true })
  actorId: string | null = null;

  @Property({ type: 'text', nullable: true })
  subjectUserId: string | null = null;

  /** e.g. `lab.create`, `member.join`, `member.approve`, `member.role`, `lab.code_rotate`. */
  @Property({ type: 'text' })
  action!: string;

  @Property({ type: 'json', nullable: true })
  detail: Record<string, unknown> | null = null;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date & Opt = new Date();
}
