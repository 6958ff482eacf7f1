/** Semantic versions (semver.org 2.0) without build metadata: `1.2.3`, `1.2.3-beta.1`. */
export const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*))?$/;

/** Precedence of two valid versions: negative, zero or positive (semver.org §11). */
export function compareVersions(a: string, b: string): number {
  const [, aMajor, aMinor, aPatch, aPre] = SEMVER.exec(a)!;
  const [, bMajor, bMinor, bPatch, bPre] = SEMVER.exec(b)!;
  for (const [x, y] of [[aMajor, bMajor], [aMinor, bMinor], [aPatch, bPatch]]) {
    if (x !== y) return Number(x) - Number(y);
  }
  // A pre-release sorts before its release; pre-releases compare identifier by identifier.
  if (!aPre || !bPre) return (aPre ? -1 : 0) - (bPre ? -1 : 0);
  const left = aPre.split('.');
  const right = bPre.split('.');
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const [x, y] = [left[i], right[i]];
    if (x === y) continue;
    const [xNum, yNum] = [/^\d+$/.test(x), /^\d+$/.test(y)];
    if (xNum && yNum) return Number(x) - Number(y);
    if (xNum !== yNum) return xNum ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return left.length - right.length;
}
