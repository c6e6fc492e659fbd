/**
 * The generated project on the real Pulumi engine (the CLI through the Automation API,
 * tests/support/engine-stack.ts), where the CLI is available: the demo organisation
 * (harness/orgs/demo-org.ts: groups, custom roles, an identity of every kind, identity
 * providers, an account association, role bindings, repos with and without a README,
 * event subscriptions, a group invite), exported with
 * `--protect`, then previewed and deployed with the one client secret set as the
 * generated README says. Skipped, with the global setup's one-line notice, on machines
 * without the CLI. The demo's export on the engine is proven here only (its subtree's
 * project is generated and type-checked in tests/export/); a renamed resource takes
 * its object over with no write.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExportResult } from "../../exporter/index";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { scratchDir } from "../../harness/installed-package";
import {
  createDemoOrganisation,
  DEMO_CLIENT_SECRET,
  type DemoUids,
} from "../../harness/orgs/demo-org";
import { writesOf } from "../../harness/request-names";
import type { StateResource } from "../../harness/stack";
import {
  createEngineStack,
  type EngineStack,
  expectConverged,
  hasRealEngine,
} from "../support/engine-stack";
import { changes, generateProject, liveUids } from "../support/export";

/** How many objects the generated program declares (each with `adoptUid`). */
function declaredCount({ counts }: ExportResult): number {
  return Object.values(counts).reduce((sum, n) => sum + n, 0);
}

