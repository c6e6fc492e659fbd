/**
 * Issue 13 on a seeded organisation: 200 objects here (IRM_EXPORT_TEST_SIZE to change
 * it; the 1,000-object case runs in `npm run bench -- --only export`, which keeps
 * `npm test` light). Requests are at their floor: one listing per collection and page.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestFloor } from "../../exporter/index";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { seedOrganisation } from "../../harness/orgs/seeded-org";
import {
  changes,
  createExportedStack,
  type ExportedStack,
  liveUids,
  stateIds,
  typeCheck,
  writes,
} from "./support";

const SIZE = Number(process.env.IRM_EXPORT_TEST_SIZE ?? 200);

describe(`irm-export on a seeded organisation of ${SIZE} objects`, () => {
  let emulator: TestEmulator;
  let exported: ExportedStack;

  beforeAll(async () => {
    emulator = await startTestEmulator();
    await seedOrganisation(emulator, SIZE);
    exported = await createExportedStack(emulator, "export-seeded");
  }, 300_000);

  afterAll(async () => {
    await emulator?.close();
    exported?.project.remove();
  });

  it("reads with one listing per collection and page, the floor", () => {
    const { result } = exported;
    const declared = result.counts.groups + result.counts.identities + result.counts.roleBindings;
    // The seeded objects and the emulator's two identities with their bindings.
    expect(declared).toBe(SIZE + 4);
    const { group, ...listings } = result.requests;
    expect(listings).toEqual(requestFloor(result.live));
    expect(group).toBe(2);
  });

  it("gives names that repeat across departments unique, qualified resource names", () => {
    const index = exported.result.files["index.ts"];
    const names = [...index.matchAll(/new irm\.(\w+)\("([^"]+)"/g)].map((m) => `${m[1]} ${m[2]}`);
    expect(new Set(names).size).toBe(names.length);
    // `team-01` exists in every department: each is qualified by its department.
    expect(index).toMatch(/new irm\.Group\("department-\d+-team-0*1", \{/);
    expect(index).toMatch(/new irm\.Identity\("department-\d+-team-0*1-ci", \{/);
    expect(index).toMatch(/new irm\.RoleBinding\("department-\d+-team-0*1-ci-viewer", \{/);
  });

  it("type-checks, adopts everything with no write, then shows no changes", async () => {
    const checked = await typeCheck(exported.project.dir);
    expect(checked.output).toBe("");

    const first = await exported.up();
    expect(first.error).toBeUndefined();
    expect(writes(await emulator.requests())).toEqual([]);
    expect(stateIds(exported.state)).toEqual(await liveUids(emulator));

    const second = await exported.up();
    expect(second.error).toBeUndefined();
    expect(changes(second)).toEqual([]);
    expect(writes(await emulator.requests())).toEqual([]);
  }, 300_000);

  it("one description changed in the code is exactly one PATCH", async () => {
    // The first identity's declaration, edited in place like a user would.
    const index = exported.result.files["index.ts"];
    const block =
      /new irm\.Identity\("([^"]+)", \{\n(?: {2}[^\n]*\n)*? {2}description: "CI of this team",\n(?: {2}[^\n]*\n)*?\}\);/.exec(
        index,
      )!;
    const resourceName = block[1];
    expect(block[0]).toContain('description: "CI of this team",');
    exported.editProgram(
      block[0],
      block[0].replace('description: "CI of this team",', 'description: "changed",'),
    );
    const result = await exported.up();
    expect(result.error).toBeUndefined();
    expect(changes(result)).toEqual([`update ${resourceName}`]);
    const uid = exported.state.resources.find((r) => r.urn.endsWith(`::${resourceName}`))!.id;
    expect(writes(await emulator.requests())).toEqual([
      `PATCH /iam/v2beta1/identities/${uid}?updateMask=description`,
    ]);
  }, 300_000);
});
