import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BadResponseError, IrmClient, resolveSettings, resolveTokenSource } from "../../sdk";
import { DEFAULTS } from "../../sdk/settings";

describe("resolveSettings", () => {
  it("has no default address: with none set it fails before any request, naming IRM_API_URL", () => {
    expect(() => resolveSettings({}, {})).toThrow(/baseUrl: no API address is set.*IRM_API_URL/);
    expect(() => new IrmClient({ token: "a-token", env: {} })).toThrow(/IRM_API_URL/);
  });

  it("uses the defaults when nothing but the address is set", () => {
    expect(resolveSettings({}, { IRM_API_URL: "https://api.example" })).toEqual({
      baseUrl: "https://api.example",
      authUrl: "https://api.example",
      timeoutMs: DEFAULTS.timeoutMs,
      maxResponseBytes: DEFAULTS.maxResponseBytes,
      retry: {
        retries: DEFAULTS.maxRetries,
        minDelayMs: DEFAULTS.retryMinDelayMs,
        maxDelayMs: DEFAULTS.retryMaxDelayMs,
        maxRetryTimeMs: DEFAULTS.maxRetryTimeMs,
        maxRetryAfterMs: DEFAULTS.maxRetryAfterMs,
      },
    });
  });

  it("prefers options over IRM_* variables over defaults", () => {
    const env = {
      IRM_API_URL: "https://api.example/",
      IRM_AUTH_URL: "https://auth.example",
      IRM_TIMEOUT_MS: "1234",
      IRM_MAX_RETRIES: "2",
      IRM_MAX_RETRY_TIME_MS: "999",
    };
    const fromEnv = resolveSettings({}, env);
    expect(fromEnv).toMatchObject({
      baseUrl: "https://api.example",
      authUrl: "https://auth.example",
      timeoutMs: 1234,
      retry: { retries: 2, maxRetryTimeMs: 999 },
    });
    const fromOptions = resolveSettings(
      { baseUrl: "https://b", timeoutMs: 5, retry: { retries: 0, maxRetryTimeMs: 7 } },
      env,
    );
    expect(fromOptions).toMatchObject({
      baseUrl: "https://b",
      authUrl: "https://auth.example",
      timeoutMs: 5,
      retry: { retries: 0, maxRetryTimeMs: 7 },
    });
  });

  it("defaults the auth URL to the base URL", () => {
    expect(resolveSettings({ baseUrl: "https://api:1/prefix/" }, {}).authUrl).toBe(
      "https://api:1/prefix",
    );
  });

  it("rejects a base URL that is not http(s), naming the variable", () => {
    expect(() => resolveSettings({}, { IRM_API_URL: "ftp://x" })).toThrow(/IRM_API_URL/);
    expect(() => resolveSettings({ baseUrl: "not a url" }, {})).toThrow(/baseUrl/);
    expect(() => resolveSettings({}, { IRM_API_URL: "http://b", IRM_MAX_RETRIES: "-1" })).toThrow(
      /IRM_MAX_RETRIES/,
    );
  });
});

describe("resolveTokenSource", () => {
  it("picks option token, then identity, then IRM_TOKEN, then IRM_IDENTITY, else anonymous", async () => {
    const env = { IRM_TOKEN: "env-token-value", IRM_IDENTITY: "id", IRM_IDENTITY_TOKEN_FILE: "/f" };
    expect(resolveTokenSource({ token: "option-token-value" }, env).description).toBe("static");
    expect(
      resolveTokenSource({ identity: "opt-id", oidcToken: async () => "x" }, env).description,
    ).toBe("exchange(identity=opt-id)");
    expect(resolveTokenSource({}, env).description).toBe("static");
    expect(
      resolveTokenSource({}, { IRM_IDENTITY: "id", IRM_IDENTITY_TOKEN_FILE: "/f" }).description,
    ).toBe("exchange(identity=id)");
    expect(resolveTokenSource({}, {}).description).toBe("anonymous");
  });

  it("uses GitHub Actions' OIDC endpoint when running there without a token file", () => {
    const source = resolveTokenSource(
      {},
      {
        IRM_API_URL: "https://api.example",
        IRM_IDENTITY: "id",
        ACTIONS_ID_TOKEN_REQUEST_URL: "http://gh",
        ACTIONS_ID_TOKEN_REQUEST_TOKEN: "t",
      },
    );
    expect(source.refreshable).toBe(true);
  });

  it("treats an empty token option as unset", () => {
    expect(resolveTokenSource({ token: "" }, {}).description).toBe("anonymous");
  });

  it("reports an exchange answer without a token as a bad response", async () => {
    const source = resolveTokenSource({ identity: "id", oidcToken: async () => "oidc" }, {});
    const context = {
      authUrl: "https://auth",
      audience: "https://api",
      log: () => {},
      postForm: async () => ({ notToken: true }),
    };
    await expect(source.getToken({ context })).rejects.toBeInstanceOf(BadResponseError);
  });

  it("explains a missing OIDC token source", () => {
    expect(() => resolveTokenSource({}, { IRM_IDENTITY: "id" })).toThrow(/IRM_IDENTITY_TOKEN_FILE/);
  });

  it("reads the OIDC token file on each exchange", async () => {
    const dir = await mkdtemp(join(tmpdir(), "irm-sdk-"));
    const file = join(dir, "oidc");
    await writeFile(file, "first-oidc-token\n");
    const bearers: string[] = [];
    const source = resolveTokenSource({}, { IRM_IDENTITY: "id", IRM_IDENTITY_TOKEN_FILE: file });
    const context = {
      authUrl: "https://auth",
      audience: "https://api",
      log: () => {},
      postForm: async (url: URL, form: URLSearchParams, bearer: string) => {
        bearers.push(`${url.pathname}${url.search} ${form} ${bearer}`);
        return { token: `api-token-${bearers.length}` };
      },
    };
    const first = await source.getToken({ context });
    await writeFile(file, "second-oidc-token");
    await source.getToken({ context, rejectedToken: first });
    expect(bearers).toEqual([
      "/sts/exchange aud=https%3A%2F%2Fapi&identity=id first-oidc-token",
      "/sts/exchange aud=https%3A%2F%2Fapi&identity=id second-oidc-token",
    ]);
  });
});

