/**
 * Retry policy: which failures are retried (`isRetryable`, the only place that
 * decides), how long to wait (`retryDelayMs`), and the loop (`withRetries`, on
 * p-retry). Waits are capped exponential backoff with jitter, or the server's
 * `Retry-After` (capped); retries are bounded in count and in total time.
 */
import {
  BadResponseError,
  ConnectionError,
  GrpcCode,
  IrmError,
  OutcomeUnknownError,
  TimeoutError,
} from "./errors";
import { pRetry } from "./lazy-modules";

export interface RetrySettings {
  /** Retries after the first attempt (0 disables retrying). */
  retries: number;
  /** First backoff delay; doubles on each retry. */
  minDelayMs: number;
  /** Cap of one backoff delay. */
  maxDelayMs: number;
  /** Cap of the total time spent on one call, retries and waits included. */
  maxRetryTimeMs: number;
  /** Cap of a server-requested `Retry-After` wait. */
  maxRetryAfterMs: number;
}

/**
 * Decides whether a failed attempt may be repeated.
 *
 * - The service's UNAVAILABLE and RESOURCE_EXHAUSTED (503, 429) mean it did not act:
 *   retried for every method.
 * - 502 and 504 come from a proxy that may have forwarded the request: retried only
 *   when repeating is harmless (`idempotent`: GET, DELETE, PATCH).
 * - A connection that failed before anything was sent: retried for every method.
 * - A connection lost after sending, a timeout, or a garbled success body: retried
 *   only when idempotent.
 * - An outcome-unknown create is never retried blindly: the caller reconciles.
 */
export function isRetryable(error: unknown, idempotent: boolean): boolean {
  if (!(error instanceof IrmError) || error instanceof OutcomeUnknownError) return false;
  if (error instanceof ConnectionError) return error.beforeSend || idempotent;
  if (error instanceof TimeoutError) return idempotent;
  if (error.status === 502 || error.status === 504) return idempotent;
  if (error instanceof BadResponseError && error.status >= 200 && error.status < 300) {
    return idempotent;
  }
  return (
    (error.code === GrpcCode.UNAVAILABLE || error.code === GrpcCode.RESOURCE_EXHAUSTED) &&
    (error.status === 503 || error.status === 429 || !(error instanceof BadResponseError))
  );
}

/**
 * Wait before retry number `retryNumber` (1 for the first retry). A `Retry-After`
 * from the server wins, capped by `maxRetryAfterMs`; otherwise the backoff
 * `minDelayMs * 2^(n-1)` capped by `maxDelayMs`, with "equal jitter" (between half
 * and all of it) so that clients retrying together spread out.
 */
export function retryDelayMs(
  retryNumber: number,
  error: unknown,
  settings: RetrySettings,
  random: () => number = Math.random,
): number {
  if (error instanceof IrmError && error.retryAfterMs !== undefined) {
    return Math.min(Math.max(0, error.retryAfterMs), settings.maxRetryAfterMs);
  }
  const backoff = Math.min(settings.maxDelayMs, settings.minDelayMs * 2 ** (retryNumber - 1));
  return Math.round(backoff / 2 + random() * (backoff / 2));
}

/** Parses `Retry-After` (delay in seconds, or an HTTP date) into milliseconds from `nowMs`. */
export function parseRetryAfter(
  value: string | undefined,
  nowMs: number = Date.now(),
): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

export interface RetryNotice {
  /** 1 for the first retry. */
  retryNumber: number;
  delayMs: number;
  error: IrmError;
}

export interface RetryLoopOptions {
  settings: RetrySettings;
  idempotent: boolean;
  signal?: AbortSignal;
  onRetry?: (notice: RetryNotice) => void;
  random?: () => number;
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Runs `attempt` until it succeeds, a failure is not retryable, or a bound is reached. */
export function withRetries<T>(attempt: () => Promise<T>, options: RetryLoopOptions): Promise<T> {
  const { settings, idempotent, signal } = options;
  const startedAt = performance.now();
  return pRetry().default(attempt, {
    retries: settings.retries,
    maxRetryTime: settings.maxRetryTimeMs,
    // p-retry's own wait is disabled: the wait happens in shouldRetry, where the
    // error (and its Retry-After) is known.
    minTimeout: 0,
    signal,
    shouldRetry: async ({ error, attemptNumber }) => {
      if (!isRetryable(error, idempotent)) return false;
      const delayMs = retryDelayMs(attemptNumber, error, settings, options.random);
      const remainingMs = settings.maxRetryTimeMs - (performance.now() - startedAt);
      // Waiting past the total budget would only end in the same error, later.
      if (delayMs > remainingMs) return false;
      options.onRetry?.({ retryNumber: attemptNumber, delayMs, error: error as IrmError });
      await sleep(delayMs, signal);
      return true;
    },
  });
}
