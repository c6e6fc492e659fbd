/**
 * Token sources: where the bearer token of each request comes from.
 *
 * A source is asked for a token before each call; after a 401 it is asked once
 * more with the rejected token, and a refreshable source then fetches a new one.
 * `cachedTokenSource` adds caching, refresh ahead of `exp` and a single shared
 * refresh for concurrent callers to any function that fetches a token.
 */
import type { SdkLogger } from "../core/events";
import { redact } from "../core/redact";
import { DEFAULTS } from "../settings";

/** What the client lends a token source for one request. */
export interface TokenSourceContext {
  /** Configured `{auth_url}`, without a trailing slash. */
  authUrl: string;
  /** Audience of API tokens: the configured `{base_url}`, without a trailing slash. */
  audience: string;
  /**
   * POSTs `form` (`application/x-www-form-urlencoded`) to `url` with `bearer` and reads
   * the JSON answer, with the client's timeouts and retries (an exchange makes
   * nothing, so it is repeated like a read).
   */
  postForm(url: URL, form: URLSearchParams, bearer: string, signal?: AbortSignal): Promise<unknown>;
  log: SdkLogger;
  /**
   * Aborted when the client closes: it bounds the work no single caller owns (a shared
   * refresh, which one caller giving up must not cancel for the others).
   */
  signal?: AbortSignal;
}

export interface TokenRequest {
  context: TokenSourceContext;
  signal?: AbortSignal;
  /** The token the service just rejected with 401: a refreshable source must not return it again. */
  rejectedToken?: string;
}

export interface TokenSource {
  /** The token to present, or `undefined` to call anonymously (public registry reads). */
  getToken(request: TokenRequest): Promise<string | undefined>;
  /** Whether asking again after a 401 may yield a different token. */
  readonly refreshable: boolean;
  /** Names the source in log events; never contains the token. */
  readonly description: string;
}

/** A fixed token (`token` option or `IRM_TOKEN`); a 401 with it is final. */
export function staticToken(token: string): TokenSource {
  if (token === "") throw new TypeError("staticToken: the token is empty");
  return {
    description: "static",
    refreshable: false,
    getToken: async () => token,
  };
}

/** No token at all: only public registry data can be read. */
export function anonymous(): TokenSource {
  return { description: "anonymous", refreshable: false, getToken: async () => undefined };
}

export interface CachedTokenSourceOptions {
  /** Names the source in log events. */
  description: string;
  /** Refresh this long before the token's `exp`. */
  refreshAheadMs?: number;
  /** Clock in epoch milliseconds; replaceable in tests. */
  now?: () => number;
}

/** A base64url segment, padded or not. */
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/**
 * The claims (payload) of a JWT in JWS compact form (three dot-separated base64url parts),
 * read without verifying (the service verifies); throws when `token` is not one, or its
 * payload is no JSON object. What jose's `decodeJwt` reads, without loading jose: a program
 * and a provider host read a static token's `exp` on every run.
 */
export function jwtClaims(token: string): Record<string, unknown> {
  const parts = token.split(".");
  if (parts.length !== 3 || !BASE64URL.test(parts[1])) {
    throw new TypeError("not a JWT in compact form with a payload");
  }
  const claims: unknown = JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8"));
  if (typeof claims !== "object" || claims === null || Array.isArray(claims)) {
    throw new TypeError("the JWT's payload is not a JSON object");
  }
  return claims as Record<string, unknown>;
}

/** `exp` of a JWT in epoch milliseconds, read without verifying (the service verifies). */
export function tokenExpiry(token: string): number | undefined {
  try {
    const { exp } = jwtClaims(token);
    return typeof exp === "number" ? exp * 1000 : undefined;
  } catch {
    return undefined; // not a JWT: valid until the service rejects it
  }
}

/**
 * What is wrong with an API token that can be told without a request, or undefined: it
 * is not a JWT (API tokens are), or its `exp` has passed. Read without verifying (the
 * service verifies); the message never contains the token.
 */
