/**
 * Moving a stack from the dynamic resources to the native plugin without a write: the
 * org-hierarchy stack deployed by the TypeScript program, then run by the YAML program
 * (same project, same resource names) whose resources alias their former dynamic types.
 * The engine (3.248) follows the aliases, asks the plugin's `DiffConfig` about the change
 * of provider (no replacement) and its `Diff` about each resource (no change).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { writesOf } from "../../harness/request-names";
import { createEngineStack, describeOnEngine, type EngineStack } from "../support/engine-stack";
import { yamlProgram } from "./support";

describeOnEngine(
  "moving a dynamic stack to the native plugin",
  { shuffle: false, timeout: 120_000 },
  () => {
    let emulator: TestEmulator;
    let stack: EngineStack;
    let uids: string[];

    beforeAll(async () => {
      emulator = await startTestEmulator();
      stack = await createEngineStack({
        name: "org-hierarchy",
        program: "org-hierarchy",
        emulator,
        projectConfig: { rootGroupUid: emulator.rootGroupUid },
      });
      const deployed = await stack.up({ skipPreview: true });
      expect(deployed.error).toBeUndefined();
      uids = (await stack.resources()).map((r) => r.id).sort();
      expect(uids).toHaveLength(13);
      await stack.takeRequests();
    }, 120_000);

    afterAll(async () => {
      await stack?.dispose();
      await emulator?.close();
    });

    it("with aliases to the dynamic types, up moves all 13 resources with no write and no replacement", async () => {
      fs.rmSync(path.join(stack.dir, "index.ts"));
      fs.writeFileSync(path.join(stack.dir, "Pulumi.yaml"), yamlProgram("org-hierarchy", true));
      const result = await stack.up();
      expect(result.error).toBeUndefined();
      // Planned and done alike: an update of each (its provider text leaves state), nothing else.
      for (const steps of [result.planned ?? [], result.changes]) {
        const moved = steps.filter((s) => s.type.startsWith("irm:") || s.type.includes("dynamic"));
        expect(moved).toHaveLength(13);
        expect(moved.every((s) => s.op === "update" && s.type.startsWith("irm:index:"))).toBe(true);
      }
      expect(result.output).toContain("[diff: -__provider]");
      expect(writesOf(await stack.takeRequests())).toEqual([]);
      const resources = await stack.resources();
      expect(resources.map((r) => r.id).sort()).toEqual(uids);
      expect(resources.every((r) => r.type.startsWith("irm:index:"))).toBe(true);
      expect(JSON.stringify(resources)).not.toContain("__provider");
    });

    it("the aliases can then go: nothing to do", async () => {
      fs.writeFileSync(path.join(stack.dir, "Pulumi.yaml"), yamlProgram("org-hierarchy", false));
      const preview = await stack.preview({ expectNoChanges: true, refresh: true });
      expect(preview.error).toBeUndefined();
      expect(preview.changes).toEqual([]);
      expect(preview.refreshChanged).toEqual([]);
      expect(writesOf(await stack.takeRequests())).toEqual([]);
    });
  },
);
