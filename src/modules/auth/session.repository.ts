import type { EntityManager } from '@mikro-orm/postgresql';
import { dateOf, directQuery, sqlOf } from '../../db/sql';
import { inActiveLabSql } from '../labs/membership.repository';
import { User } from '../users/user.entity';
import { userColumnsSql } from '../users/user.repository';
import type { SessionMethod } from './session.entity';

/*
 * The SQL of browser sessions and password links: the session lookup of every cookie request
 * (a prepared statement, like the token lookup), its idle clock, and the reads and revocations
 * the sessions list needs.
 */

/** A session's stored facts, with its user (managed by `em`). */
export interface StoredSession {
  id: string;
  secretHash: string;
  lastSeenAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  user: User;
  userInActiveLab: boolean;
}

let sessionWithUser: { name: string; text: string } | undefined;

/** The session `sessionId` with its user, or null: one prepared statement, as for tokens. */
export async function findSessionWithUser(em: EntityManager, sessionId: string): Promise<StoredSession | null> {
  sessionWithUser ??= {
    name: 'auth_presented_session',
    text: `select s.id as session_id, s.secret_hash as session_secret_hash, s.last_seen_at as session_last_seen_at,
                  s.expires_at as session_expires_at, s.revoked_at as session_revoked_at,
                  ${inActiveLabSql('s.user_id')} as session_user_in_active_lab, ${userColumnsSql(em, 'u')}
             from user_sessions s join users u on u.id = s.user_id where s.id = $1`,
  };
  const [row] = await directQuery(em, sessionWithUser, [sessionId]);
  if (!row) return null;
  const {
    session_id,
    session_secret_hash,
    session_last_seen_at,
    session_expires_at,
    session_revoked_at,
    session_user_in_active_lab,
    ...userColumns
  } = row;
  return {
    id: session_id as string,
    secretHash: session_secret_hash as string,
    lastSeenAt: dateOf(session_last_seen_at)!,
    expiresAt: dateOf(session_expires_at)!,
    revokedAt: dateOf(session_revoked_at),
    user: em.map(User, userColumns),
    userInActiveLab: session_user_in_active_lab as boolean,
  };
}

/** Moves a session's idle clock to `at`, unless another request moved it as far already. */
export async function touchSession(em: EntityManager, sessionId: string, at: Date): Promise<void> {
  await sqlOf(em)(`update user_sessions set last_seen_at = ? where id = ? and last_seen_at < ?`, [at, sessionId, at]);
}

export interface NewSession {
  id: string;
  userId: string;
  secretHash: string;
  method: SessionMethod;
  userAgent: string | null;
  address: string | null;
  expiresAt: Date;
}

export async function insertSession(em: EntityManager, session: NewSession): Promise<void> {
  await sqlOf(em)(
    `insert into user_sessions (id, user_id, secret_hash, method, user_agent, address, expires_at) values (?, ?, ?, ?, ?, ?, ?)`,
    [session.id, session.userId, session.secretHash, session.method, session.userAgent, session.address, session.expiresAt],
  );
}

/** A session as its user sees it in the list. */
export interface SessionRow {
  id: string;
  method: SessionMethod;
  userAgent: string | null;
  address: string | null;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
}

/** The user's sessions still in force at `now` (idle ones left out), newest first. */
export async function liveSessions(em: EntityManager, userId: string, now: Date, idleSeconds: number): Promise<SessionRow[]> {
  const rows = await sqlOf(em)<Record<string, unknown>>(
    `select id, method, user_agent as "userAgent", address, created_at as "createdAt", last_seen_at as "lastSeenAt", expires_at as "expiresAt"
       from user_sessions
      where user_id = ? and revoked_at is null and expires_at > ? and last_seen_at > ?::timestamptz - make_interval(secs => ?)
      order by created_at desc, id desc`,
    [userId, now, now, idleSeconds],
  );
  return rows.map((row) => ({
    ...(row as unknown as SessionRow),
    createdAt: dateOf(row.createdAt)!,
    lastSeenAt: dateOf(row.lastSeenAt)!,
    expiresAt: dateOf(row.expiresAt)!,
  }));
}

/** Revokes one of the user's sessions; false when there is none in force by that id. */
export async function revokeSessionRow(em: EntityManager, userId: string, sessionId: string): Promise<boolean> {
  const rows = await sqlOf(em)(
    `update user_sessions set revoked_at = now() where id = ? and user_id = ? and revoked_at is null returning id`,
    [sessionId, userId],
  );
  return rows.length > 0;
}

/** Revokes every session of the user but `keep` (after a password change, say). */
export async function revokeOtherSessions(em: EntityManager, userId: string, keep: string | null): Promise<void> {
  await sqlOf(em)(`update user_sessions set revoked_at = now() where user_id = ? and revoked_at is null and id is distinct from ?`, [
    userId,
    keep,
  ]);
}

/** The user's password hash (null: none set), read only to check or change it. */
export async function storedPasswordHash(em: EntityManager, userId: string): Promise<string | null> {
  const [row] = await sqlOf(em)<{ passwordHash: string | null }>(`select password_hash as "passwordHash" from users where id = ?`, [
    userId,
  ]);
  return row?.passwordHash ?? null;
}

/** The enabled user with this email (stored lower-cased), and their hash, for a sign-in. */
export async function signInFacts(em: EntityManager, email: string): Promise<{ userId: string; passwordHash: string | null } | null> {
  const [row] = await sqlOf(em)<{ userId: string; passwordHash: string | null }>(
    `select id as "userId", password_hash as "passwordHash" from users where email = ? and not disabled`,
    [email],
  );
  return row ?? null;
}

/**
 * Sets a user's password, and spends every set-password link of theirs still outstanding: a link
 * sent before the change must not undo it (nor one link, once used, leave the others working).
 */
export async function setPasswordHash(em: EntityManager, userId: string, passwordHash: string): Promise<void> {
  await sqlOf(em)(
    `with spent as (update password_links set used_at = now() where user_id = ? and used_at is null)
     update users set password_hash = ?, updated_at = now() where id = ?`,
    [userId, passwordHash, userId],
  );
}

export async function insertPasswordLink(
  em: EntityManager,
  link: { id: string; userId: string; secretHash: string; createdBy: string | null; expiresAt: Date },
): Promise<void> {
  await sqlOf(em)(`insert into password_links (id, user_id, secret_hash, created_by_id, expires_at) values (?, ?, ?, ?, ?)`, [
    link.id,
    link.userId,
    link.secretHash,
    link.createdBy,
    link.expiresAt,
  ]);
}

/**
 * The link `linkId`, locked until the transaction ends (setting the password spends it): its user
 * and digest, or null when it is unknown, used, expired or its user disabled. The row lock makes
 * two uses at once one use.
 */
export async function useLink(em: EntityManager, linkId: string, now: Date): Promise<{ userId: string; secretHash: string } | null> {
  const [row] = await sqlOf(em)<{ userId: string; secretHash: string }>(
    `select l.user_id as "userId", l.secret_hash as "secretHash"
       from password_links l join users u on u.id = l.user_id
      where l.id = ? and l.used_at is null and l.expires_at > ? and not u.disabled
      for update of l`,
    [linkId, now],
  );
  return row ?? null;
}
