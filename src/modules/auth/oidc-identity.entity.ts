import { Entity, Index, ManyToOne, Opt, PrimaryKey, Property } from '@mikro-orm/core';
import { User } from '../users/user.entity';

/**
 * A user's account at an OpenID provider: the provider's `issuer` and its `sub` for the person,
 * which never change (an email may). Made at the first single sign-on; every later one finds the
 * user by it.
 */
@Entity({ tableName: 'oidc_identities' })
@Index({ properties: ['user'] })
export class OidcIdentity {
  @PrimaryKey({ type: 'text' })
  issuer!: string;

  @PrimaryKey({ type: 'text' })
  subject!: string;

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  /** The email the provider gave at the latest sign-in (for administrators; never used to match). */
  @Property({ type: 'text', nullable: true })
  email: string | null = null;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt!: Date & Opt;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  lastSignInAt!: Date & Opt;
}
