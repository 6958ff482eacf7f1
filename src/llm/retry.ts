import { setTimeout as sleep } from 'node:timers/promises';
import { APICallError } from 'ai';
import { AppError } from '../errors';

/** Longest wait before a retry, whether from backoff or a `Retry-After`; a longer `Retry-After` ends the call. */
export const MAX_RETRY_WAIT_MS = 30_000;
const BASE_BACKOFF_MS = 500;

export interface RetryPolicy {
  timeoutMs: number;
  maxRetries: number;
  signal?: AbortSignal;
}

/** Why one attempt failed, and whether another may succeed. */
interface Failure {
  reason: string;
  retryable: boolean;
  /** The server's `Retry-After`, in milliseconds. */
  retryAfterMs?: number;
}

/** `Retry-After` as seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterMs(header: string | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\s*\d+\s*$/.test(header)) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(at - now, 0);
}

/** A streamed answer that failed after part of it was handed on. */
export class StreamBrokenError extends Error {
  constructor(override readonly cause: unknown) {
    super('the stream broke off after part of the answer');
  }
}

function classify(error: unknown, timedOut: boolean): Failure {
  if (error instanceof StreamBrokenError)
    return { reason: timedOut ? 'timed out while streaming' : 'the answer broke off while streaming', retryable: false };
  if (timedOut) return { reason: 'timed out', retryable: true };
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    const headers = Object.fromEntries(Object.entries(error.responseHeaders ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    if (status === undefined) return { reason: 'no answer (connection failed)', retryable: true };
    // The SDK reports a 2xx body it cannot read as a call error with that status.
    if (status < 400) return { reason: 'malformed answer', retryable: false };
    return { reason: `HTTP ${status}`, retryable: status === 429 || status >= 500, retryAfterMs: retryAfterMs(headers['retry-after']) };
  }
  if (error instanceof TypeError) return { reason: 'no answer (connection failed)', retryable: true };
  // Anything else the SDK raises (unparsable JSON, a body that is not a chat completion) will not improve on a retry.
  return { reason: 'malformed answer', retryable: false };
}

/**
 * Runs `attempt` with a time-out per attempt, retrying 429, 5xx, time-outs and lost connections
 * up to `maxRetries` times with exponential backoff, or after the server's `Retry-After`.
 * @throws AppError UNAVAILABLE naming `label` (provider and model) and why the last attempt failed.
 */
export async function withRetries<T>(
  label: string,
  policy: RetryPolicy,
  attempt: (signal: AbortSignal) => Promise<T>,
): Promise<{ value: T; attempts: number }> {
  for (let attempts = 1; ; attempts++) {
    if (policy.signal?.aborted) throw new AppError('UNAVAILABLE', `${label} call was cancelled`);
    const timeout = AbortSignal.timeout(policy.timeoutMs);
    const signal = policy.signal ? AbortSignal.any([policy.signal, timeout]) : timeout;
    let failure: Failure;
    try {
      return { value: await attempt(signal), attempts };
    } catch (error) {
      if (policy.signal?.aborted) throw new AppError('UNAVAILABLE', `${label} call was cancelled`);
      failure = classify(error, timeout.aborted);
    }
    const tried = `${attempts} attempt${attempts === 1 ? '' : 's'}`;
    if (!failure.retryable || attempts > policy.maxRetries)
      throw new AppError('UNAVAILABLE', `${label} failed: ${failure.reason} after ${tried}`);
    if (failure.retryAfterMs !== undefined && failure.retryAfterMs > MAX_RETRY_WAIT_MS) {
      throw new AppError(
        'UNAVAILABLE',
        `${label} failed: ${failure.reason}, asked to retry after ${Math.ceil(failure.retryAfterMs / 1000)} s`,
      );
    }
    const backoff = Math.min(BASE_BACKOFF_MS * 2 ** (attempts - 1), MAX_RETRY_WAIT_MS);
    await sleep(failure.retryAfterMs ?? backoff, undefined, { signal: policy.signal }).catch(() => {
      throw new AppError('UNAVAILABLE', `${label} call was cancelled`);
    });
  }
}
