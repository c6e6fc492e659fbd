/**
 * Every setting the package reads from the environment, in one place.
 *
 * Precedence everywhere: an explicit option (or, in the provider, `irm:` Pulumi
 * config) first, then the `IRM_*` environment variable named here, then the default.
 */

/** Environment variables understood by the SDK, the provider and the tools. */
export const ENV = {
  /** Base URL of the API (`{base_url}`); also the audience of API tokens. */
  apiUrl: "IRM_API_URL",
  /** Base URL of the token issuer (`{auth_url}`); defaults to the API URL. */
  authUrl: "IRM_AUTH_URL",
  /** A static API token. Never logged, never stored in Pulumi state. */
  token: "IRM_TOKEN",
  /** Uid of the identity a workload assumes by token exchange. */
  identity: "IRM_IDENTITY",
  /** Path of a file holding the workload's OIDC token (re-read on every exchange). */
  identityTokenFile: "IRM_IDENTITY_TOKEN_FILE",
  /** Per-request timeout in milliseconds. */
  timeoutMs: "IRM_TIMEOUT_MS",
  /** Maximum number of retries of a retryable request. */
  maxRetries: "IRM_MAX_RETRIES",
  /** Upper bound, in milliseconds, on the time spent retrying one request. */
  maxRetryTimeMs: "IRM_MAX_RETRY_TIME_MS",
  /** Largest response body read, in bytes; a longer one is abandoned. */
  maxResponseBytes: "IRM_MAX_RESPONSE_BYTES",
  /** Provider: how long, in milliseconds, a delete waits out RESOURCE_NOT_EMPTY. */
  deleteTimeoutMs: "IRM_DELETE_TIMEOUT_MS",
  /** Set to `1` to log each retry and token refresh to stderr (never with a token). */
  debug: "IRM_DEBUG",
} as const;

export type SettingName = keyof typeof ENV;

/** Defaults used when neither an option nor an environment variable is set. */
export const DEFAULTS = {
  /** The local emulator's default address (`npm run emulator` without `--port`). */
  apiUrl: "http://127.0.0.1:8787",
  timeoutMs: 30_000,
  maxRetries: 5,
  maxRetryTimeMs: 60_000,
  /** 4 MiB: a page of 200 of the largest objects is far below it. */
  maxResponseBytes: 4 * 1024 * 1024,
  deleteTimeoutMs: 120_000,
  /** SDK: first backoff delay between retries, in milliseconds (doubles up to `retryMaxDelayMs`). */
  retryMinDelayMs: 200,
  /** SDK: largest backoff delay between two retries, in milliseconds. */
  retryMaxDelayMs: 10_000,
  /** SDK: largest `Retry-After` the SDK waits for, in milliseconds. */
  maxRetryAfterMs: 30_000,
  /** SDK: a cached token is refreshed this long before its `exp`, in milliseconds. */
  tokenRefreshAheadMs: 300_000,
} as const;

/** Default port of the local emulator; the default `apiUrl` points at it. */
export const EMULATOR_DEFAULT_PORT = 8787;

/** Pulumi configuration namespace of the provider (`irm:apiUrl`, `irm:token`, ...). */
export const CONFIG_NAMESPACE = "irm";

type Env = Record<string, string | undefined>;

/** Reads a string setting from the environment; empty strings count as unset. */
export function envString(name: SettingName, env: Env = process.env): string | undefined {
  const value = env[ENV[name]];
  return value === undefined || value === "" ? undefined : value;
}

/**
 * Reads a non-negative integer setting from the environment.
 * A value that is not a non-negative integer is an error naming the variable.
 */
export function envInteger(name: SettingName, env: Env = process.env): number | undefined {
  const raw = envString(name, env);
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw.trim())) {
    throw new TypeError(`${ENV[name]}: must be a non-negative integer, got ${JSON.stringify(raw)}`);
  }
  return Number(raw.trim());
}

/** First defined value of an explicit option, then the environment, then the default. */
export function pick<T>(...values: Array<T | undefined>): T | undefined {
  for (const v of values) if (v !== undefined) return v;
  return undefined;
}
