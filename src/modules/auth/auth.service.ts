import type { EntityManager } from '@mikro-orm/postgresql';
import { forbidden, notFound, unauthenticated } from '../../errors';
import { digestsEqual, newId, newSecret, randomString, sha256Hex } from '../../ids';
import type { ActivitySink } from '../activity/activity.recorder';
import { User } from '../users/user.entity';
import { holdOpenLease } from '../compute/compute.repository';
import { audit } from '../audit/audit.service';
import { AuthToken, DeviceLogin, TokenKind } from './token.entity';
import { findTokenWithUser, StoredToken } from './token.repository';
import type { CredentialCache } from './credential-cache';
import type { Viewer } from './viewer';

export const ACCESS_TOKEN_TTL_S = 15 * 60;
export const REFRESH_TOKEN_TTL_S = 30 * 24 * 3600;
const REFRESH_RACE_GRACE_MS = 10_000;
export const DEVICE_CODE_TTL_S = 10 * 60;
export const DEVICE_POLL_INTERVAL_S = 5;

const WIRE_PREFIX: Record<TokenKind, string> = { pat: 'ldk_pat_', access: 'ldk_at_', refresh: 'ldk_rt_' };
const KEY_LENGTH = 12;
/** `ldk_<kind>_<12-char key><secret>`: the key finds the row, the whole token is compared by hash. */
const TOKEN_SHAPE = /^ldk_(pat|at|rt)_([A-Za-z0-9_-]{12})[A-Za-z0-9_-]{4,200}$/;
const KIND_OF: Record<string, TokenKind> = { pat: 'pat', at: 'access', rt: 'refresh' };

interface IssuedToken {
  tokenId: string;
  token: string;
}

/**
 * Mints a token of `kind` for `user`. Only a SHA-256 of the token is stored; the plaintext is
 * returned once. `fixedToken` lets the bootstrap admin token be exactly the configured one.
 */
export function mintToken(
  em: EntityManager,
  user: User,
  kind: TokenKind,
  opts: { label?: string; ttlSeconds?: number; familyId?: string; fixedToken?: string; leaseId?: number | null } = {},
): IssuedToken {
  const token = opts.fixedToken ?? `${WIRE_PREFIX[kind]}${randomString(KEY_LENGTH)}${newSecret(32)}`;
  const key = token.slice(WIRE_PREFIX[kind].length, WIRE_PREFIX[kind].length + KEY_LENGTH);
  const row = em.create(AuthToken, {
    id: `tok_${key}`,
    user,
    kind,
    label: opts.label ?? '',
    secretHash: sha256Hex(token),
    familyId: opts.familyId ?? null,
    lease: opts.leaseId ?? null,
    expiresAt: opts.ttlSeconds ? new Date(Date.now() + opts.ttlSeconds * 1000) : null,
  });
  return { tokenId: row.id, token };
}

/**
 * The stored token a presented one names, when its hash matches (compared in constant time),
 * from `cache` when given (a refresh token is always read: its use is a write).
 */
async function findPresentedToken(emOf: () => EntityManager, token: string, cache?: CredentialCache): Promise<StoredToken | null> {
  const shape = TOKEN_SHAPE.exec(token);
  if (!shape) return null;
  const tokenId = `tok_${shape[2]}`;
  const read = () => findTokenWithUser(emOf(), tokenId);
  const stored = await (cache ? cache.lookup(tokenId, read) : read());
  if (!stored || stored.kind !== KIND_OF[shape[1]] || !digestsEqual(stored.secretHash, sha256Hex(token))) return null;
  return stored;
}

/** How a credential is checked: where tokens are kept, and where the caller's activity is recorded. */
export interface CredentialChecks {
  /** The instance's credential cache; without it every check reads the database. */
  cache?: CredentialCache;
  /** Records the caller as active (rate-limited, see activity.recorder.ts); subscriptions re-checking a credential per event pass none (an event delivered is not the user acting). */
  activity?: ActivitySink;
}

/**
 * Resolves the `Authorization` header. No header: anonymous (null). A header that is not a
 * valid, unexpired, unrevoked bearer token of an enabled user: UNAUTHENTICATED. `emOf` is
 * called only when the database must be read or written (a kept token needs neither).
 */
