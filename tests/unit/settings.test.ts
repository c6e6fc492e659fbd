import { describe, expect, it } from "vitest";
import { DEFAULTS, envInteger, envString, pick } from "../../sdk/settings";

describe("settings", () => {
  it("treats an empty variable as unset", () => {
    expect(envString("apiUrl", { IRM_API_URL: "" })).toBeUndefined();
    expect(envString("apiUrl", { IRM_API_URL: "http://x" })).toBe("http://x");
  });

  it("rejects a non-integer numeric variable, naming it", () => {
    expect(() => envInteger("timeoutMs", { IRM_TIMEOUT_MS: "ten" })).toThrow(/IRM_TIMEOUT_MS/);
    expect(envInteger("timeoutMs", { IRM_TIMEOUT_MS: "250" })).toBe(250);
  });

  it("prefers the option, then the environment, then the default", () => {
    expect(pick(undefined, "env", DEFAULTS.apiUrl)).toBe("env");
    expect(pick("opt", "env", DEFAULTS.apiUrl)).toBe("opt");
    expect(pick<string>(undefined, undefined, DEFAULTS.apiUrl)).toBe(DEFAULTS.apiUrl);
  });
});
