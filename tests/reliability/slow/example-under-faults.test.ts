/**
 * The shipped example `examples/org-hierarchy`, as a user runs it (installed copy of
 * the package, unmodified program), deployed and destroyed while the emulator fails a
 * fifth of API requests with 503 and drops the answer of a fifth of creates after
 * acting on them: the run completes, each object exists once, state equals the service.
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IrmClient } from "../../../sdk/index";
import { startTestEmulator, type TestEmulator } from "../../support/emulator";
import {
  type ConsumerProject,
  createConsumerProject,
  REPO_ROOT,
} from "../../support/installed-package";
import { destroy, newStack, up } from "../../support/lifecycle/engine";
import { countByStatus, recordFigures } from "../support/figures";
import { reconcile, serviceSnapshot } from "../support/org";

let emu: TestEmulator;
let client: IrmClient;
let project: ConsumerProject;

beforeAll(async () => {
  emu = await startTestEmulator();
  client = new IrmClient({ baseUrl: emu.url, token: emu.token });
  project = createConsumerProject({
    name: "reliability-example-org-hierarchy",
    programDir: path.join(REPO_ROOT, "examples", "org-hierarchy"),
    requiredSubpaths: [".", "./provider/runtime"],
  });
});

afterAll(async () => {
  await client?.close();
  await emu?.close();
});

describe("examples/org-hierarchy under faults", () => {
  it("deploys and destroys with every object once and state equal to the service", async () => {
    const started = Date.now();
    const options = {
      config: {
        "irm:apiUrl": emu.url,
        "irm:token": emu.token,
        "org-hierarchy:rootGroupUid": emu.rootGroupUid,
      },
      secretKeys: ["irm:token"],
      env: { IRM_MAX_RETRIES: "10" },
    };
    await emu.clearRequests();
    await emu.fault({ match: { method: "POST" }, drop: "after", probability: 0.2, count: 0 });
    await emu.fault({
      match: { pathRegex: "^/(iam|registry)/" },
      status: 503,
      probability: 0.2,
      count: 0,
    });

    const created = await up(project.dir, newStack(project.dir), options);
    expect(created.error, created.log).toBeUndefined();
    expect(created.steps.every((s) => s.op === "create")).toBe(true);
    const createEntries = await emu.requests();
    await emu.clearFaults();
    const outcome = reconcile(created.state, await serviceSnapshot(client, emu.rootGroupUid));
    expect(outcome).toEqual({
      lost: [],
      duplicates: [],
      untracked: [],
      drifted: [],
      staleHydrated: [],
    });

    await emu.fault({
      match: { pathRegex: "^/(iam|registry)/" },
      status: 503,
      probability: 0.2,
      count: 0,
    });
    const destroyed = await destroy(project.dir, created.state, options);
    await emu.clearFaults();
    expect(destroyed.error).toBeUndefined();
    const left = await serviceSnapshot(client, emu.rootGroupUid);
    const ids = new Set(created.state.resources.map((r) => r.id));
    const remaining = [...left.groups, ...left.identities, ...left.bindings].filter((o) =>
      ids.has(o.uid),
    );
    expect(remaining).toEqual([]);
    const entries = await emu.requests();

    recordFigures({
      id: "example-under-faults",
      title: `examples/org-hierarchy (${created.state.resources.length} resources), deployed and destroyed`,
      injected:
        "503 on 20% of API requests; on deploy also the connection closed after handling on 20% of creates",
      operations: created.steps.length + destroyed.steps.length,
      requests: entries.length,
      byStatus: countByStatus(entries),
      lost: outcome.lost.length,
      duplicates: outcome.duplicates.length,
      notes: {
        "creates answered by a dropped connection": createEntries.filter(
          (e) => e.method === "POST" && e.status === 0,
        ).length,
      },
      durationMs: Date.now() - started,
    });
  });
});
