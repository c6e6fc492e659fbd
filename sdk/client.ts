/**
 * `IrmClient`: one object with a resource object per collection, over a shared
 * undici connection pool, with retries and token handling in one place (`call`).
 * The pool is made, and undici loaded, by the first request (`lazy-modules.ts`).
 */
import type { Dispatcher } from "undici";
import {
  exchangeTokenSource,
  type OidcTokenProvider,
  oidcTokenFromFile,
  oidcTokenFromGitHubActions,
  runningInGitHubActions,
} from "./auth/exchange";
import {
  anonymous,
  staticToken,
  type TokenSource,
  type TokenSourceContext,
  tokenSubject,
} from "./auth/token-source";
import { type ApiCollections, collectionsOf } from "./collections";
import type { RequestOptions } from "./core/common-types";
import { isUnauthenticated } from "./core/errors";
import { type SdkLogger, stderrLogger } from "./core/events";
import { pRetry, undici } from "./core/lazy-modules";
import { isLoopbackHost } from "./core/loopback";
import type { ApiCall, ApiRequester, QueryValue } from "./core/resource";
import { type RetrySettings, withRetries } from "./core/retry";
import { ServerClock } from "./core/server-clock";
import { type HttpMethod, sendOnce } from "./core/transport";
import { readSettings, SETTINGS } from "./settings";

export interface RetryOptions {
  /** Retries after the first attempt. Env `IRM_MAX_RETRIES`, default 5. */
  retries?: number;
  /** First backoff delay in ms (doubles per retry, jittered). Default 200. */
  minDelayMs?: number;
  /** Cap of one backoff delay in ms. Default 10000. */
  maxDelayMs?: number;
  /** Cap of the total time of one call in ms. Env `IRM_MAX_RETRY_TIME_MS`, default 60000. */
  maxRetryTimeMs?: number;
  /** Cap of a server-requested `Retry-After` wait in ms. Default 30000. */
  maxRetryAfterMs?: number;
}

export interface IrmClientOptions {
  /** `{base_url}`, also the audience of API tokens. Env `IRM_API_URL`; required (no default). */
  baseUrl?: string;
  /** `{auth_url}`. Env `IRM_AUTH_URL`, default `baseUrl`. */
  authUrl?: string;
  /**
   * Allows `baseUrl`/`authUrl` over plain `http://` to a host other than loopback
   * (tokens in clear). Env `IRM_ALLOW_INSECURE_HTTP` (`1`/`true`); default false.
   */
  allowInsecureHttp?: boolean;
  /** A static API token. Env `IRM_TOKEN`. */
  token?: string;
  /** Any token source; wins over every other credential setting. */
  tokenSource?: TokenSource;
  /** Identity uid to assume by token exchange. Env `IRM_IDENTITY`. */
  identity?: string;
  /** File holding the workload's OIDC token. Env `IRM_IDENTITY_TOKEN_FILE`. */
  identityTokenFile?: string;
  /** Callback returning the workload's OIDC token. */
  oidcToken?: OidcTokenProvider;
  /** Timeout of each attempt in ms. Env `IRM_TIMEOUT_MS`, default 30000. */
  timeoutMs?: number;
  /**
   * Largest response body read, in bytes; a longer one is abandoned with a
   * `BadResponseError` (an unknown outcome for a create). Env `IRM_MAX_RESPONSE_BYTES`,
   * default 4 MiB.
   */
  maxResponseBytes?: number;
  retry?: RetryOptions;
  /** Receives an event per retry and per token refresh. `IRM_DEBUG=1` logs them to stderr. */
  logger?: SdkLogger;
  /** undici dispatcher; by default the client owns a keep-alive `Agent` (closed by `close()`). */
  dispatcher?: Dispatcher;
  /** Environment to read `IRM_*` from; defaults to `process.env`. */
  env?: Record<string, string | undefined>;
}

