/**
 * Upgrade and rollback across the change of provider text, on the real engine: a stack
 * made by the last release that stored the 2 KB closure-serialized text (the package
 * as commit `OLD_TEXT_RELEASE` shipped it, rebuilt and packed by the test) moves to this
 * checkout's package and back.
 *
 * - Upgrade: `preview` and `up` find nothing to do and rewrite no stored text (every
 *   resource keeps one text in its inputs and outputs); a `refresh` finds nothing changed
 *   and moves both to the short text; the next `up` keeps it.
 * - Rollback: the older package runs the short text (it only requires the runtime entry
 *   and names what that release exports): `preview`, `up`, an update, `refresh` and
 *   `destroy` all work.
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { readOrganisation } from "../../harness/org-snapshot";
import {
  createLayoutBase,
  installPackage,
  type LayoutBase,
  OLD_TEXT_RELEASE,
} from "../../harness/real-engine/install-layouts";
import { createRealEngineStack } from "../../harness/real-engine/real-stack";
import { writesOf } from "../../harness/request-names";
import type { EngineStack, StateResource } from "../../harness/stack";
import { hasRealEngine } from "../support/engine-stack";
import { groupProvider, identityProvider } from "../support/provider-texts";

const PROGRAM = path.join(__dirname, "fixtures", "provider-text");

const SHORT: Record<string, string> = {
  "pulumi-nodejs:dynamic/irm:Group": groupProvider,
  "pulumi-nodejs:dynamic/irm:Identity": identityProvider,
};

/** Each resource's stored texts, by type: [inputs, outputs]. */
function textsOf(resources: StateResource[]): Record<string, [unknown, unknown]> {
  return Object.fromEntries(
    resources.map((r) => [r.type, [r.inputs.__provider, r.outputs.__provider]]),
  );
}

describe.skipIf(!hasRealEngine())(
  "upgrade and rollback across the provider text",
  { shuffle: false },
  () => {
    let emulator: TestEmulator;
    let layouts: LayoutBase;
    let stack: EngineStack;
    let oldTexts: Record<string, [unknown, unknown]>;
    const use = (label: "old" | "current") =>
      installPackage(stack.dir, layouts.packages[label], "npm");
    const organisationUids = async () =>
      (await readOrganisation(emulator.url, emulator.token, emulator.rootGroupUid)).uids;

    beforeAll(async () => {
      emulator = await startTestEmulator();
      layouts = await createLayoutBase(inject("realEngine"), { old: OLD_TEXT_RELEASE });
      stack = await createRealEngineStack(layouts.context, {
        name: "provider-text-upgrade",
        program: PROGRAM,
        emulator,
        projectConfig: { parentUid: emulator.rootGroupUid },
      });
    }, 600_000);

    afterAll(async () => {
      await stack?.dispose();
      layouts?.remove();
      await emulator?.close();
    });

    it("the older release stores its 2 KB text, the same in inputs and outputs", async () => {
      use("old");
      const up = await stack.up({ skipPreview: true });
      expect(up.error).toBeUndefined();
      expect(up.changes.map((s) => s.op)).toEqual(["create", "create"]);
      oldTexts = textsOf(await stack.resources());
      for (const [type, [inputs, outputs]] of Object.entries(oldTexts)) {
        expect(String(inputs).length, type).toBeGreaterThan(1000);
        expect(inputs, type).toContain('require("pulumi-irm/provider/runtime")');
        expect(outputs, type).toBe(inputs);
      }
    }, 240_000);

    it("upgrade: preview and up change nothing and rewrite no stored text", async () => {
      use("current");
      // One up as users run it, previewing first (`--expect-no-changes` holds the preview
      // to no change too): its plan is what `pulumi preview` shows.
      const up = await stack.up({ expectNoChanges: true });
      expect(up.error).toBeUndefined();
      expect(up.planned).toEqual([]);
      expect(up.changes).toEqual([]);
      expect(writesOf(await stack.takeRequests())).toEqual([]);
      expect(textsOf(await stack.resources())).toEqual(oldTexts);
    }, 240_000);

    it("upgrade: refresh finds nothing changed and moves every text to the short one", async () => {
      const refresh = await stack.refresh({ expectNoChanges: true, skipPreview: true });
      expect(refresh.error).toBeUndefined();
      expect(refresh.changes).toEqual([]);
      for (const [type, texts] of Object.entries(textsOf(await stack.resources()))) {
        expect(texts, type).toEqual([SHORT[type], SHORT[type]]);
      }
      const up = await stack.up({ expectNoChanges: true, skipPreview: true });
      expect(up.error).toBeUndefined();
      for (const [type, texts] of Object.entries(textsOf(await stack.resources()))) {
        expect(texts, type).toEqual([SHORT[type], SHORT[type]]);
      }
    }, 240_000);

    it("rollback: the older release runs the short text: preview, up, update, refresh", async () => {
      use("old");
      // Previewing first, as above: the plan and the run both change nothing.
      const same = await stack.up({ expectNoChanges: true });
      expect(same.error).toBeUndefined();
      expect(same.planned).toEqual([]);
      expect(same.changes).toEqual([]);

      await stack.setConfig("description", "a team, edited");
      const update = await stack.up({ skipPreview: true });
      expect(update.error).toBeUndefined();
      expect(update.changes).toEqual([
        { op: "update", name: "team", type: "pulumi-nodejs:dynamic/irm:Group" },
      ]);
      expect(writesOf(await stack.takeRequests())).toHaveLength(1);

      const refresh = await stack.refresh({ expectNoChanges: true, skipPreview: true });
      expect(refresh.error).toBeUndefined();
    }, 240_000);

    it("rollback: the older release deletes what the newer one stored", async () => {
      const destroy = await stack.destroy({ skipPreview: true });
      expect(destroy.error).toBeUndefined();
      expect(await stack.resources()).toEqual([]);
      expect(await organisationUids()).toEqual([]);
    }, 240_000);
  },
);
