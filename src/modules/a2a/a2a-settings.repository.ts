import fs from 'node:fs';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type Selection, sql } from 'kysely';
import type { Database } from '../../db/database';
import { dateOf, Query, sqlOf } from '../../db/sql';
import { compiledOnce, db, firstRowOf, rowsOf, slot } from '../../db/typed-sql';
import { newSecret, randomString, sha256Hex } from '../../ids';
import type { Logger } from '../../logger';
import { inActiveLabSql } from '../labs/membership.repository';
import type { PlanFacts } from '../users/user.repository';

/**
 * The A2A endpoint's settings and keys, in PostgreSQL (docs/api/a2a.md, "Settings and keys"):
 * one `a2a_settings` row `{enabled, owner}` and the `a2a_keys`, each stored as the SHA-256 digest
 * of its secret (a secret carries about 238 random bits, so a plain digest cannot be searched).
 * Every instance reads them on every A2A request, so `labdesk a2a …` takes effect at once
 * everywhere, and a database backup holds them.
 */
export const KEY_PREFIX = 'ldk_a2a';
/** The account that owns tasks and pays for their model calls when `enable` names none: the bootstrap admin. */
export const DEFAULT_OWNER = 'admin@localhost';

export interface A2aSettings {
  enabled: boolean;
  /** Email (lower case) of the account whose tier gates the endpoint and whose agent runs the tasks. */
  owner: string;
}

export interface StoredKey {
  id: string;
  label: string;
  createdAt: Date;
  revokedAt: Date | null;
}

const KEY_COLUMNS = ['id', 'label', 'created_at', 'revoked_at'] as const;
const toKey = (row: Selection<Database, 'a2a_keys', (typeof KEY_COLUMNS)[number]>): StoredKey => ({
  id: row.id,
  label: row.label,
  createdAt: dateOf(row.created_at)!,
  revokedAt: dateOf(row.revoked_at),
});

/** The settings, or the defaults (disabled, owned by the bootstrap admin) when none were ever written. */
export async function readSettings(q: Query): Promise<A2aSettings> {
  const row = await firstRowOf(q, db.selectFrom('a2a_settings').select(['enabled', 'owner_email']));
  return row ? { enabled: row.enabled, owner: row.owner_email } : { enabled: false, owner: DEFAULT_OWNER };
}

export async function writeSettings(q: Query, settings: A2aSettings): Promise<void> {
  await q(
    `insert into a2a_settings (enabled, owner_email) values (?, ?)
     on conflict (id) do update set enabled = excluded.enabled, owner_email = excluded.owner_email, updated_at = now()`,
    [settings.enabled, settings.owner.toLowerCase()],
  );
}

/** The owner's email while A2A is enabled, else null: who may use the A2A web tools besides admins. */
export async function enabledOwner(q: Query): Promise<string | null> {
  const row = await firstRowOf(q, db.selectFrom('a2a_settings').select('owner_email').where('enabled', '=', sql.lit(true)));
  return row?.owner_email ?? null;
}

/** Every key ever created, oldest first (revoked ones too, for `key list`). */
export async function listKeys(q: Query): Promise<StoredKey[]> {
  const rows = await rowsOf(q, db.selectFrom('a2a_keys').select(KEY_COLUMNS).orderBy('created_at').orderBy('id'));
  return rows.map(toKey);
}

/** Creates a key; the plaintext is returned once and never stored. */
export async function createKey(q: Query, label: string): Promise<{ key: StoredKey; plaintext: string }> {
  const id = randomString(12);
  const secret = newSecret(40);
  const [row] = await rowsOf(
    q,
    db
      .insertInto('a2a_keys')
      .values({ id, label, secret_sha256: sha256Hex(secret) })
      .returning(KEY_COLUMNS),
  );
  return { key: toKey(row), plaintext: `${KEY_PREFIX}_${id}_${secret}` };
}

/** Revokes a key and answers it as revoked; null when there is no such unrevoked key. */
export async function revokeKey(q: Query, id: string): Promise<StoredKey | null> {
  const row = await firstRowOf(
    q,
    db
      .updateTable('a2a_keys')
      .set({ revoked_at: sql<string>`now()` })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .returning(KEY_COLUMNS),
  );
  return row ? toKey(row) : null;
}

const KEY_FORMAT = new RegExp(`^${KEY_PREFIX}_([a-z0-9]{12})_([A-Za-z0-9]{40})$`);

/** A presented key's id and secret, or undefined when it is not shaped like a key. */
export function parseKey(presented: string): { id: string; secret: string } | undefined {
  const match = KEY_FORMAT.exec(presented);
  return match ? { id: match[1], secret: match[2] } : undefined;
}

/** What the gate decides one A2A request from (`gateFacts`). */
export interface GateFacts {
  settings: A2aSettings | null;
  /** The owner's plan facts, or null when no account has the owner's email. */
  owner: PlanFacts | null;
  activeKeys: number;
  /** Whether any key was ever created: revoking the last one locks the endpoint, never opens it. */
  everKeyed: boolean;
  /** The digest of the presented key's secret, when that key exists and is not revoked. */
  keySha256: string | null;
  /** Whether the owner has an enabled outbound agent (its turns offer them as tools). */
  ownerAgents: boolean;
}

