/**
 * The first programs of docs/languages.md, as written there: TypeScript previewed on
 * the real CLI and the native plugin, and type-checked against the generated Node.js
 * SDK; Python run on the generated SDK's mocks (what it registers and invokes, by the
 * schema's names); Go vetted against the generated Go SDK; YAML's types, properties,
 * functions and references checked against the plugin's schema; C#'s names against the
 * generated .NET SDK (no .NET SDK here to build it). The Python and YAML programs of
 * the same shape run on the CLI in python-org-hierarchy and yaml-matches-dynamic.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { writesOf } from "../../harness/request-names";
import { ensurePythonVenv } from "../../scripts/python/venv";
import { generateSdks, pythonWheel } from "../../scripts/sdks/generate";
import { createEngineStack, describeOnEngine } from "../support/engine-stack";

const REPO = path.resolve(__dirname, "..", "..");
const PAGE = fs.readFileSync(path.join(REPO, "docs", "languages.md"), "utf8");
const SCRATCH = path.join(REPO, ".tmp", "native", "languages-doc");

/** The one fenced block of `lang` under "## The first program". */
function program(lang: string): string {
  const section = PAGE.split(/^## The first program$/m)[1]?.split(/^## /m)[0] ?? "";
  const blocks = [...section.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].filter((m) => m[1] === lang);
  expect(blocks, `one ${lang} block in docs/languages.md`).toHaveLength(1);
  return blocks[0][2];
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(command, args, {
    cwd,
    env: { ...process.env, ...env },
    encoding: "utf8",
  });
  if (result.error) throw result.error;
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

function scratch(name: string): string {
  const dir = path.join(SCRATCH, name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

// biome-ignore lint/suspicious/noExplicitAny: a parsed schema and YAML document, walked by key
type Json = Record<string, any>;
let schema: Json;
let sdks: string;

beforeAll(() => {
  sdks = generateSdks().out;
  schema = JSON.parse(fs.readFileSync(path.join(REPO, "dist", "plugin", "schema.json"), "utf8"));
}, 600_000);

describe("docs/languages.md: the first program", () => {
  it("TypeScript type-checks against the generated Node.js SDK", () => {
    const dir = scratch("typescript");
    fs.writeFileSync(path.join(dir, "index.ts"), program("typescript"));
    fs.mkdirSync(path.join(dir, "node_modules"));
    fs.symlinkSync(
      path.join(sdks, "nodejs", "bin"),
      path.join(dir, "node_modules", "pulumi-irm-native"),
    );
    const tsc = path.join(REPO, "node_modules", "typescript", "bin", "tsc");
    const checked = run(
      process.execPath,
      [
        tsc,
        "--noEmit",
        "--strict",
        "--skipLibCheck",
        "--module",
        "nodenext",
        "--target",
        "es2022",
        "index.ts",
      ],
      dir,
    );
    expect(checked.output).toBe("");
    expect(checked.status).toBe(0);
  });

  it("Go vets against the generated Go SDK", () => {
    const dir = scratch("go");
    fs.writeFileSync(path.join(dir, "main.go"), program("go"));
    fs.writeFileSync(
      path.join(dir, "go.mod"),
      [
        "module first-irm",
        "",
        "go 1.22",
        "",
        "require github.com/pulumi-irm/sdk/go/irm v0.0.0",
        `replace github.com/pulumi-irm/sdk/go/irm => ${path.join(sdks, "go", "irm")}`,
        "",
      ].join("\n"),
    );
    const env = { GOFLAGS: "-mod=mod", GOWORK: "off", GOTOOLCHAIN: "local", GOSUMDB: "off" };
    const tidy = run("go", ["mod", "tidy"], dir, env);
    expect(tidy.status, tidy.output).toBe(0);
    const vet = run("go", ["vet", "."], dir, env);
    expect(vet.output).toBe("");
    expect(vet.status).toBe(0);
  });

  it("YAML names the schema's types, inputs, functions and outputs", () => {
    const venv = ensurePythonVenv();
    const parsed = spawnSync(
      venv.python,
      ["-c", "import json, sys, yaml; print(json.dumps(yaml.safe_load(sys.stdin)))"],
      { input: program("yaml"), encoding: "utf8" },
    );
    expect(parsed.status, parsed.stderr).toBe(0);
    const doc: Json = JSON.parse(parsed.stdout);
    expect(doc.runtime).toBe("yaml");
    const outputsOf: Record<string, Json> = {};
    for (const [name, resource] of Object.entries<Json>(doc.resources)) {
      const spec = schema.resources[resource.type];
      expect(spec, resource.type).toBeDefined();
      expect(Object.keys(spec.inputProperties)).toEqual(
        expect.arrayContaining(Object.keys(resource.properties)),
      );
      expect(Object.keys(resource.properties)).toEqual(
        expect.arrayContaining(spec.requiredInputs ?? []),
      );
      outputsOf[name] = spec.properties;
    }
    for (const [name, variable] of Object.entries<Json>(doc.variables)) {
      const invoke = variable["fn::invoke"];
      const spec = schema.functions[invoke.function];
      expect(spec, invoke.function).toBeDefined();
      expect(Object.keys(spec.inputs.properties)).toEqual(
        expect.arrayContaining(Object.keys(invoke.arguments)),
      );
      outputsOf[name] = spec.outputs.properties;
    }
    // Each interpolation names what the program declares; a config value given to an
    // input has the input's type.
    const declared = new Set([
      ...Object.keys(doc.config ?? {}),
      ...Object.keys(doc.resources),
      ...Object.keys(doc.variables),
    ]);
    const references = [...JSON.stringify(doc).matchAll(/\$\{(\w+)/g)].map((m) => m[1]);
    expect(references).toContain("rootGroupUid");
    for (const name of references) expect(declared.has(name), `\${${name}}`).toBe(true);
    for (const resource of Object.values<Json>(doc.resources)) {
      for (const [input, value] of Object.entries<unknown>(resource.properties)) {
        const key = /^\$\{(\w+)\}$/.exec(String(value))?.[1];
        if (key === undefined || !(key in (doc.config ?? {}))) continue;
        expect(doc.config[key].type, `${key} for ${input}`).toBe(
          schema.resources[resource.type].inputProperties[input].type,
        );
      }
    }
    for (const value of Object.values<string>(doc.outputs)) {
      const [, name, property] = /^\$\{(\w+)\.(\w+)\}$/.exec(value) ?? [];
      expect(outputsOf[name], value).toHaveProperty(property);
    }
  });

  it("Python registers the schema's group and invokes its getRole, exporting both uids", () => {
    const venv = ensurePythonVenv();
    const dir = scratch("python");
    fs.writeFileSync(path.join(dir, "__main__.py"), program("python"));
    // The Python SDK's mocks stand in for the engine: the program runs as it would
    // under `pulumi preview`, and says what it registers with the names the wire uses.
    const ran = run(
      venv.python,
      [
        path.join(REPO, "harness", "python", "mock_run.py"),
        path.join(dir, "__main__.py"),
        "first-irm",
      ],
      dir,
      {
        PYTHONPATH: pythonWheel(sdks),
        PULUMI_CONFIG: JSON.stringify({ "first-irm:rootGroupUid": "root-group" }),
      },
    );
    expect(ran.status, ran.output).toBe(0);
    const { calls, exports } = JSON.parse(
      ran.output.split("\n").find((l) => l.startsWith("{")) ?? "{}",
    );
    const group = schema.resources["irm:index:Group"];
    const getRole = schema.functions["irm:index:getRole"];
    expect(calls).toEqual(
      expect.arrayContaining([
        {
          resource: "irm:index:Group",
          name: "team",
          inputs: { parentUid: "root-group", name: "team", description: "Managed with Pulumi" },
        },
        { call: "irm:index:getRole", args: { name: "viewer" } },
      ]),
    );
    expect(calls).toHaveLength(2);
    expect(Object.keys(group.inputProperties)).toEqual(
      expect.arrayContaining(["parentUid", "name", "description"]),
    );
    expect(Object.keys(getRole.inputs.properties)).toContain("name");
    expect(group.properties).toHaveProperty("uid");
    expect(getRole.outputs.properties).toHaveProperty("uid");
    expect(exports).toEqual({ teamUid: "team-uid", viewerRole: "getRole-uid" });
  });

  it("C# names the generated .NET SDK's namespace, classes and members", () => {
    const csharp = program("csharp");
    const dotnet = path.join(sdks, "dotnet");
    const namespace = /using Irm = ([\w.]+);/.exec(csharp)?.[1];
    const group = fs.readFileSync(path.join(dotnet, "Group.cs"), "utf8");
    const getRole = fs.readFileSync(path.join(dotnet, "GetRole.cs"), "utf8");
    expect(group).toContain(`namespace ${namespace}`);
    expect(group).toContain("public partial class Group : global::Pulumi.CustomResource");
    for (const member of ["ParentUid", "Name", "Description"]) {
      expect(csharp).toContain(`${member} = `);
      expect(group).toMatch(new RegExp(`public Input<string>\\?? ${member} `));
    }
    expect(group).toContain("public Output<string> Uid ");
    expect(getRole).toContain("public static Output<GetRoleResult> Invoke(GetRoleInvokeArgs args");
    expect(getRole).toMatch(/public readonly string\?? Uid;/);
  });
});

describeOnEngine(
  "docs/languages.md: the TypeScript program on the CLI",
  { timeout: 120_000 },
  () => {
    let emulator: TestEmulator;

    beforeAll(async () => {
      emulator = await startTestEmulator();
    });

    afterAll(async () => {
      await emulator?.close();
    });

    it("TypeScript on the native plugin previews one group to create, reading only", async () => {
      const programDir = scratch("typescript-engine");
      fs.writeFileSync(path.join(programDir, "index.ts"), program("typescript"));
      fs.writeFileSync(
        path.join(programDir, "Pulumi.yaml"),
        [
          "name: first-irm-ts",
          "runtime:",
          "  name: nodejs",
          "  options:",
          "    typescript: true",
          "plugins:",
          "  providers:",
          "    - name: irm",
          "      path: ../node_modules/pulumi-irm/plugin",
          "",
        ].join("\n"),
      );
      const stack = await createEngineStack({
        name: "first-irm-ts",
        program: programDir,
        emulator,
        projectConfig: { rootGroupUid: emulator.rootGroupUid },
      });
      try {
        // The generated SDK installed in the project; it finds @pulumi/pulumi where the
        // program does (the installed base's node_modules).
        fs.cpSync(
          path.join(sdks, "nodejs", "bin"),
          path.join(stack.dir, "node_modules", "pulumi-irm-native"),
          { recursive: true },
        );
        await emulator.clearRequests();
        const preview = await stack.preview();
        expect(preview.error).toBeUndefined();
        expect(preview.changes.map((step) => `${step.op} ${step.name}`)).toEqual(["create team"]);
        expect(writesOf(await stack.takeRequests())).toEqual([]);
      } finally {
        await stack.dispose();
      }
    });
  },
);
