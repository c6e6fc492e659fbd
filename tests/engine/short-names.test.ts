/**
 * Names of 3 to 63 characters on the real engine: a group whose two-character name
 * predates the rule is adopted and then previews with no change, while a rename to
 * another two-character name is refused in preview, naming the field and the rule,
 * before any request writes.
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
      const up = await stack.up();
      expect(up.error).toBeUndefined();
      expect(stack.uidOf("region")).toBe(regionUid);
      expect(writesOf(await stack.takeRequests())).toEqual([]);
      await expectConverged(stack);
    });

    it("a rename to two characters is refused in preview, naming name and the rule", async () => {
      stack.editProgram('name: "eu"', 'name: "us"');
      const preview = await stack.preview();
      expect(preview.error).toBeDefined();
      expect(preview.output).toMatch(
        /property name value \{us\} has a problem: must be 3 to 63 characters, got 2/,
      );
      expect(writesOf(await stack.takeRequests())).toEqual([]);
    });
  },
);
