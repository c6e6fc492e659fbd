/**
 * Provider settings: `irm:` Pulumi config first, then the `IRM_*` environment variables
 * (named in `sdk/settings.ts`), then the defaults. Used by the runtime's `configure`
 * (in the provider host) and by the lookups (in the program).
 */
import { IrmClient } from "../sdk/index";
import { CONFIG_NAMESPACE, DEFAULTS, ENV, envInteger, envString, pick } from "../sdk/settings";

/** Settings the provider and the lookups run with. */
export interface ProviderSettings {
  /** Base URL of the API (`irm:apiUrl`, `IRM_API_URL`, default the local emulator). */
  readonly apiUrl: string;
  /** Base URL of the token issuer (`irm:authUrl`, `IRM_AUTH_URL`, default the API URL). */
  readonly authUrl?: string;
  /** Static API token (`irm:token`, secret; `IRM_TOKEN`). */
  readonly token?: string;
  /** Identity a workload assumes by token exchange (`irm:identity`, `IRM_IDENTITY`). */
  readonly identity?: string;
  /** File holding the workload's OIDC token (`irm:identityTokenFile`, `IRM_IDENTITY_TOKEN_FILE`). */
  readonly identityTokenFile?: string;
  /** How long a delete waits out RESOURCE_NOT_EMPTY (`irm:deleteTimeoutMs`, `IRM_DELETE_TIMEOUT_MS`). */
  readonly deleteTimeoutMs: number;
}

/** The `irm:` configuration keys the provider reads, by setting. */
export const CONFIG_KEYS = {
  apiUrl: `${CONFIG_NAMESPACE}:apiUrl`,
  authUrl: `${CONFIG_NAMESPACE}:authUrl`,
  token: `${CONFIG_NAMESPACE}:token`,
  identity: `${CONFIG_NAMESPACE}:identity`,
  identityTokenFile: `${CONFIG_NAMESPACE}:identityTokenFile`,
  deleteTimeoutMs: `${CONFIG_NAMESPACE}:deleteTimeoutMs`,
} as const;

/** Reads one fully qualified config key (`irm:apiUrl`); undefined when unset. */
export type ConfigReader = (key: string) => string | undefined;

type Env = Record<string, string | undefined>;

function configString(read: ConfigReader, key: string): string | undefined {
  const value = read(key);
  return value === undefined || value === "" ? undefined : value;
}

function configInteger(read: ConfigReader, key: string): number | undefined {
  const raw = configString(read, key);
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw.trim())) {
    throw new TypeError(`${key}: must be a non-negative integer, got ${JSON.stringify(raw)}`);
  }
  return Number(raw.trim());
}

/** Resolves every setting: config, then environment, then default. */
export function resolveProviderSettings(
  read: ConfigReader,
  env: Env = process.env,
): ProviderSettings {
  return {
    apiUrl: pick(
      configString(read, CONFIG_KEYS.apiUrl),
      envString("apiUrl", env),
      DEFAULTS.apiUrl,
    ) as string,
    authUrl: pick(configString(read, CONFIG_KEYS.authUrl), envString("authUrl", env)),
    token: pick(configString(read, CONFIG_KEYS.token), envString("token", env)),
    identity: pick(configString(read, CONFIG_KEYS.identity), envString("identity", env)),
    identityTokenFile: pick(
      configString(read, CONFIG_KEYS.identityTokenFile),
      envString("identityTokenFile", env),
    ),
    deleteTimeoutMs: pick(
      configInteger(read, CONFIG_KEYS.deleteTimeoutMs),
      envInteger("deleteTimeoutMs", env),
      DEFAULTS.deleteTimeoutMs,
    ) as number,
  };
}

/** The settings with the token replaced, safe to print. */
export function redactSettings(settings: ProviderSettings): Record<string, unknown> {
  return { ...settings, token: settings.token === undefined ? undefined : "[redacted]" };
}

/** Environment variable of each setting, for messages and docs. */
export const SETTING_ENV = {
  apiUrl: ENV.apiUrl,
  authUrl: ENV.authUrl,
  token: ENV.token,
  identity: ENV.identity,
  identityTokenFile: ENV.identityTokenFile,
  deleteTimeoutMs: ENV.deleteTimeoutMs,
} as const;

/** One SDK client per distinct connection settings, shared by the resources and the lookups. */
const clients = new Map<string, IrmClient>();

/**
 * The client for these settings, built once: repeated calls share its keep-alive
 * connections and its cached token. Only the settings the client uses pick it, so
 * a change of `deleteTimeoutMs` does not open a second connection pool.
 */
export function clientFor(settings: ProviderSettings): IrmClient {
  const options = {
    baseUrl: settings.apiUrl,
    authUrl: settings.authUrl,
    token: settings.token,
    identity: settings.identity,
    identityTokenFile: settings.identityTokenFile,
  };
  const key = JSON.stringify(options);
  let client = clients.get(key);
  if (client === undefined) {
    client = new IrmClient(options);
    clients.set(key, client);
  }
  return client;
}
