import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, notFound, unauthenticated } from '../../errors';
import { digestsEqual, newSecret, randomString, sha256Hex } from '../../ids';
import type { ActivitySink } from '../activity/activity.recorder';
import type { AttemptLimit } from '../../rate-limits';
import { checkNewPassword, hashPassword, passwordMatches } from './password';
import type { SessionMethod } from './session.entity';
import * as repo from './session.repository';
import type { Viewer } from './viewer';

/** How long sessions last (SESSION_IDLE_HOURS, SESSION_MAX_HOURS). */
export interface SessionSettings {
  /** Unused this long, a session ends. */
  idleSeconds: number;
  /** This long after sign-in, a session ends however busy. */
  maxSeconds: number;
}

/** A session's idle clock moves at most this often (one write a minute per busy session). */
const TOUCH_EVERY_MS = 60_000;
const KEY_LENGTH = 12;
/** `ldk_ses_<12-char key><32-char secret>`; a password link is the same with `pwl`. */
const SESSION_SHAPE = /^ldk_ses_([A-Za-z0-9_-]{12})[A-Za-z0-9]{32}$/;
const LINK_SHAPE = /^ldk_pwl_([A-Za-z0-9_-]{12})[A-Za-z0-9]{32}$/;
export const PASSWORD_LINK_TTL_S = 24 * 3600;
/** Sign-ins one email may try without a success before it waits out the window (429 with Retry-After). */
export const SIGN_IN_ATTEMPTS = { perEmail: 10, windowSeconds: 15 * 60 };

/** Where a sign-in comes from, kept for the sessions list. */
export interface SignInOrigin {
  userAgent?: string;
  address?: string;
}

/** A new session: the cookie's value (shown once) and when it ends at the latest. */
export interface StartedSession {
  sessionId: string;
  token: string;
  expiresAt: Date;
}

/** Opens a session for `userId`; only a SHA-256 of its token is stored. */
export async function startSession(
  em: EntityManager,
  userId: string,
  method: SessionMethod,
  origin: SignInOrigin,
  settings: SessionSettings,
  now: Date,
): Promise<StartedSession> {
  const key = randomString(KEY_LENGTH);
  const token = `ldk_ses_${key}${newSecret(32)}`;
  const session = { sessionId: `ses_${key}`, token, expiresAt: new Date(now.getTime() + settings.maxSeconds * 1000) };
  await repo.insertSession(em, {
    id: session.sessionId,
    userId,
    secretHash: sha256Hex(token),
    method,
    userAgent: origin.userAgent?.slice(0, 200) ?? null,
    address: origin.address ?? null,
    expiresAt: session.expiresAt,
  });
  return session;
}

/**
 * The caller a session cookie stands for, or null: unknown, revoked, past its absolute or idle
 * expiry, or its user disabled. A cookie is sent whether or not it still works, so a dead one
 * makes the request anonymous rather than refused; what needs a caller then says 401.
 */
export async function authenticateSession(
  em: EntityManager,
  token: string,
  settings: SessionSettings,
  activity?: ActivitySink,
): Promise<Viewer | null> {
  const stored = await presentedSession(em, token);
  if (!stored) return null;
  const now = activity?.clock.now() ?? new Date();
  const idleUntil = stored.lastSeenAt.getTime() + settings.idleSeconds * 1000;
  if (stored.revokedAt || stored.expiresAt <= now || idleUntil <= now.getTime() || stored.user.disabled) return null;
  if (activity) {
    if (now.getTime() - stored.lastSeenAt.getTime() >= TOUCH_EVERY_MS) await repo.touchSession(em, stored.id, now);
    await activity.recorder.record(em, stored.user.id, now);
  }
  return { user: stored.user, credentialId: stored.id, inActiveLab: stored.userInActiveLab };
}

/**
 * Signs in with email and password. An unknown email, a user without a password, a disabled
 * user and a wrong password all get the same 401 after the same work (one Argon2id check). Each
 * attempt counts against the email before its password is checked, and a success forgets them:
 * after `SIGN_IN_ATTEMPTS.perEmail` without one, the email waits, however many arrive at once.
 * @throws UNAUTHENTICATED; RATE_LIMITED with Retry-After
 */
export async function signInWithPassword(
  em: EntityManager,
  attempt: { email: string; password: string; origin: SignInOrigin },
  attempts: AttemptLimit,
  settings: SessionSettings,
  now: Date,
): Promise<StartedSession & { userId: string }> {
  const email = attempt.email.trim().toLowerCase();
  const wait = await attempts.attempt(email);
  if (wait > 0)
    throw new AppError('RATE_LIMITED', `too many failed sign-ins for this email; try again in ${wait} s`, undefined, undefined, {
      'Retry-After': String(wait),
    });
  // Only a wrong password counts against the email: an attempt the service could not check
  // (the database restarting) is given back, or an outage would lock people out afterwards.
  const facts = await repo.signInFacts(em, email).catch(async (error: unknown) => {
    await attempts.notCounted(email);
    throw error;
  });
  const matches = await passwordMatches(facts?.passwordHash ?? null, attempt.password);
  if (!matches || !facts) throw unauthenticated('wrong email or password');
  await attempts.succeeded(email);
  return { userId: facts.userId, ...(await startSession(em, facts.userId, 'password', attempt.origin, settings, now)) };
}

