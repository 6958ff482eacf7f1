import { Entity, Index, ManyToOne, Opt, PrimaryKey, Property } from '@mikro-orm/core';
import { User } from '../users/user.entity';

/**
 * Schema only: something the console tells a person once (a review asked of them, a verdict on
 * their request), written in the transaction of what it tells. Read and written by
 * notice.repository.ts.
 */
@Entity({ tableName: 'notices' })
@Index({ properties: ['user', 'createdAt'] })
export class Notice {
  /** `ntc_…` */
  @PrimaryKey({ type: 'text' })
  id!: string;

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  /** What it is about, e.g. `review.requested`. */
  @Property({ type: 'text' })
  kind!: string;

  /** One sentence, as the console shows it. */
  @Property({ type: 'text' })
  text!: string;

  /** Where in the console it leads (a path, e.g. `/trajectories/…`). */
  @Property({ type: 'text' })
  path!: string;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'datetime', nullable: true })
  readAt: Date | null = null;
}
