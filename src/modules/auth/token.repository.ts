import type { EntityManager } from '@mikro-orm/postgresql';
import { directQuery, sqlOf } from '../../db/sql';
import { inActiveLabSql } from '../labs/membership.repository';
import type { UserFacts } from '../users/user-facts';
import { userColumnsSql, userFactsOf } from '../users/user.repository';
import type { TokenKind } from './token.entity';

/*
 * The SQL of tokens that the ORM does not write: the token lookup of every authenticated
 * request (a prepared statement) and the revocation of a lease's logins. The rest of the auth
 * domain goes through the entities (token.entity.ts).
 */

/** A token's stored facts, with its user's. */
export interface StoredToken {
  id: string;
  kind: TokenKind;
  secretHash: string;
  familyId: string | null;
  leaseId: number | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  usedAt: Date | null;
  user: UserFacts;
  /** Whether the user is an active member of an active lab (the lab tier), read with the token. */
  userInActiveLab: boolean;
}

let tokenWithUser: { name: string; text: string } | undefined;

/**
 * The token lookup as a prepared statement, with the user's columns (`userColumnsSql`). Whether
 * the user is in an active lab comes along: the caller's own tier (`me`) then costs no second
 * round trip.
 */
function tokenWithUserStatement(em: EntityManager) {
  if (tokenWithUser) return tokenWithUser;
  return (tokenWithUser = {
    name: 'auth_presented_token',
    text: `select t.id as token_id, t.kind as token_kind, t.secret_hash as token_secret_hash, t.family_id as token_family_id, t.lease_id as token_lease_id,
                  t.expires_at as token_expires_at, t.revoked_at as token_revoked_at, t.used_at as token_used_at,
                  ${inActiveLabSql('t.user_id')} as token_user_in_active_lab, ${userColumnsSql(em, 'u')}
             from auth_tokens t join users u on u.id = t.user_id where t.id = $1`,
  });
}

/**
 * The token `tokenId` with its user, or null. The hottest query of the service (every
 * authenticated request the credential cache does not answer): prepared once per connection,
 * outside any transaction, mapped by hand to plain data (no entity is hydrated).
 */
export async function findTokenWithUser(em: EntityManager, tokenId: string): Promise<StoredToken | null> {
  const [row] = await directQuery(em, tokenWithUserStatement(em), [tokenId]);
  if (!row) return null;
  const time = (value: unknown) => (value ? new Date(value as string) : null);
  const {
    token_id,
    token_kind,
    token_secret_hash,
    token_family_id,
    token_lease_id,
    token_expires_at,
    token_revoked_at,
    token_used_at,
    token_user_in_active_lab,
    ...userColumns
  } = row;
  return {
    id: token_id as string,
    kind: token_kind as TokenKind,
    secretHash: token_secret_hash as string,
    familyId: token_family_id as string | null,
    leaseId: token_lease_id as number | null,
    expiresAt: time(token_expires_at),
    revokedAt: time(token_revoked_at),
    usedAt: time(token_used_at),
    user: userFactsOf(userColumns),
    userInActiveLab: token_user_in_active_lab as boolean,
  };
}

/**
 * Revokes every token bound to a lease (its sandbox's logins), in the transaction that ends it.
 * That transaction holds the lease row, so a concurrent refresh either committed its pair before
 * (revoked here) or runs after and finds the lease over.
 */
export async function revokeLeaseTokens(em: EntityManager, leaseId: number): Promise<void> {
  await sqlOf(em)(`update auth_tokens set revoked_at = now() where lease_id = ? and revoked_at is null`, [leaseId]);
}
