/**
 * The faces the routes benchmark sets side by side: one program (an organisation's teams)
 * written and set up the ways a user can run it. A face turns a copy of the program's
 * folder into a project of its kind and names the environment the CLI runs it with.
 *
 * Today: the dynamic provider from TypeScript, set up as the README said before the
 * recommended setup (`typescript: true`, one `tsconfig.json`: the program is type-checked
 * on every run), and with the package's recommended setup (`tsconfig.pulumi.json` with
 * `noCheck`, so the CLI transpiles only; `npm run typecheck` checks the types).
 *
 * Hooks for the native plugin (issue 37), which adds faces when it lands:
 * `NATIVE_FACES` lists its faces (TypeScript, YAML, Python), each `unavailable` until
 * the plugin exists; a face there only has to fill `prepare` (write `Pulumi.yaml`, the
 * program in its language, the plugin's install) and `env`. The suite runs every face
 * `available` in the same interleaved rounds and reports the others as not run.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  PULUMI_TSCONFIG,
  PULUMI_TSCONFIG_TEXT,
  TYPESCRIPT_RUNTIME_OPTIONS,
} from "../../exporter/project";

export interface Face {
  /** Short id, in measurement ids (`dynamic-readme`). */
  id: string;
  /** How the report names it. */
  label: string;
  /** Why the face cannot run on this machine now, or undefined when it can. */
  unavailable(): string | undefined;
  /** Turns `dir` (a copy of `bench/fixtures/routes`) into this face's project. */
  prepare(dir: string): void;
  /** Environment for the CLI; `undefined` removes a variable the harness sets. */
  env: Record<string, string | undefined>;
}

/** `compilerOptions` of the project's `tsconfig.json` (as the README taught). */
const COMPILER_OPTIONS = {
  strict: true,
  target: "ES2022",
  module: "nodenext",
  moduleResolution: "nodenext",
  skipLibCheck: true,
};

function write(dir: string, file: string, text: string): void {
  fs.writeFileSync(path.join(dir, file), text.endsWith("\n") ? text : `${text}\n`);
}

function pulumiYaml(options: string[]): string {
  return [
    "name: routes",
    "runtime:",
    "  name: nodejs",
    "  options:",
    ...options.map((line) => `    ${line}`),
    "main: index.ts",
  ].join("\n");
}

/**
 * Both dynamic faces run as users run them: without the harness's
 * `PULUMI_NODEJS_TRANSPILE_ONLY`, so what decides type checking is the project's setup.
 */
const AS_USERS_RUN = { PULUMI_NODEJS_TRANSPILE_ONLY: undefined };

export const DYNAMIC_README: Face = {
  id: "dynamic-readme",
  label: "dynamic, TypeScript, set up as the README said (type-checked by every run)",
  unavailable: () => undefined,
  prepare(dir) {
    write(dir, "Pulumi.yaml", pulumiYaml(["typescript: true"]));
    write(
      dir,
      "tsconfig.json",
      JSON.stringify({ compilerOptions: COMPILER_OPTIONS, files: ["index.ts"] }, null, 2),
    );
  },
  env: AS_USERS_RUN,
};

export const DYNAMIC_RECOMMENDED: Face = {
  id: "dynamic-recommended",
  label:
    "dynamic, TypeScript, the package's recommended setup (transpile only; `npm run typecheck`)",
  unavailable: () => undefined,
  prepare(dir) {
    write(dir, "Pulumi.yaml", pulumiYaml(TYPESCRIPT_RUNTIME_OPTIONS));
    write(
      dir,
      "tsconfig.json",
      JSON.stringify(
        { compilerOptions: { ...COMPILER_OPTIONS, isolatedModules: true }, files: ["index.ts"] },
        null,
        2,
      ),
    );
    write(dir, PULUMI_TSCONFIG, PULUMI_TSCONFIG_TEXT);
  },
  env: AS_USERS_RUN,
};

/** The native plugin (issue 37) is not in this checkout yet. */
function nativePluginMissing(): string | undefined {
  const plugin = path.join(__dirname, "..", "..", "provider", "native");
  return fs.existsSync(plugin)
    ? "the native plugin is in the checkout but this face is not written yet (fill `prepare`)"
    : "the native plugin (issue 37) has not landed";
}

function nativeFace(language: string): Face {
  return {
    id: `native-${language.toLowerCase()}`,
    label: `native plugin, ${language}`,
    unavailable: nativePluginMissing,
    prepare() {
      throw new Error(`the native ${language} face is not written yet`);
    },
    env: {},
  };
}

/** Hooks for the native plugin's faces: filled when the plugin lands. */
export const NATIVE_FACES: Face[] = [
  nativeFace("TypeScript"),
  nativeFace("YAML"),
  nativeFace("Python"),
];

/** Every face of the routes benchmark, in the order each round runs them. */
export const FACES: Face[] = [DYNAMIC_README, DYNAMIC_RECOMMENDED, ...NATIVE_FACES];
