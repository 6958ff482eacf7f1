import { forbidden } from '../../../errors';
import { classifyAddress } from '../../../net/addresses';
import { isAdmin } from '../../admin/admin.policy';
import { isSandboxToken } from '../../auth/token.policy';
import type { Viewer } from '../../auth/viewer';

/*
 * The outbound registry's rules as small functions over loaded state: who may change it and who
 * may let it reach private addresses, how a key is masked and when a submitted key keeps the
 * stored one, when an entry's last test no longer speaks for it, and when a failure must not say
 * what answered.
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

/**
 * `allow_private` is an administrator's setting: it lets the service's requests reach loopback,
 * private, link-local and CGNAT addresses, i.e. the host and the network it sits in. In anyone
 * else's hands an entry with it, and its test, probe that network (issue 21). So a non-admin's
 * write may not check a URL with it on: neither setting it nor giving an entry that has it (one
 * stored before this rule) a new URL. Turning it off, or changing other members, stays theirs.
 * @throws FORBIDDEN for a non-admin whose write would check a URL with it on
 */
export function authorizeAllowPrivate(viewer: Viewer, allowPrivate: boolean): void {
  if (allowPrivate && !isAdmin(viewer))
    throw forbidden('only an administrator may set allow_private, or change the URL of an entry that has it');
}

/**
 * What a test or a peer call that reached a private address says when it fails, whatever
 * happened: a closed port, a connection closed or reset, a time-out, an HTTP 404, an answer that
 * is not JSON or not a card all read the same, so no error tells PostgreSQL from a web server.
 * It starts as the reasons do (`unreachable: `), so a client reading the prefix needs no new case.
 */
export const PRIVATE_ADDRESS_FAILURE = 'unreachable: no A2A agent answered at this address (details are not shown for private addresses)';

/**
 * Whether a failure must be told as `PRIVATE_ADDRESS_FAILURE`: one of its requests went to a
 * loopback, private, link-local or CGNAT address. `reached` holds the addresses the guard
 * checked and pinned those requests to (the only ones they could connect to), not what the URL
 * says: a name resolving to loopback counts, and so does one that resolved elsewhere when the
 * entry was registered.
 */
export const hidesFailureAt = (reached: readonly { address: string }[]) =>
  reached.some(({ address }) => classifyAddress(address).use === 'local');

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
