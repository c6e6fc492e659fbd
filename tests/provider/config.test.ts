import { UnsecuredJWT } from "jose";
import { describe, expect, it, vi } from "vitest";
import { startTestEmulator } from "../../harness/emulator";
import {
  CONFIG_KEYS,
  checkedProviderSettings,
  clientFor,
  PROVIDER_SETTINGS,
  REPLACED_CLIENT_GRACE_MS,
  redactSettings,
  resolveProviderSettings,
} from "../../provider/config";
import { DEFAULTS } from "../../sdk/settings";

const fromMap =
  (values: Record<string, string>) =>
  (key: string): string | undefined =>
    values[key];

describe("provider settings", () => {
  it("prefers irm: config, then IRM_* variables, then defaults", () => {
    const env = { IRM_API_URL: "https://env.example", IRM_TOKEN: "env-token" };
    const fromConfig = resolveProviderSettings(
      fromMap({
        [CONFIG_KEYS.apiUrl]: "https://config.example",
        [CONFIG_KEYS.deleteTimeoutMs]: "5",
      }),
      env,
    );
    expect(fromConfig.apiUrl).toBe("https://config.example");
    expect(fromConfig.token).toBe("env-token");
    expect(fromConfig.deleteTimeoutMs).toBe(5);

    const defaults = resolveProviderSettings(fromMap({}), {});
    expect(defaults.apiUrl).toBe(DEFAULTS.apiUrl);
    expect(defaults.deleteTimeoutMs).toBe(PROVIDER_SETTINGS.deleteTimeoutMs.default);
    expect(defaults.token).toBeUndefined();
  });

  it("reads every documented key, and treats empty values as unset", () => {
    const settings = resolveProviderSettings(
      fromMap({
        "irm:apiUrl": "",
        "irm:authUrl": "https://auth.example",
        "irm:identity": "id-uid",
        "irm:identityTokenFile": "/run/oidc-token",
        "irm:deleteTimeoutMs": "1500",
      }),
      { IRM_API_URL: "https://env.example", IRM_DELETE_TIMEOUT_MS: "9" },
    );
    expect(settings).toEqual({
      apiUrl: "https://env.example",
      authUrl: "https://auth.example",
      token: undefined,
      identity: "id-uid",
      identityTokenFile: "/run/oidc-token",
      allowInsecureHttp: false,
      deleteTimeoutMs: 1500,
    });
  });

  it("irm:allowInsecureHttp opens plain http to a host beyond loopback, and nothing else does", () => {
    const at = { "irm:apiUrl": "http://api.example" };
    // Unset: the client for such an address is refused, naming the way to allow it.
    expect(() => clientFor(resolveProviderSettings(fromMap(at), {}))).toThrow(
      /must be https unless its host is loopback/,
    );
    for (const raw of ["true", "1", " TRUE "]) {
      const settings = resolveProviderSettings(
        fromMap({ ...at, "irm:allowInsecureHttp": raw }),
        {},
      );
      expect(settings.allowInsecureHttp, raw).toBe(true);
      expect(() => clientFor(settings), raw).not.toThrow();
    }
    // The key wins over the variable, as every key does.
    const off = resolveProviderSettings(fromMap({ ...at, "irm:allowInsecureHttp": "false" }), {
      IRM_ALLOW_INSECURE_HTTP: "1",
    });
    expect(off.allowInsecureHttp).toBe(false);
    expect(() => clientFor(off)).toThrow(/must be https/);
    // The variable alone reads the same values.
    for (const raw of ["1", "true"]) {
      expect(
        resolveProviderSettings(fromMap(at), { IRM_ALLOW_INSECURE_HTTP: raw }).allowInsecureHttp,
        raw,
      ).toBe(true);
    }
    expect(() => resolveProviderSettings(fromMap(at), { IRM_ALLOW_INSECURE_HTTP: "yes" })).toThrow(
      'IRM_ALLOW_INSECURE_HTTP: must be true or false, got "yes"',
    );
    // A value that is no boolean is refused naming the key, never read as off in silence.
    expect(() =>
      resolveProviderSettings(fromMap({ ...at, "irm:allowInsecureHttp": "yes" }), {}),
    ).toThrow('irm:allowInsecureHttp: must be true or false, got "yes"');
  });

  it("refuses without a request what it can tell: the URL, a token not a JWT or expired, naming the key as given", () => {
    const now = Date.parse("2026-11-29T00:00:00Z");
    const jwt = (exp: number) => new UnsecuredJWT({ sub: "u" }).setExpirationTime(exp).encode();
    const current = jwt(now / 1000 + 3600);
    const expired = jwt(now / 1000 - 60);
    const check = (config: Record<string, string>, env: Record<string, string> = {}) => {
      try {
        checkedProviderSettings(fromMap(config), env, now);
        return "accepted";
      } catch (error) {
        // One line, no stack: what the program and the provider host print.
        expect((error as Error).stack).toBe(`SettingsError: ${(error as Error).message}`);
        return (error as Error).message;
      }
    };
    const url = "irm:apiUrl";
    expect(check({ [url]: "https://api.example", "irm:token": current })).toBe("accepted");
    expect(check({ [url]: "http://10.1.2.3" })).toBe(
      "irm:apiUrl must be https unless its host is loopback (tokens would cross the network in clear), got http://10.1.2.3; use https://10.1.2.3, or run `pulumi config set irm:allowInsecureHttp true` to allow it",
    );
    expect(check({ [url]: "http://10.1.2.3", "irm:allowInsecureHttp": "true" })).toBe("accepted");
    // From the environment, the variables are named.
    expect(check({}, { IRM_API_URL: "http://10.1.2.3" })).toMatch(
      /^IRM_API_URL must be https .* set IRM_ALLOW_INSECURE_HTTP=1 to allow it$/,
    );
    expect(check({ [url]: "https://api.example", "irm:authUrl": "ftp://x" })).toBe(
      "irm:authUrl must be an https:// URL, got ftp:",
    );
    expect(check({ [url]: "api.example" })).toMatch(/^irm:apiUrl is not a URL: "api.example"/);
    expect(check({})).toMatch(/^irm:apiUrl is not set/);
    expect(check({ [url]: "https://api.example", "irm:token": "not-a-real-token" })).toBe(
      "irm:token is not an API token (a JWT: three dot-separated base64url parts): get a current API token and `pulumi config set --secret irm:token <token>`",
    );
    const message = check({ [url]: "https://api.example", "irm:token": expired });
    expect(message).toBe(
      "irm:token expired at 2026-11-28T23:59:00.000Z: get a current API token and `pulumi config set --secret irm:token <token>`",
    );
    expect(message).not.toContain(expired);
    expect(check({ [url]: "https://api.example" }, { IRM_TOKEN: expired })).toMatch(
      /^IRM_TOKEN expired at .*: get a current API token and set IRM_TOKEN to it$/,
    );
  });

  it("rejects a malformed delete timeout, naming the key", () => {
    expect(() => resolveProviderSettings(fromMap({ "irm:deleteTimeoutMs": "soon" }), {})).toThrow(
      /irm:deleteTimeoutMs: must be a non-negative integer/,
    );
    expect(() => resolveProviderSettings(fromMap({}), { IRM_DELETE_TIMEOUT_MS: "-1" })).toThrow(
      /IRM_DELETE_TIMEOUT_MS/,
    );
  });

  it("redacts the token for diagnostics", () => {
    const settings = resolveProviderSettings(fromMap({ "irm:token": "secret-value" }), {});
    expect(JSON.stringify(redactSettings(settings))).not.toContain("secret-value");
    expect(redactSettings(settings).token).toBe("[redacted]");
  });

  it("reads each config key once, in one pass", () => {
    const asked: string[] = [];
    resolveProviderSettings((key) => {
      asked.push(key);
      return undefined;
    }, {});
    expect(asked.sort()).toEqual(Object.values(CONFIG_KEYS).sort());
  });
});