/** Settings after options, environment and defaults are applied. */
export interface ResolvedSettings {
  baseUrl: string;
  authUrl: string;
  timeoutMs: number;
  maxResponseBytes: number;
  retry: RetrySettings;
}

/**
 * How a URL setting is named in messages, as the user wrote it: `name` is the option,
 * variable or config key that gave the value (`baseUrl`, `IRM_API_URL`, `irm:apiUrl`),
 * `allowInsecure` what to do to allow plain `http://` to another host.
 */
export interface UrlSettingNames {
  readonly name: string;
  readonly allowInsecure: string;
}

/**
 * The URL of the API or of its auth service, without a trailing slash; a `TypeError`
 * naming the setting and the rule when it is not an `https://` URL (or `http://` to a
 * loopback host, or to any host with `allowInsecureHttp`). No request is made.
 */
export function checkServiceUrl(
  value: string,
  names: UrlSettingNames,
  allowInsecureHttp = false,
): string {
  const { name } = names;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`${name} is not a URL: ${JSON.stringify(value)}; give https://<host>`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(`${name} must be an https:// URL, got ${url.protocol}`);
  }
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname) && !allowInsecureHttp) {
    throw new TypeError(
      `${name} must be https unless its host is loopback (tokens would cross the network in clear), got http://${url.host}; use https://${url.host}, or ${names.allowInsecure} to allow it`,
    );
  }
  if (url.search || url.hash) throw new TypeError(`${name} must not carry a query or fragment`);
  return url.href.replace(/\/+$/, "");
}

/** A bound that must be a positive integer: 0 would fail every call. */
function positive(value: number, name: string): number {
  if (!Number.isInteger(value) || value <= 0) {
    throw new TypeError(`${name} must be a positive integer, got ${value}`);
  }
  return value;
}

/** Applies options, then `IRM_*` variables, then defaults (one pass over `SETTINGS`). */
export function resolveSettings(
  options: IrmClientOptions = {},
  env: Record<string, string | undefined> = options.env ?? process.env,
): ResolvedSettings {
  const retry = options.retry ?? {};
  const values = readSettings(SETTINGS, {
    env,
    explicit: {
      apiUrl: options.baseUrl,
      authUrl: options.authUrl,
      allowInsecureHttp: options.allowInsecureHttp,
      timeoutMs: options.timeoutMs,
      maxResponseBytes: options.maxResponseBytes,
      maxRetries: retry.retries,
      maxRetryTimeMs: retry.maxRetryTimeMs,
      retryMinDelayMs: retry.minDelayMs,
      retryMaxDelayMs: retry.maxDelayMs,
      maxRetryAfterMs: retry.maxRetryAfterMs,
    },
  });
  if (values.apiUrl === undefined) {
    throw new TypeError(
      `baseUrl: no API address is set; pass baseUrl or set ${SETTINGS.apiUrl.env} (there is no default, so a token goes only where you choose)`,
    );
  }
  const insecure = values.allowInsecureHttp;
  // Each URL named as the caller gave it (the option, else the variable), with the
  // switch of the same kind.
  const names = (option: string, env: string | undefined, given: unknown) =>
    given === undefined
      ? { name: `${env}`, allowInsecure: `set ${SETTINGS.allowInsecureHttp.env}=1` }
      : { name: option, allowInsecure: "pass allowInsecureHttp: true" };
  const baseUrl = checkServiceUrl(
    values.apiUrl,
    names("baseUrl", SETTINGS.apiUrl.env, options.baseUrl),
    insecure,
  );
  return {
    baseUrl,
    authUrl:
      values.authUrl === undefined
        ? baseUrl
        : checkServiceUrl(
            values.authUrl,
            names("authUrl", SETTINGS.authUrl.env, options.authUrl),
            insecure,
          ),
    timeoutMs: values.timeoutMs,
    maxResponseBytes: positive(
      values.maxResponseBytes,
      `maxResponseBytes (${SETTINGS.maxResponseBytes.env})`,
    ),
    retry: {
      retries: values.maxRetries,
      minDelayMs: values.retryMinDelayMs,
      maxDelayMs: values.retryMaxDelayMs,
      maxRetryTimeMs: values.maxRetryTimeMs,
      maxRetryAfterMs: values.maxRetryAfterMs,
    },
  };
}

