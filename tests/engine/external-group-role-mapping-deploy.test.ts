/**
 * `ExternalGroupRoleMapping` on the engine (`fixtures/external-group-role-mapping`):
 * preview writes nothing, `up` is one POST per resource and converges, a changed outside
 * group replaces the mapping (the new one made before the old one goes), and destroy
 * deletes the mapping before its identity provider.
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { writesOf } from "../../harness/request-names";
import {
  createEngineStack,
  type EngineStack,
  expectConverged,
  hasRealEngine,
  type Step,
} from "../support/engine-stack";

const describeSteps = (steps: Step[]) => steps.map((s) => `${s.op} ${s.name}`).sort();
const ENGINE_TIMEOUT_MS = 240_000;

describe.skipIf(!hasRealEngine())(
  "ExternalGroupRoleMapping on the engine",
  { shuffle: false },
  () => {
    let emulator: TestEmulator;
    let stack: EngineStack;
    /** The seeded group, as the request log names a uid no resource holds. */
    let groupPath: string;

    beforeAll(async () => {
      emulator = await startTestEmulator();
      const [groupUid] = (
        await emulator.seed({ groups: [{ parentUid: emulator.rootGroupUid, name: "platform" }] })
      ).groups;
      groupPath = `ROOT/${groupUid.split("/")[1]}`;
      stack = await createEngineStack({
        name: "external-group-role-mapping",
        program: path.join(__dirname, "fixtures", "external-group-role-mapping"),
        emulator,
        projectConfig: { groupUid, rootUid: emulator.rootGroupUid },
      });
    }, 120_000);

    afterAll(async () => {
      await stack?.dispose();
      await emulator?.close();
    });

    it(
      "previews both resources without writing",
      async () => {
        const preview = await stack.preview();
        expect(preview.error).toBeUndefined();
        expect(describeSteps(preview.changes)).toEqual(["create sso", "create staff"]);
        expect(writesOf(await stack.takeRequests())).toEqual([]);
      },
      ENGINE_TIMEOUT_MS,
    );

    it(
      "creates each with one POST and converges",
      async () => {
        const result = await stack.up({ skipPreview: true });
        expect(result.error).toBeUndefined();
        expect(writesOf(await stack.takeRequests()).sort()).toEqual(
          [
            `POST /iam/v2beta1/identityProviders/${groupPath} 200`,
            "POST /iam/v2beta1/externalGroupRoleMappings/<sso> 200",
          ].sort(),
        );
        const staff = (await stack.resources()).find((r) => r.name === "staff");
        expect(staff?.outputs).toMatchObject({
          externalGroupId: "engineering",
          scope: emulator.rootGroupUid,
          identityProviderUid: stack.uidOf("sso"),
        });
        await expectConverged(stack);
      },
      ENGINE_TIMEOUT_MS,
    );

    it(
      "a changed outside group replaces the mapping: one POST, then one DELETE of the old",
      async () => {
        const before = stack.uidOf("staff");
        stack.editProgram(
          'externalGroupId: "engineering", // GROUP',
          'externalGroupId: "eng-all", // GROUP',
        );
        const result = await stack.up({ skipPreview: true });
        expect(result.error).toBeUndefined();
        expect(describeSteps(result.changes)).toEqual(["delete-replaced staff", "replace staff"]);
        const writes = writesOf(await stack.takeRequests());
        expect(writes).toEqual([
          "POST /iam/v2beta1/externalGroupRoleMappings/<sso> 200",
          "DELETE /iam/v2beta1/externalGroupRoleMappings/<staff> 200",
        ]);
        expect(stack.uidOf("staff")).not.toBe(before);
        await expectConverged(stack);
      },
      ENGINE_TIMEOUT_MS,
    );

    it(
      "destroys the mapping before its identity provider",
      async () => {
        const destroyed = await stack.destroy({ skipPreview: true });
        expect(destroyed.error).toBeUndefined();
        expect(writesOf(await stack.takeRequests())).toEqual([
          "DELETE /iam/v2beta1/externalGroupRoleMappings/<staff> 200",
          "DELETE /iam/v2beta1/identityProviders/<sso> 200",
        ]);
        expect(await stack.resources()).toEqual([]);
      },
      ENGINE_TIMEOUT_MS,
    );
  },
);
