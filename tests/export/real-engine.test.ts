/**
 * The generated project on the real Pulumi engine (the CLI through the Automation API,
 * tests/support/engine-stack.ts), where the CLI is available: an organisation like the
 * demo's, made through the SDK, exported with `--protect`, then previewed and deployed.
 * Skipped, with the global setup's one-line notice, on machines without the CLI; the
 * mini-engine tests (demo.test.ts, seeded.test.ts) hold the same expectations.
 */
import * as fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { scratchDir } from "../../harness/installed-package";
import { writesOf } from "../../harness/request-names";
import { IrmClient } from "../../sdk/index";
import { createEngineStack, type EngineStack, hasRealEngine } from "../support/engine-stack";
import { generateProject, liveUids } from "./support";

describe.skipIf(!hasRealEngine())("irm-export's project on the real Pulumi engine", () => {
  let emulator: TestEmulator;
  let stack: EngineStack;
  const generated = scratchDir("export-real-generated");

  beforeAll(async () => {
    emulator = await startTestEmulator();
    const client = new IrmClient({ baseUrl: emulator.url, token: emulator.token });
    const root = emulator.rootGroupUid;
    const engineering = await client.iam.groups.create(root, {
      name: "engineering",
      description: "All engineering teams",
    });
    const platform = await client.iam.groups.create(engineering.uid, {
      name: "platform",
      description: "Build and runtime infrastructure",
    });
    const ci = await client.iam.identities.create(platform.uid, {
      name: "platform-ci",
      claimMatch: {
        issuer: "https://token.actions.githubusercontent.com",
        subject: "repo:acme/platform:ref:refs/heads/main",
      },
    });
    const editor = (await client.iam.roles.list({ name: "editor" })).items[0];
    await client.iam.roleBindings.create(platform.uid, {
      identityUid: ci.uid,
      roleUid: editor.uid,
    });
    await client.close();
    fs.rmSync(generated, { recursive: true, force: true });
    await generateProject(emulator, generated, { protect: true });
    stack = await createEngineStack({ name: "export-real", program: generated, emulator });
  }, 180_000);

  afterAll(async () => {
    await stack?.dispose();
    await emulator?.close();
    fs.rmSync(generated, { recursive: true, force: true });
  });

  it("preview shows every object as a create (the adoption) and writes nothing", async () => {
    const preview = await stack.preview();
    expect(preview.error).toBeUndefined();
    // 2 groups, 3 identities and 3 bindings (the emulator seeds 2 identities and their bindings).
    expect(preview.changes).toHaveLength(8);
    expect(preview.changes.every((s) => s.op === "create")).toBe(true);
    expect(writesOf(await stack.takeRequests())).toEqual([]);
  }, 180_000);

  it("up adopts every object with no write; every one is in state, protected", async () => {
    const result = await stack.up();
    expect(result.error).toBeUndefined();
    expect(writesOf(await stack.takeRequests())).toEqual([]);
    const resources = await stack.resources();
    expect(resources.map((r) => r.id).sort()).toEqual(await liveUids(emulator));
    expect(resources.every((r) => r.protect)).toBe(true);
  }, 180_000);

  it("then nothing changes: preview and up with expectNoChanges, no write", async () => {
    const preview = await stack.preview({ expectNoChanges: true });
    expect(preview.error).toBeUndefined();
    const result = await stack.up({ expectNoChanges: true });
    expect(result.error).toBeUndefined();
    expect(result.changes).toEqual([]);
    expect(writesOf(await stack.takeRequests())).toEqual([]);
  }, 180_000);

  it("a description changed in the generated code is exactly one PATCH", async () => {
    stack.editProgram(
      'description: "Build and runtime infrastructure",',
      'description: "Builds and runtimes",',
    );
    const result = await stack.up();
    expect(result.error).toBeUndefined();
    expect(result.changes.map((s) => `${s.op} ${s.name}`)).toEqual(["update platform"]);
    expect(writesOf(await stack.takeRequests())).toEqual([
      "PATCH /iam/v2beta1/groups/<platform>?updateMask=description 200",
    ]);
  }, 180_000);
});
