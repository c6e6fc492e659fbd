/**
 * Workload identity: an OIDC token from the workload's platform is exchanged at
 * `{auth_url}/sts/exchange` for an API token of the identity it may assume.
 */
import { readFile } from "node:fs/promises";
import { request } from "undici";
import { badResponseError } from "../core/errors";
import { cachedTokenSource, type TokenSource, type TokenSourceContext } from "./token-source";

/** Produces a fresh OIDC token of the workload's platform. */
export type OidcTokenProvider = () => Promise<string>;

/** Reads the OIDC token from a file on every exchange (platforms rotate the file). */
export function oidcTokenFromFile(path: string): OidcTokenProvider {
  return async () => {
    const token = (await readFile(path, "utf8")).trim();
    if (token === "") throw new Error(`OIDC token file ${path} is empty`);
    return token;
  };
}

export interface GitHubActionsOidcOptions {
  /** Audience to ask GitHub for (the client passes its base URL); GitHub's default without it. */
  audience?: string;
  env?: Record<string, string | undefined>;
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
  return async () => {
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
    const response = await request(url, {
      headers: { authorization: `Bearer ${requestToken}`, accept: "application/json" },
    });
    const text = await response.body.text();
    if (response.statusCode !== 200) {
      throw new Error(`GitHub Actions OIDC endpoint answered HTTP ${response.statusCode}`);
    }
    let value: unknown;
    try {
      value = (JSON.parse(text) as { value?: unknown }).value;
    } catch {
      value = undefined;
    }
    if (typeof value !== "string" || value === "") {
      throw new Error("GitHub Actions OIDC endpoint answered without a token");
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
  /** Overrides the audience (the client's base URL). */
  audience?: string;
  /** Refresh this long before `exp`. */
  refreshAheadMs?: number;
  /** Clock in epoch milliseconds; replaceable in tests. */
  now?: () => number;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

/** Calls `{auth_url}/sts/exchange?aud=<audience>&identity=<uid>` with the OIDC token as bearer. */
export async function exchangeToken(
  context: TokenSourceContext,
  identity: string,
  oidcToken: string,
  overrides: { authUrl?: string; audience?: string } = {},
  signal?: AbortSignal,
): Promise<string> {
  const url = new URL(`${trimSlash(overrides.authUrl ?? context.authUrl)}/sts/exchange`);
  url.searchParams.set("aud", trimSlash(overrides.audience ?? context.audience));
  url.searchParams.set("identity", identity);
  const body = await context.getJson(url, oidcToken, signal);
  const token = (body as { token?: unknown } | null)?.token;
  if (typeof token !== "string" || token === "") {
    throw badResponseError("unexpected shape", "the token exchange answered without a token", "", {
      status: 200,
      request: { method: "GET", path: url.pathname },
    });
  }
  return token;
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
      exchangeToken(context, options.identity, await provider(), options, signal),
    {
      description: `exchange(identity=${options.identity})`,
      refreshAheadMs: options.refreshAheadMs,
      now: options.now,
    },
  );
}
