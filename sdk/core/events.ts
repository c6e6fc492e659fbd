/**
 * Events reported to the optional `logger`. They never contain a token: only
 * methods, paths without query strings, codes and timings.
 */

export interface RetryEvent {
  type: "retry";
  method: string;
  path: string;
  /** 1 for the first retry. */
  retryNumber: number;
  delayMs: number;
  /** Name of the error that caused the retry, e.g. `UnavailableError`. */
  error: string;
  codeName: string;
  /** HTTP status of the failed attempt; 0 when no response arrived. */
  status: number;
}

export interface TokenRefreshEvent {
  type: "token-refresh";
  /** Which source refreshed, e.g. `exchange(identity=<uid>)`. */
  source: string;
  /** `initial`: first token; `expiring`: close to `exp`; `rejected`: the service answered 401. */
  reason: "initial" | "expiring" | "rejected";
}

export interface TokenRefreshFailedEvent {
  type: "token-refresh-failed";
  source: string;
  /** Name and redacted message of the failure. */
  error: string;
  /** True when a still-valid cached token is used instead. */
  usingCachedToken: boolean;
}

export type SdkEvent = RetryEvent | TokenRefreshEvent | TokenRefreshFailedEvent;

export type SdkLogger = (event: SdkEvent) => void;

/** The logger `IRM_DEBUG=1` installs: one JSON line per event on stderr. */
export const stderrLogger: SdkLogger = (event) => {
  process.stderr.write(`[pulumi-irm/sdk] ${JSON.stringify(event)}\n`);
};
