/**
 * Provider settings: `irm:` Pulumi config first, then the `IRM_*` environment variables,
 * then the defaults, read in one pass from one table (`PROVIDER_SETTINGS`). Used by the
 * runtime's `configure` (in the provider host) and by the lookups (in the program).
 */
import {
  ConnectionError,
  checkServiceUrl,
  IrmClient,
  PermissionDeniedError,
  TimeoutError,
  tokenProblem,
  UnauthenticatedError,
} from "../sdk/index";
import {
  CONFIG_NAMESPACE,
  DEFAULTS,
  nonNegativeInteger,
  readSettings,
  SETTINGS,
  type SettingTable,
  type SettingValues,
} from "../sdk/settings";
import { UserError } from "./user-error";

/**
 * What the provider reads: the SDK's connection settings under their `irm:` names,
 * and the provider's own.
 */
export const PROVIDER_SETTINGS = {
  /** `{base_url}` of the API. */
  apiUrl: { ...SETTINGS.apiUrl, config: `${CONFIG_NAMESPACE}:apiUrl` },
  /** `{auth_url}`; unset means the API URL. */
  authUrl: { ...SETTINGS.authUrl, config: `${CONFIG_NAMESPACE}:authUrl` },
  /** Allows plain `http://` API and auth URLs to hosts other than loopback (tokens in clear). */
  allowInsecureHttp: {
    ...SETTINGS.allowInsecureHttp,
    config: `${CONFIG_NAMESPACE}:allowInsecureHttp`,
  },
  /** Static API token (set `irm:token` as a secret). */
  token: { ...SETTINGS.token, config: `${CONFIG_NAMESPACE}:token` },
  /** Identity a workload assumes by token exchange. */
  identity: { ...SETTINGS.identity, config: `${CONFIG_NAMESPACE}:identity` },
  /** File holding the workload's OIDC token. */
  identityTokenFile: {
    ...SETTINGS.identityTokenFile,
    config: `${CONFIG_NAMESPACE}:identityTokenFile`,
  },
  /** How long, in milliseconds, a delete waits out RESOURCE_NOT_EMPTY. */
  deleteTimeoutMs: {
    config: `${CONFIG_NAMESPACE}:deleteTimeoutMs`,
    env: "IRM_DELETE_TIMEOUT_MS",
    parse: nonNegativeInteger,
    default: 120_000,
  },
} satisfies SettingTable;

/** Settings the provider and the lookups run with; `apiUrl` and `deleteTimeoutMs` always have a value. */
export type ProviderSettings = SettingValues<typeof PROVIDER_SETTINGS>;

type ProviderSettingKey = keyof typeof PROVIDER_SETTINGS;

/** The `irm:` configuration keys the provider reads, by setting. */
export const CONFIG_KEYS = Object.fromEntries(
  Object.entries(PROVIDER_SETTINGS).map(([key, spec]) => [key, spec.config]),
) as { readonly [K in ProviderSettingKey]: string };

/** Reads one fully qualified config key (`irm:apiUrl`); undefined when unset. */
export type ConfigReader = (key: string) => string | undefined;

/** Resolves every setting: config, then environment, then default. */
export function resolveProviderSettings(
  read: ConfigReader,
  env: Readonly<Record<string, string | undefined>> = process.env,
): ProviderSettings {
  return readSettings(PROVIDER_SETTINGS, { config: read, env });
}

/**
 * The API's address, or an error naming the setting: there is no default, because the
 * token is sent to that address, which must be the user's own choice.
 */
export function requireApiUrl(settings: ProviderSettings): string {
  if (settings.apiUrl !== undefined) return settings.apiUrl;
  throw new Error(
    `${CONFIG_KEYS.apiUrl} is not set: set the API's address with ` +
      `\`pulumi config set ${CONFIG_KEYS.apiUrl} <url>\` (or ${PROVIDER_SETTINGS.apiUrl.env}); ` +
      "there is no default, and no request was sent",
  );
}

/**
 * The name a setting's value was given under, as the user wrote it: its `irm:` key when
 * the stack configuration sets it, else its `IRM_*` variable.
 */
function configOrEnvName(key: ProviderSettingKey, read: ConfigReader): string {
  const spec: { config: string; env?: string } = PROVIDER_SETTINGS[key];
  const value = read(spec.config);
  return value !== undefined && value !== "" ? spec.config : (spec.env ?? spec.config);
}

/** The settings objects {@link checkedProviderSettings} answered: complete and checked. */
const checkedSettings = new WeakSet<ProviderSettings>();

/**
 * True for settings {@link checkedProviderSettings} answered (every setting resolved from
 * its reader and the environment, and checked): a caller given these needs to read no
 * configuration of its own (the native plugin's lookups).
 */
export function isCheckedSettings(settings: Partial<ProviderSettings> | undefined): boolean {
  return settings !== undefined && checkedSettings.has(settings as ProviderSettings);
}

