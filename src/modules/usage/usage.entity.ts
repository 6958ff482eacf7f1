import { Entity, Index, Opt, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * Usage ledger: token counts only, never content. Written by server-side model calls and by
 * trajectory appends (from records' `message.usage`); read by the lab usage report and stats.
 */
@Entity({ tableName: 'usage_entries' })
@Index({ properties: ['labId', 'userId'] })
@Index({ properties: ['userId', 'createdAt'] })
/** Admin stats read the last hour of the ledger by time alone. */
@Index({ properties: ['createdAt'] })
export class UsageEntry {
  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  @Property({ type: 'text' })
  userId!: string;

  @Property({ type: 'text', nullable: true })
  labId: string | null = null;

  @Property({ type: 'text', nullable: true })
  sessionId: string | null = null;

  /** `model_call` or `trajectory`. */
  @Property({ type: 'text' })
  source!: string;

  @Property({ type: 'bigint', default: 0 })
  tokensIn: string & Opt = '0';

  @Property({ type: 'bigint', default: 0 })
  tokensOut: string & Opt = '0';

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date & Opt = new Date();
}
