/**
 * The settings tables (`sdk/settings.ts`, `provider/config.ts`) and the reader, and
 * the configuration table of docs/configuration.md held to them: it is the users' contract, so every
 * key, variable and default it lists must be what the code reads and applies.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  CONFIG_KEYS,
  PROVIDER_SETTINGS,
  type ProviderSettings,
  resolveProviderSettings,
} from "../../provider/config";
import { type ResolvedSettings, resolveSettings } from "../../sdk/client";
import {
  DEFAULTS,
  flag,
  nonNegativeInteger,
  readSettings,
  SETTINGS,
  type SettingTable,
  text,
} from "../../sdk/settings";

describe("readSettings", () => {
  const table = {
    url: { env: "T_URL", config: "t:url", parse: text, default: "http://default" },
    count: { env: "T_COUNT", config: "t:count", parse: nonNegativeInteger, default: 7 },
    name: { env: "T_NAME", parse: text },
    on: { env: "T_ON", parse: flag, default: false },
  } satisfies SettingTable;

  it("takes the explicit value, then config, then the variable, then the default", () => {
    const env = { T_URL: "http://env", T_COUNT: "3", T_NAME: "env-name" };
    const config = (key: string) => ({ "t:url": "http://config" })[key];
    expect(readSettings(table, { env, config, explicit: { url: "http://explicit" } })).toEqual({
      url: "http://explicit",
      count: 3,
      name: "env-name",
      on: false,
    });
    expect(readSettings(table, { env, config }).url).toBe("http://config");
    expect(readSettings(table, { env }).url).toBe("http://env");
    expect(readSettings(table, { env: {} })).toEqual({
      url: "http://default",
      count: 7,
      on: false,
    });
  });

  it("counts empty config values and variables as unset, but an explicit empty string as given", () => {
    const values = readSettings(table, {
      env: { T_URL: "", T_NAME: "" },
      config: () => "",
      explicit: { name: "" },
    });
    expect(values.url).toBe("http://default");
    expect(values.count).toBe(7);
    expect(values.name).toBe("");
  });

  it("names the variable or config key whose text is not a non-negative integer", () => {
    expect(() => readSettings(table, { env: { T_COUNT: "ten" } })).toThrow(
      'T_COUNT: must be a non-negative integer, got "ten"',
    );
    expect(() => readSettings(table, { env: {}, config: () => "-1" })).toThrow(
      't:count: must be a non-negative integer, got "-1"',
    );
    expect(() => readSettings(table, { env: { T_COUNT: "99999999999999999999" } })).toThrow(
      /T_COUNT/,
    );
    expect(readSettings(table, { env: { T_COUNT: " 250 " } }).count).toBe(250);
  });

  it("reads a flag as a boolean, and refuses a value that is none, naming the variable", () => {
    for (const raw of ["1", "true", " TRUE "]) {
      expect(readSettings(table, { env: { T_ON: raw } }).on, raw).toBe(true);
    }
    for (const raw of ["0", "false", "False", ""]) {
      expect(readSettings(table, { env: { T_ON: raw } }).on, raw).toBe(false);
    }
    // Never read as off in silence: a security switch set to "yes" must not mean "no".
    for (const raw of ["yes", "on", "2"]) {
      expect(() => readSettings(table, { env: { T_ON: raw } }), raw).toThrow(
        `T_ON: must be true or false, got ${JSON.stringify(raw)}`,
      );
    }
  });

  it("types a key with a default as always set", () => {
    const values = readSettings(SETTINGS, { env: {} });
    // Assignments that compile only because the type guarantees a value.
    const timeoutMs: number = values.timeoutMs;
    const maxRetries: number = values.maxRetries;
    const deleteTimeoutMs: number = resolveProviderSettings(() => undefined, {}).deleteTimeoutMs;
    expect([timeoutMs, maxRetries, deleteTimeoutMs]).toEqual([
      DEFAULTS.timeoutMs,
      DEFAULTS.maxRetries,
      PROVIDER_SETTINGS.deleteTimeoutMs.default,
    ]);
    expect(values.token).toBeUndefined();
  });

  it("has no default API address: the token goes only where the user points it", () => {
    expect(readSettings(SETTINGS, { env: {} }).apiUrl).toBeUndefined();
    expect(resolveProviderSettings(() => undefined, {}).apiUrl).toBeUndefined();
    expect("default" in SETTINGS.apiUrl).toBe(false);
  });

  it("the provider's table names its config keys and reuses the SDK's rows", () => {
    expect(CONFIG_KEYS).toEqual({
      apiUrl: "irm:apiUrl",
      authUrl: "irm:authUrl",
      allowInsecureHttp: "irm:allowInsecureHttp",
      token: "irm:token",
      identity: "irm:identity",
      identityTokenFile: "irm:identityTokenFile",
      deleteTimeoutMs: "irm:deleteTimeoutMs",
    });
    expect(PROVIDER_SETTINGS.apiUrl.env).toBe(SETTINGS.apiUrl.env);
    expect(PROVIDER_SETTINGS.allowInsecureHttp.env).toBe(SETTINGS.allowInsecureHttp.env);
    expect(Object.keys(SETTINGS)).not.toContain("deleteTimeoutMs");
  });
});

// --- docs/configuration.md -----------------------------------------------------

interface ReadmeRow {
  /** `irm:apiUrl`, or undefined for "—". */
  configKey?: string;
  /** `retry.retries`, or undefined for "—". */
  option?: string;
  variable: string;
  /** The default cell as written. */
  defaultCell: string;
}

