import { hash, verify } from '@node-rs/argon2';
import { invalid } from '../../errors';

/**
 * Argon2id with OWASP's first recommended setting (19 MiB, 2 passes, 1 lane): about 16 ms of one
 * core here, run on libuv's pool (never on the event loop). Stored in PHC form
 * (`$argon2id$v=19$m=19456,t=2,p=1$…`), which carries its parameters: raising them later
 * still verifies the older hashes.
 */
export const ARGON2ID = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 1_024;

/**
 * A new password's rules: 12 to 1,024 characters (code points), nothing else demanded (NIST
 * 800-63B: length, not composition).
 * @throws VALIDATION_FAILED at `path` (relative to the GraphQL arguments)
 */
export function checkNewPassword(password: string, path: string[]): void {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH)
    throw invalid([{ path, msg: `must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters long`, type: 'value_error' }]);
}

export const hashPassword = (password: string): Promise<string> => hash(password, ARGON2ID);

/**
 * A hash of nothing anyone knows, made once: checked against when there is no hash to check
 * (an unknown email, a user without a password), so that those answer in the time a wrong
 * password takes.
 */
let decoy: Promise<string> | undefined;

/** Whether `password` matches `stored`; with no stored hash, false after the same work. */
export async function passwordMatches(stored: string | null, password: string): Promise<boolean> {
  const target = stored ?? (await (decoy ??= hashPassword(`decoy ${Math.random()}`)));
  // A malformed stored hash is a mismatch, not a 500.
  const matches = await verify(target, password).catch(() => false);
  return stored !== null && matches;
}
