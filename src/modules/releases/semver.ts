import { compare, valid } from 'semver';

/**
 * Release versions: semantic versions (semver.org 2.0, parsed by the `semver` package) exactly as
 * written, with no `v` prefix and no build metadata (`1.2.3`, `1.2.3-beta.1`): they name URL
 * path segments and store keys. Numbers beyond 2^53 - 1 are not versions (they could not be
 * compared exactly).
 */
export const RELEASE_VERSION = { test: (text: string) => valid(text) === text && !text.includes('+') };

/** Precedence of two release versions: negative, zero or positive (semver.org §11). */
export const compareVersions = (a: string, b: string): number => compare(a, b);
