/**
 * `examples/github-actions` on the engine: an identity pinned to a repository's main
 * branch and its binding by role name; up (previewing first), convergence, an update,
 * destroy. The package is installed as npm lays it out (the installed base's plain
 * `node_modules/pulumi-irm`): each resource stores the short provider text of its type
 * in its inputs and outputs, which the provider host runs through the whole cycle (the
 * other install layouts: tests/engine/install-layouts.test.ts). The token comes from
 * `IRM_TOKEN`, as in a CI job, with the provider's debug log on (`IRM_DEBUG=1`): it is
 * in no run's output, state or file on disk (the token as the Pulumi secret
 * `irm:token`: tests/engine/options.test.ts; a refused one: tests/engine/new-user.test.ts).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { writesOf } from "../../harness/request-names";
import {
  createEngineStack,
  describeOnEngine,
  type EngineStack,
  expectConverged,
  type RunOutcome,
  type Step,
} from "../support/engine-stack";
import { expectNoSecret } from "../support/no-secret";
import { identityProvider, roleBindingProvider } from "../support/provider-texts";

const describeSteps = (steps: Step[]) => steps.map((s) => `${s.op} ${s.name}`);

/** The short text of `provider/shim.ts` each type stores. */
const TEXTS: Record<string, string> = {
  "pulumi-nodejs:dynamic/irm:Identity": identityProvider,
  "pulumi-nodejs:dynamic/irm:RoleBinding": roleBindingProvider,
};

describeOnEngine(
  "github-actions example on the engine",
  { shuffle: false, timeout: 240_000 },
  () => {
    let emulator: TestEmulator;
    let stack: EngineStack;
    let groupUid: string;
    /** The token the provider reads from `IRM_TOKEN`, and every run so far. */
    let token: string;
    const runs: RunOutcome[] = [];
    const groupPath = () => groupUid.replace(emulator.rootGroupUid, "ROOT");

    beforeAll(async () => {
      emulator = await startTestEmulator();
      [groupUid] = (
        await emulator.seed({ groups: [{ parentUid: emulator.rootGroupUid, name: "payments" }] })
      ).groups;
      const owner = JSON.parse(
        Buffer.from(emulator.token.split(".")[1], "base64url").toString("utf8"),
      ).sub as string;
      token = await emulator.mintToken(owner, 3600);
      stack = await createEngineStack({
        name: "github-actions",
        program: "github-actions",
        emulator,
        projectConfig: { groupUid },
        env: { IRM_TOKEN: token, IRM_DEBUG: "1" },
        tokenFromEnv: true,
      });
    }, 120_000);

    afterAll(async () => {
      await stack?.dispose();
      await emulator?.close();
    });

    it("up previews the identity and its binding, then creates the identity, then the binding", async () => {
      // Some 503s, so that the debug log has retries to report.
      await emulator.fault({ match: { method: "GET" }, status: 503, count: 2 });
      // One `pulumi up`, previewing first as users run it: its plan is the preview's.
      const result = await stack.up();
      runs.push(result);
      expect(result.error, result.output).toBeUndefined();
      expect(describeSteps(result.planned ?? []).sort()).toEqual([
        "create deployer",
        "create deployer-role",
      ]);
      // The run's only writes, in order: the preview sent none.
      expect(writesOf(await stack.takeRequests())).toEqual([
        `POST /iam/v2beta1/identities/${groupPath()} 200`,
        `POST /iam/v2beta1/roleBindings/${groupPath()} 200`,
      ]);
      const resources = await stack.resources();
      expect(resources.map((r) => r.type).sort()).toEqual(Object.keys(TEXTS));
      for (const resource of resources) {
        expect(resource.inputs.__provider, resource.type).toBe(TEXTS[resource.type]);
        expect(resource.outputs.__provider, resource.type).toBe(TEXTS[resource.type]);
      }
      expectNoSecret(token, { "state (stack export)": JSON.stringify(resources) });
      const identity = resources.find((r) => r.name === "deployer");
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
      runs.push(await expectConverged(stack));
    });

    it("a new branch is one PATCH of the identity's subject and description", async () => {
      await stack.setConfig("branch", "release");
      // No plan is asserted: the up runs without its preview.
      const result = await stack.up({ skipPreview: true });
      runs.push(result);
      expect(result.error).toBeUndefined();
      expect(describeSteps(result.changes)).toEqual(["update deployer"]);
      expect(writesOf(await stack.takeRequests())).toEqual([
        "PATCH /iam/v2beta1/identities/<deployer>?updateMask=description,claim_match.subject 200",
      ]);
      runs.push(await expectConverged(stack));
    });

    it("destroys the binding before the identity", async () => {
      const destroyed = await stack.destroy({ skipPreview: true });
      runs.push(destroyed);
      expect(destroyed.error).toBeUndefined();
      expect(writesOf(await stack.takeRequests())).toEqual([
        "DELETE /iam/v2beta1/roleBindings/<deployer-role> 200",
        "DELETE /iam/v2beta1/identities/<deployer> 200",
      ]);
      expect(await stack.resources()).toEqual([]);
    });

    it("kept the token from IRM_TOKEN out of every run's output, state and files", async () => {
      // The provider host's debug log reached the engine's output: what is checked is real.
      expect(runs[0].output).toMatch(/retry/i);
      // The provider was handed the token from the environment: the stack's settings
      // hold no irm:token key (the example's README, copied with it, names the key).
      expect(stack.persistedText()).not.toMatch(/^\s*irm:token:/m);
      expectNoSecret(token, {
        "the runs' output and events": runs.map((run) => run.output).join("\n"),
        "the runs' errors": runs.map((run) => run.error ?? "").join("\n"),
        "state, backups, history, logs and config on disk": stack.persistedText(),
      });
    });
  },
);