/** The statement of `gateFacts`, compiled once (every A2A request runs it); its one slot: the presented key's id. */
const GATE_FACTS = compiledOnce(
  db
    .selectFrom(sql`(select 1)`.as('one'))
    .leftJoin('a2a_settings as s', (join) => join.on(sql<boolean>`true`))
    .leftJoin('users as u', 'u.email', 's.owner_email')
    .select([
      's.enabled',
      's.owner_email',
      'u.id',
      'u.plan_code',
      'u.plan_expires_at',
      sql<boolean>`case when u.id is null then false else ${sql.raw(inActiveLabSql('u.id'))} end`.as('in_active_lab'),
      sql<number>`(select count(*)::int from a2a_keys where revoked_at is null)`.as('active_keys'),
      sql<boolean>`exists (select 1 from a2a_keys)`.as('ever_keyed'),
      sql<string | null>`(select secret_sha256 from a2a_keys where id = ${slot<string | null>()} and revoked_at is null)`.as('key_sha256'),
      sql<boolean>`exists (select 1 from a2a_agents where user_id = u.id and enabled)`.as('owner_agents'),
    ]),
);

/** Everything `A2aGate` needs for one request, in one statement (every A2A request asks). */
export async function gateFacts(q: Query, keyId: string | null): Promise<GateFacts> {
  const [row] = await GATE_FACTS.rows(q, [keyId]);
  return {
    // The left joins: a settings row has both, an account its id and plan.
    settings: row.enabled === null || row.owner_email === null ? null : { enabled: row.enabled, owner: row.owner_email },
    owner:
      row.id === null || row.plan_code === null
        ? null
        : { id: row.id, planCode: row.plan_code, planExpiresAt: dateOf(row.plan_expires_at), inActiveLab: row.in_active_lab },
    activeKeys: row.active_keys,
    everKeyed: row.ever_keyed,
    keySha256: row.key_sha256,
    ownerAgents: row.owner_agents,
  };
}

/** The files that held the settings and keys before they moved into the database. */
const LEGACY_FILES = { settings: 'a2a.json', keys: 'a2a-keys.json' };

/**
 * Imports DATA_DIR/a2a.json and a2a-keys.json once, at start, then renames each to `….imported`
 * (kept, not deleted: an operator may want to read them). Settings already in the database win;
 * keys are matched by id, so an import repeated by a second instance on a shared volume adds
 * nothing. A file that cannot be parsed stops the start: it is not "disabled".
 * @throws Error naming the file when it is not valid
 */
export async function importA2aFiles(em: EntityManager, dataDir: string, logger: Logger): Promise<void> {
  const settingsFile = path.join(dataDir, LEGACY_FILES.settings);
  const keysFile = path.join(dataDir, LEGACY_FILES.keys);
  const settings = readLegacy(
    settingsFile,
    (value): value is A2aSettings =>
      typeof value === 'object' &&
      value !== null &&
      'enabled' in value &&
      typeof value.enabled === 'boolean' &&
      'owner' in value &&
      typeof value.owner === 'string' &&
      value.owner !== '',
  );
  const keys = readLegacy(
    keysFile,
    (value): value is { keys: LegacyKey[] } =>
      typeof value === 'object' && value !== null && 'keys' in value && Array.isArray(value.keys) && value.keys.every(isLegacyKey),
  );
  if (!settings && !keys) return;
  await em.transactional(async (tx) => {
    const q = sqlOf(tx);
    if (settings)
      await q(`insert into a2a_settings (enabled, owner_email) values (?, ?) on conflict (id) do nothing`, [
        settings.enabled,
        settings.owner.toLowerCase(),
      ]);
    for (const key of keys?.keys ?? []) {
      await q(
        `insert into a2a_keys (id, label, secret_sha256, created_at, revoked_at) values (?, ?, ?, ?, ?) on conflict (id) do nothing`,
        [key.id, key.label, key.secretSha256, key.createdAt, key.revokedAt ?? null],
      );
    }
  });
  for (const file of [settings && settingsFile, keys && keysFile]) {
    if (!file) continue;
    try {
      fs.renameSync(file, `${file}.imported`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error; // another instance renamed it first
    }
  }
  logger.info('A2A settings and keys imported into the database', { settings: Boolean(settings), keys: keys?.keys.length ?? 0 });
}

interface LegacyKey {
  id: string;
  label: string;
  createdAt: string;
  secretSha256: string;
  revokedAt?: string;
}

function isLegacyKey(value: unknown): value is LegacyKey {
  const k = value as LegacyKey;
  return (
    typeof k === 'object' &&
    k !== null &&
    typeof k.id === 'string' &&
    typeof k.label === 'string' &&
    !Number.isNaN(Date.parse(k.createdAt)) &&
    typeof k.secretSha256 === 'string' &&
    /^[0-9a-f]{64}$/.test(k.secretSha256) &&
    (k.revokedAt === undefined || !Number.isNaN(Date.parse(k.revokedAt)))
  );
}

/** A legacy file's content when it exists (ENOENT: undefined). @throws Error when it exists but is not valid */
function readLegacy<T>(file: string, valid: (value: unknown) => value is T): T | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (!valid(value)) throw new Error(`${file} is not valid, so it cannot be imported: fix or remove it`);
  return value;
}
