/**
 * Upgrade and rollback across releases, on the real engine, as one stack's history:
 *
 * - The last release that stored the 2 KB closure-serialized provider text (the package
 *   as commit `OLD_TEXT_RELEASE` shipped it, rebuilt and packed by the test) makes a
 *   group and an identity; the first release that had the newer kinds
 *   (`NEW_KINDS_RELEASE`) adds a Repo (settings and README), a Subscription and an
 *   ExternalGroupRoleMapping (and its identity provider).
 * - Upgrade to this checkout's package, preview-first as users run it: `up` previews
 *   no change and writes nothing, and rewrites no stored text (every resource keeps one
 *   text in its inputs and outputs); a `refresh` finds nothing changed and moves the
 *   old texts to the short one; the next `up` keeps it. This release deletes the newer
 *   kinds the earlier one made.
 * - Rollback: the oldest package runs the short text (it only requires the runtime
 *   entry and names what that release exports): `preview`, `up`, an update, `refresh`
 *   and `destroy` all work.
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

/** Main's first commit with Repo, Subscription and ExternalGroupRoleMapping (merge of `ops-registry`). */
const NEW_KINDS_RELEASE = "22209f24cbc28bf0f870aa12a7f4b2e66f8fb999";

/** A group and an identity; with `newKinds`, one of each newer kind. */
const PROGRAM = path.join(__dirname, "fixtures", "provider-text");

const GROUP = "pulumi-nodejs:dynamic/irm:Group";
const IDENTITY = "pulumi-nodejs:dynamic/irm:Identity";
const SHORT: Record<string, string> = { [GROUP]: groupProvider, [IDENTITY]: identityProvider };

/** The kinds `NEW_KINDS_RELEASE` added, as the program declares them. */
const NEW_KINDS = [
  "pulumi-nodejs:dynamic/irm:Repo",
  "pulumi-nodejs:dynamic/irm:Subscription",
  "pulumi-nodejs:dynamic/irm:IdentityProvider",
  "pulumi-nodejs:dynamic/irm:ExternalGroupRoleMapping",
];
const NEW_KIND_NAMES = ["hooks", "sso", "staff", "web"];

/** Each resource's stored texts, by type: [inputs, outputs]. */
function textsOf(resources: StateResource[]): Record<string, [unknown, unknown]> {
  return Object.fromEntries(
    resources.map((r) => [r.type, [r.inputs.__provider, r.outputs.__provider]]),
  );
}

/** The stored texts of the group and the identity (what the oldest release made). */
const oldestKinds = (resources: StateResource[]) =>
  textsOf(resources.filter((r) => r.type === GROUP || r.type === IDENTITY));

describe.skipIf(!hasRealEngine())(
  "upgrade and rollback across releases",
  { shuffle: false },
  () => {
    let emulator: TestEmulator;
    let layouts: LayoutBase;
    let stack: EngineStack;
    let oldTexts: Record<string, [unknown, unknown]>;
    const use = (label: "old" | "previous" | "current") =>
      installPackage(stack.dir, layouts.packages[label], "npm");
    const organisationUids = async () =>
      (await readOrganisation(emulator.url, emulator.token, emulator.rootGroupUid)).uids;

    beforeAll(async () => {
      emulator = await startTestEmulator();
      layouts = await createLayoutBase(inject("realEngine"), {
        old: OLD_TEXT_RELEASE,
        previous: NEW_KINDS_RELEASE,
      });
      stack = await createRealEngineStack(layouts.context, {
        name: "release-upgrade",
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
      expect(Object.keys(oldTexts).sort()).toEqual([GROUP, IDENTITY]);
      for (const [type, [inputs, outputs]] of Object.entries(oldTexts)) {
        expect(String(inputs).length, type).toBeGreaterThan(1000);
        expect(inputs, type).toContain('require("pulumi-irm/provider/runtime")');
        expect(outputs, type).toBe(inputs);
      }
    }, 240_000);

    it("the first release with the newer kinds makes one of each, keeping the older texts", async () => {
      use("previous");
      await stack.setConfig("newKinds", "true");
      const up = await stack.up({ skipPreview: true });
      expect(up.error).toBeUndefined();
      expect(new Set(up.changes.map((s) => s.type))).toEqual(new Set(NEW_KINDS));
      expect(up.changes.every((s) => s.op === "create")).toBe(true);
      expect(oldestKinds(await stack.resources())).toEqual(oldTexts);
      await stack.takeRequests();
    }, 240_000);

    it("upgrade: up previews no change, changes nothing, writes nothing and rewrites no stored text", async () => {
      use("current");
      // One up as users run it, previewing first (`--expect-no-changes` holds the preview
      // to no change too): its plan is what `pulumi preview` shows.
      const up = await stack.up({ expectNoChanges: true });
      expect(up.error).toBeUndefined();
      expect(up.planned).toEqual([]);
      expect(up.changes).toEqual([]);
      expect(writesOf(await stack.takeRequests())).toEqual([]);
      expect(oldestKinds(await stack.resources())).toEqual(oldTexts);
    }, 240_000);

    it("upgrade: refresh finds nothing changed, and moves the old texts to the short one", async () => {
      const refresh = await stack.refresh({ expectNoChanges: true, skipPreview: true });
      expect(refresh.error).toBeUndefined();
      expect(refresh.changes).toEqual([]);
      // The newer kinds read back exactly as stored (their text was already this
      // release's); the group and the identity only have their text moved.
      expect(refresh.refreshChanged.filter((name) => NEW_KIND_NAMES.includes(name))).toEqual([]);
      expect(writesOf(await stack.takeRequests())).toEqual([]);
      for (const [type, texts] of Object.entries(oldestKinds(await stack.resources()))) {
        expect(texts, type).toEqual([SHORT[type], SHORT[type]]);
      }
      const up = await stack.up({ expectNoChanges: true, skipPreview: true });
      expect(up.error).toBeUndefined();
      for (const [type, texts] of Object.entries(oldestKinds(await stack.resources()))) {
        expect(texts, type).toEqual([SHORT[type], SHORT[type]]);
      }
    }, 240_000);

    it("the current release deletes the newer kinds the earlier one made", async () => {
      await stack.setConfig("newKinds", "false");
      const up = await stack.up({ skipPreview: true });
      expect(up.error).toBeUndefined();
      expect(up.changes.map((s) => `${s.op} ${s.name}`).sort()).toEqual(
        NEW_KIND_NAMES.map((name) => `delete ${name}`),
      );
      expect((await stack.resources()).map((r) => r.type).sort()).toEqual([GROUP, IDENTITY]);
      await stack.takeRequests();
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
      expect(update.changes).toEqual([{ op: "update", name: "team", type: GROUP }]);
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
