/**
 * The faces the routes benchmark sets side by side: one program (an organisation's teams)
 * written and set up the ways a user can run it. A face turns a copy of the program's
 * folder into a project of its kind and names the environment the CLI runs it with.
 *
 * Today: the dynamic provider from TypeScript, set up as the README said before the
 * recommended setup (`typescript: true`, one `tsconfig.json`: the program is type-checked
 * on every run), with the package's recommended setup (`tsconfig.pulumi.json` with
 * `noCheck`, so the CLI transpiles only; `npm run typecheck` checks the types), and
 * compiled to JavaScript by `tsc` (`npm run build`, outside the measured commands, as a
 * CI job runs it before `pulumi up`), run with `typescript: false`.
 *
 * The native plugin's faces (issue 37), each through the plugin folder of the installed
 * package: TypeScript on the generated Node.js SDK (recommended setup), YAML (the program
 * written out per size: YAML has no loop) and Python (`runner: "python-automation"`: the
 * Automation API's inline program, as `harness/python/` runs it). A face whose build is
 * missing (`npm run build`, `npm run sdks`) is reported as not run.
 */
import { execFileSync } from "node:child_process";
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
  /** Turns `dir` (a copy of `bench/fixtures/routes`) into this face's project of `teams` teams. */
  prepare(dir: string, teams: number): void;
  /** Edits the project as a user would: its first `edited` teams get another description. */
  edit(dir: string, teams: number, edited: number): void;
  /**
   * `python-automation`: the program is `bench/fixtures/routes-python`, run by the
   * Automation API's inline programs (`harness/python/`), not by a `pulumi` command.
   */
  runner?: "python-automation";
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
  edit: editTypeScript,
  env: AS_USERS_RUN,
};

/** The package's recommended TypeScript setup; `more` lines end the project file. */
function writeRecommendedSetup(dir: string, more: string[]): void {
  write(dir, "Pulumi.yaml", [pulumiYaml(TYPESCRIPT_RUNTIME_OPTIONS), ...more].join("\n"));
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
}

export const DYNAMIC_RECOMMENDED: Face = {
  id: "dynamic-recommended",
  label:
    "dynamic, TypeScript, the package's recommended setup (transpile only; `npm run typecheck`)",
  unavailable: () => undefined,
  prepare(dir) {
    writeRecommendedSetup(dir, []);
  },
  edit: editTypeScript,
  env: AS_USERS_RUN,
};

/**
 * `npm run build` of a compiled project: `tsc` over its `tsconfig.json` (type-checked,
 * as a user's build is), with the TypeScript the project finds (the installed base's).
 */
function buildCompiled(dir: string): void {
  const tsc = require.resolve("typescript/bin/tsc", { paths: [dir] });
  execFileSync(process.execPath, [tsc, "-p", path.join(dir, "tsconfig.json")], {
    cwd: dir,
    stdio: "pipe",
  });
}

export const DYNAMIC_COMPILED: Face = {
  id: "dynamic-compiled",
  label: "dynamic, TypeScript compiled to JavaScript (`npm run build`, then `typescript: false`)",
  unavailable: () => undefined,
  prepare(dir) {
    write(
      dir,
      "Pulumi.yaml",
      ["name: routes", "runtime:", "  name: nodejs", "  options:", "    typescript: false"].join(
        "\n",
      ),
    );
    write(
      dir,
      "package.json",
      JSON.stringify({ name: "routes", private: true, main: "bin/index.js" }, null, 2),
    );
    write(
      dir,
      "tsconfig.json",
      JSON.stringify(
        {
          compilerOptions: {
            ...COMPILER_OPTIONS,
            isolatedModules: true,
            outDir: "bin",
            sourceMap: true,
            inlineSources: true,
          },
          files: ["index.ts"],
        },
        null,
        2,
      ),
    );
    buildCompiled(dir);
  },
  edit(dir, teams, edited) {
    editTypeScript(dir, teams, edited);
    buildCompiled(dir);
  },
  env: AS_USERS_RUN,
};

/** Where a project folder (below the installed base) finds the installed package's plugin. */
const PLUGIN_PATH = "../node_modules/pulumi-irm/plugin";

/** The plugin's `plugins:` entry of a project file. */
/** The package's version: named with the plugin, the CLI keeps its schema between runs. */
const PACKAGE_VERSION = (
  JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8")) as {
    version: string;
  }
).version;
const PLUGIN_LINES = [
  "plugins:",
  "  providers:",
  "    - name: irm",
  `      path: ${PLUGIN_PATH}`,
  `      version: ${PACKAGE_VERSION}`,
];

/** The TypeScript program's edit: its first `edited` teams get another description. */
function editTypeScript(dir: string, _teams: number, edited: number): void {
  const index = path.join(dir, "index.ts");
  const text = fs.readFileSync(index, "utf8");
  const changed = text.replace("const EDITED_TEAMS = 0;", `const EDITED_TEAMS = ${edited};`);
  if (changed === text) throw new Error("routes: the program has no EDITED_TEAMS line to edit");
  fs.writeFileSync(index, changed);
}

/** A Pulumi YAML interpolation: `${expression}`. */
const ref = (expression: string) => `\${${expression}}`;

/**
 * The routes program in Pulumi YAML, which has no loop: `teams` teams written out, the
 * first `edited` with the edited description (as `bench/fixtures/routes/index.ts`).
 */
