import fs from 'node:fs';
import path from 'node:path';
import { digestsEqual, newSecret, randomString, sha256Hex } from '../../ids';

/**
 * The A2A endpoint's settings and keys: two files under DATA_DIR that the CLI edits (contracts §9).
 * `a2a.json` holds `{enabled, owner}` (read when the service starts: `enable` takes effect at the
 * next start); `a2a-keys.json` holds the keys, as SHA-256 digests of their secrets (a secret is
 * 190 random bits, so a plain digest cannot be searched). The service reads the key file again
 * whenever its size, inode or modification time changed, checked with one `stat` per request, so
 * a revocation counts from the next request on, with no stale cache.
 */
export const CONFIG_FILE = 'a2a.json';
export const KEYS_FILE = 'a2a-keys.json';
export const KEY_PREFIX = 'ldk_a2a';
/** The account that owns tasks and pays for their model calls when `enable` names none: the bootstrap admin. */
export const DEFAULT_OWNER = 'admin@localhost';

export interface A2aConfig {
  enabled: boolean;
  /** Email of the account whose tier gates the endpoint and whose agent runs the tasks. */
  owner: string;
}

export interface StoredKey {
  id: string;
  label: string;
  createdAt: string;
  /** SHA-256 of the secret, hex. */
  secretSha256: string;
  revokedAt?: string;
}

export const configPath = (dataDir: string) => path.join(dataDir, CONFIG_FILE);
export const keysPath = (dataDir: string) => path.join(dataDir, KEYS_FILE);

/** The config file, or the defaults (disabled) when there is none. @throws Error when it exists but is not a valid config */
export function readA2aConfig(dataDir: string): A2aConfig {
  const parsed = readJson(configPath(dataDir));
  if (parsed === undefined) return { enabled: false, owner: DEFAULT_OWNER };
  const { enabled, owner } = parsed as Partial<A2aConfig>;
  if (typeof enabled !== 'boolean' || typeof owner !== 'string' || !owner) throw new Error(`${configPath(dataDir)} is not a valid A2A config ({"enabled": boolean, "owner": email})`);
  return { enabled, owner };
}

export function writeA2aConfig(dataDir: string, config: A2aConfig): void {
  writeJson(configPath(dataDir), config);
}

/** Every key ever created (revoked ones too, for `key list`). @throws Error when the file is not a valid key file */
export function readKeys(dataDir: string): StoredKey[] {
  const parsed = readJson(keysPath(dataDir));
  if (parsed === undefined) return [];
  const keys = (parsed as { keys?: unknown }).keys;
  if (!Array.isArray(keys) || !keys.every(isStoredKey)) throw new Error(`${keysPath(dataDir)} is not a valid A2A key file`);
  return keys;
}

/** Creates a key; the plaintext is returned once and never stored. */
export function createKey(dataDir: string, label: string, now = new Date()): { key: StoredKey; plaintext: string } {
  const keys = readKeys(dataDir);
  const id = randomString(12);
  const secret = newSecret(40);
  const key: StoredKey = { id, label, createdAt: now.toISOString(), secretSha256: sha256Hex(secret) };
  writeJson(keysPath(dataDir), { keys: [...keys, key] });
  return { key, plaintext: `${KEY_PREFIX}_${id}_${secret}` };
}

/** Revokes a key; false when there is no such (unrevoked) key. */
export function revokeKey(dataDir: string, id: string, now = new Date()): boolean {
  const keys = readKeys(dataDir);
  const key = keys.find((k) => k.id === id && !k.revokedAt);
  if (!key) return false;
  key.revokedAt = now.toISOString();
  writeJson(keysPath(dataDir), { keys });
  return true;
}

export const activeKeys = (keys: StoredKey[]) => keys.filter((k) => !k.revokedAt);

const KEY_FORMAT = new RegExp(`^${KEY_PREFIX}_([a-z0-9]{12})_([A-Za-z0-9]{40})$`);

/** The active key a presented plaintext is, if any (digests compared in constant time). */
export function matchKey(keys: StoredKey[], presented: string): StoredKey | undefined {
  const match = KEY_FORMAT.exec(presented);
  if (!match) return undefined;
  const key = keys.find((k) => k.id === match[1] && !k.revokedAt);
  return key && digestsEqual(key.secretSha256, sha256Hex(match[2])) ? key : undefined;
}

/**
 * The key file as the service sees it on each request: parsed again only when a `stat` shows it
 * changed (size, inode, mtime). An unreadable or invalid file counts as "no valid key": every
 * bearer is refused (fail closed), never served open.
 */
export class KeyFileWatch {
  private seen?: { stamp: string; keys: StoredKey[] | 'invalid' };

  constructor(private readonly dataDir: string) {}

  current(): StoredKey[] | 'invalid' {
    const file = keysPath(this.dataDir);
    let stamp: string;
    try {
      const stat = fs.statSync(file, { bigint: true });
      stamp = `${stat.ino}:${stat.size}:${stat.mtimeNs}`;
    } catch {
      stamp = 'absent';
    }
    if (this.seen?.stamp !== stamp) {
      let keys: StoredKey[] | 'invalid';
      try {
        keys = readKeys(this.dataDir);
      } catch {
        keys = 'invalid';
      }
      this.seen = { stamp, keys };
    }
    return this.seen.keys;
  }
}

function isStoredKey(value: unknown): value is StoredKey {
  const k = value as StoredKey;
  return (
    typeof k === 'object' && k !== null && typeof k.id === 'string' && typeof k.label === 'string' && typeof k.createdAt === 'string' &&
    typeof k.secretSha256 === 'string' && /^[0-9a-f]{64}$/.test(k.secretSha256) && (k.revokedAt === undefined || typeof k.revokedAt === 'string')
  );
}

function readJson(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return JSON.parse(text);
}

/** Written to a temporary file then renamed, so a reader never sees half a file; 0600, as it names accounts and digests. */
function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(temporary, file);
}
