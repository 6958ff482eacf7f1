import { type EntityManager, ReferenceKind, wrap } from '@mikro-orm/postgresql';
import { dateOf, directQuery, preparedOf, sqlOf, type Query } from '../../db/sql';
import { inActiveLabSql } from '../labs/membership.repository';
import { User } from './user.entity';
import type { UserFacts } from './user-facts';

/*
 * The user queries the ORM does not express: the sync stream's server-side cursor, the
 * bootstrap lock, the plan lookup of every A2A request and the user by id as a prepared
 * statement. Everything else of the user domain goes through its entity (user.entity.ts).
 */

/**
 * The user's columns as the entity maps them (`alias.column, …`), named rather than `alias.*`: a
 * column another instance's migration adds must not change a prepared statement's result, which
 * PostgreSQL refuses to run. For statements that read a user to `em.map` it.
 */
export function userColumnsSql(em: EntityManager, alias: string): string {
  return em
    .getMetadata()
    .get(User.name)
    .props.filter((prop) => prop.kind === ReferenceKind.SCALAR && prop.persist !== false && !prop.lazy)
    .flatMap((prop) => prop.fieldNames.map((column) => `${alias}.${column}`))
    .join(', ');
}

/**
 * A row of `userColumnsSql` (raw: timestamps and bigints as text) as plain facts. Every column
 * is named: `test/unit.test.ts` checks the list against the entity's.
 */
export function userFactsOf(row: Record<string, unknown>): UserFacts {
  const bigint = (value: unknown) => (value === null ? null : Number(value));
  return {
    id: row.id as string,
    createdAt: dateOf(row.created_at)!,
    updatedAt: dateOf(row.updated_at)!,
    email: row.email as string,
    name: row.name as string,
    phone: row.phone as string | null,
    planCode: row.plan_code as string,
    planSource: row.plan_source as string,
    planExpiresAt: dateOf(row.plan_expires_at),
    isAdmin: row.is_admin as boolean,
    disabled: row.disabled as boolean,
    domain: row.domain as string,
    institution: row.institution as string | null,
    institutionTier: row.institution_tier as string | null,
    institutionType: row.institution_type as string | null,
    institutionName: row.institution_name as string | null,
    storageQuotaBytes: bigint(row.storage_quota_bytes),
    storageUsedBytes: bigint(row.storage_used_bytes)!,
    lastActiveAt: dateOf(row.last_active_at),
  };
}

let userById: { name: string; text: string } | undefined;

/**
 * The user with this id, managed by `em`, or null: the one `em` manages already when it is loaded
 * (as `findOne` answers it, unsaved changes kept), else mapped from one prepared statement (no
 * query builder; `em.map` merges into a reference `em` holds and marks it loaded).
 */
export async function findUserById(em: EntityManager, id: string): Promise<User | null> {
  // A reference another entity's relation put there (only its id set) is loaded, as findOne would.
  const managed = em.getUnitOfWork().getById<User>(User.name, id);
  if (managed && wrap(managed).isInitialized()) return managed;
  userById ??= { name: 'user_by_id', text: `select ${userColumnsSql(em, 'u')} from users u where u.id = $1` };
  const [row] = await directQuery(em, userById, [id]);
  return row ? em.map(User, row) : null;
}

/** What a user's effective tier is computed from (plans.ts `effectiveTier`). */
export interface PlanFacts {
  id: string;
  planCode: string;
  planExpiresAt: Date | null;
  inActiveLab: boolean;
}

/**
 * The plan facts of the user with this (lower-cased) email, or null: one prepared statement,
 * outside any transaction, because the A2A gate asks it on every request. It names its
 * columns, so a column another instance's migration adds does not change its result.
 */
export async function planFactsByEmail(em: EntityManager, email: string): Promise<PlanFacts | null> {
  const [row] = await preparedOf(em)<Omit<PlanFacts, 'planExpiresAt'> & { planExpiresAt: unknown }>(
    `select u.id, u.plan_code as "planCode", u.plan_expires_at as "planExpiresAt", ${inActiveLabSql('u.id')} as "inActiveLab" from users u where u.email = ?`,
    [email],
  );
  return row ? { ...row, planExpiresAt: dateOf(row.planExpiresAt) } : null;
}

/** The columns of a user row as the sync stream sends it (snake_case, as on the wire). */
const USER_SYNC_COLUMNS = `id as user_id, email, name, phone, plan_code, plan_source, plan_expires_at, is_admin, disabled,
  domain, institution, institution_tier, institution_type, institution_name, storage_quota_bytes::float8 as storage_quota_bytes, storage_used_bytes::float8 as storage_used_bytes,
  created_at, updated_at, last_active_at`;

/**
 * Every user row in wire form, oldest first, through a server-side cursor `batch` rows at a
 * time, so memory stays constant whatever the table size. Each batch is read when the reader
 * asks for it (back-pressure); a reader that stops early ends the transaction and the cursor.
 */
export async function* userSyncRowBatches(em: EntityManager, batch: number): AsyncGenerator<Record<string, unknown>[]> {
  const trx = await em.getConnection().getKnex().transaction();
  try {
    // A stalled reader must not hold a connection and a snapshot forever.
    await trx.raw(`set local idle_in_transaction_session_timeout = '60s'`);
    await trx.raw(`declare users_sync no scroll cursor for select ${USER_SYNC_COLUMNS} from users order by created_at, id`);
    for (;;) {
      const { rows } = await trx.raw<{ rows: Record<string, unknown>[] }>(`fetch ${batch} from users_sync`);
      if (rows.length) yield rows;
      if (rows.length < batch) break;
    }
    await trx.raw('close users_sync');
    await trx.commit();
  } finally {
    if (!trx.isCompleted()) await trx.rollback();
  }
}

/**
 * The ids of the active administrators (admin, not suspended), locked until `tx` ends: two
 * administrators demoting or suspending each other at once are decided one after the other, so
 * the second sees the first's change and cannot leave the service without one.
 */
export async function lockActiveAdmins(tx: EntityManager): Promise<string[]> {
  const rows = await sqlOf(tx)<{ id: string }>('select id from users where is_admin and not disabled order by id for update');
  return rows.map((row) => row.id);
}

/** The advisory lock the first admin is made under (transaction-scoped): one instance at a time. */
const BOOTSTRAP_ADMIN_LOCK = 727_002;

/** Holds the bootstrap lock until `tx` ends. */
export async function holdBootstrapAdminLock(tx: EntityManager): Promise<void> {
  await sqlOf(tx)('select pg_advisory_xact_lock(?)', [BOOTSTRAP_ADMIN_LOCK]);
}

/** What others are shown of a user: name and email, by id (ids with no user are left out). */
export async function peopleByIds(q: Query, ids: string[]): Promise<Map<string, { name: string; email: string }>> {
  const rows = await q<{ id: string; name: string; email: string }>(
    `select u.id, u.name, u.email from users u where u.id in (select jsonb_array_elements_text(?::jsonb))`,
    [JSON.stringify(ids)],
  );
  return new Map(rows.map((row) => [row.id, { name: row.name, email: row.email }]));
}
