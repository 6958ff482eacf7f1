/**
 * Structured answers: features that ask a model for JSON read its answer defensively. Models wrap
 * JSON in prose or in a ```json fence; this finds the object, and the caller's `shape` decides
 * whether it is what was asked for. Anything else is "no answer", never an exception.
 */

/** An object (not an array, not null): what `shape` functions narrow from. */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An integer in [min, max]. */
export const isIntIn = (value: unknown, min: number, max: number): value is number =>
  Number.isInteger(value) && (value as number) >= min && (value as number) <= max;

/** The JSON object an answer holds: the whole answer, else its first ```json fence, else its outermost `{…}`; undefined when none parses. */
export function jsonObjectOf(answer: string): Record<string, unknown> | undefined {
  const fenced = /```(?:json)?\s*\n?([\s\S]*?)```/i.exec(answer)?.[1];
  const open = answer.indexOf('{');
  const close = answer.lastIndexOf('}');
  const candidates = [answer, fenced, open >= 0 && close > open ? answer.slice(open, close + 1) : undefined];
  for (const candidate of candidates) {
    if (candidate === undefined) continue;
    try {
      const value: unknown = JSON.parse(candidate.trim());
      if (isObject(value)) return value;
    } catch {
      // Not this one; try the next reading.
    }
  }
  return undefined;
}

/** The answer's JSON object as `shape` accepts it (`shape` returns undefined to refuse), else undefined. */
export function jsonAnswer<T>(answer: string, shape: (value: Record<string, unknown>) => T | undefined): T | undefined {
  const value = jsonObjectOf(answer);
  return value === undefined ? undefined : shape(value);
}