describe.skipIf(!hasRealEngine())(
  "irm-export's project on the real Pulumi engine",
  { shuffle: false },
  () => {
    let emulator: TestEmulator;
    let demo: DemoUids;
    let exported: ExportResult;
    let stack: EngineStack;
    const generated = scratchDir("export-real-generated");

    beforeAll(async () => {
      emulator = await startTestEmulator();
      demo = await createDemoOrganisation(emulator);
      fs.rmSync(generated, { recursive: true, force: true });
      exported = await generateProject(emulator, generated, { protect: true });
      stack = await createEngineStack({
        name: "export-real",
        program: generated,
        emulator,
      });
      // What the generated README asks for: the secret the API cannot answer. (Without
      // it the program stops naming the key: tests/export/demo-organisation-export.test.ts.)
      const [sso] = exported.clientSecrets.filter((s) => s.uid === demo["acme-sso"]);
      await stack.setConfig(sso.configKey, DEMO_CLIENT_SECRET, true);
    }, 180_000);

    afterAll(async () => {
      await stack?.dispose();
      await emulator?.close();
      fs.rmSync(generated, { recursive: true, force: true });
    });

    it("up previews every object as a create (the adoption), then adopts each, protected; the only write sends the client secret once", async () => {
      // One `pulumi up`, previewing first: its plan is what `pulumi preview` shows.
      const result = await stack.up();
      expect(result.error).toBeUndefined();
      const declared = declaredCount(exported);
      expect(declared).toBe((await liveUids(emulator)).length);
      expect(result.planned).toHaveLength(declared);
      expect(result.planned?.every((s) => s.op === "create")).toBe(true);
      // The run's only write, so the preview sent none. The API never answers a client
      // secret: the one set in config is sent once. The PKCE provider's is unset, and
      // nothing else differs from what the export read.
      expect(writesOf(await stack.takeRequests())).toEqual([
        "PATCH /iam/v2beta1/identityProviders/<acme-sso>?updateMask=oidc.client_secret 200",
      ]);
      const resources = await stack.resources();
      expect(resources.map((r) => r.id).sort()).toEqual(await liveUids(emulator));
      expect(resources.every((r) => r.protect)).toBe(true);
      // The registry's kinds: the demo's repo with its README, tier and aliases, the
      // emulator's three sample repos (a tier, no README), and two subscriptions.
      expect(exported.counts.repos).toBe(4);
      expect(exported.counts.subscriptions).toBe(2);
      const tools = resources.find((r) => r.id === demo["build-tools"]);
      expect(tools?.outputs).toMatchObject({
        name: "build-tools",
        catalogTier: "CATALOG_TIER_DEVTOOLS",
        aliases: ["tools", "toolchain"],
        readme: '# build-tools\n\nPull it with `docker pull "build-tools"`.\n',
      });
      expect(
        resources.filter((r) => r.type.endsWith(":Subscription")).map((r) => r.outputs.sink),
      ).toEqual(
        expect.arrayContaining([
          "https://hooks.acme.example/irm/engineering",
          "https://audit.acme.example/events",
        ]),
      );
      // The secret is in the stack only encrypted, and the token not at all.
      expect(stack.persistedText!()).not.toContain(DEMO_CLIENT_SECRET);
      expect(stack.persistedText!()).not.toContain(emulator.token);
    }, 180_000);

    it("then converged, and a binding renamed in the program: the new name takes the binding over, the old name's delete sends nothing", async () => {
      // That the adoption converged (a drift check's refreshing preview reads every
      // object back as in state, adoptUid included, and finds nothing to do, no write)
      // is asserted at the end of this test: this up changes only the renamed binding
      // (a resource left differing from its object would be planned here too), and it
      // refreshes nothing, so what a refresh would find after the adoption it still finds.
      // The generated names are the user's to change. The new name adopts the binding
      // (its adoptUid), then the engine deletes the old name, whose state holds the same
      // uid: that delete must leave the binding to the new name. The export protected
      // every resource, so the old name is unprotected first, as a user would
      // (`pulumi state unprotect`, which runs no engine).
      const [binding] = (await stack.resources()).filter((r) => r.name === "platform-ci-editor");
      execFileSync(stack.cli.path, ["state", "unprotect", binding.urn, "--yes", "--stack", "dev"], {
        cwd: stack.dir,
        env: stack.cli.env,
        stdio: "pipe",
      });
      stack.editProgram('"platform-ci-editor"', '"ci-editor"');
      const result = await stack.up();
      expect(result.error).toBeUndefined();
      expect(changes(result).sort()).toEqual(["create ci-editor", "delete platform-ci-editor"]);
      expect(writesOf(await stack.takeRequests())).toEqual([]);
      const renamed = (await stack.resources()).filter((r) => r.id === binding.id);
      expect(renamed.map((r) => r.name)).toEqual(["ci-editor"]);
      expect(await liveUids(emulator)).toContain(binding.id);
      await expectConverged(stack);
    }, 180_000);

    it("adoptUid taken out of the program: nothing to do, the state unchanged, still converged", async () => {
      // Ignored after the adoption, as the provider's docs say: the state keeps the uid
      // each resource adopted, so a refresh still reads back what it holds.
      const file = path.join(stack.dir, "index.ts");
      const source = fs.readFileSync(file, "utf8");
      const adoptions = /^[ \t]*adoptUid:\s*"[^"]*",\n/gm;
      expect(source.match(adoptions)).toHaveLength(declaredCount(exported));
      fs.writeFileSync(file, source.replace(adoptions, ""));
      // What the provider stores, by resource (the engine may list them, and their
      // dependencies, in another order).
      const byUrn = (resources: StateResource[]) =>
        resources
          .map(({ urn, inputs, outputs }) => ({ urn, inputs, outputs }))
          .sort((x, y) => x.urn.localeCompare(y.urn));
      const before = byUrn(await stack.resources());
      const result = await stack.up();
      expect(result.error).toBeUndefined();
      expect(result.planned).toEqual([]);
      expect(result.changes).toEqual([]);
      expect(writesOf(await stack.takeRequests())).toEqual([]);
      expect(byUrn(await stack.resources())).toEqual(before);
      await expectConverged(stack);
    }, 180_000);

    it("a description changed in code and a client secret changed in config: one PATCH each", async () => {
      stack.editProgram(
        'description: "Build and runtime infrastructure",',
        'description: "Builds and runtimes",',
      );
      const [sso] = exported.clientSecrets.filter((s) => s.uid === demo["acme-sso"]);
      await stack.setConfig(sso.configKey, `${DEMO_CLIENT_SECRET}-rotated`, true);
      // Two independent changes in one up; each is checked on its own below.
      const result = await stack.up({ skipPreview: true });
      expect(result.error).toBeUndefined();
      expect(result.changes.map((s) => `${s.op} ${s.name}`).sort()).toEqual([
        "update acme-sso",
        "update platform",
      ]);
      const writes = writesOf(await stack.takeRequests()).sort();
      expect(writes).toHaveLength(2);
      // The log names uids by resource, and platform's account association has its uid.
      expect(writes[0]).toMatch(
        /^PATCH \/iam\/v2beta1\/groups\/<platform(-accounts)?>\?updateMask=description 200$/,
      );
      expect(writes[1]).toBe(
        "PATCH /iam/v2beta1/identityProviders/<acme-sso>?updateMask=oidc.client_secret 200",
      );
      expect(stack.persistedText!()).not.toContain(`${DEMO_CLIENT_SECRET}-rotated`);
      // The updates kept the uids adopted in state: a refresh reads back what it holds.
      await expectConverged(stack);
    }, 180_000);
  },
);
