/**
 * A seeded organisation's export (200 objects, IRM_EXPORT_TEST_SIZE to change it;
 * harness/orgs/seeded-org.ts) on the real engine: the first up adopts every object with
 * no write, and a second up would do nothing. What the export reads and declares:
 * tests/export/seeded.test.ts.
 */
import * as fs from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { scratchDir } from "../../harness/installed-package";
import { seedOrganisation } from "../../harness/orgs/seeded-org";
import { describeOnEngine, type EngineStack } from "../support/engine-stack";
import {
  changes,
  deployExported,
  generateProject,
  liveUids,
  stateIds,
  writes,
} from "../support/export";

const SIZE = Number(process.env.IRM_EXPORT_TEST_SIZE ?? 200);

describeOnEngine(`a seeded organisation of ${SIZE} objects, exported`, { shuffle: false }, () => {
  let emulator: TestEmulator;
  let stack: EngineStack;
  const generated = scratchDir("export-seeded-generated");

  beforeAll(async () => {
    emulator = await startTestEmulator();
    await seedOrganisation(emulator, SIZE);
    fs.rmSync(generated, { recursive: true, force: true });
    const result = await generateProject(emulator, generated);
    stack = await deployExported(emulator, generated, result, "export-seeded-stack");
  }, 300_000);

  afterAll(async () => {
    await stack?.dispose();
    await emulator?.close();
    fs.rmSync(generated, { recursive: true, force: true });
  });

  it("adopts everything with no write, then shows no changes", async () => {
    // No plan is asserted here: the first up adopts without its preview run.
    const first = await stack.up({ skipPreview: true });
    expect(first.error).toBeUndefined();
    expect(writes(await emulator.requests())).toEqual([]);
    expect(await stateIds(stack)).toEqual(await liveUids(emulator));

    // What a second up would plan, without the up: nothing, and no write.
    const second = await stack.preview({ expectNoChanges: true });
    expect(second.error).toBeUndefined();
    expect(changes(second)).toEqual([]);
    expect(writes(await emulator.requests())).toEqual([]);
  }, 400_000);

  // An edit of one declaration among them is one PATCH: tests/engine/export-adoption.test.ts
  // (a group of the exported demo) and tests/engine/github-actions.test.ts (an identity).
});
