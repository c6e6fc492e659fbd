/**
 * Scenario 9 of the lifecycle: a 503 storm on one resource half-way through the first
 * `up` of `examples/org-hierarchy`. The run stops at that resource; state holds
 * exactly what the service holds; once the storm is over, the next `up` creates only
 * what is missing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../support/emulator";
import {
  createExampleStack,
  type ExampleStack,
  writesOf,
} from "../support/lifecycle/example-stack";
import { readOrganisation, stateUids } from "../support/lifecycle/org-snapshot";

describe("org-hierarchy example: a failure half-way", () => {
  let emulator: TestEmulator;
  let stack: ExampleStack;
  const organisation = () => readOrganisation(emulator.url, emulator.token, emulator.rootGroupUid);

  beforeAll(async () => {
    emulator = await startTestEmulator();
    stack = createExampleStack({
      example: "org-hierarchy",
      emulator,
      scratchName: "lifecycle-partial-failure",
      projectConfig: { rootGroupUid: emulator.rootGroupUid },
      // Two retries keep the storm short; the SDK's backoff still applies.
      env: { IRM_MAX_RETRIES: "2" },
    });
  });

  afterAll(async () => {
    await emulator?.close();
    stack?.project.remove();
  });

  it("9. an injected 503 storm stops the run with state true to the service; the next up finishes", async () => {
    await emulator.fault({
      match: { method: "POST", pathRegex: "^/iam/v2beta1/identities/" },
      status: 503,
      count: 0,
    });
    const failed = await stack.up();
    expect(failed.error).toMatch(/platform-ci/);
    expect(failed.error).toMatch(/unavailable|503/i);
    expect(failed.error).not.toContain(emulator.token);
    // Groups registered before the first identity were created; nothing after it was tried.
    expect(failed.steps.map((s) => `${s.op} ${s.urn.split("::").pop()}`)).toEqual([
      "create engineering",
      "create platform",
      "create payments",
    ]);
    const stormWrites = writesOf(await stack.takeRequests());
    expect(stormWrites.filter((w) => w.startsWith("POST /iam/v2beta1/groups/"))).toHaveLength(3);
    // The first attempt and two retries, all on the one identity, all refused.
    expect(stormWrites.filter((w) => !w.startsWith("POST /iam/v2beta1/groups/"))).toEqual([
      "POST /iam/v2beta1/identities/<platform> 503",
      "POST /iam/v2beta1/identities/<platform> 503",
      "POST /iam/v2beta1/identities/<platform> 503",
    ]);
    const afterStorm = await organisation();
    expect(afterStorm.uids).toEqual(stateUids(failed.state));
    expect(afterStorm.identities).toEqual([]);

    await emulator.clearFaults();
    const finished = await stack.up();
    expect(finished.error).toBeUndefined();
    const ops = finished.steps.map((s) => s.op);
    expect(ops.filter((op) => op === "same")).toHaveLength(3);
    expect(ops.filter((op) => op === "create")).toHaveLength(10);
    const writes = writesOf(await stack.takeRequests());
    // Only what was missing: one group, three identities, six bindings.
    expect(writes.filter((w) => w.startsWith("POST /iam/v2beta1/groups/"))).toEqual([
      "POST /iam/v2beta1/groups/<payments> 200",
    ]);
    expect(writes.filter((w) => w.startsWith("POST /iam/v2beta1/identities/"))).toHaveLength(3);
    expect(writes.filter((w) => w.startsWith("POST /iam/v2beta1/roleBindings/"))).toHaveLength(6);
    expect(writes).toHaveLength(10);

    const org = await organisation();
    expect(org.groups).toHaveLength(4);
    expect(org.identities).toHaveLength(3);
    expect(org.bindings).toHaveLength(6);
    expect(org.uids).toEqual(stateUids(stack.state));
  });
});