export function tokenProblem(token: string, now: number = Date.now()): string | undefined {
  let exp: unknown;
  try {
    ({ exp } = jwtClaims(token));
  } catch {
    return "is not an API token (a JWT: three dot-separated base64url parts)";
  }
  if (typeof exp === "number" && exp * 1000 <= now) {
    return `expired at ${new Date(exp * 1000).toISOString()}`;
  }
  return undefined;
}

/** `sub` of a JWT, read without verifying (the service verifies); undefined if there is none. */
export function tokenSubject(token: string): string | undefined {
  try {
    const { sub } = jwtClaims(token);
    return typeof sub === "string" && sub !== "" ? sub : undefined;
  } catch {
    return undefined; // not a JWT
  }
}

/** Waits for a shared promise, letting one caller give up without cancelling it for the others. */
function abandonable<T>(shared: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return shared;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    shared.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/**
 * Caches the token `fetchToken` returns. A new one is fetched when there is none,
 * when `exp` is within `refreshAheadMs`, or when the service rejected the cached
 * one. Concurrent callers share one fetch. If a refresh ahead of expiry fails
 * while the cached token is still valid, that token keeps being used.
 */
export function cachedTokenSource(
  fetchToken: (request: TokenRequest) => Promise<string>,
  options: CachedTokenSourceOptions,
): TokenSource {
  const refreshAheadMs = options.refreshAheadMs ?? DEFAULTS.tokenRefreshAheadMs;
  const now = options.now ?? Date.now;
  let cached: { token: string; expiresAtMs?: number } | undefined;
  /** The shared fetch, and the context (the client) it was begun for. */
  let inFlight: { fetched: Promise<string>; context: TokenSourceContext } | undefined;

  const refresh = (request: TokenRequest, reason: "initial" | "expiring" | "rejected") => {
    request.context.log({ type: "token-refresh", source: options.description, reason });
    // The shared fetch is not tied to one caller's signal (others may still wait for it),
    // only to the client's: closing the client ends it, waited for or not.
    const { context, rejectedToken } = request;
    const fetched = fetchToken({ context, signal: context.signal, rejectedToken })
      .then((token) => {
        cached = { token, expiresAtMs: tokenExpiry(token) };
        return token;
      })
      .finally(() => {
        inFlight = undefined;
      });
    inFlight = { fetched, context };
    return fetched;
  };

  /**
   * The shared fetch as one caller waits for it. A source given to several clients may
   * have begun it for another client, whose `close()` ends it: a caller of a client
   * still open, still waiting, then asks anew instead of failing with that close.
   */
  const joined = (shared: NonNullable<typeof inFlight>, request: TokenRequest) => {
    if (shared.context === request.context) return shared.fetched;
    return shared.fetched.catch((error: unknown) => {
      const endedByOtherClose =
        shared.context.signal?.aborted === true && request.context.signal?.aborted !== true;
      if (endedByOtherClose && request.signal?.aborted !== true) return source.getToken(request);
      throw error;
    });
  };

  const source: TokenSource = {
    description: options.description,
    refreshable: true,
    async getToken(request) {
      const current = cached;
      const t = now();
      const rejected = current !== undefined && current.token === request.rejectedToken;
      const expired = current?.expiresAtMs !== undefined && current.expiresAtMs <= t;
      const expiring =
        current?.expiresAtMs !== undefined && current.expiresAtMs - refreshAheadMs <= t;
      if (current && !rejected && !expiring) return current.token;
      if (inFlight) return abandonable(joined(inFlight, request), request.signal);
      const reason = !current ? "initial" : rejected ? "rejected" : "expiring";
      const fetched = refresh(request, reason);
      if (reason !== "expiring" || expired) return abandonable(fetched, request.signal);
      // Still valid: a failed early refresh falls back to the cached token.
      return abandonable(
        fetched.catch((error: unknown) => {
          request.context.log({
            type: "token-refresh-failed",
            source: options.description,
            error: redact(
              error instanceof Error ? `${error.name}: ${error.message}` : String(error),
            ),
            usingCachedToken: true,
          });
          return current!.token;
        }),
        request.signal,
      );
    },
  };
  return source;
}
