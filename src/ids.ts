import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
const ALNUM_MIXED = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `length` characters drawn uniformly from `alphabet` (no modulo bias). */
export function randomString(length: number, alphabet = ALNUM): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

/** Server-made ids: a readable prefix and 124 random bits, unguessable (docs/api/wire.md). */
export const newId = (prefix: 'usr' | 'lab' | 'dev' | 'ann' | 'dis' | 'turn' | 'ctx' | 'msg' | 'shr' | 'rev' | 'ntc') =>
  `${prefix}_${randomString(24)}`;

/** A random secret of about 190 bits, letters and digits only so it survives any transport. */
export const newSecret = (length = 32) => randomString(length, ALNUM_MIXED);

export const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

/** Compares two hex digests without leaking where they differ. */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
