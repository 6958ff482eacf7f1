import { grantPlanAllowance, openAccount } from '../compute/credits.service';
import type { EntityManager } from '@mikro-orm/postgresql';
import { conflict, notFound } from '../../errors';
import { newId } from '../../ids';
import { Page } from '../../validation';
import { containsPattern } from '../../db/sql';
import { audit } from '../audit/audit.service';
import { mintToken } from '../auth/auth.service';
import { AuthToken } from '../auth/token.entity';
import { resolveInstitution } from './institutions';
import { STORAGE_QUOTA_BY_PLAN, PlanCode } from './plans';
import { User } from './user.entity';
import type { UserFacts } from './user-facts';
import { findUserById, holdBootstrapAdminLock, lockActiveAdmins, userSyncRowBatches } from './user.repository';
import { checkAdminChange } from '../admin/admin.policy';
import { checkUserCreate, checkUserUpdate, UserCreateInput, UserUpdateInput } from './user.inputs';
import { hashPassword } from '../auth/password';

/** Re-derives the `institution_*` columns from the registry. */
function deriveInstitution(user: User) {
  const hit = resolveInstitution(user.institution, user.email);
  user.institutionName = hit?.name ?? null;
  user.institutionTier = hit?.tier ?? null;
  user.institutionType = hit?.type ?? null;
}

export const storageQuotaOf = (user: Pick<UserFacts, 'storageQuotaBytes' | 'planCode'>) =>
  user.storageQuotaBytes ?? STORAGE_QUOTA_BY_PLAN[user.planCode as PlanCode];

/** Creates a user. @throws VALIDATION_FAILED, CONFLICT when the email is taken. */
export async function createUser(em: EntityManager, actorId: string | null, input: UserCreateInput): Promise<User> {
  checkUserCreate(input);
  const email = input.email.trim().toLowerCase();
  if (await em.count(User, { email })) throw conflict('a user with this email already exists');
  // Hashed before the transaction: it takes a while, and holds nothing.
  const passwordHash = input.password != null ? await hashPassword(input.password) : null;
  return em.transactional(async (tx) => {
    const user = tx.create(User, {
      id: newId('usr'),
      email,
      name: input.name.trim(),
      phone: input.phone ?? null,
      planCode: input.planCode ?? 'free',
      isAdmin: input.isAdmin ?? false,
      domain: input.domain ?? 'omics',
      institution: input.institution ?? null,
      passwordHash,
    });
    deriveInstitution(user);
    audit(tx, { action: 'user.create', actorId, subjectUserId: user.id });
    await tx.flush(); // a concurrent create of the same email fails here on the unique index → CONFLICT
    await openAccount(tx, user.id, user.planCode);
    return user;
  });
}

/**
 * Applies an admin's changes; a plan change brings that plan's credit allowance. Never suspends
 * the actor, nor suspends or demotes the last active administrator (`checkAdminChange`).
 * @throws NOT_FOUND, VALIDATION_FAILED, CONFLICT
 */
export async function updateUser(em: EntityManager, actorId: string, userId: string, input: UserUpdateInput): Promise<User> {
  checkUserUpdate(input);
  return em.transactional(async (tx) => {
    const admins = input.disabled === true || input.isAdmin === false ? await lockActiveAdmins(tx) : [];
    const user = await tx.findOne(User, { id: userId });
    if (!user) throw notFound('user');
    checkAdminChange(actorId, user, input, admins);
    const changes = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
    if (typeof changes.name === 'string') changes.name = changes.name.trim();
    const planChanged = changes.planCode !== undefined && changes.planCode !== user.planCode;
    tx.assign(user, changes);
    if ('institution' in changes) deriveInstitution(user);
    audit(tx, { action: 'user.update', actorId, subjectUserId: userId, detail: { fields: Object.keys(changes) } });
    await tx.flush();
    if (planChanged) await grantPlanAllowance(tx, userId, user.planCode);
    return user;
  });
}

export async function getUser(em: EntityManager, userId: string): Promise<User> {
  const user = await findUserById(em, userId);
  if (!user) throw notFound('user');
  return user;
}

