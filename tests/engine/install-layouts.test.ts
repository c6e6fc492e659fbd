/**
 * The provider text for every way the package reaches a program
 * (`harness/real-engine/install-layouts.ts`): npm's folder, pnpm's symlink into `.pnpm`,
 * a linked checkout, a library's dependency hoisted by npm (in a program folder whose
 * path contains the package's name). Each stores the short text of `provider/shim.ts`
 * in the inputs of every resource, and the host runs it (create, a preview that finds
 * nothing to do, delete): through the program's registrations and the real provider
 * host in the program's folder, as the engine starts it. On the real engine, the
 * package as npm lays it out (every engine stack's, from the installed base) stores the
 * text in the inputs and outputs of every resource: tests/engine/github-actions.test.ts.
 * A package that only a library holds, out of the program folder's reach, fails at
 * registration with the fix, before any resource is registered. These tests use the
 * engine tier's installed base (the packed package) but run no engine command.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { readOrganisation } from "../../harness/org-snapshot";
import { type PropertyMap, startProviderHost } from "../../harness/provider-host";
import {
  createLayoutBase,
  type InstallLayout,
  installPackage,
  type LayoutBase,
} from "../../harness/real-engine/install-layouts";
import { hasRealEngine } from "../support/engine-stack";
import { groupProvider, identityProvider } from "../support/provider-texts";

/**
 * The declarations of fixtures/provider-text under `runtime.setMocks`, in plain
 * JavaScript: prints, as JSON on its last line, what each resource registered, or
 * `{ error }` with the message registration threw.
 */
function registerProgram(parentUid: string): string {
  return `
const pulumi = require("@pulumi/pulumi");
const registered = [];
const print = (value) => process.stdout.write(JSON.stringify(value) + "\\n");
pulumi.runtime
  .setMocks(
    {
      newResource(args) {
        registered.push({ type: args.type, name: args.name, inputs: args.inputs });
        return { id: args.name + "-id", state: args.inputs };
      },
      call: () => ({}),
    },
    "layouts",
    "dev",
    false,
  )
  .then(() => {
    const irm = process.argv[2] === "true" ? require("infra-lib").irm : require("pulumi-irm");
    const team = new irm.Group("team", { parentUid: ${JSON.stringify(parentUid)}, name: "team", description: "a team" });
    const ci = new irm.Identity("ci", {
      parentUid: team.uid,
      name: "ci-bot",
      claimMatch: {
        issuer: "https://token.actions.githubusercontent.com",
        subject: "repo:acme/team:ref:refs/heads/main",
      },
    });
    pulumi.all([team.urn, ci.urn]).apply(() => setImmediate(() => print(registered)));
  })
  .catch((error) => print({ error: String(error && error.message), registered: registered.length }));
`;
}

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

  /** A project folder below the layout base, the package in it by `layout`. */
  function layoutProject(name: string, layout: InstallLayout): string {
    const dir = fs.mkdtempSync(path.join(layouts.context.base, `${name}-`));
    installPackage(dir, layouts.packages.current, layout);
    return dir;
  }

  /**
   * Runs the fixture program's declarations (fixtures/provider-text) in `dir`, in a Node
   * process of its own as the language host runs a program, under `runtime.setMocks`:
   * what each resource registered, or the error registration threw.
   */
  function registerInFolder(
    dir: string,
    viaLibrary: boolean,
  ):
    | Array<{ type: string; name: string; inputs: PropertyMap }>
    | { error: string; registered: number } {
    fs.writeFileSync(path.join(dir, "register.js"), registerProgram(emulator.rootGroupUid));
    const output = execFileSync(process.execPath, ["register.js", String(viaLibrary)], {
      cwd: dir,
      encoding: "utf8",
    });
    return JSON.parse(output.trim().split("\n").pop() ?? "null");
  }

  /**
   * Every layout, without an engine cycle each: what the engine does with the package
   * is the same once the program has registered its resources and the host has loaded
   * the runtime, and both depend on the layout only through module resolution from the
   * program's folder. So the fixture's declarations run there under
   * `runtime.setMocks` (the texts registered), and the real provider host, started in
   * that folder as the engine starts it, runs those texts: create, the check and diff
   * of a preview that finds nothing to do, delete. The hoisted library's runs in a
   * folder whose path contains the package's name (the package then sits in
   * `pulumi-irm-infra-<random>/node_modules/pulumi-irm`, as npm puts it in such a folder).
   */
  const working: Array<{ layout: InstallLayout; folder?: string }> = [
    { layout: "npm" },
    { layout: "pnpm" },
    { layout: "linked" },
    { layout: "nested-hoisted", folder: "pulumi-irm-infra" },
  ];

  for (const { layout, folder } of working) {
    const where = folder ? `, in a folder named ${folder}` : "";
    it(`${layout}${where}: registers the short text; the provider host runs it, finds no change, deletes`, async () => {
      const dir = layoutProject(folder ?? layout, layout);
      expect(path.basename(dir)).toContain(folder ?? layout);
      const registered = registerInFolder(dir, layout.startsWith("nested"));
      if ("error" in registered) throw new Error(registered.error);
      expect(registered.map((r) => r.type)).toEqual(Object.keys(TEXTS));
      for (const resource of registered) {
        expect(resource.inputs.__provider, resource.type).toBe(TEXTS[resource.type]);
      }
      const host = await startProviderHost({ cwd: dir, projectName: "layouts" });
      try {
        await host.configure({ "irm:apiUrl": emulator.url, "irm:token": emulator.token }, [
          "irm:token",
        ]);
        const created: Array<{ urn: string; id: string; properties: PropertyMap }> = [];
        for (const { type, name, inputs } of registered) {
          const urn = `urn:pulumi:dev::layouts::${type}::${name}`;
          // The identity's parent is the group the host just created (unknown under mocks).
          const news = created.length > 0 ? { ...inputs, parentUid: created[0].id } : inputs;
          const checked = await host.check(urn, {}, news);
          expect(checked.failures).toEqual([]);
          const { id, properties } = await host.create(urn, checked.inputs);
          expect(properties.__provider, type).toBe(TEXTS[type]);
          // What a preview then does with the same program: check and diff, no change.
          const again = await host.check(urn, checked.inputs, news);
          expect((await host.diff(id, urn, properties, again.inputs)).changes).toBe("none");
          created.push({ urn, id, properties });
        }
        expect((await organisationUids()).sort()).toEqual(created.map((r) => r.id).sort());
        for (const { urn, id, properties } of created.reverse()) {
          await host.delete(id, urn, properties);
        }
        expect(await organisationUids()).toEqual([]);
      } finally {
        await host.close();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }, 120_000);
  }

  it("nested-only: registration fails naming the fix, before any resource is registered", async () => {
    const dir = layoutProject("nested-only-mocks", "nested-only");
    try {
      const registered = registerInFolder(dir, true);
      expect(registered).toEqual({
        error: expect.stringMatching(
          /does not resolve there.*Add pulumi-irm to the program's own dependencies/s,
        ),
        // Nothing reached the engine, so nothing could be sent.
        registered: 0,
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
