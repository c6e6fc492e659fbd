/**
 * Upgrade of a stack holding the newer kinds, on the real engine: a stack made by the
 * first release that had all of them (`NEW_KINDS_RELEASE`, the package as that main
 * commit shipped it, rebuilt and packed by the test), with a Repo (settings and
 * README), a Subscription and an ExternalGroupRoleMapping (and its identity provider),
 * moves to this checkout's package: `preview` shows no change, `up` sends no write, and
 * `refresh` finds nothing changed.
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import {
  createLayoutBase,
  installPackage,
  type LayoutBase,
} from "../../harness/real-engine/install-layouts";
import { createRealEngineStack } from "../../harness/real-engine/real-stack";
import { writesOf } from "../../harness/request-names";
import type { EngineStack } from "../../harness/stack";
import { hasRealEngine } from "../support/engine-stack";

/** Main's first commit with Repo, Subscription and ExternalGroupRoleMapping (merge of `ops-registry`). */
const NEW_KINDS_RELEASE = "22209f24cbc28bf0f870aa12a7f4b2e66f8fb999";

const PROGRAM = path.join(__dirname, "fixtures", "new-kinds-upgrade");

const KINDS = [
  "pulumi-nodejs:dynamic/irm:Group",
  "pulumi-nodejs:dynamic/irm:Repo",
  "pulumi-nodejs:dynamic/irm:Subscription",
  "pulumi-nodejs:dynamic/irm:IdentityProvider",
  "pulumi-nodejs:dynamic/irm:ExternalGroupRoleMapping",
];

describe.skipIf(!hasRealEngine())(
  "upgrade of a stack with the newer kinds",
  { shuffle: false },
  () => {
    let emulator: TestEmulator;
    let layouts: LayoutBase;
    let stack: EngineStack;
    const use = (label: "previous" | "current") =>
      installPackage(stack.dir, layouts.packages[label], "npm");

    beforeAll(async () => {
      emulator = await startTestEmulator();
      layouts = await createLayoutBase(inject("realEngine"), { previous: NEW_KINDS_RELEASE });
      stack = await createRealEngineStack(layouts.context, {
        name: "new-kinds-upgrade",
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

    it("the earlier release makes the stack", async () => {
      use("previous");
      const up = await stack.up({ skipPreview: true });
      expect(up.error).toBeUndefined();
      expect(new Set(up.changes.map((s) => s.type))).toEqual(new Set(KINDS));
      expect(up.changes.every((s) => s.op === "create")).toBe(true);
      await stack.takeRequests();
    }, 300_000);

    it("upgrade: preview shows no change, up writes nothing, refresh finds nothing changed", async () => {
      use("current");
      const preview = await stack.preview({ expectNoChanges: true });
      expect(preview.error).toBeUndefined();
      expect(preview.changes).toEqual([]);
      // The preview just above is this up's plan.
      const up = await stack.up({ expectNoChanges: true, skipPreview: true });
      expect(up.error).toBeUndefined();
      expect(up.changes).toEqual([]);
      const refresh = await stack.refresh({ expectNoChanges: true, skipPreview: true });
      expect(refresh.error).toBeUndefined();
      expect(refresh.changes).toEqual([]);
      expect(refresh.refreshChanged).toEqual([]);
      expect(writesOf(await stack.takeRequests())).toEqual([]);
    }, 300_000);

    it("the current release deletes what the earlier one made", async () => {
      const destroy = await stack.destroy({ skipPreview: true });
      expect(destroy.error).toBeUndefined();
      expect(await stack.resources()).toEqual([]);
    }, 300_000);
  },
);
