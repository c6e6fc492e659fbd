/**
 * `examples/github-actions` on the engine: an identity pinned to a repository's main
 * branch and its binding by role name; preview, up, convergence, an update, destroy.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { writesOf } from "../../harness/request-names";
import {
  createEngineStack,
  describeOnEngine,
  type EngineStack,
  expectConverged,
  type Step,
} from "../support/engine-stack";

const describeSteps = (steps: Step[]) => steps.map((s) => `${s.op} ${s.name}`);

describeOnEngine(
  "github-actions example on the engine",
  { shuffle: false, timeout: 240_000 },
  () => {
    let emulator: TestEmulator;
    let stack: EngineStack;
    let groupUid: string;
    const groupPath = () => groupUid.replace(emulator.rootGroupUid, "ROOT");

    beforeAll(async () => {
      emulator = await startTestEmulator();
      [groupUid] = (
        await emulator.seed({ groups: [{ parentUid: emulator.rootGroupUid, name: "payments" }] })
      ).groups;
      stack = await createEngineStack({
        name: "github-actions",
        program: "github-actions",
        emulator,
        projectConfig: { groupUid },
      });
    }, 120_000);

    afterAll(async () => {
      await stack?.dispose();
      await emulator?.close();
    });

    it("previews the identity and its binding without writing", async () => {
      const preview = await stack.preview();
      expect(preview.error).toBeUndefined();
      expect(describeSteps(preview.changes).sort()).toEqual([
        "create deployer",
        "create deployer-role",
      ]);
      expect(writesOf(await stack.takeRequests())).toEqual([]);
    });

    it("creates the identity, then the binding, and converges", async () => {
      // The plan of this up is the preview of the test above.
      const result = await stack.up({ skipPreview: true });
      expect(result.error).toBeUndefined();
      expect(writesOf(await stack.takeRequests())).toEqual([
        `POST /iam/v2beta1/identities/${groupPath()} 200`,
        `POST /iam/v2beta1/roleBindings/${groupPath()} 200`,
      ]);
      const identity = (await stack.resources()).find((r) => r.name === "deployer");
      expect(identity?.outputs.claimMatch).toEqual({
        issuer: "https://token.actions.githubusercontent.com",
        subject: "repo:acme/payments:ref:refs/heads/main",
      });
      expect(await stack.outputs()).toMatchObject({
        identityUid: identity?.id,
        subject: "repo:acme/payments:ref:refs/heads/main",
      });
      await expectConverged(stack);
    });

    it("a new branch is one PATCH of the identity's subject and description", async () => {
      await stack.setConfig("branch", "release");
      const result = await stack.up();
      expect(result.error).toBeUndefined();
      expect(describeSteps(result.changes)).toEqual(["update deployer"]);
      expect(writesOf(await stack.takeRequests())).toEqual([
        "PATCH /iam/v2beta1/identities/<deployer>?updateMask=description,claim_match.subject 200",
      ]);
      await expectConverged(stack);
    });

    it("destroys the binding before the identity", async () => {
      const destroyed = await stack.destroy({ skipPreview: true });
      expect(destroyed.error).toBeUndefined();
      expect(writesOf(await stack.takeRequests())).toEqual([
        "DELETE /iam/v2beta1/roleBindings/<deployer-role> 200",
        "DELETE /iam/v2beta1/identities/<deployer> 200",
      ]);
      expect(await stack.resources()).toEqual([]);
    });
  },
);
