/**
 * What the engine adds around the provider: its parallelism (default and `parallel: 1`),
 * resource options (`retainOnDelete`, `protect`), policy packs through `--policy-pack`,
 * and secret configuration: the token set as the Pulumi secret `irm:token` is in no
 * run's output (the provider host's debug log, `IRM_DEBUG=1`, included), state, serialized
 * provider or file on disk. One stack of `fixtures/options`, runs in order. The token as
 * `IRM_TOKEN`: tests/engine/github-actions.test.ts.
 */
import * as path from "node:path";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { writesOf } from "../../harness/request-names";
import {
  createEngineStack,
  describeOnEngine,
  type EngineStack,
  type RunOutcome,
  type Step,
} from "../support/engine-stack";
import { expectNoSecret } from "../support/no-secret";

const describeSteps = (steps: Step[]) => steps.map((s) => `${s.op} ${s.name}`).sort();
const LATENCY_MS = 400;
/**
 * How long each create is held in the overlap case: all six must arrive before the first
 * could be answered, and on two loaded cores the engine has been seen to take 630 ms to
 * send six independent creates; a run one at a time would take five times this.
 */
const OVERLAP_LATENCY_MS = 2000;

describeOnEngine(
  "engine options, parallelism, policies and secrets",
  { shuffle: false, timeout: 240_000 },
  () => {
    let emulator: TestEmulator;
    let stack: EngineStack;
    let parentUid: string;
    /** The runs so far, whose events must not show the token. */
    const runs: RunOutcome[] = [];
    /** The retained group, once it has left the stack. */
    let keptUid = "";

    const exists = async (uid: string) =>
      (
        await fetch(`${emulator.url}/iam/v2beta1/groups/${uid}`, {
          headers: { authorization: `Bearer ${emulator.token}` },
        })
      ).status === 200;

    /** Arrival times (ms) of the group creates in the request log, in order. */
    async function createArrivals(): Promise<number[]> {
      const entries = await emulator.requests();
      await emulator.clearRequests();
      return entries
        .filter((e) => e.method === "POST" && e.path.startsWith("/iam/v2beta1/groups/"))
        .map((e) => Date.parse(e.time))
        .sort((a, b) => a - b);
    }

    beforeAll(async () => {
      emulator = await startTestEmulator();
      [parentUid] = (
        await emulator.seed({ groups: [{ parentUid: emulator.rootGroupUid, name: "options" }] })
      ).groups;
      stack = await createEngineStack({
        name: "options",
        program: path.join(__dirname, "fixtures", "options"),
        emulator,
        projectConfig: { parentUid, teams: "6" },
        env: { IRM_DEBUG: "1" },
      });
    }, 120_000);

    afterAll(async () => {
      await stack?.dispose();
      await emulator?.close();
    });

    it("with parallel: 1 the engine creates one object at a time", async () => {
      await emulator.fault({
        match: { method: "POST", path: "/iam/v2beta1/groups/" },
        latencyMs: LATENCY_MS,
        count: 0,
      });
      // The plan is not what this test proves; the order of the creates is.
      const result = await stack.up({ parallel: 1, skipPreview: true });
      runs.push(result);
      expect(result.error).toBeUndefined();
      expect(result.changes).toHaveLength(8);
      const arrivals = await createArrivals();
      expect(arrivals).toHaveLength(8);
      for (let i = 1; i < arrivals.length; i++) {
        expect(arrivals[i] - arrivals[i - 1]).toBeGreaterThanOrEqual(LATENCY_MS - 5);
      }
    });

    it("with the engine's default parallelism independent creates overlap, and the outcome is the same", async () => {
      await emulator.clearFaults();
      // Replace the teams (not the protected or retained groups): rename their resources.
      stack.editProgram("new irm.Group(`team-", "new irm.Group(`squad-");
      await emulator.fault({
        match: { method: "POST", path: "/iam/v2beta1/groups/" },
        latencyMs: OVERLAP_LATENCY_MS,
        count: 0,
      });
      const result = await stack.up({ skipPreview: true });
      runs.push(result);
      expect(result.error).toBeUndefined();
      expect(describeSteps(result.changes)).toEqual(
        [
          ...[0, 1, 2, 3, 4, 5].map((i) => `create squad-${i}`),
          ...[0, 1, 2, 3, 4, 5].map((i) => `delete team-${i}`),
        ].sort(),
      );
      const arrivals = await createArrivals();
      expect(arrivals).toHaveLength(6);
      // All six were sent before the first could have been answered.
      expect(arrivals[5] - arrivals[0]).toBeLessThan(OVERLAP_LATENCY_MS);
      await emulator.clearFaults();
      // Converged: every object read back and the program planned against it, no change.
      const converged = await stack.preview({ refresh: true, expectNoChanges: true });
      runs.push(converged);
      expect(converged.error).toBeUndefined();
      expect(converged.changes).toEqual([]);
      expect(writesOf(await stack.takeRequests())).toEqual([]);
    });

    it("keeps the token set with config --secret out of state, events and logs", async () => {
      // The events: those of the runs above, the last of which read every object back.
      expect(runs.map((run) => run.output.length > 0)).toEqual([true, true, true]);
      const resources = await stack.resources();
      expect(resources.length).toBe(8);
      // The serialized providers checked below are the package's runtime texts.
      const providers = resources.map((r) => String(r.inputs.__provider));
      expect(providers.every((text) => text.includes("pulumi-irm/provider/runtime"))).toBe(true);
      const token = emulator.token;
      const signature = token.split(".")[2];
      for (const text of [
        JSON.stringify(resources),
        ...runs.map((run) => run.output),
        stack.persistedText?.() ?? "",
      ]) {
        expect(text.includes(token)).toBe(false);
        expect(text.includes(signature)).toBe(false);
      }
      // The secret is in the stack's config file, encrypted, and nowhere else in clear.
      expect(stack.persistedText?.()).not.toBe("");
    });

    it("a mandatory policy violation stops up before anything is created", async () => {
      stack.editProgram(
        "// EXTRA",
        `new irm.Identity("anyone", {
  parentUid,
  name: "anyone",
  claimMatch: { issuer: "https://token.actions.githubusercontent.com", subject: "*" },
});`,
      );
      const pack = path.join(inject("realEngine").base, "node_modules", "pulumi-irm", "policy");
      const result = await stack.up({ policyPacks: [pack] });
      expect(result.error).toBeDefined();
      expect(result.output).toContain("irm-no-broad-identity-subject");
      expect(result.output).toMatch(/mandatory/i);
      expect(writesOf(await stack.takeRequests())).toEqual([]);
      expect((await stack.resources()).some((r) => r.name === "anyone")).toBe(false);
      stack.editProgram(/new irm\.Identity\("anyone"[\s\S]*?\}\);/, "// EXTRA");
    });

    it("protect: destroy refuses to delete a protected group and deletes nothing of it", async () => {
      const guarded = stack.uidOf("guarded");
      const before = (await stack.resources()).map((r) => r.name).sort();
      const result = await stack.destroy();
      expect(result.error).toMatch(/protect/i);
      // `pulumi destroy` previews first, as users run it: the preview refuses the protected
      // group, so nothing at all is deleted, the unprotected squads included.
      expect(writesOf(await stack.takeRequests()).filter((w) => w.startsWith("DELETE"))).toEqual(
        [],
      );
      expect(await exists(guarded)).toBe(true);
      const left = await stack.resources();
      expect(left.map((r) => r.name).sort()).toEqual(before);
      expect(left.find((r) => r.name === "guarded")?.protect).toBe(true);
    });

    it("retainOnDelete: a group removed from the program leaves the stack but stays in the service; dropping protect sends no request", async () => {
      const kept = stack.uidOf("kept");
      keptUid = kept;
      // Two independent edits of one run, each state only.
      stack.editProgram(/const kept = new irm\.Group\([\s\S]*?\);\n/, "");
      stack.editProgram("export const keptUid = kept.uid;\n", "");
      stack.editProgram("{ protect: true }", "{ protect: false }");
      // Its plan is not what this test proves.
      const result = await stack.up({ skipPreview: true });
      expect(result.error).toBeUndefined();
      // The protection of the guarded group changes in state only: no step, no request.
      expect(describeSteps(result.changes)).toEqual(["discard kept"]);
      expect(writesOf(await stack.takeRequests())).toEqual([]);
      expect(await exists(kept)).toBe(true);
      const resources = await stack.resources();
      expect(resources.some((r) => r.name === "kept")).toBe(false);
      expect(resources.find((r) => r.name === "guarded")?.protect).toBe(false);
    });

    it("once unprotected, destroy deletes the group and the rest; the retained group stays", async () => {
      const guarded = stack.uidOf("guarded");
      // Some 503s, so that the provider host's debug log has retries to report.
      await emulator.fault({ match: { method: "DELETE" }, status: 503, count: 3 });
      // Its plan is not what this test proves; the refused plan above was.
      const destroyed = await stack.destroy({ skipPreview: true });
      expect(destroyed.error, destroyed.output).toBeUndefined();
      expect(await exists(guarded)).toBe(false);
      expect(await stack.resources()).toEqual([]);
      expect(keptUid).not.toBe("");
      expect(await exists(keptUid)).toBe(true);
      // The debug log reached the engine's output (what is checked is real), and the
      // token is neither in it nor in anything the runs left on disk.
      expect(destroyed.output).toMatch(/retry/i);
      expectNoSecret(emulator.token, {
        "the output of destroy": destroyed.output,
        "state, backups, history, logs and config on disk": stack.persistedText(),
      });
    });
  },
);
