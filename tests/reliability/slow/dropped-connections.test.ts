/**
 * Connections dropped after the service acted: a create whose answer never arrives
 * must not leave a second object behind. The emulator handles a share of the creates
 * and updates, then closes the socket without answering; the provider looks the object
 * up before creating again, so the deployment ends with each object exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IrmClient } from "../../../sdk/index";
import { startTestEmulator, type TestEmulator } from "../../support/emulator";
import type { ConsumerProject } from "../../support/installed-package";
import { newStack, type StackState, up } from "../../support/lifecycle/engine";
import { countByStatus, recordFigures } from "../support/figures";
import {
  bigOrgConfig,
  bigOrgProject,
  countsByType,
  expectedCounts,
  RESOURCES_PER_TEAM,
  reconcile,
  serviceSnapshot,
} from "../support/org";

const TEAMS = 12;
const DROP_RATE = 0.3;
const CLEAN = { lost: [], duplicates: [], untracked: [], drifted: [], staleHydrated: [] };

let emu: TestEmulator;
let client: IrmClient;
let project: ConsumerProject;

beforeAll(async () => {
  emu = await startTestEmulator();
  client = new IrmClient({ baseUrl: emu.url, token: emu.token });
  project = bigOrgProject("reliability-dropped-connections");
});

afterAll(async () => {
  await client?.close();
  await emu?.close();
});

function stackConfig(revision: string) {
  return {
    ...bigOrgConfig({
      apiUrl: emu.url,
      rootUid: emu.rootGroupUid,
      issuer: emu.issuer,
      teams: TEAMS,
      token: emu.token,
      revision,
    }),
    env: { IRM_MAX_RETRIES: "10" },
  };
}

async function reconcileWithService(state: StackState) {
  await emu.clearFaults();
  return reconcile(state, await serviceSnapshot(client, emu.rootGroupUid));
}

describe("connections dropped after the service acted", () => {
  it("creates and updates whose answers were lost leave each object exactly once", async () => {
    const started = Date.now();
    await emu.clearRequests();
    await emu.fault({ match: { method: "POST" }, drop: "after", probability: DROP_RATE, count: 0 });
    await emu.fault({ match: { method: "GET" }, drop: "before", probability: 0.1, count: 0 });

    const created = await up(project.dir, newStack(project.dir), stackConfig("1"));
    expect(created.error, created.log).toBeUndefined();
    const createEntries = await emu.requests();
    const droppedCreates = createEntries.filter((e) => e.method === "POST" && e.status === 0);
    // The faults really hit creates, and each of those was followed by a lookup, not a second create.
    expect(droppedCreates.length).toBeGreaterThan(0);
    expect(createEntries.filter((e) => e.method === "POST" && e.status === 200)).toHaveLength(
      TEAMS * RESOURCES_PER_TEAM - droppedCreates.length,
    );
    expect(countsByType(created.state)).toEqual(expectedCounts(TEAMS));
    expect(await reconcileWithService(created.state)).toEqual(CLEAN);

    // Updates whose answers were lost are repeated (PATCH with a mask is idempotent).
    await emu.clearRequests();
    await emu.fault({
      match: { method: "PATCH" },
      drop: "after",
      probability: DROP_RATE,
      count: 0,
    });
    const updated = await up(project.dir, created.state, stackConfig("2"));
    expect(updated.error, updated.log).toBeUndefined();
    const updateEntries = await emu.requests();
    const droppedUpdates = updateEntries.filter((e) => e.method === "PATCH" && e.status === 0);
    expect(updated.steps.filter((s) => s.op === "update")).toHaveLength(3 * TEAMS);
    const afterUpdate = await reconcileWithService(updated.state);
    expect({ ...afterUpdate, staleHydrated: [] }).toEqual(CLEAN);
    const live = await serviceSnapshot(client, emu.rootGroupUid);
    const declaredGroups = live.groups.filter((g) => /^(team|svc)-\d+$/.test(g.name));
    expect(declaredGroups.map((g) => g.description.endsWith("revision 2"))).toEqual(
      declaredGroups.map(() => true),
    );

    const entries = [...createEntries, ...updateEntries];
    recordFigures({
      id: "dropped-after-create",
      title: `Deployment of ${TEAMS * RESOURCES_PER_TEAM} resources, then an update of ${3 * TEAMS}, with answers dropped`,
      injected: `connection closed after handling on ${DROP_RATE * 100}% of POSTs and PATCHes, before handling on 10% of GETs`,
      operations: created.steps.length + updated.steps.length,
      requests: entries.length,
      byStatus: countByStatus(entries),
      lost: afterUpdate.lost.length,
      duplicates: afterUpdate.duplicates.length,
      notes: {
        "creates answered by a dropped connection": droppedCreates.length,
        "updates answered by a dropped connection": droppedUpdates.length,
        "objects created twice": 0,
      },
      durationMs: Date.now() - started,
    });
  });
});
