/**
 * A TypeScript program run as compiled JavaScript, on the real CLI, set up as
 * docs/provider.md ("A fast start") shows: `tsc` builds `bin/` (with source maps that
 * hold the sources, `inlineSources`), the CLI runs `bin/index.js` (`main` of
 * package.json) with `typescript: false`. A forgotten build is refused at the program's
 * first resource, in preview as at `up`, before any request, naming the compiled file,
 * its source and the command (`provider/fresh-build.ts`); built again, `up` deploys the
 * edit.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { PROJECT_COMPILER_OPTIONS } from "../../exporter/project";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { writesOf } from "../../harness/request-names";
import { createEngineStack, describeOnEngine, type EngineStack } from "../support/engine-stack";

/** The project's files but the program, as the docs show them. */
const SETUP: Record<string, string> = {
  "Pulumi.yaml": [
    "name: compiled",
    "runtime:",
    "  name: nodejs",
    "  options:",
    "    typescript: false",
    "",
  ].join("\n"),
  "package.json": `${JSON.stringify({ name: "compiled", private: true, main: "bin/index.js", scripts: { build: "tsc" } }, null, 2)}\n`,
  // The project irm-export writes, built with the sources in its maps.
  "tsconfig.json": `${JSON.stringify(
    {
      compilerOptions: { ...PROJECT_COMPILER_OPTIONS, inlineSources: true },
      files: ["index.ts"],
    },
    null,
    2,
  )}\n`,
};

const run = promisify(execFile);

const PROGRAM = [
  'import * as pulumi from "@pulumi/pulumi";',
  'import * as irm from "pulumi-irm";',
  "",
  'const root = new pulumi.Config().require("rootGroupUid");',
  'export const team = new irm.Group("team", { parentUid: root, name: "team", description: "first" }).uid;',
  "",
].join("\n");

describeOnEngine(
  "a program run as compiled JavaScript",
  { shuffle: false, timeout: 300_000 },
  () => {
    let emulator: TestEmulator;
    let stack: EngineStack;
    let source: string;

    /**
     * `npm run build` of the project: `tsc` over its tsconfig.json, found from the project.
     * Asynchronous: the test's emulator answers from this process's event loop.
     */
    async function build(): Promise<void> {
      const tsc = require.resolve("typescript/bin/tsc", { paths: [stack.dir] });
      const { stdout, stderr } = await run(process.execPath, [tsc, "-p", "tsconfig.json"], {
        cwd: stack.dir,
      });
      expect(stdout + stderr).toBe("");
    }

    beforeAll(async () => {
      emulator = await startTestEmulator();
      source = fs.mkdtempSync(path.join(os.tmpdir(), "irm-compiled-start-"));
      for (const [file, text] of Object.entries(SETUP))
        fs.writeFileSync(path.join(source, file), text);
      fs.writeFileSync(path.join(source, "index.ts"), PROGRAM);
      stack = await createEngineStack({
        name: "compiled",
        program: source,
        emulator,
        projectConfig: { rootGroupUid: emulator.rootGroupUid },
      });
      // The harness drops a copied manifest; this one only names the compiled entry (the
      // installed base's node_modules, found by walking up, serves the program).
      fs.writeFileSync(path.join(stack.dir, "package.json"), SETUP["package.json"]);
    }, 300_000);

    afterAll(async () => {
      await stack?.dispose();
      await emulator?.close();
      if (source) fs.rmSync(source, { recursive: true, force: true });
    });

    it("built, up runs bin/index.js and creates the group", async () => {
      await build();
      expect(fs.existsSync(path.join(stack.dir, "bin", "index.js"))).toBe(true);
      const up = await stack.up();
      expect(up.error).toBeUndefined();
      expect(up.changes.map((step) => [step.op, step.name])).toEqual([["create", "team"]]);
    });

    it("edited and not built again, preview and up stop at the first resource, before any request", async () => {
      stack.editProgram('description: "first"', 'description: "second"');
      for (const run of [await stack.preview(), await stack.up()]) {
        expect(run.error).toBeDefined();
        expect(run.output).toContain(
          "pulumi-irm: the program runs bin/index.js, compiled before the last change of index.ts: " +
            "build it again (`npm run build`), then run pulumi again.",
        );
        expect(run.changes).toEqual([]);
        expect(writesOf(await stack.takeRequests())).toEqual([]);
      }
      const [group] = await stack.resources();
      expect(group.outputs.description).toBe("first");
    });

    it("built again, up deploys the edit", async () => {
      await build();
      const up = await stack.up();
      expect(up.error).toBeUndefined();
      expect(up.changes.map((step) => [step.op, step.name])).toEqual([["update", "team"]]);
      const [group] = await stack.resources();
      expect(group.outputs.description).toBe("second");
    });
  },
);
