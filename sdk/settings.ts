/**
 * The SDK's settings, in one declarative table: for each key, its `IRM_*`
 * environment variable, its parser and its default. `readSettings` reads a table in
 * one pass: an explicit value (an SDK option; in the provider, the `irm:` Pulumi
 * config named by the provider's own table) first, then the environment variable,
 * then the default. A key with a default always has a value in the result's type.
 *
 * The provider's table (`provider/config.ts`) reuses these entries with their
 * `irm:` names and adds its own settings (`deleteTimeoutMs`). README.md lists every
 * key; a test holds the tables to it.
 */

/** Default port of the local emulator (`irm-emulator` without `--port`). */
export const EMULATOR_DEFAULT_PORT = 8787;

/** Pulumi configuration namespace of the provider (`irm:apiUrl`, `irm:token`, ...). */
export const CONFIG_NAMESPACE = "irm";

/**
 * Turns the text of an environment variable or a config value into the setting's
 * value; a bad text is a `TypeError` naming `source` (the variable or config key).
 */
export type SettingParser<T> = (raw: string, source: string) => T;

/** One row of a settings table. */
export interface SettingSpec<T = unknown> {
  /** The environment variable; absent for settings only an option sets. */
  readonly env?: string;
  /** The Pulumi config key (`irm:apiUrl`); only rows of the provider's table have one. */
  readonly config?: string;
  readonly parse: SettingParser<T>;
  /** The value when nothing else sets it; without one the setting may stay unset. */
  readonly default?: T;
}

export type SettingTable = Readonly<Record<string, SettingSpec>>;

/** The type a row's parser produces. */
export type SettingValue<S> = S extends SettingSpec<infer T> ? T : never;

type KeysWithDefault<T extends SettingTable> = {
  [K in keyof T]: T[K] extends { readonly default: unknown } ? K : never;
}[keyof T];

/** What `readSettings` answers: every key with a default has a value; the others may be unset. */
export type SettingValues<T extends SettingTable> = {
  readonly [K in KeysWithDefault<T>]: SettingValue<T[K]>;
} & {
  readonly [K in Exclude<keyof T, KeysWithDefault<T>>]?: SettingValue<T[K]>;
};

/** Where `readSettings` looks, in this order. */
export interface SettingSources<T extends SettingTable> {
  /** Values given in code (SDK options); `undefined` counts as unset. */
  readonly explicit?: { readonly [K in keyof T]?: SettingValue<T[K]> | undefined };
  /** Reads a fully qualified Pulumi config key (`irm:apiUrl`); an empty value counts as unset. */
  readonly config?: (key: string) => string | undefined;
  /** The environment (`process.env` or a stand-in); an empty variable counts as unset. */
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The text as given. */
export const text: SettingParser<string> = (raw) => raw;

/** A non-negative integer written in decimal digits (blanks around it are ignored). */
export const nonNegativeInteger: SettingParser<number> = (raw, source) => {
  const digits = raw.trim();
  if (!/^\d+$/.test(digits) || !Number.isSafeInteger(Number(digits))) {
    throw new TypeError(`${source}: must be a non-negative integer, got ${JSON.stringify(raw)}`);
  }
  return Number(digits);
};

/**
 * A switch: `1` or `true` turns it on, `0`, `false` or an empty value leaves it off (any
 * case); anything else is refused naming its source, never read as off in silence.
 */
export const flag: SettingParser<boolean> = (raw, source) => {
  const value = raw.trim().toLowerCase();
  if (value === "1" || value === "true") return true;
  if (value === "" || value === "0" || value === "false") return false;
  throw new TypeError(`${source}: must be true or false, got ${JSON.stringify(raw)}`);
};

function given(raw: string | undefined): raw is string {
  return raw !== undefined && raw !== "";
}

/** Reads every row of `table` from `sources` in one pass. */
export function readSettings<T extends SettingTable>(
  table: T,
  sources: SettingSources<T>,
): SettingValues<T> {
  const values: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(table)) {
    const explicit = (sources.explicit as Record<string, unknown> | undefined)?.[key];
    const fromConfig = spec.config === undefined ? undefined : sources.config?.(spec.config);
    const fromEnv = spec.env === undefined ? undefined : sources.env[spec.env];
    if (explicit !== undefined) values[key] = explicit;
    else if (spec.config !== undefined && given(fromConfig)) {
      values[key] = spec.parse(fromConfig, spec.config);
    } else if (spec.env !== undefined && given(fromEnv))
      values[key] = spec.parse(fromEnv, spec.env);
    else values[key] = spec.default;
  }
  // Each row was read with its own parser or default, which the result's type follows.
  return values as SettingValues<T>;
}

