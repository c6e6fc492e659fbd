/**
 * Names of 3 to 63 characters on the real engine: a group whose two-character name
 * predates the rule is adopted as it lives and then previews with no change. A rename
 * to another two-character name is refused in preview, naming `name` and the rule,
 * before any request writes: the provider's `check` alone decides it
 * (tests/provider/name-length-check.test.ts, the adopted object's rename included),
 * and the engine prints such a failure of a top-level input as the other checks'
 * (tests/engine/new-user.test.ts, a missing parent).
 */
import * as path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { writesOf } from "../../harness/request-names";
import {
  createEngineStack,
  describeOnEngine,
  type EngineStack,
  expectConverged,
} from "../support/engine-stack";

describeOnEngine(
  "a name made before the 3 to 63 rule",
  { shuffle: false, timeout: 240_000 },
  () => {
    let emulator: TestEmulator;
    let stack: EngineStack;
    let regionUid: string;

    beforeAll(async () => {
      emulator = await startTestEmulator();
      const [parentUid] = (
        await emulator.seed({ groups: [{ parentUid: emulator.rootGroupUid, name: "regions" }] })
      ).groups;
      // Made as an earlier version let it be made: the seed control keeps the pattern only.
      [regionUid] = (
        await emulator.seed({ groups: [{ parentUid, name: "eu", description: "europe" }] })
      ).groups;
      stack = await createEngineStack({
        name: "names",
        program: path.join(__dirname, "fixtures", "names"),
        emulator,
        projectConfig: { parentUid, adoptUid: regionUid },
      });
    }, 120_000);

    afterAll(async () => {
      await stack?.dispose();
      await emulator?.close();
    });

    it("up adopts it as it lives, and the stack then previews with no change", async () => {
      // Its plan is not what this test proves: the preview with a refresh after it is.
      const up = await stack.up({ skipPreview: true });
      expect(up.error).toBeUndefined();
      expect(stack.uidOf("region")).toBe(regionUid);
      expect(writesOf(await stack.takeRequests())).toEqual([]);
      await expectConverged(stack);
    });
  },
);