export function routesYaml(teams: number, edited: number): string {
  const lines = [
    "name: routes",
    "runtime: yaml",
    ...PLUGIN_LINES,
    "config:",
    "  teams:",
    "    type: integer",
    "  rootGroupUid:",
    "    type: string",
    "  roleUid:",
    "    type: string",
    "resources:",
  ];
  for (let team = 0; team < teams; team++) {
    const t = `team-${team}`;
    const description = team < edited ? `team ${team} (edited)` : `team ${team}`;
    lines.push(
      `  ${t}:`,
      "    type: irm:index:Group",
      "    properties:",
      `      parentUid: ${ref("rootGroupUid")}`,
      `      name: ${t}`,
      `      description: ${description}`,
      `  ${t}-services:`,
      "    type: irm:index:Group",
      "    properties:",
      `      parentUid: ${ref(`${t}.uid`)}`,
      `      name: ${t}-services`,
      `      description: services of team ${team}`,
      `  ${t}-ci:`,
      "    type: irm:index:Identity",
      "    properties:",
      `      parentUid: ${ref(`${t}.uid`)}`,
      `      name: ${t}-ci`,
      "      claimMatch:",
      "        issuer: https://token.actions.githubusercontent.com",
      `        subject: repo:acme/${t}:ref:refs/heads/main`,
      `  ${t}-ci-viewer:`,
      "    type: irm:index:RoleBinding",
      "    properties:",
      `      groupUid: ${ref(`${t}.uid`)}`,
      `      identityUid: ${ref(`${t}-ci.uid`)}`,
      `      roleUid: ${ref("roleUid")}`,
    );
  }
  return lines.join("\n");
}

/**
 * The same program as the dynamic faces, importing the generated Node.js SDK
 * (`pulumi-irm-native`, `npm run sdks`) instead of the dynamic resources.
 */
export function nativeTypeScript(program: string): string {
  const from = 'import * as irm from "pulumi-irm";';
  if (!program.includes(from)) throw new Error(`routes: the program has no \`${from}\``);
  return program.replace(from, 'import * as irm from "pulumi-irm-native";');
}

/** Why the native faces cannot run: the plugin or the generated SDK is not built. */
function nativeMissing(what: string[]): string | undefined {
  const root = path.join(__dirname, "..", "..");
  for (const file of what) {
    if (!fs.existsSync(path.join(root, file)))
      return `${file} is not built (npm run build; npm run sdks)`;
  }
  return undefined;
}

const PLUGIN_BUILT = ["dist/provider/native/main.js", "plugin/pulumi-resource-irm"];

export const NATIVE_TYPESCRIPT: Face = {
  id: "native-typescript",
  label: "native plugin, TypeScript (generated Node.js SDK, transpile only)",
  unavailable: () => nativeMissing([...PLUGIN_BUILT, "dist/sdks/nodejs/bin/index.js"]),
  prepare(dir) {
    writeRecommendedSetup(dir, PLUGIN_LINES);
    const index = path.join(dir, "index.ts");
    fs.writeFileSync(index, nativeTypeScript(fs.readFileSync(index, "utf8")));
    // The generated SDK installed in the project (the package does not ship it); it
    // finds @pulumi/pulumi where the program does (the installed base's node_modules).
    fs.cpSync(
      path.join(__dirname, "..", "..", "dist", "sdks", "nodejs", "bin"),
      path.join(dir, "node_modules", "pulumi-irm-native"),
      { recursive: true },
    );
  },
  edit: editTypeScript,
  env: AS_USERS_RUN,
};

export const NATIVE_YAML: Face = {
  id: "native-yaml",
  label: "native plugin, YAML",
  unavailable: () => nativeMissing(PLUGIN_BUILT),
  prepare(dir, teams) {
    fs.rmSync(path.join(dir, "index.ts"));
    write(dir, "Pulumi.yaml", routesYaml(teams, 0));
  },
  edit(dir, teams, edited) {
    write(dir, "Pulumi.yaml", routesYaml(teams, edited));
  },
  env: {},
};

/**
 * Python as `harness/python/` runs it (the CLI built from Go modules has no Python
 * language host): the Automation API's inline program in one driver process per stack.
 */
export const NATIVE_PYTHON: Face = {
  id: "native-python",
  label: "native plugin, Python (Automation API inline program)",
  runner: "python-automation",
  unavailable: () =>
    nativeMissing([...PLUGIN_BUILT, "dist/sdks/python/dist"]) ??
    (fs
      .readdirSync(path.join(__dirname, "..", "..", "dist", "sdks", "python", "dist"))
      .some((f) => f.endsWith(".whl"))
      ? undefined
      : "the Python SDK's wheel is not built (npm run sdks)"),
  prepare() {},
  edit(dir, _teams, edited) {
    const main = path.join(dir, "__main__.py");
    const text = fs.readFileSync(main, "utf8");
    const changed = text.replace("EDITED_TEAMS = 0", `EDITED_TEAMS = ${edited}`);
    if (changed === text) throw new Error("routes: the Python program has no EDITED_TEAMS line");
    fs.writeFileSync(main, changed);
  },
  env: {},
};

/** The native plugin's faces. */
export const NATIVE_FACES: Face[] = [NATIVE_TYPESCRIPT, NATIVE_YAML, NATIVE_PYTHON];

/** Every face of the routes benchmark, in the order each round runs them. */
export const FACES: Face[] = [
  DYNAMIC_README,
  DYNAMIC_RECOMMENDED,
  DYNAMIC_COMPILED,
  ...NATIVE_FACES,
];