export async function authenticate(
  emOf: () => EntityManager,
  header: string | undefined,
  { cache, activity }: CredentialChecks = {},
): Promise<Viewer | null> {
  if (header === undefined || header === '') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthenticated('the authorization header must be "Bearer <token>"');
  const row = await findPresentedToken(emOf, match[1], cache);
  const now = new Date();
  if (!row || row.kind === 'refresh' || row.revokedAt || (row.expiresAt && row.expiresAt <= now)) {
    throw unauthenticated('invalid or expired token');
  }
  if (row.user.disabled) throw unauthenticated('this account is disabled');
  if (activity) await activity.recorder.record(emOf, row.user.id, activity.clock.now(), row.kind === 'pat' ? row.id : undefined);
  const viewer: Viewer = { user: row.user, credentialId: row.id, inActiveLab: row.userInActiveLab };
  if (row.leaseId !== null) viewer.leaseId = row.leaseId;
  return viewer;
}

/** Revokes one of `userId`'s tokens (a login's whole family) for `actorId`; effective on the next request. @throws NOT_FOUND */
export async function revokeToken(em: EntityManager, actorId: string, userId: string, tokenId: string): Promise<void> {
  const token = await em.findOne(AuthToken, { id: tokenId, user: userId });
  if (!token) throw notFound('token');
  // A login's tokens go together: revoking its access token must not leave its refresh token alive.
  const scope = token.familyId ? { familyId: token.familyId, user: userId } : { id: tokenId };
  await em.nativeUpdate(AuthToken, { ...scope, revokedAt: null }, { revokedAt: new Date() });
  audit(em, { action: 'token.revoke', actorId, subjectUserId: userId, detail: { tokenId } });
  await em.flush();
}

export interface LoginTokens {
  accessToken: string;
  refreshToken: string;
  tokenType: 'bearer';
  expiresIn: number;
}

/** A login's access and refresh token; `leaseId` binds both to a sandbox's lease (revoked when it ends). */
export function mintLoginPair(em: EntityManager, user: User, familyId: string, leaseId: number | null = null): LoginTokens {
  const access = mintToken(em, user, 'access', { ttlSeconds: ACCESS_TOKEN_TTL_S, familyId, leaseId });
  const refresh = mintToken(em, user, 'refresh', { ttlSeconds: REFRESH_TOKEN_TTL_S, familyId, leaseId });
  return { accessToken: access.token, refreshToken: refresh.token, tokenType: 'bearer', expiresIn: ACCESS_TOKEN_TTL_S };
}

/**
 * Exchanges a refresh token for a new pair. Each refresh token works once: it is marked used in
 * one conditional UPDATE, so two concurrent refreshes cannot both succeed. Presenting a token
 * that was rotated more than a few seconds ago means it leaked: the whole login (family) is revoked.
 * A sandbox's refresh token works only while its lease is open, and the new pair is bound to it too.
 * @throws UNAUTHENTICATED
 */
export async function refreshLogin(em: EntityManager, refreshToken: string): Promise<LoginTokens> {
  const row = await findPresentedToken(() => em, refreshToken);
  if (!row || row.kind !== 'refresh') throw unauthenticated('invalid refresh token');
  const now = new Date();
  // Using the old token and minting the new pair commit together, or neither does.
  const pair = await em.transactional(async (tx) => {
    // The lease row is held (shared) until the new pair commits: a release or expiry waits for
    // it and then revokes the new pair too, or has already ended the lease and this finds nothing.
    if (row.leaseId !== null && !(await holdOpenLease(tx, row.leaseId)))
      throw unauthenticated('refresh token expired, revoked or already used');
    const claimed = await tx.nativeUpdate(
      AuthToken,
      { id: row.id, usedAt: null, revokedAt: null, expiresAt: { $gt: now } },
      { usedAt: now },
    );
    if (claimed === 0) return null;
    if (row.user.disabled) throw unauthenticated('this account is disabled');
    const minted = mintLoginPair(tx, tx.getReference(User, row.user.id), row.familyId ?? newId('dev'), row.leaseId);
    await tx.flush();
    return minted;
  });
  if (pair) return pair;
  // A second refresh within seconds is a client race (two processes sharing a login), not theft.
  const reused = row.usedAt && now.getTime() - row.usedAt.getTime() > REFRESH_RACE_GRACE_MS;
  if (reused && row.familyId) {
    await em.nativeUpdate(AuthToken, { familyId: row.familyId, revokedAt: null }, { revokedAt: now });
  }
  throw unauthenticated('refresh token expired, revoked or already used');
}

