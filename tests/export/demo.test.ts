/**
 * Issue 13 on the demo organisation: the objects `examples/org-hierarchy` declares
 * (what `npm run demo` deploys), made through the SDK, plus a custom role and a binding
 * that uses it; exported with irm-export, and the generated project deployed by a new
 * stack. The scenarios run in order on one stack, as successive pipeline runs would.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportOrganisation } from "../../exporter/index";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { createDemoOrganisation, type DemoUids } from "../../harness/orgs/demo-org";
import {
  biomeFormat,
  changes,
  createExportedStack,
  type ExportedStack,
  liveUids,
  stateIds,
  typeCheck,
  writes,
} from "./support";

describe("irm-export on the demo organisation", () => {
  let emulator: TestEmulator;
  let demo: DemoUids;
  let exported: ExportedStack;

  beforeAll(async () => {
    emulator = await startTestEmulator();
    demo = await createDemoOrganisation(emulator);
    exported = await createExportedStack(emulator, "export-demo");
  }, 120_000);

  afterAll(async () => {
    await emulator?.close();
    exported?.project.remove();
  });

  it("reads each collection in one page, and declares every object with readable references", async () => {
    const { result } = exported;
    // One page per collection, plus the two single-item listings that find the organisation.
    expect(result.requests).toEqual({
      group: 2,
      groups: 1,
      identities: 1,
      roleBindings: 1,
      roles: 1,
    });
    // 4 groups; 3 CI identities and the emulator's 2 seeded ones; 6 + 1 + 2 seeded bindings.
    expect(result.counts).toEqual({
      groups: 4,
      identities: 5,
      roleBindings: 9,
      customRoles: 0,
      identityProviders: 0,
      accountAssociations: 0,
    });
    const index = result.files["index.ts"];
    expect(index).toContain('const platform = new irm.Group("platform", {');
    expect(index).toContain("parentUid: engineering.uid,");
    expect(index).toContain('const editorRole = irm.getRoleOutput({ name: "editor" });');
    expect(index).toContain('new irm.RoleBinding("platform-ci-editor", {');
    expect(index).toContain("identityUid: platformCi.uid,");
    // The custom role is looked up (no Role resource yet), with its definition in a comment.
    expect(index).toContain('const deployerRole = irm.getRoleOutput({ name: "deployer" });');
    expect(index).toContain(`custom role "deployer" (${demo.deployer}`);
    expect(index).toContain("groups.get, repos.list");
    // Only the root organisation is a uid literal outside `adoptUid`.
    const literals = index
      .split("\n")
      .filter((line) => /"[0-9a-f]{40}/.test(line) && !line.includes("adoptUid"));
    expect(
      literals.filter((line) => !line.trim().startsWith('"') && !line.startsWith("//")),
    ).toEqual([`const rootGroupUid = config.get("rootGroupUid") ?? "${emulator.rootGroupUid}";`]);
    for (const text of Object.values(result.files)) expect(text).not.toContain(emulator.token);
  });

  it("exports the same text again from the same organisation", async () => {
    const again = await exportOrganisation({
      dryRun: true,
      settings: { baseUrl: emulator.url, token: emulator.token },
    });
    expect(again.files).toEqual(exported.result.files);
  });

  it("type-checks against the installed package and is formatted as Biome formats it", async () => {
    const checked = await typeCheck(exported.project.dir);
    expect(checked.output).toBe("");
    expect(checked.ok).toBe(true);
    const index = exported.result.files["index.ts"];
    expect(await biomeFormat(index)).toBe(index);
  }, 60_000);

  it("first up adopts every object: no request writes anything, and state holds them all", async () => {
    const result = await exported.up();
    expect(result.error).toBeUndefined();
    expect(writes(await emulator.requests())).toEqual([]);
    // Every group, identity and binding below the root is now in the new stack's state.
    expect(stateIds(exported.state)).toEqual(await liveUids(emulator));
    expect(JSON.stringify(exported.state)).not.toContain(emulator.token);
  }, 120_000);

  it("second up shows no changes and sends no write", async () => {
    const result = await exported.up();
    expect(result.error).toBeUndefined();
    expect(changes(result)).toEqual([]);
    expect(writes(await emulator.requests())).toEqual([]);
  }, 120_000);

  it("a description changed in the generated code is exactly one PATCH", async () => {
    exported.editProgram('description: "Card and ledger services",', 'description: "Cards",');
    const result = await exported.up();
    expect(result.error).toBeUndefined();
    expect(changes(result)).toEqual(["update payments"]);
    const uid = exported.state.resources.find((r) => r.urn.endsWith("::payments"))!.id;
    expect(writes(await emulator.requests())).toEqual([
      `PATCH /iam/v2beta1/groups/${uid}?updateMask=description`,
    ]);
  }, 120_000);

  it("a group's subtree exports with its parent as config and adopts with no write", async () => {
    const subtree = await createExportedStack(emulator, "export-demo-subtree", {
      groupUid: demo.payments,
    });
    try {
      const index = subtree.result.files["index.ts"];
      // The parent, outside the program, is a config key defaulting to its uid.
      expect(index).toMatch(
        new RegExp(
          `const parentGroupUid =\\s+config\\.get\\("parentGroupUid"\\) \\?\\? "${demo.engineering}";`,
        ),
      );
      expect(index).toContain("parentUid: parentGroupUid,");
      expect(subtree.result.counts).toEqual({
        groups: 2,
        identities: 2,
        roleBindings: 2,
        customRoles: 0,
        identityProviders: 0,
        accountAssociations: 0,
      });
      const result = await subtree.up();
      expect(result.error).toBeUndefined();
      expect(writes(await emulator.requests())).toEqual([]);
      expect(stateIds(subtree.state)).toHaveLength(6);
    } finally {
      subtree.project.remove();
    }
  }, 120_000);
});