/** The rows of the first table of docs/configuration.md. */
function readmeRows(): ReadmeRow[] {
  const section = readFileSync(join(__dirname, "../../docs/configuration.md"), "utf8");
  // The first table of the section: its lines run from the first `|` to the first other line.
  const all = section.split("\n");
  const start = all.findIndex((line) => line.startsWith("|"));
  const end = all.findIndex((line, index) => index > start && !line.startsWith("|"));
  const lines = all.slice(start, end);
  const cells = (line: string) =>
    line
      .split("|")
      .slice(1, -1)
      .map((cell) => cell.trim());
  const header = cells(lines[0]);
  expect(header.slice(0, 4)).toEqual(["`irm:` key", "SDK option", "variable", "default"]);
  const code = (cell: string) => /`([^`]+)`/.exec(cell)?.[1];
  return lines
    .slice(2)
    .map(cells)
    .map(([configCell, optionCell, variableCell, defaultCell]) => ({
      configKey: code(configCell),
      option: code(optionCell),
      // `IRM_DEBUG=1` names the variable and the value that turns it on.
      variable: (code(variableCell) ?? "").replace(/=.*$/, ""),
      defaultCell,
    }));
}

/** The value a README default cell states; `the API URL` is a rule, checked on its own. */
function stated(cell: string): unknown {
  if (cell === "none") return undefined;
  if (cell === "silent" || cell === "off") return false;
  const value = /^`([^`]+)`/.exec(cell)?.[1];
  if (value === undefined) throw new Error(`README default ${JSON.stringify(cell)} is not a value`);
  return /^\d+$/.test(value) ? Number(value) : value;
}

function at(settings: ResolvedSettings, path: string): unknown {
  return path
    .split(".")
    .reduce<unknown>((value, key) => (value as Record<string, unknown>)[key], settings);
}

/** A value a variable or key could hold, of the setting's type, that is no default. */
function sampleFor(parse: unknown): { raw: string; value: unknown } {
  if (parse === nonNegativeInteger) return { raw: "4321", value: 4321 };
  if (parse === flag) return { raw: "1", value: true };
  return { raw: "https://readme-sample.example", value: "https://readme-sample.example" };
}

describe("the configuration table of docs/configuration.md", () => {
  const rows = readmeRows();
  // The address has no default; every other setting is at its default here.
  const address = { IRM_API_URL: "https://api.example" };
  const sdkDefaults = resolveSettings({}, address);
  const providerDefaults = resolveProviderSettings(() => undefined, {});
  const sdkRows = Object.values(SETTINGS as SettingTable);
  const providerRows = Object.values(PROVIDER_SETTINGS as SettingTable);

  it("lists every variable and every irm: key the code reads, and no other", () => {
    const variables = new Set([...sdkRows, ...providerRows].flatMap((row) => row.env ?? []));
    expect(new Set(rows.map((row) => row.variable))).toEqual(variables);
    const configKeys = new Set(providerRows.map((row) => row.config));
    expect(new Set(rows.flatMap((row) => row.configKey ?? []))).toEqual(configKeys);
    expect(rows.length).toBe(variables.size);
  });

  it.each(rows.map((row) => [row.variable, row] as const))(
    "%s: the key, the variable and the default are the code's",
    (_, row) => {
      const sdkRow = sdkRows.find((spec) => spec.env === row.variable);
      const providerRow = providerRows.find((spec) => spec.env === row.variable);
      expect(sdkRow ?? providerRow, `${row.variable} is in no table`).toBeDefined();
      if (row.configKey !== undefined) {
        expect(providerRow?.config).toBe(row.configKey);
      } else {
        expect(providerRow).toBeUndefined();
      }
      const key = row.configKey?.replace(/^irm:/, "") as keyof ProviderSettings | undefined;
      // The SDK option, when `resolveSettings` answers it (credentials and the logger it does not).
      const option =
        row.option !== undefined && row.option.split(".")[0] in sdkDefaults
          ? row.option
          : undefined;

      if (row.defaultCell === "the API URL") {
        // No value of its own: the client uses the API URL.
        expect(key === undefined ? undefined : providerDefaults[key]).toBeUndefined();
        expect(resolveSettings({ baseUrl: "https://api.example" }, {}).authUrl).toBe(
          "https://api.example",
        );
      } else {
        const value = stated(row.defaultCell);
        expect((sdkRow ?? providerRow)?.default).toBe(value);
        if (key !== undefined) expect(providerDefaults[key]).toBe(value);
        if (option !== undefined && option !== "baseUrl") {
          expect(at(sdkDefaults, option)).toBe(value);
        }
      }

      // The variable and the key are really read.
      const spec = (sdkRow ?? providerRow) as SettingTable[string];
      const sample = sampleFor(spec.parse);
      if (key !== undefined) {
        expect(resolveProviderSettings(() => undefined, { [row.variable]: sample.raw })[key]).toBe(
          sample.value,
        );
        const fromConfig = resolveProviderSettings((name) =>
          name === row.configKey ? sample.raw : undefined,
        );
        expect(fromConfig[key]).toBe(sample.value);
      }
      if (option !== undefined) {
        expect(at(resolveSettings({}, { ...address, [row.variable]: sample.raw }), option)).toBe(
          sample.value,
        );
      }
      if (sdkRow !== undefined) {
        const sdkKey = Object.keys(SETTINGS).find(
          (name) => (SETTINGS as SettingTable)[name] === sdkRow,
        ) as keyof typeof SETTINGS;
        expect(readSettings(SETTINGS, { env: { [row.variable]: sample.raw } })[sdkKey]).toBe(
          sample.value,
        );
      }
    },
  );
});

describe("plain http to a host other than loopback", () => {
  it("is refused for the API and auth URLs, naming the setting and the way to allow it", () => {
    expect(() => resolveSettings({ baseUrl: "http://api.example" }, {})).toThrow(
      /^baseUrl must be https unless its host is loopback .*got http:\/\/api\.example; use https:\/\/api\.example, or pass allowInsecureHttp: true to allow it$/,
    );
    expect(() =>
      resolveSettings({ baseUrl: "https://api.example", authUrl: "http://10.0.0.5:8787" }, {}),
    ).toThrow(/^authUrl must be https/);
    // Given by its variable, the variable is named, with the variable that allows it.
    expect(() => resolveSettings({}, { IRM_API_URL: "http://192.168.1.4" })).toThrow(
      /^IRM_API_URL must be https .*; use https:\/\/192\.168\.1\.4, or set IRM_ALLOW_INSECURE_HTTP=1 to allow it$/,
    );
  });

  it("is allowed on loopback, and elsewhere only when allowed explicitly", () => {
    for (const url of [
      "http://127.0.0.1:8787",
      "http://localhost:1",
      "http://[::1]:2",
      "http://127.9.8.7:3",
      "http://[::ffff:7f00:1]:4",
    ]) {
      expect(resolveSettings({ baseUrl: url }, {}).baseUrl).toBe(url);
    }
    // Loopback is a literal address or `localhost` itself: a resolver may send any other
    // name, `*.localhost` among them, to DNS.
    for (const url of [
      "http://api.localhost:8787",
      "http://localhost.example",
      "http://127.0.0.1.nip.io",
    ]) {
      expect(() => resolveSettings({ baseUrl: url }, {}), url).toThrow(
        /must be https unless its host is loopback/,
      );
    }
    expect(
      resolveSettings({ baseUrl: "http://api.example", allowInsecureHttp: true }, {}).baseUrl,
    ).toBe("http://api.example");
    expect(
      resolveSettings({}, { IRM_API_URL: "http://api.example", IRM_ALLOW_INSECURE_HTTP: "1" })
        .baseUrl,
    ).toBe("http://api.example");
  });
});
