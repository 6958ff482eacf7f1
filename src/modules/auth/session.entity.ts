import { Entity, Enum, Index, ManyToOne, Opt, PrimaryKey, Property } from '@mikro-orm/core';
import { User } from '../users/user.entity';

/** How a browser session began. */
export const SESSION_METHODS = ['password', 'password_link', 'oidc'] as const;
export type SessionMethod = (typeof SESSION_METHODS)[number];

/**
 * A browser session: the `labdesk_session` cookie (`ldk_ses_<12-char key><secret>`). The key
 * finds the row (`ses_<key>`) and only a SHA-256 of the whole cookie value is stored. It ends at
 * `expiresAt` (absolute), when unused for the idle time, or when revoked.
 */
@Entity({ tableName: 'user_sessions' })
@Index({ properties: ['user', 'createdAt'] })
export class UserSession {
  @PrimaryKey({ type: 'text' })
  id!: string;

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  @Property({ type: 'text', hidden: true })
  secretHash!: string;

  @Enum({ items: [...SESSION_METHODS] })
  method!: SessionMethod;

  /** The browser's `User-Agent` at sign-in (cut to 200 characters), for the sessions list. */
  @Property({ type: 'text', nullable: true })
  userAgent: string | null = null;

  /** The address the sign-in came from, for the sessions list. */
  @Property({ type: 'text', nullable: true })
  address: string | null = null;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt!: Date & Opt;

  /** Moved forward at most once a minute by the requests the session makes (the idle expiry reads it). */
  @Property({ type: 'datetime', defaultRaw: 'now()' })
  lastSeenAt!: Date & Opt;

  @Property({ type: 'datetime' })
  expiresAt!: Date;

  @Property({ type: 'datetime', nullable: true })
  revokedAt: Date | null = null;
}

/**
 * A one-time set-password link an administrator issued (`ldk_pwl_<12-char key><secret>`, in the
 * link's fragment); stored as a SHA-256, valid 24 hours, used once.
 */
@Entity({ tableName: 'password_links' })
@Index({ properties: ['user'] })
export class PasswordLink {
  @PrimaryKey({ type: 'text' })
  id!: string;

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  @Property({ type: 'text', hidden: true })
  secretHash!: string;

  @ManyToOne(() => User, { nullable: true, deleteRule: 'set null' })
  createdBy: User | null = null;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt!: Date & Opt;

  @Property({ type: 'datetime' })
  expiresAt!: Date;

  @Property({ type: 'datetime', nullable: true })
  usedAt: Date | null = null;
}
