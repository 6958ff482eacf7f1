import { Entity, Enum, Index, ManyToOne, Opt, PrimaryKey, Property } from '@mikro-orm/core';
import { ComputeLease } from '../compute/compute.entity';
import { User } from '../users/user.entity';

export const TOKEN_KINDS = ['pat', 'access', 'refresh'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

/** A device login's states: `pending` → `approved` → `consumed` (tokens handed out once), or `pending` → `denied`. */
export const DEVICE_LOGIN_STATUSES = ['pending', 'approved', 'consumed', 'denied'] as const;

/**
 * Every bearer credential: personal access tokens, login access tokens and refresh tokens.
 * The wire form is `ldk_<kind>_<12-character key><secret>`; the key finds the row (`tok_<key>`)
 * and only a SHA-256 of the whole token is stored.
 */
@Entity({ tableName: 'auth_tokens' })
export class AuthToken {
  @PrimaryKey({ type: 'text' })
  id!: string;

  @Index()
  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  @Enum({ items: [...TOKEN_KINDS] })
  kind!: TokenKind;

  @Property({ type: 'text', default: '' })
  label: string & Opt = '';

  @Property({ type: 'text', hidden: true })
  secretHash!: string;

  /** Refresh tokens of one login share a family; reuse of a rotated token revokes the family. */
  @Index()
  @Property({ type: 'text', nullable: true })
  familyId: string | null = null;

  /**
   * Set on the pair a sandbox receives at bootstrap (and on the pairs its refreshes mint): the
   * lease they live and die with. Such a token acts for its user but never as an admin and never
   * mints credentials (see `isSandboxToken`).
   */
  @Index()
  @ManyToOne(() => ComputeLease, { nullable: true, deleteRule: 'cascade' })
  lease: ComputeLease | null = null;

  @Property({ type: 'datetime', nullable: true })
  expiresAt: Date | null = null;

  @Property({ type: 'datetime', nullable: true })
  revokedAt: Date | null = null;

  /**
   * Personal access tokens: when one last authenticated a request, to a minute (written with the
   * user's activity, at most once a minute per token and instance).
   */
  @Property({ type: 'datetime', nullable: true })
  lastUsedAt: Date | null = null;

  /** Refresh tokens: set when rotated (single use). */
  @Property({ type: 'datetime', nullable: true })
  usedAt: Date | null = null;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date & Opt = new Date();
}

/** A pending CLI login (device flow). */
@Entity({ tableName: 'device_logins' })
export class DeviceLogin {
  @PrimaryKey({ type: 'text' })
  id!: string;

  @Property({ type: 'text', unique: true, hidden: true })
  deviceCodeHash!: string;

  @Property({ type: 'text', unique: true })
  userCode!: string;

  @Enum({ items: [...DEVICE_LOGIN_STATUSES], default: 'pending' })
  status: string & Opt = 'pending';

  @ManyToOne(() => User, { nullable: true, deleteRule: 'cascade' })
  user: User | null = null;

  @Property({ type: 'datetime' })
  expiresAt!: Date;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date & Opt = new Date();
}
