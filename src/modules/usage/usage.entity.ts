import { Entity, Enum, Index, Opt, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * Usage ledger: token counts only, never content. Written by server-side model calls, the
 * estimator's plan drafting (nominal counts) and trajectory appends (from records'
 * `message.usage`); read by the lab usage report, stats and the token line.
 */
@Entity({ tableName: 'usage_entries' })
@Index({ properties: ['labId', 'userId'] })
@Index({ properties: ['userId', 'createdAt'] })
/** Admin stats read the last hour of the ledger by time alone. */
@Index({ properties: ['createdAt'] })
/** A trajectory's token total sums its rows. */
@Index({ properties: ['sessionId'] })
/** The token line sums a user's `plan` rows. */
@Index({ properties: ['userId', 'feature'] })
export class UsageEntry {
  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  @Property({ type: 'text' })
  userId!: string;

  @Property({ type: 'text', nullable: true })
  labId: string | null = null;

  @Property({ type: 'text', nullable: true })
  sessionId: string | null = null;

  /** `model_call` (a call this service made), `planner` or `trajectory` (counts from appended records). */
  @Property({ type: 'text' })
  source!: string;

  /** What the tokens were for: `discuss`, `critique`, `plan` (model calls, and the estimator's nominal planner rows). */
  @Property({ type: 'text', nullable: true })
  feature: string | null = null;

  /** For model calls: `provider/model` as configured. */
  @Property({ type: 'text', nullable: true })
  model: string | null = null;

  @Property({ type: 'bigint', default: 0 })
  tokensIn: string & Opt = '0';

  @Property({ type: 'bigint', default: 0 })
  tokensOut: string & Opt = '0';

  /** What the tokens cost at the model catalog's prices (0 when the model is not in the catalog). */
  @Property({ type: 'decimal', precision: 14, scale: 6, default: 0 })
  credits: string & Opt = '0';

  /** For model calls: from the first attempt to the answer or the final failure, retries included. */
  @Property({ type: 'integer', nullable: true })
  latencyMs: number | null = null;

  /** For model calls: `ok` or `error` (a failed call is a row too, with no tokens and no credits). */
  @Enum({ items: ['ok', 'error'], nullable: true })
  outcome: 'ok' | 'error' | null = null;

  /** For model calls of an A2A turn: the caller's principal (its key's token budget counts the call). */
  @Property({ type: 'text', nullable: true })
  a2aPrincipal: string | null = null;

  /**
   * For model calls: the call's own id, made when its answer came. A write that keeps the answer
   * may be sent again when its connection was lost under it (it may have committed): the row is
   * written once (`on conflict do nothing`), never billed twice.
   */
  @Property({ type: 'uuid', nullable: true, unique: true })
  callId: string | null = null;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date & Opt = new Date();
}