/** The SDK's settings. SDK option names are in `IrmClientOptions` (`sdk/client.ts`). */
export const SETTINGS = {
  /**
   * `{base_url}` of the API; also the audience of API tokens (option `baseUrl`). No
   * default: the token is sent there, so the address is always the user's choice.
   */
  apiUrl: { env: "IRM_API_URL", parse: text },
  /**
   * `IRM_ALLOW_INSECURE_HTTP=1` or `true` (option `allowInsecureHttp`) lets `apiUrl` and `authUrl`
   * be plain `http://` to a host other than loopback; without it they are refused, as
   * tokens would cross the network in clear.
   */
  allowInsecureHttp: { env: "IRM_ALLOW_INSECURE_HTTP", parse: flag, default: false },
  /** `{auth_url}`, where `/sts/exchange` lives; unset means the API URL. */
  authUrl: { env: "IRM_AUTH_URL", parse: text },
  /** A static API token. Never logged, never stored in Pulumi state. */
  token: { env: "IRM_TOKEN", parse: text },
  /** Uid of the identity a workload assumes by token exchange. */
  identity: { env: "IRM_IDENTITY", parse: text },
  /** File holding the workload's OIDC token, re-read at every exchange. */
  identityTokenFile: { env: "IRM_IDENTITY_TOKEN_FILE", parse: text },
  /** Timeout of one attempt of a request, in milliseconds. */
  timeoutMs: { env: "IRM_TIMEOUT_MS", parse: nonNegativeInteger, default: 30_000 },
  /** Largest response body read, in bytes; a longer one is abandoned. 4 MiB: a page of 200 of the largest objects is far below it. */
  maxResponseBytes: {
    env: "IRM_MAX_RESPONSE_BYTES",
    parse: nonNegativeInteger,
    default: 4 * 1024 * 1024,
  },
  /** Retries of a retryable request after the first attempt (option `retry.retries`). */
  maxRetries: { env: "IRM_MAX_RETRIES", parse: nonNegativeInteger, default: 5 },
  /** Bound on the whole time of one call, waits included, in milliseconds. */
  maxRetryTimeMs: { env: "IRM_MAX_RETRY_TIME_MS", parse: nonNegativeInteger, default: 60_000 },
  /** First backoff delay between retries, in milliseconds; doubles up to `retryMaxDelayMs`. */
  retryMinDelayMs: { parse: nonNegativeInteger, default: 200 },
  /** Largest backoff delay between two retries, in milliseconds. */
  retryMaxDelayMs: { parse: nonNegativeInteger, default: 10_000 },
  /** Largest `Retry-After` the SDK waits for, in milliseconds. */
  maxRetryAfterMs: { parse: nonNegativeInteger, default: 30_000 },
  /** A cached token is refreshed this long before its `exp`, in milliseconds. */
  tokenRefreshAheadMs: { parse: nonNegativeInteger, default: 300_000 },
  /** `IRM_DEBUG=1` logs each retry and token refresh to stderr (never a token). */
  debug: { env: "IRM_DEBUG", parse: flag, default: false },
} satisfies SettingTable;

/** The defaults of `table`, by key. */
function defaultsOf<T extends SettingTable>(table: T): SettingValues<T> {
  return readSettings(table, { env: {} });
}

/** The SDK's defaults (what `readSettings(SETTINGS, ...)` gives when nothing is set). */
export const DEFAULTS = defaultsOf(SETTINGS);
