import { describe, expect, it } from "vitest";
import { CONFIG_KEYS, redactSettings, resolveProviderSettings } from "../../provider/config";
import { DEFAULTS } from "../../sdk/settings";

const fromMap =
  (values: Record<string, string>) =>
  (key: string): string | undefined =>
    values[key];

describe("provider settings", () => {
  it("prefers irm: config, then IRM_* variables, then defaults", () => {
    const env = { IRM_API_URL: "http://env.example", IRM_TOKEN: "env-token" };
    const fromConfig = resolveProviderSettings(
      fromMap({
        [CONFIG_KEYS.apiUrl]: "http://config.example",
        [CONFIG_KEYS.deleteTimeoutMs]: "5",
      }),
      env,
    );
    expect(fromConfig.apiUrl).toBe("http://config.example");
    expect(fromConfig.token).toBe("env-token");
    expect(fromConfig.deleteTimeoutMs).toBe(5);

    const defaults = resolveProviderSettings(fromMap({}), {});
    expect(defaults.apiUrl).toBe(DEFAULTS.apiUrl);
    expect(defaults.deleteTimeoutMs).toBe(DEFAULTS.deleteTimeoutMs);
    expect(defaults.token).toBeUndefined();
  });

  it("reads every documented key, and treats empty values as unset", () => {
    const settings = resolveProviderSettings(
      fromMap({
        "irm:apiUrl": "",
        "irm:authUrl": "http://auth.example",
        "irm:identity": "id-uid",
        "irm:identityTokenFile": "/run/oidc-token",
        "irm:deleteTimeoutMs": "1500",
      }),
      { IRM_API_URL: "http://env.example", IRM_DELETE_TIMEOUT_MS: "9" },
    );
    expect(settings).toEqual({
      apiUrl: "http://env.example",
      authUrl: "http://auth.example",
      token: undefined,
      identity: "id-uid",
      identityTokenFile: "/run/oidc-token",
      deleteTimeoutMs: 1500,
    });
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
});