describe("clientFor", () => {
  const settings = resolveProviderSettings(
    fromMap({ "irm:apiUrl": "http://127.0.0.1:1", "irm:token": "first-token" }),
    {},
  );

  it("shares one client while the connection settings stay, whatever deleteTimeoutMs says", () => {
    const client = clientFor(settings);
    expect(clientFor({ ...settings })).toBe(client);
    expect(clientFor({ ...settings, deleteTimeoutMs: 1 })).toBe(client);
  });

  it("evicts the client a change of settings replaces, and closes it after the grace", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    try {
      const first = clientFor(settings);
      const closeFirst = vi.spyOn(first, "close");
      const second = clientFor({ ...settings, token: "second-token" });
      expect(second).not.toBe(first);
      expect(closeFirst).not.toHaveBeenCalled();
      vi.advanceTimersByTime(REPLACED_CLIENT_GRACE_MS - 1);
      expect(closeFirst).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(closeFirst).toHaveBeenCalledTimes(1);
      // Evicted: going back to the first settings builds a new client (and retires the second).
      const closeSecond = vi.spyOn(second, "close");
      const third = clientFor(settings);
      expect(third).not.toBe(first);
      vi.advanceTimersByTime(REPLACED_CLIENT_GRACE_MS);
      expect(closeSecond).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("keeps the client in force when the new settings cannot build one", () => {
    const client = clientFor(settings);
    const close = vi.spyOn(client, "close");
    expect(() => clientFor({ ...settings, apiUrl: "not a url" })).toThrow(/baseUrl/);
    expect(close).not.toHaveBeenCalled();
    expect(clientFor(settings)).toBe(client);
  });

  it("lets an operation that got the replaced client finish on it: a request in flight, then the next page", async () => {
    const emu = await startTestEmulator();
    try {
      const before = resolveProviderSettings(
        fromMap({ "irm:apiUrl": emu.url, "irm:token": emu.token }),
        {},
      );
      const held = await emu.fault({
        match: { method: "GET", path: "/iam/v2beta1/roles" },
        latencyMs: 300,
      });
      // `then` sends the request now (a listing is fetched on first use).
      const slow = clientFor(before)
        .iam.roles.list({ pageSize: 1 })
        .then((page) => page);
      // Let the request reach the emulator before the settings change.
      await emu.untilFaultTaken(held);
      const after = clientFor({ ...before, authUrl: emu.url });
      const first = await slow;
      expect(first.items).toHaveLength(1);
      const second = await first.getNextPage();
      expect(second.items).toHaveLength(1);
      expect(second.items[0].uid).not.toBe(first.items[0].uid);
      await after.close();
    } finally {
      await emu.close();
    }
  });
});