/** The alphabet of user codes: no 0/O, 1/I/L, so they can be read aloud and typed. */
const USER_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTVWXYZ23456789';

export interface DeviceStart {
  deviceCode: string;
  userCode: string;
  expiresIn: number;
  interval: number;
}

/** Starts a CLI login: a secret device code for the CLI, a short user code for the person. */
export async function startDeviceLogin(em: EntityManager): Promise<DeviceStart> {
  const deviceCode = `ldk_dc_${newSecret(40)}`;
  const raw = randomString(8, USER_CODE_ALPHABET);
  const userCode = `${raw.slice(0, 4)}-${raw.slice(4)}`;
  em.create(DeviceLogin, {
    id: newId('dev'),
    deviceCodeHash: sha256Hex(deviceCode),
    userCode,
    expiresAt: new Date(Date.now() + DEVICE_CODE_TTL_S * 1000),
  });
  await em.flush();
  return { deviceCode, userCode, expiresIn: DEVICE_CODE_TTL_S, interval: DEVICE_POLL_INTERVAL_S };
}

/** A user code as typed (any case, dash and spaces optional) in its stored form, `ABCD-EFGH`. */
function normalizeUserCode(userCode: string): string {
  const normalized = userCode
    .trim()
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '');
  return `${normalized.slice(0, 4)}-${normalized.slice(4)}`;
}

/**
 * A signed-in user approves the login showing `userCode` (never a sandbox token: the operation
 * declares `MINTS_CREDENTIAL`).
 * @throws NOT_FOUND when unknown or expired.
 */
export async function approveDeviceLogin(em: EntityManager, viewer: Viewer, userCode: string): Promise<string> {
  return decidePendingLogin(em, normalizeUserCode(userCode), { status: 'approved', user: viewer.user.id });
}

/**
 * A signed-in user denies the login showing `userCode` (a code they did not ask for, or a login
 * they no longer want): the CLI's next poll answers FORBIDDEN "login denied" until the code
 * expires.
 * @throws NOT_FOUND when unknown, expired or already decided.
 */
export async function denyDeviceLogin(em: EntityManager, viewer: Viewer, userCode: string): Promise<string> {
  return decidePendingLogin(em, normalizeUserCode(userCode), { status: 'denied', user: viewer.user.id });
}

/** Moves a pending, unexpired login on, in one conditional UPDATE (a login is decided once). @throws NOT_FOUND */
async function decidePendingLogin(
  em: EntityManager,
  userCode: string,
  decision: { status: 'approved' | 'denied'; user: string },
): Promise<string> {
  const decided = await em.nativeUpdate(DeviceLogin, { userCode, status: 'pending', expiresAt: { $gt: new Date() } }, decision);
  if (decided === 0) throw notFound('login request');
  return userCode;
}

export type DevicePoll = { status: 'pending' } | ({ status: 'approved' } & LoginTokens);

/**
 * The CLI polls with its device code. Once approved, the tokens are handed out exactly once:
 * the row moves to `consumed` in one conditional UPDATE. A denied login answers FORBIDDEN on
 * every poll until it expires.
 * @throws NOT_FOUND for an unknown, expired or already used device code; FORBIDDEN once denied.
 */
export async function pollDeviceLogin(em: EntityManager, deviceCode: string): Promise<DevicePoll> {
  const hash = sha256Hex(deviceCode);
  const login = await em.findOne(DeviceLogin, { deviceCodeHash: hash, expiresAt: { $gt: new Date() } }, { populate: ['user'] });
  if (!login || login.status === 'consumed') throw notFound('login request');
  if (login.status === 'denied') throw forbidden('login denied');
  if (login.status === 'pending' || !login.user) return { status: 'pending' };
  const consumed = await em.nativeUpdate(DeviceLogin, { id: login.id, status: 'approved' }, { status: 'consumed' });
  if (consumed === 0) throw notFound('login request');
  if (login.user.disabled) throw unauthenticated('this account is disabled');
  const pair = mintLoginPair(em, login.user, login.id);
  await em.flush();
  return { status: 'approved', ...pair };
}