/**
 * Picks the token source: `tokenSource`, then `token`, then `identity` (exchange),
 * then `IRM_TOKEN`, then `IRM_IDENTITY`; anonymous when nothing is configured.
 * The OIDC token of an exchange comes from `oidcToken`, else the token file
 * (`identityTokenFile` / `IRM_IDENTITY_TOKEN_FILE`), else GitHub Actions.
 */
export function resolveTokenSource(
  options: IrmClientOptions,
  env: Record<string, string | undefined>,
): TokenSource {
  if (options.tokenSource) return options.tokenSource;
  // An empty string counts as unset, as for the environment variables.
  if (options.token) return staticToken(options.token);
  // Only the rows read here: a malformed numeric variable is resolveSettings' to report.
  const fromEnv = readSettings(
    {
      token: SETTINGS.token,
      identity: SETTINGS.identity,
      identityTokenFile: SETTINGS.identityTokenFile,
    },
    { env },
  );
  const exchange = (identity: string): TokenSource => {
    const file = options.identityTokenFile ?? fromEnv.identityTokenFile;
    let oidcToken: OidcTokenProvider;
    if (options.oidcToken) oidcToken = options.oidcToken;
    else if (file) oidcToken = oidcTokenFromFile(file);
    else if (runningInGitHubActions(env)) {
      // The audience an identity accepts by default in a presented token: the auth host.
      const { authUrl, timeoutMs, maxResponseBytes } = resolveSettings(options, env);
      const audience = new URL(authUrl).host;
      oidcToken = oidcTokenFromGitHubActions({ env, audience, timeoutMs, maxResponseBytes });
    } else {
      throw new TypeError(
        `identity ${identity} is set but no OIDC token: pass oidcToken, identityTokenFile or ${SETTINGS.identityTokenFile.env}, or run in GitHub Actions with id-token: write`,
      );
    }
    return exchangeTokenSource({ identity, oidcToken });
  };
  if (options.identity) return exchange(options.identity);
  if (fromEnv.token) return staticToken(fromEnv.token);
  if (fromEnv.identity) return exchange(fromEnv.identity);
  return anonymous();
}

/** How many recently used tokens are remembered for redaction. */
const REMEMBERED_TOKENS = 4;

/** Typed client of the Identity and Registry Management API v2beta1. */
export class IrmClient implements ApiRequester {
  readonly baseUrl: string;
  readonly authUrl: string;
  /** The collections of each API, as `collections.ts` lists them. */
  readonly iam: ApiCollections<"iam">;
  readonly registry: ApiCollections<"registry">;
  readonly vulnerabilities: ApiCollections<"vulnerabilities">;
  readonly events: ApiCollections<"events">;
  readonly v1: ApiCollections<"v1">;

  readonly #settings: ResolvedSettings;
  readonly #tokenSource: TokenSource;
  /** The `dispatcher` option; undefined when the client owns its pool. */
  readonly #givenDispatcher: Dispatcher | undefined;
  /** The client's own keep-alive pool, made by its first request. */
  #ownAgent: Dispatcher | undefined;
  #closing: Promise<void> | undefined;
  /** Aborted by `close()`: ends a token exchange in flight, whoever still waits for it. */
  readonly #closed = new AbortController();
  readonly #log: SdkLogger;
  /** What token sources may use: the configured URLs, the logger, GETs with retries. */
  readonly #tokenContext: TokenSourceContext;
  /** Tokens recently sent, redacted from anything the server echoes back. */
  readonly #recentTokens: string[] = [];
  /** The service's clock, from the `Date` headers of its answers. */
  readonly serverClock = new ServerClock();