describe("IrmClient", () => {
  it("exposes every collection and does not reveal its token when printed", async () => {
    const client = new IrmClient({
      baseUrl: "http://127.0.0.1:9",
      token: "printed-secret-token",
      env: {},
    });
    expect(Object.keys(client.iam).sort()).toEqual([
      "accountAssociations",
      "externalGroupRoleMappings",
      "groupInvites",
      "groups",
      "identities",
      "identityProviders",
      "roleBindings",
      "roles",
    ]);
    expect(Object.keys(client.registry).sort()).toEqual(["repos", "tags"]);
    expect(Object.keys(client.vulnerabilities)).toEqual(["advisories"]);
    expect(Object.keys(client.events)).toEqual(["subscriptions"]);
    expect(Object.keys(client.v1).sort()).toEqual(["groups", "repos", "tags"]);
    const { inspect } = await import("node:util");
    expect(inspect(client, { depth: 10 })).not.toContain("printed-secret-token");
    expect(JSON.stringify(client)).not.toContain("printed-secret-token");
    await client.close();
  });

  it("lets an option win over a malformed variable of the same setting", async () => {
    const env = { IRM_API_URL: "https://api.example", IRM_TIMEOUT_MS: "soon" };
    expect(() => new IrmClient({ env })).toThrow(/IRM_TIMEOUT_MS: must be a non-negative integer/);
    const client = new IrmClient({ env, timeoutMs: 1_000 });
    await client.close();
  });

  it("can be closed twice, as cleanup code often does", async () => {
    const client = new IrmClient({ env: { IRM_API_URL: "https://api.example" } });
    await client.close();
    await expect(client.close()).resolves.toBeUndefined();
  });
});

describe("GitHub Actions OIDC", () => {
  it("asks the job's OIDC endpoint with its request token and the auth host as audience", async () => {
    const { createServer } = await import("node:http");
    const seen: Array<{ url?: string; authorization?: string }> = [];
    const github = createServer((req, res) => {
      seen.push({ url: req.url, authorization: req.headers.authorization });
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ value: "github-id-token" }));
    });
    await new Promise<void>((resolve) => github.listen(0, "127.0.0.1", resolve));
    const { port } = github.address() as { port: number };
    const env = {
      IRM_IDENTITY: "workload-id",
      IRM_API_URL: "https://api.example/",
      IRM_AUTH_URL: "https://issuer.example:8443/",
      ACTIONS_ID_TOKEN_REQUEST_URL: `http://127.0.0.1:${port}/token?api-version=2.0`,
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: "gh-request-token",
    };
    const exchanged: string[] = [];
    const source = resolveTokenSource({}, env);
    const token = await source.getToken({
      context: {
        authUrl: "https://auth",
        audience: "https://api",
        log: () => {},
        postForm: async (_url, _form, bearer) => {
          exchanged.push(bearer);
          return { token: "api-token" };
        },
      },
    });
    github.close();
    expect(token).toBe("api-token");
    expect(exchanged).toEqual(["github-id-token"]);
    expect(seen).toEqual([
      {
        url: "/token?api-version=2.0&audience=issuer.example%3A8443",
        authorization: "Bearer gh-request-token",
      },
    ]);
  });
});

describe("IRM_DEBUG", () => {
  it("prints retry events to stderr without the token", async () => {
    const { createServer } = await import("node:http");
    let calls = 0;
    const server = createServer((_req, res) => {
      calls++;
      res.writeHead(calls === 1 ? 503 : 200, { "content-type": "application/json" });
      res.end(calls === 1 ? '{"code":14,"message":"busy"}' : '{"roles":[],"totalCount":"0"}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    const written: string[] = [];
    const original = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => {
      written.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    try {
      const client = new IrmClient({
        env: {
          IRM_DEBUG: "1",
          IRM_API_URL: `http://127.0.0.1:${port}`,
          IRM_TOKEN: "debug-secret-token",
        },
        retry: { minDelayMs: 1 },
      });
      await client.iam.roles.list();
      await client.close();
    } finally {
      process.stderr.write = original;
      server.close();
    }
    expect(written).toHaveLength(1);
    expect(JSON.parse(written[0].replace("[pulumi-irm/sdk] ", ""))).toMatchObject({
      type: "retry",
      path: "/iam/v2beta1/roles",
      status: 503,
    });
    expect(written.join("")).not.toContain("debug-secret-token");
  });
});
