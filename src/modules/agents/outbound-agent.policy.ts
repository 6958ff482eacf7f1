import { forbidden } from '../../errors';
import { isSandboxToken } from '../auth/token.policy';
import type { Viewer } from '../auth/auth.service';

/*
 * The outbound registry's rules as small functions over loaded state: who may change it, how a
 * key is masked and when a submitted key keeps the stored one, and when an entry's last test no
 * longer speaks for it.
 */

/** Entries one user may register. */
export const MAX_AGENTS_PER_USER = 50;
/** Tests of one user's entries in flight at once (over all instances). */
export const MAX_TESTS_IN_FLIGHT_PER_USER = 3;

export type RegistryAction = 'view' | 'change' | 'test';

/**
 * Each user has a registry of their own; nobody sees another's (their entries are not found).
 * A sandbox token may read it but neither change it nor test entries: code the agent runs must
 * not register peers with credentials, nor use a test as a probe of the network.
 * @throws FORBIDDEN for a sandbox token changing or testing
 */
export function authorizeRegistry(viewer: Viewer, action: RegistryAction): void {
  if (action !== 'view' && isSandboxToken(viewer)) throw forbidden('a sandbox token cannot change or test the outbound agent registry');
}

/** The character masks are made of: a real key (printable ASCII) never holds it. */
const MASK_CHAR = '•';
/** Keys shorter than this show no character at all: four of eight would give half of it away. */
const MIN_KEY_LENGTH_TO_HINT = 16;

/**
 * How a key is shown: eight mask characters, then its last four characters when it has 16 or
 * more (`••••••••k3Yz`); null when the entry has no key. Never more than the last four.
 */
export function maskKey(key: string | null): string | null {
  if (key === null) return null;
  return MASK_CHAR.repeat(8) + (key.length >= MIN_KEY_LENGTH_TO_HINT ? key.slice(-4) : '');
}

/** Whether a submitted value is a mask (of this key or any other), not a key. */
export const isMaskedKey = (value: string) => value.includes(MASK_CHAR);

/** What a write does to the stored key: keep it, replace it, or remove it. */
export type KeyChange = { keep: true } | { keep: false; key: string | null };

/**
 * A submitted `api_key` against the stored one: left out or the stored key's mask keeps it;
 * null or empty removes it; anything else replaces it. A mask that is not the stored key's
 * (another entry's, or a new entry's) is refused by the caller as a mistake, not stored.
 */
export function keyChangeOf(submitted: string | null | undefined, stored: string | null): KeyChange | 'foreign-mask' {
  if (submitted === undefined) return { keep: true };
  if (submitted === null || submitted === '') return { keep: false, key: null };
  if (isMaskedKey(submitted)) return stored !== null && submitted === maskKey(stored) ? { keep: true } : 'foreign-mask';
  return { keep: false, key: submitted };
}

/** Whether the last test no longer speaks for an entry: it now points elsewhere or under other address rules. */
export const testOutdatedBy = (before: { url: string; allowPrivate: boolean }, after: { url: string; allowPrivate: boolean }) =>
  before.url !== after.url || before.allowPrivate !== after.allowPrivate;