  constructor(options: IrmClientOptions = {}) {
    const env = options.env ?? process.env;
    this.#settings = resolveSettings(options, env);
    this.baseUrl = this.#settings.baseUrl;
    this.authUrl = this.#settings.authUrl;
    this.#tokenSource = resolveTokenSource(options, env);
    this.#givenDispatcher = options.dispatcher;
    const { debug } = readSettings({ debug: SETTINGS.debug }, { env });
    this.#log = options.logger ?? (debug ? stderrLogger : () => {});
    this.#tokenContext = {
      authUrl: this.authUrl,
      audience: this.baseUrl,
      log: (event) => this.#log(event),
      postForm: (url, form, bearer, signal) => this.#postForm(url, form, bearer, signal),
      signal: this.#closed.signal,
    };

    this.iam = collectionsOf("iam", this);
    this.registry = collectionsOf("registry", this);
    this.vulnerabilities = collectionsOf("vulnerabilities", this);
    this.events = collectionsOf("events", this);
    this.v1 = collectionsOf("v1", this);
  }

  /** Timeout of one attempt of a request, in milliseconds (`timeoutMs`, `IRM_TIMEOUT_MS`). */
  get timeoutMs(): number {
    return this.#settings.timeoutMs;
  }

  /** A printable summary; never a credential. */
  toJSON(): { baseUrl: string; authUrl: string; tokenSource: string } {
    return {
      baseUrl: this.baseUrl,
      authUrl: this.authUrl,
      tokenSource: this.#tokenSource.description,
    };
  }

  /**
   * The `sub` claim of the token this client presents: the uid of the identity it acts
   * as. Read without verifying (the service verifies); undefined when there is no token
   * or it is not a JWT with a string `sub`. Never returns the token itself.
   */
  async tokenSubject(signal?: AbortSignal): Promise<string | undefined> {
    const token = await this.#token(signal);
    return token === undefined ? undefined : tokenSubject(token);
  }

  /**
   * Releases the keep-alive connections of the client's own dispatcher; safe to call
   * twice. A token exchange in flight is abandoned first (a caller still waiting for it
   * gets an `AbortError`), so `close()` never waits out its timeout; API calls in flight
   * end as they would. With a `dispatcher` of your own, nothing is closed or abandoned.
   */
  async close(): Promise<void> {
    if (this.#givenDispatcher !== undefined) return;
    if (!this.#closed.signal.aborted) {
      this.#closed.abort(
        new DOMException("IrmClient closed: its token request was abandoned", "AbortError"),
      );
    }
    this.#closing ??= this.#ownAgent?.close() ?? Promise.resolve();
    await this.#closing;
  }

  /** The dispatcher requests go through: the `dispatcher` option, else the client's own pool. */
  get #dispatcher(): Dispatcher {
    if (this.#givenDispatcher !== undefined) return this.#givenDispatcher;
    if (this.#ownAgent === undefined) {
      this.#ownAgent = new (undici().Agent)({ keepAliveTimeout: 10_000 });
      // Made after close(): closed at once, so the request fails as on a closed pool.
      if (this.#closing !== undefined) this.#closing = this.#ownAgent.close();
    }
    return this.#ownAgent;
  }

  #remember(token: string | undefined): void {
    if (token === undefined || this.#recentTokens.includes(token)) return;
    this.#recentTokens.push(token);
    if (this.#recentTokens.length > REMEMBERED_TOKENS) this.#recentTokens.shift();
  }

  #url(origin: string, path: string, query: Record<string, QueryValue> = {}): URL {
    // encodeURIComponent (not URLSearchParams) so spaces become %20 (`order_by=name%20desc`);
    // commas stay literal, as the comma-separated `updateMask` is shown on the wire.
    const encode = (text: string) => encodeURIComponent(text).replace(/%2C/g, ",");
    const pairs = Object.entries(query).flatMap(([key, value]) => {
      if (value === undefined || value === false) return [];
      const values = typeof value === "object" ? value : [String(value)];
      return values.map((item) => `${encode(key)}=${encode(item)}`);
    });
    return new URL(`${origin}${path}${pairs.length ? `?${pairs.join("&")}` : ""}`);
  }

  async #token(signal?: AbortSignal, rejectedToken?: string): Promise<string | undefined> {
    const context = this.#tokenContext;
    const token = await this.#tokenSource.getToken({ context, signal, rejectedToken });
    this.#remember(token);
    return token;
  }

  /** One attempt of `method url` with `bearer`, no retry. */
  #attempt(
    method: HttpMethod,
    url: URL,
    body: unknown,
    bearer: string | undefined,
    options: RequestOptions,
  ): Promise<unknown> {
    return sendOnce(this.#dispatcher, {
      method,
      url,
      body,
      bearer,
      signal: options.signal,
      timeoutMs: options.timeoutMs ?? this.#settings.timeoutMs,
      idempotent: method !== "POST",
      allowEmptyBody: method === "DELETE",
      secrets: this.#recentTokens,
      maxResponseBytes: this.#settings.maxResponseBytes,
      onServerDate: (observation) => this.serverClock.observe(observation),
    });
  }

  /** Runs `attempt` under the retry policy, reporting each retry to the logger. */
  #withRetries<T>(
    method: HttpMethod,
    url: URL,
    signal: AbortSignal | undefined,
    attempt: () => Promise<T>,
    idempotent = method !== "POST",
  ) {
    return withRetries(attempt, {
      settings: this.#settings.retry,
      idempotent,
      signal,
      onRetry: ({ retryNumber, delayMs, error }) =>
        this.#log({
          type: "retry",
          method,
          path: url.pathname,
          retryNumber,
          delayMs,
          error: error.name,
          codeName: error.codeName,
          status: error.status,
        }),
    });
  }

  /**
   * A form POST with a fixed bearer (token exchange), retried as a read: it makes
   * nothing on the service, so repeating it is safe.
   */
  #postForm(url: URL, form: URLSearchParams, bearer: string, callerSignal?: AbortSignal) {
    this.#remember(bearer);
    // Ended by the caller's signal, and by close() whoever asked for it.
    const closed = this.#closed.signal;
    const signal = callerSignal ? AbortSignal.any([callerSignal, closed]) : closed;
    return this.#withRetries(
      "POST",
      url,
      signal,
      () =>
        sendOnce(this.#dispatcher, {
          method: "POST",
          url,
          form,
          bearer,
          signal,
          timeoutMs: this.#settings.timeoutMs,
          idempotent: true,
          secrets: this.#recentTokens,
          maxResponseBytes: this.#settings.maxResponseBytes,
          onServerDate: (observation) => this.serverClock.observe(observation),
        }),
      true,
    );
  }

  /**
   * Sends an API call: takes a token, retries what is safe to retry, and after a
   * 401 refreshes the token once and repeats once (a 401 means the call was not
   * acted upon, so even a create may be repeated).
   */
  async call(call: ApiCall): Promise<unknown> {
    const { method, body, options = {} } = call;
    const url = this.#url(this.baseUrl, call.path, call.query);
    let token = await this.#token(options.signal);
    let refreshed = false;
    return this.#withRetries(method, url, options.signal, async () => {
      try {
        return await this.#attempt(method, url, body, token, options);
      } catch (error) {
        const canRefresh = this.#tokenSource.refreshable && token !== undefined && !refreshed;
        if (!canRefresh || !isUnauthenticated(error) || error.status !== 401) throw error;
        refreshed = true;
        try {
          token = await this.#token(options.signal, token);
        } catch (refreshError) {
          // The token source already retried what it could: the call stops here.
          const { AbortError } = pRetry();
          throw new AbortError(refreshError instanceof Error ? refreshError : String(refreshError));
        }
        return await this.#attempt(method, url, body, token, options);
      }
    });
  }
}
