/**
 * Workload identity: an OIDC token from the workload's platform is exchanged at
 * `{auth_url}/sts/exchange` for an API token of the identity it may assume.
 */
import { readFile } from "node:fs/promises";
import {
  badResponseError,
  ConnectionError,
  GrpcCode,
  IrmError,
  type IrmErrorInit,
  NotFoundError,
  OutcomeUnknownError,
  UnauthenticatedError,
} from "../core/errors";
import { undici } from "../core/lazy-modules";
import { redact } from "../core/redact";
import { isRecord } from "../core/shape";
import { readCapped } from "../core/transport";
import { DEFAULTS } from "../settings";
import { cachedTokenSource, type TokenSource, type TokenSourceContext } from "./token-source";

/**
 * Produces a fresh OIDC token of the workload's platform. `signal`, when given,
 * bounds the fetch (the client passes its own timeout).
 */
export type OidcTokenProvider = (request?: { signal?: AbortSignal }) => Promise<string>;

/** Reads the OIDC token from a file on every exchange (platforms rotate the file). */
export function oidcTokenFromFile(path: string): OidcTokenProvider {
  return async () => {
    const token = (await readFile(path, "utf8")).trim();
    if (token === "") throw new Error(`OIDC token file ${path} is empty`);
    return token;
  };
}

export interface GitHubActionsOidcOptions {
  /**
   * Audience to ask GitHub for; GitHub's default without it. The client passes the host
   * of its auth URL (`issuer.enforce.dev`), the audience an identity accepts by default.
   */
  audience?: string;
  env?: Record<string, string | undefined>;
  /** Bound of the whole fetch (headers and body), in ms; default the SDK's 30 s. */
  timeoutMs?: number;
  /** Largest answer read, in bytes; default the SDK's 4 MiB. */
  maxResponseBytes?: number;
}

/** True when the GitHub Actions OIDC endpoint is reachable (job with `id-token: write`). */
export function runningInGitHubActions(
  env: Record<string, string | undefined> = process.env,
): boolean {
  return Boolean(env.ACTIONS_ID_TOKEN_REQUEST_URL && env.ACTIONS_ID_TOKEN_REQUEST_TOKEN);
}

/**
 * Asks GitHub Actions' OIDC endpoint for an id token. Its request token goes only
 * to the URL GitHub gave the job.
 */
export function oidcTokenFromGitHubActions(
  options: GitHubActionsOidcOptions = {},
): OidcTokenProvider {
  return async ({ signal } = {}) => {
    const env = options.env ?? process.env;
    const requestUrl = env.ACTIONS_ID_TOKEN_REQUEST_URL;
    const requestToken = env.ACTIONS_ID_TOKEN_REQUEST_TOKEN;
    if (!requestUrl || !requestToken) {
      throw new Error(
        "GitHub Actions OIDC is not available: ACTIONS_ID_TOKEN_REQUEST_URL/ACTIONS_ID_TOKEN_REQUEST_TOKEN are unset (the job needs `permissions: id-token: write`)",
      );
    }
    const url = new URL(requestUrl);
    if (options.audience) url.searchParams.set("audience", options.audience);
    const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const bounded = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const where = `GitHub Actions OIDC endpoint (${url.host}${url.pathname})`;
    let status: number;
    let text: string;
    try {
      const response = await undici().request(url, {
        headers: { authorization: `Bearer ${requestToken}`, accept: "application/json" },
        signal: bounded,
      });
      status = response.statusCode;
      text = await readCapped(response.body, options.maxResponseBytes ?? DEFAULTS.maxResponseBytes);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      const why = timeout.aborted
        ? `no complete answer within ${timeoutMs} ms`
        : redact(error instanceof Error ? error.message : String(error), [requestToken]);
      throw new Error(`${where}: ${why}`);
    }
    if (status !== 200) throw new Error(`${where} answered HTTP ${status}`);
    let value: unknown;
    try {
      value = (JSON.parse(text) as { value?: unknown }).value;
    } catch {
      value = undefined;
    }
    if (typeof value !== "string" || !TOKEN_SHAPE.test(value)) {
      throw new Error(`${where} answered without a usable token`);
    }
    return value;
  };
}

export interface ExchangeTokenSourceOptions {
  /** Uid of the identity to assume. */
  identity: string;
  /** Where the OIDC token comes from: a file path, or a function returning a token. */
  oidcToken: string | OidcTokenProvider;
  /** Overrides the client's auth URL. */
  authUrl?: string;
  /** Overrides the exchange's `aud`, the audience of the API token asked for (the client's base URL). */
  audience?: string;
  /** Refresh this long before `exp`. */
  refreshAheadMs?: number;
  /** Clock in epoch milliseconds; replaceable in tests. */
  now?: () => number;
}

