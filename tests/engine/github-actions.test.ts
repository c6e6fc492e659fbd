/**
 * `examples/github-actions` on the engine: an identity pinned to a repository's main
 * branch and its binding by role name; up (previewing first), convergence, an update,
 * destroy.
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

    it("up previews the identity and its binding, then creates the identity, then the binding", async () => {
      // One `pulumi up`, previewing first as users run it: its plan is the preview's.
      const result = await stack.up();
      expect(result.error).toBeUndefined();
      expect(describeSteps(result.planned ?? []).sort()).toEqual([
        "create deployer",
        "create deployer-role",
      ]);
      // The run's only writes, in order: the preview sent none.
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
    });

    it("then the stack has converged", async () => {
      await expectConverged(stack);
    });

    it("a new branch is one PATCH of the identity's subject and description", async () => {
      await stack.setConfig("branch", "release");
      // No plan is asserted: the up runs without its preview.
      const result = await stack.up({ skipPreview: true });
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
