/**
 * The provider text on the real engine, for every way the package reaches a program
 * (`harness/real-engine/install-layouts.ts`): npm's folder, pnpm's symlink into `.pnpm`,
 * a linked checkout, a library's dependency hoisted by npm (in a program folder whose
 * path contains the package's name). Each stores the short text of `provider/shim.ts`
 * in the inputs and outputs of every resource, and the host runs it (create, a preview
 * that finds nothing to do, delete). A package that only a library holds, out of the
 * program folder's reach, fails at registration with the fix, before any request.
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { readOrganisation } from "../../harness/org-snapshot";
import {
  createLayoutBase,
  type InstallLayout,
  installPackage,
  type LayoutBase,
} from "../../harness/real-engine/install-layouts";
import { createRealEngineStack } from "../../harness/real-engine/real-stack";
import { hasRealEngine } from "../support/engine-stack";
import { groupProvider, identityProvider } from "../support/provider-texts";

const PROGRAM = path.join(__dirname, "fixtures", "provider-text");

const TEXTS: Record<string, string> = {
  "pulumi-nodejs:dynamic/irm:Group": groupProvider,
  "pulumi-nodejs:dynamic/irm:Identity": identityProvider,
};

describe.skipIf(!hasRealEngine())("the provider text in every install layout", () => {
  let emulator: TestEmulator;
  let layouts: LayoutBase;

  beforeAll(async () => {
    emulator = await startTestEmulator();
    layouts = await createLayoutBase(inject("realEngine"));
  }, 300_000);

  afterAll(async () => {
    layouts?.remove();
    await emulator?.close();
  });

  const organisationUids = async () =>
    (await readOrganisation(emulator.url, emulator.token, emulator.rootGroupUid)).uids;

  /**
   * Each layout once; the hoisted library's runs in a folder whose path contains the
   * package's name (the package then sits in `pulumi-irm-infra-<random>/node_modules/
   * pulumi-irm`, as npm puts it in such a folder), so that case costs no run of its own.
   */
  const working: Array<{ layout: InstallLayout; folder?: string }> = [
    { layout: "npm" },
    { layout: "pnpm" },
    { layout: "linked" },
    { layout: "nested-hoisted", folder: "pulumi-irm-infra" },
  ];

  for (const { layout, folder } of working) {
    const where = folder ? `, in a folder named ${folder}` : "";
    it(`${layout}${where}: stores the short text, runs it, previews no change, deletes`, async () => {
      const stack = await createRealEngineStack(layouts.context, {
        name: folder ?? layout,
        program: PROGRAM,
        emulator,
        projectConfig: {
          parentUid: emulator.rootGroupUid,
          viaLibrary: String(layout.startsWith("nested")),
        },
      });
      try {
        if (folder) expect(path.basename(stack.dir)).toContain(folder);
        installPackage(stack.dir, layouts.packages.current, layout);
        // No preview first: its plan is not asserted; the preview below is.
        const up = await stack.up({ skipPreview: true });
        expect(up.error).toBeUndefined();
        expect(up.changes.map((s) => s.op)).toEqual(["create", "create"]);
        const resources = await stack.resources();
        expect(resources).toHaveLength(2);
        for (const resource of resources) {
          expect(resource.inputs.__provider, resource.type).toBe(TEXTS[resource.type]);
          expect(resource.outputs.__provider, resource.type).toBe(TEXTS[resource.type]);
        }
        expect((await organisationUids()).sort()).toEqual(resources.map((r) => r.id).sort());

        const preview = await stack.preview({ expectNoChanges: true });
        expect(preview.error).toBeUndefined();

        const destroy = await stack.destroy({ skipPreview: true });
        expect(destroy.error).toBeUndefined();
        expect(await organisationUids()).toEqual([]);
      } finally {
        await stack.dispose();
      }
    }, 240_000);
  }

  it("nested-only: fails at registration, naming the fix, with no request", async () => {
    const stack = await createRealEngineStack(layouts.context, {
      name: "nested-only",
      program: PROGRAM,
      emulator,
      projectConfig: { parentUid: emulator.rootGroupUid, viaLibrary: "true" },
    });
    try {
      installPackage(stack.dir, layouts.packages.current, "nested-only");
      // Without a preview first, a registration that went through would send the creates.
      const up = await stack.up({ skipPreview: true });
      expect(up.error).toMatch(/does not resolve there/);
      expect(up.error).toMatch(/Add pulumi-irm to the program's own dependencies/);
      expect(up.changes).toEqual([]);
      expect(await stack.takeRequests()).toEqual([]);
      expect(await organisationUids()).toEqual([]);
    } finally {
      await stack.dispose();
    }
  }, 240_000);
});
