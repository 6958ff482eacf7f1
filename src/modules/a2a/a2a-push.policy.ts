/**
 * The rules of A2A push deliveries as small functions over plain facts (docs/api/a2a-push.md):
 * what an answer means, when to try again. The states pushed are SETTLED_STATES
 * (`a2a-task.repository.ts`; the outbox trigger lists them too).
 */

/** Attempts per delivery, the first included; then it is recorded `failed`. */
export const MAX_DELIVERY_ATTEMPTS = 10;
const FIRST_RETRY_SECONDS = 2;
const LONGEST_WAIT_SECONDS = 600;

/** Seconds before the next attempt after `attempts` failed ones: 2, 4, 8, … doubling, at most 10 minutes. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(LONGEST_WAIT_SECONDS, FIRST_RETRY_SECONDS * 2 ** Math.max(0, attempts - 1));
}

export type AttemptVerdict = 'delivered' | 'retry' | 'failed';

/**
 * What an attempt's end means. A 2xx answer delivered it. A receiver's 4xx is its final word
 * (bad token, gone) except 408 and 429, which ask for another try; 5xx and a request that did
 * not complete are tried again, until the attempts run out. A request the guard refuses (the
 * host now resolves to a forbidden address, or the answer was a redirect) fails for good.
 */
export function verdictOf(outcome: { status: number } | { refused: true } | { unreachable: true }, attempts: number): AttemptVerdict {
  if ('refused' in outcome) return 'failed';
  if ('status' in outcome) {
    if (outcome.status >= 200 && outcome.status < 300) return 'delivered';
    if (outcome.status >= 400 && outcome.status < 500 && outcome.status !== 408 && outcome.status !== 429) return 'failed';
  }
  return attempts >= MAX_DELIVERY_ATTEMPTS ? 'failed' : 'retry';
}
