/**
 * A 503 storm on every identity create half-way through the first `up` of
 * `examples/org-hierarchy`. The engine stops launching steps; state holds exactly what
 * the service holds; once the storm is over, the next `up` creates only what is missing.
 * The engine runs independent steps in parallel, so which groups were created before
 * the stop is not fixed: the assertions are about consistency, not order.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { readOrganisation } from "../../harness/org-snapshot";
import { writesOf } from "../../harness/request-names";
import { createEngineStack, describeOnEngine, type EngineStack } from "../support/engine-stack";

describeOnEngine(
  "org-hierarchy example: a failure half-way",
  { shuffle: false, timeout: 240_000 },
  () => {
    let emulator: TestEmulator;
    let stack: EngineStack;
    const organisation = () =>
      readOrganisation(emulator.url, emulator.token, emulator.rootGroupUid);
    const stateUids = async () => (await stack.resources()).map((r) => r.id).sort();

    beforeAll(async () => {
      emulator = await startTestEmulator();
      stack = await createEngineStack({
        name: "partial-failure",
        program: "org-hierarchy",
        emulator,
        projectConfig: { rootGroupUid: emulator.rootGroupUid },
        // Two retries keep the storm short; the SDK's backoff still applies.
        env: { IRM_MAX_RETRIES: "2" },
      });
    }, 120_000);

    afterAll(async () => {
      await stack?.dispose();
      await emulator?.close();
    });

    it("stops with state true to the service, and the next up creates only what is missing", async () => {
      await emulator.fault({
        match: { method: "POST", pathRegex: "^/iam/v2beta1/identities/" },
        status: 503,
        count: 0,
      });
      // Neither up's plan is asserted: the storm and the recovery are what they prove.
      const failed = await stack.up({ skipPreview: true });
      expect(failed.error).toMatch(/unavailable|503/i);
      expect(failed.error).not.toContain(emulator.token);
      expect(failed.changes.every((s) => s.op === "create" && s.type.endsWith("irm:Group"))).toBe(
        true,
      );
      const stormWrites = writesOf(await stack.takeRequests());
      // Each identity tried is tried three times (first attempt and two retries), all refused.
      const identityPosts = stormWrites.filter((w) =>
        w.startsWith("POST /iam/v2beta1/identities/"),
      );
      expect(identityPosts.length).toBeGreaterThan(0);
      expect(identityPosts.every((w) => w.endsWith(" 503"))).toBe(true);
      expect(identityPosts.length % 3).toBe(0);
      const afterStorm = await organisation();
      expect(afterStorm.identities).toEqual([]);
      expect(afterStorm.uids).toEqual(await stateUids());
      const groupsBefore = afterStorm.groups.length;
      expect(groupsBefore).toBeGreaterThan(0);

      await emulator.clearFaults();
      const finished = await stack.up({ skipPreview: true });
      expect(finished.error).toBeUndefined();
      expect(finished.steps.filter((s) => s.op === "same")).toHaveLength(groupsBefore);
      expect(finished.changes.every((s) => s.op === "create")).toBe(true);
      expect(finished.changes).toHaveLength(13 - groupsBefore);
      const writes = writesOf(await stack.takeRequests());
      expect(writes.filter((w) => w.startsWith("POST /iam/v2beta1/groups/"))).toHaveLength(
        4 - groupsBefore,
      );
      expect(writes.filter((w) => w.startsWith("POST /iam/v2beta1/identities/"))).toHaveLength(3);
      expect(writes.filter((w) => w.startsWith("POST /iam/v2beta1/roleBindings/"))).toHaveLength(6);
      expect(writes).toHaveLength(13 - groupsBefore);

      const org = await organisation();
      expect(org.groups).toHaveLength(4);
      expect(org.identities).toHaveLength(3);
      expect(org.bindings).toHaveLength(6);
      expect(org.uids).toEqual(await stateUids());
    });
  },
);