/** A bearer token: printable, without blanks (anything else cannot go into a header). */
const TOKEN_SHAPE = /^[\x21-\x7e]{1,16384}$/;

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

/**
 * Calls `{auth_url}/sts/exchange` with the OIDC token as bearer: a POST whose
 * `application/x-www-form-urlencoded` body carries `aud` (the API's audience, the
 * configured `{base_url}`) and `identity`, as the service's gateway reads it. The
 * answer's `token` is the API token; `refreshToken` and `expiry`, when present, are
 * checked and not used (the token's own `exp` drives refresh).
 */
export async function exchangeToken(
  context: TokenSourceContext,
  identity: string,
  oidcToken: string,
  overrides: { authUrl?: string; audience?: string } = {},
  signal?: AbortSignal,
): Promise<string> {
  const url = new URL(`${trimSlash(overrides.authUrl ?? context.authUrl)}/sts/exchange`);
  const form = new URLSearchParams();
  form.append("aud", trimSlash(overrides.audience ?? context.audience));
  form.append("identity", identity);
  let body: unknown;
  try {
    body = await context.postForm(url, form, oidcToken, signal);
  } catch (error) {
    throw exchangeFailure(error, identity);
  }
  const answer = (isRecord(body) ? body : {}) as Record<string, unknown>;
  const token = answer.token;
  const badAnswer = (problem: string) =>
    badResponseError(problem, "", "application/json", {
      status: 200,
      request: { method: "POST", path: url.pathname, host: url.host },
    });
  // RawToken's other members: present or unpopulated, never another type.
  for (const field of ["refreshToken", "expiry"] as const) {
    const value = answer[field];
    if (value !== undefined && value !== null && typeof value !== "string") {
      throw badAnswer(`"${field}" is a ${typeof value}, not a string`);
    }
  }
  if (
    typeof answer.expiry === "string" &&
    answer.expiry !== "" &&
    Number.isNaN(Date.parse(answer.expiry))
  ) {
    throw badAnswer(`"expiry" is not a timestamp`);
  }
  if (typeof token !== "string" || !TOKEN_SHAPE.test(token)) {
    const problem =
      token === undefined
        ? "missing"
        : typeof token === "string"
          ? "not a usable token"
          : `a ${typeof token}`;
    throw badAnswer(`"token" is ${problem}`);
  }
  return token;
}

/**
 * An exchange's failure, said as such: it is about the credentials, never about an
 * object the caller asked for. The API's NOT_FOUND here (a mistyped identity) becomes
 * UNAUTHENTICATED, so no caller mistakes it for "the object is gone"; other errors keep
 * their class. The message names what answered.
 */
function exchangeFailure(error: unknown, identity: string): unknown {
  if (!(error instanceof IrmError)) return error;
  const answered = error.request
    ? `${error.request.method} ${error.request.host ?? ""}${error.request.path} answered ` +
      `${error.status ? `HTTP ${error.status} ` : ""}${error.codeName}`
    : error.codeName;
  const message = `Token exchange for identity ${identity} failed: ${answered}: ${error.message}`;
  const init: IrmErrorInit = {
    code: error.code,
    message,
    status: error.status,
    reason: error.reason,
    domain: error.domain,
    fieldViolations: error.fieldViolations,
    preconditionViolations: error.preconditionViolations,
    request: error.request,
    retryAfterMs: error.retryAfterMs,
    cause: error,
  };
  if (error instanceof NotFoundError) {
    return new UnauthenticatedError({
      ...init,
      code: GrpcCode.UNAUTHENTICATED,
      message: `${message} (does identity ${identity} exist? check irm:identity / IRM_IDENTITY)`,
    });
  }
  // Transport failures keep their own fields (beforeSend, ...) and already name the URL.
  if (error instanceof ConnectionError || error instanceof OutcomeUnknownError) return error;
  const Same = error.constructor as new (init: IrmErrorInit) => IrmError;
  return new Same(init);
}

/** Cached, refreshing token source that assumes `identity` by token exchange. */
export function exchangeTokenSource(options: ExchangeTokenSourceOptions): TokenSource {
  if (!options.identity) throw new TypeError("exchangeTokenSource: identity is required");
  const provider =
    typeof options.oidcToken === "string"
      ? oidcTokenFromFile(options.oidcToken)
      : options.oidcToken;
  return cachedTokenSource(
    async ({ context, signal }) =>
      exchangeToken(context, options.identity, await provider({ signal }), options, signal),
    {
      description: `exchange(identity=${options.identity})`,
      refreshAheadMs: options.refreshAheadMs,
      now: options.now,
    },
  );
}
