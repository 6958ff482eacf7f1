import { FieldIssue, invalid } from './errors';

type Path = (string | number)[];

/**
 * Collects the domain-level input checks of one operation (lengths, ranges, formats) and throws
 * them together as one VALIDATION_FAILED. Types and required members are already enforced by the
 * GraphQL schema; this is what a type cannot say.
 */
export class Checks {
  private readonly issues: FieldIssue[] = [];

  text(
    path: Path,
    value: string | null | undefined,
    opts: { min?: number; max: number; pattern?: { test(value: string): boolean }; hint?: string },
  ) {
    if (value === null || value === undefined) return this;
    const length = [...value].length;
    if (opts.min !== undefined && length < opts.min) {
      this.add(path, `must be at least ${opts.min} character${opts.min === 1 ? '' : 's'}`, 'string_too_short');
    } else if (length > opts.max) {
      this.add(path, `must be at most ${opts.max} characters`, 'string_too_long');
    } else if (opts.pattern && !opts.pattern.test(value)) {
      this.add(path, opts.hint ?? 'has an invalid format', 'string_pattern_mismatch');
    }
    return this;
  }

  int(path: Path, value: number | null | undefined, opts: { min?: number; max?: number }) {
    if (value === null || value === undefined) return this;
    if (opts.min !== undefined && value < opts.min) this.add(path, `must be at least ${opts.min}`, 'number_too_small');
    else if (opts.max !== undefined && value > opts.max) this.add(path, `must be at most ${opts.max}`, 'number_too_large');
    return this;
  }

  /** For partial updates: these members may be left out, but not given as null. */
  notNull<T extends object>(input: T, keys: readonly (keyof T & string)[]) {
    for (const key of keys) if (input[key] === null) this.add(['input', key], 'may not be null', 'null');
    return this;
  }

  /** Text PostgreSQL can store as given (see `unstorable`). */
  storable(path: Path, value: string | null | undefined) {
    const problem = value ? unstorable(value) : null;
    if (problem) this.add(path, problem, 'string_invalid');
    return this;
  }

  require(path: Path, present: boolean, msg = 'is required') {
    if (!present) this.add(path, msg, 'missing');
    return this;
  }

  add(path: Path, msg: string, type: string) {
    this.issues.push({ path, msg, type });
    return this;
  }

  /** @throws AppError VALIDATION_FAILED when any check failed. */
  done(): void {
    if (this.issues.length > 0) throw invalid(this.issues);
  }
}

export const checks = () => new Checks();

/**
 * Why PostgreSQL could not store `text` faithfully, or null: it holds no NUL, and an unpaired
 * UTF-16 surrogate has no UTF-8 form (text columns would get U+FFFD, jsonb refuses it).
 */
export function unstorable(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain NUL characters';
  if (/\p{Surrogate}/u.test(text)) return 'must be valid Unicode (no unpaired surrogates)';
  return null;
}

/**
 * Whether a parsed JSON value nests arrays and objects deeper than `limit` levels (`[]` and `{}`
 * are one level, a scalar none): code that walks such a value recursively (JSON.stringify among
 * them) overflows the stack somewhere past a few thousand. An explicit stack here, so no depth
 * overflows this; it stops as soon as it knows.
 */
export function valueDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [item, depth] = next;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

export interface Page {
  limit: number;
  offset: number;
}

/** The one normalizer for `limit`/`offset` pagination arguments. */
export function pageArgs(
  limit: number | null | undefined,
  offset: number | null | undefined,
  bounds: { max: number; default: number },
): Page {
  const page = { limit: limit ?? bounds.default, offset: offset ?? 0 };
  checks().int(['limit'], page.limit, { min: 1, max: bounds.max }).int(['offset'], page.offset, { min: 0 }).done();
  return page;
}

/** A bare `limit` (lists without offsets: scans, board, reviews). */
export const limitArg = (limit: number | null | undefined, bounds: { max: number; default: number }) => pageArgs(limit, 0, bounds).limit;
