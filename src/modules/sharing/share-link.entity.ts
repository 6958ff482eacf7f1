import { Entity, Index, ManyToOne, Opt, PrimaryKey, Property } from '@mikro-orm/core';
import { Trajectory } from '../trajectories/trajectory.entity';
import { User } from '../users/user.entity';

/**
 * Schema only: a read-only link to a trajectory for people without an account
 * (docs/api/sharing.md). The link's token is kept as its SHA-256 alone; it is shown once, when
 * made. Read and written by share-link.repository.ts.
 */
@Entity({ tableName: 'trajectory_share_links' })
@Index({ properties: ['session', 'createdAt'] })
export class ShareLink {
  /** `shr_…` */
  @PrimaryKey({ type: 'text' })
  id!: string;

  @ManyToOne(() => Trajectory, { fieldName: 'session_id', deleteRule: 'cascade' })
  session!: Trajectory;

  /** Who made it: it works only while they may still share the trajectory. */
  @ManyToOne(() => User, { fieldName: 'created_by', deleteRule: 'cascade' })
  createdBy!: User;

  /** SHA-256 (hex) of the link's token (`ldk_shr_…`). */
  @Property({ type: 'text', unique: true })
  tokenHash!: string;

  /** E-mail addresses masked too, besides the secrets. */
  @Property({ type: 'boolean', default: false })
  maskEmails: boolean & Opt = false;

  /** Its figures shown too, as they are: images are not masked, so the maker chooses. */
  @Property({ type: 'boolean', default: false })
  includeFigures: boolean & Opt = false;

  @Property({ type: 'datetime', nullable: true })
  expiresAt: Date | null = null;

  @Property({ type: 'datetime', nullable: true })
  revokedAt: Date | null = null;

  /** Times the link was opened (its page, not each page of records). */
  @Property({ type: 'integer', default: 0 })
  views: number & Opt = 0;

  @Property({ type: 'datetime', nullable: true })
  lastViewedAt: Date | null = null;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date & Opt = new Date();
}