/** Admin search over email, name and phone. */
export async function listUsers(em: EntityManager, filter: { q?: string | null; planCode?: string | null }, page: Page) {
  const where: Record<string, unknown> = {};
  if (filter.q) {
    const pattern = containsPattern(filter.q);
    where.$or = [{ email: { $ilike: pattern } }, { name: { $ilike: pattern } }, { phone: { $ilike: pattern } }];
  }
  if (filter.planCode) where.planCode = filter.planCode;
  const [items, total] = await em.findAndCount(User, where, {
    orderBy: { createdAt: 'desc', id: 'desc' },
    limit: page.limit,
    offset: page.offset,
  });
  return { items, total, ...page };
}

/** Personal access tokens a user may hold at once (not revoked, not expired). */
export const MAX_LIVE_PERSONAL_TOKENS = 100;

/**
 * A personal access token for a user, minted by an admin or by the user (`actorId`), working
 * until revoked or for `expiresInDays`.
 * @throws NOT_FOUND; CONFLICT at MAX_LIVE_PERSONAL_TOKENS
 */
export async function createPersonalToken(
  em: EntityManager,
  actorId: string,
  userId: string,
  input: { label: string; expiresInDays?: number | null },
) {
  const user = await getUser(em, userId);
  const live = await em.count(AuthToken, {
    user: userId,
    kind: 'pat',
    revokedAt: null,
    $or: [{ expiresAt: null }, { expiresAt: { $gt: new Date() } }],
  });
  if (live >= MAX_LIVE_PERSONAL_TOKENS)
    throw conflict(`at most ${MAX_LIVE_PERSONAL_TOKENS} personal access tokens work at once; revoke one you no longer use`);
  const ttlSeconds = input.expiresInDays ? input.expiresInDays * 86_400 : undefined;
  const issued = mintToken(em, user, 'pat', { label: input.label.trim(), ttlSeconds });
  audit(em, { action: 'token.create', actorId, subjectUserId: userId, detail: { tokenId: issued.tokenId } });
  await em.flush();
  return issued;
}

/** A user's personal access tokens, newest first, revoked ones included. @throws NOT_FOUND */
export async function listPersonalTokens(em: EntityManager, userId: string, page: Page) {
  await getUser(em, userId);
  const [tokens, total] = await em.findAndCount(
    AuthToken,
    { user: userId, kind: 'pat' },
    { orderBy: { createdAt: 'desc', id: 'desc' }, limit: page.limit, offset: page.offset },
  );
  const items = tokens.map((t) => ({
    tokenId: t.id,
    label: t.label,
    createdAt: t.createdAt,
    expiresAt: t.expiresAt,
    revokedAt: t.revokedAt,
    lastUsedAt: t.lastUsedAt,
  }));
  return { items, total, ...page };
}

/**
 * Every user row (wire form) through a server-side cursor, `batch` rows at a time as the reader
 * takes them, so memory stays constant whatever the table size.
 */
export const allUserRows = (em: EntityManager, batch = 500): AsyncGenerator<Record<string, unknown>[]> => userSyncRowBatches(em, batch);

/**
 * First start: make the admin account and its token unless an admin exists. The token is the
 * configured `BOOTSTRAP_ADMIN_TOKEN`, or a new one returned for the first start to write to its file.
 * Returns null when an admin already existed.
 */
export async function ensureBootstrapAdmin(em: EntityManager, fixedToken?: string): Promise<{ token: string; userId: string } | null> {
  return em.transactional(async (tx) => {
    await holdBootstrapAdminLock(tx); // one instance at a time
    const existing = await tx.findOne(User, { email: 'admin@localhost' });
    if (existing) return null;
    if (await tx.count(User, { isAdmin: true })) return null;
    const admin = tx.create(User, {
      id: newId('usr'),
      email: 'admin@localhost',
      name: 'Administrator',
      isAdmin: true,
      planCode: 'enterprise',
    });
    const issued = mintToken(tx, admin, 'pat', { label: 'bootstrap', fixedToken });
    audit(tx, { action: 'user.bootstrap_admin', actorId: null, subjectUserId: admin.id });
    await tx.flush();
    await openAccount(tx, admin.id, admin.planCode);
    return { token: issued.token, userId: admin.id };
  });
}