/** Ends the session whose cookie this is, if it is one (signing out); anything else is ignored. */
export async function endSessionOfCookie(em: EntityManager, token: string): Promise<void> {
  const stored = await presentedSession(em, token);
  if (stored) await repo.revokeSessionRow(em, stored.user.id, stored.id);
}

/** The stored session a cookie value names, when its digest matches (constant time); else null. */
async function presentedSession(em: EntityManager, token: string): Promise<repo.StoredSession | null> {
  const shape = SESSION_SHAPE.exec(token);
  const stored = shape ? await repo.findSessionWithUser(em, `ses_${shape[1]}`) : null;
  return stored && digestsEqual(stored.secretHash, sha256Hex(token)) ? stored : null;
}

/** Ends the session `sessionId` of its user (sign-out, or the sessions list). @throws NOT_FOUND */
export async function revokeSession(em: EntityManager, userId: string, sessionId: string): Promise<void> {
  if (!(await repo.revokeSessionRow(em, userId, sessionId))) throw notFound('session');
}

export const listSessions = (em: EntityManager, userId: string, settings: SessionSettings, now: Date) =>
  repo.liveSessions(em, userId, now, settings.idleSeconds);

/**
 * Sets or changes the viewer's password. With one set, `currentPassword` must match it. Every
 * other session of the user ends (a changed password shuts out whoever knew the old one); the
 * caller's own, if it is a session, stays.
 * @throws VALIDATION_FAILED for a new password out of bounds; FORBIDDEN for a wrong current one
 */
export async function setOwnPassword(em: EntityManager, viewer: Viewer, currentPassword: string | undefined, newPassword: string) {
  checkNewPassword(newPassword, ['input', 'newPassword']);
  const stored = await repo.storedPasswordHash(em, viewer.user.id);
  if (stored !== null && !(await passwordMatches(stored, currentPassword ?? '')))
    throw new AppError('FORBIDDEN', 'the current password is wrong');
  await repo.setPasswordHash(em, viewer.user.id, await hashPassword(newPassword));
  await repo.revokeOtherSessions(em, viewer.user.id, viewer.credentialId);
}

/** Whether the user has a password (a person who signs in through single sign-on may have none). */
export const hasPassword = async (em: EntityManager, userId: string) => (await repo.storedPasswordHash(em, userId)) !== null;

/** Ends every browser session of the viewer but the one it calls with (a token ends them all). */
export const endOtherSessions = (em: EntityManager, viewer: Viewer) => repo.revokeOtherSessions(em, viewer.user.id, viewer.credentialId);

/** Sets a password for a user an administrator creates (no session changes: there are none yet). */
export async function setInitialPassword(em: EntityManager, userId: string, password: string, path: string[]) {
  checkNewPassword(password, path);
  await repo.setPasswordHash(em, userId, await hashPassword(password));
}

/** A one-time set-password link: its token (in the URL's fragment) and its expiry. */
export async function issuePasswordLink(em: EntityManager, userId: string, issuedBy: string | null, now: Date) {
  const key = randomString(KEY_LENGTH);
  const token = `ldk_pwl_${key}${newSecret(32)}`;
  const expiresAt = new Date(now.getTime() + PASSWORD_LINK_TTL_S * 1000);
  await repo.insertPasswordLink(em, { id: `pwl_${key}`, userId, secretHash: sha256Hex(token), createdBy: issuedBy, expiresAt });
  return { token, expiresAt };
}

/**
 * Sets a password through a link, once: the link and every other of the user's is spent, every
 * session of the user ends, and a new one begins. Run in a transaction (the link's row lock makes two uses one).
 * @throws VALIDATION_FAILED for the password; UNAUTHENTICATED for a link unknown, used or expired
 */
export async function usePasswordLink(
  tx: EntityManager,
  token: string,
  newPassword: string,
  origin: SignInOrigin,
  settings: SessionSettings,
  now: Date,
): Promise<StartedSession & { userId: string }> {
  checkNewPassword(newPassword, ['input', 'newPassword']);
  const shape = LINK_SHAPE.exec(token);
  const link = shape ? await repo.useLink(tx, `pwl_${shape[1]}`, now) : null;
  if (!link || !digestsEqual(link.secretHash, sha256Hex(token)))
    throw unauthenticated('this link is not valid: it was used, it expired, or it was mistyped; ask for a new one');
  await repo.setPasswordHash(tx, link.userId, await hashPassword(newPassword));
  await repo.revokeOtherSessions(tx, link.userId, null);
  return { userId: link.userId, ...(await startSession(tx, link.userId, 'password_link', origin, settings, now)) };
}
