type Truthy<T> = Exclude<T, false | null | undefined | 0 | ''>;

/**
 * Polls `probe` until it returns something truthy, and returns that. The wait is bounded (20 s
 * unless `seconds` says otherwise, under jest's 30 s per test) so that a test that waits in vain
 * fails saying what it waited for rather than at jest's time-out with no word of why.
 * @throws Error naming `what` (a function is asked at the end, to describe the last value seen) once the bound has passed.
 */
export async function until<T>(
  what: string | (() => string),
  probe: () => Promise<T> | T,
  { seconds = 20, intervalMs = 20 } = {},
): Promise<Truthy<T>> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await probe();
    if (value) return value as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`waited ${seconds} s in vain for ${typeof what === 'string' ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