/**
 * {@link resolveProviderSettings}, and every mistake in them that can be told without a
 * request refused as a {@link UserError} (one line, no stack) naming the setting as the
 * user gave it (`irm:apiUrl`, or `IRM_API_URL` from the environment) and what to do: an
 * unparsable value, no API address, an API or auth URL that is not https (or plain http
 * to a host other than loopback without `irm:allowInsecureHttp`), and a static token
 * that is not a JWT or whose `exp` has passed. Nothing is sent. `overrides` (a lookup's
 * `settings` option) take precedence and are named `settings.<key>`.
 */
export function checkedProviderSettings(
  read: ConfigReader,
  env: Readonly<Record<string, string | undefined>> = process.env,
  now: number = Date.now(),
  overrides: Partial<ProviderSettings> = {},
): ProviderSettings {
  const givenAs = (key: ProviderSettingKey) =>
    overrides[key] === undefined ? configOrEnvName(key, read) : `settings.${key}`;
  try {
    const settings = {
      ...resolveProviderSettings(read, env),
      ...Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined)),
    };
    const apiUrl = requireApiUrl(settings);
    const urlNames = (key: "apiUrl" | "authUrl") => {
      const name = givenAs(key);
      const allowInsecure = name.startsWith(`${CONFIG_NAMESPACE}:`)
        ? `run \`pulumi config set ${CONFIG_KEYS.allowInsecureHttp} true\``
        : `set ${PROVIDER_SETTINGS.allowInsecureHttp.env}=1`;
      return { name, allowInsecure };
    };
    checkServiceUrl(apiUrl, urlNames("apiUrl"), settings.allowInsecureHttp);
    if (settings.authUrl !== undefined) {
      checkServiceUrl(settings.authUrl, urlNames("authUrl"), settings.allowInsecureHttp);
    }
    const problem = settings.token === undefined ? undefined : tokenProblem(settings.token, now);
    if (problem !== undefined) {
      const name = givenAs("token");
      const fix = name.startsWith(`${CONFIG_NAMESPACE}:`)
        ? `\`pulumi config set --secret ${name} <token>\``
        : name.startsWith("settings.")
          ? `pass it as ${name}`
          : `set ${name} to it`;
      throw new TypeError(`${name} ${problem}: get a current API token and ${fix}`);
    }
    checkedSettings.add(settings);
    return settings;
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw new UserError(error instanceof Error ? error.message : String(error), "SettingsError");
  }
}

/**
 * What the user can do about an error of the API or the connection, by its kind: the
 * settings to check, by their `irm:` keys and variables; undefined for other errors.
 */
export function whatToCheck(error: unknown): string | undefined {
  if (error instanceof UnauthenticatedError) {
    return `the API refused the credentials (${error.message}); check ${CONFIG_KEYS.token} (or IRM_TOKEN), or ${CONFIG_KEYS.identity} and ${CONFIG_KEYS.identityTokenFile}`;
  }
  if (error instanceof PermissionDeniedError) {
    return `the token may not do this (${error.message}); use a token with a role that can, on this group or above`;
  }
  if (error instanceof ConnectionError || error instanceof TimeoutError) {
    return `the API did not answer (${error.message}); check ${CONFIG_KEYS.apiUrl} (or IRM_API_URL)`;
  }
  return undefined;
}

/** The settings with the token replaced, safe to print. */
export function redactSettings(settings: ProviderSettings): Record<string, unknown> {
  return { ...settings, token: settings.token === undefined ? undefined : "[redacted]" };
}

/** The client of the settings in force, with the connection settings it was built for. */
let current: { key: string; client: IrmClient } | undefined;

/**
 * How long a replaced client stays open: by default one call, retries included, ends
 * within `maxRetryTimeMs`, so an operation that got the client just before the change
 * (a lookup walking pages, a retry) finishes on it instead of failing on a closed pool.
 */
export const REPLACED_CLIENT_GRACE_MS = DEFAULTS.maxRetryTimeMs;

/**
 * The client for these settings, shared by the resources and the lookups: repeated
 * calls share its keep-alive connections and its cached token. Only the settings the
 * client uses pick it, so a change of `deleteTimeoutMs` keeps it. A change of any other
 * setting builds a new client and evicts the one it replaces, which is closed after
 * `REPLACED_CLIENT_GRACE_MS`, so that no stale connection pool or token stays behind.
 * Get the client per operation (as the runtime and the lookups do), not once for good.
 */
export function clientFor(settings: ProviderSettings): IrmClient {
  const options = {
    baseUrl: requireApiUrl(settings),
    authUrl: settings.authUrl,
    allowInsecureHttp: settings.allowInsecureHttp,
    token: settings.token,
    identity: settings.identity,
    identityTokenFile: settings.identityTokenFile,
  };
  const key = JSON.stringify(options);
  if (current?.key === key) return current.client;
  const replaced = current?.client;
  current = { key, client: new IrmClient(options) };
  if (replaced !== undefined) {
    // Unref'd: a pending close never keeps the process alive (exit closes the sockets anyway).
    setTimeout(() => {
      replaced.close().catch(() => {
        // Closing only releases connections; there is nothing to report.
      });
    }, REPLACED_CLIENT_GRACE_MS).unref();
  }
  return current.client;
}
