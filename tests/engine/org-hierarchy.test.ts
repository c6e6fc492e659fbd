/**
 * The `pulumi up` lifecycle a GitOps pipeline relies on, for the unmodified
 * `examples/org-hierarchy` program with the package installed from its packed tarball,
 * on the real Pulumi engine. Each scenario asserts the objects in the service, the exact
 * write requests in the emulator's log, and then that the stack has converged:
 * `pulumi preview --refresh --expect-no-changes` succeeds and writes nothing, whatever
 * ran before.
 *
 * The scenarios run in order on one stack, as successive pipeline runs would. Where a
 * pipeline run would carry independent changes, one `up` makes them together and each
 * is asserted on its own (its steps, its exact requests).
 */
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { type OrgSnapshot, readOrganisation } from "../../harness/org-snapshot";
import { writesOf } from "../../harness/request-names";
import { lastDeployment } from "../../scripts/demo";
import {
  createEngineStack,
  describeOnEngine,
  type EngineStack,
  expectConverged,
  type RunOutcome,
  type Step,
} from "../support/engine-stack";

/** The part of an engine step event's metadata read here. */
interface StepEvent {
  op: string;
  urn: string;
  type: string;
}

const describeSteps = (steps: Step[]) => steps.map((s) => `${s.op} ${s.name}`);
const sorted = (list: string[]) => [...list].sort();

/** Asserts that each `[earlier, later]` pair occurs in that order in `list`. */
function expectBefore(list: string[], pairs: Array<[string, string]>): void {
  for (const [earlier, later] of pairs) {
    const at = list.indexOf(earlier);
    expect(at, `${earlier} missing from ${list.join(" | ")}`).toBeGreaterThanOrEqual(0);
    expect(list.indexOf(later), `${later} should follow ${earlier}`).toBeGreaterThan(at);
  }
}

/**
 * On the real engine, `up` previews first as users run it: what that preview announced
 * (its steps, and the summary line the CLI printed) is what the run then did. The steps
 * are compared as sets: the engine runs independent steps in parallel.
 */
function expectPreviewedAsDone(result: RunOutcome, summary: string): void {
  if (result.planned === undefined) throw new Error("the real engine's up ran no preview");
  expect(sorted(describeSteps(result.planned))).toEqual(sorted(describeSteps(result.changes)));
  const previewText = result.output.split(/^Updating \(/m)[0];
  expect(previewText).toContain(summary);
  expect(previewText).not.toContain("to replace");
}

const FULL_ORGANISATION: Omit<OrgSnapshot, "uids"> = {
  groups: sorted([
    "engineering <- ROOT",
    "platform <- engineering",
    "payments <- engineering",
    "payments-api <- payments",
  ]),
  identities: sorted([
    "platform-ci in platform: repo:acme/platform:ref:refs/heads/main",
    "payments-ci in payments: repo:acme/payments:ref:refs/heads/main",
    "payments-api-ci in payments-api: repo:acme/payments-api:ref:refs/heads/main",
  ]),
  bindings: sorted([
    "platform-ci is editor on platform",
    "payments-ci is editor on payments",
    "payments-api-ci is viewer on payments-api",
    "platform-ci is registry.pull on example-org",
    "payments-ci is registry.pull on example-org",
    "payments-api-ci is registry.pull on example-org",
  ]),
};

describeOnEngine(
  "org-hierarchy example on the engine",
  { shuffle: false, timeout: 240_000 },
  () => {
    let emulator: TestEmulator;
    let stack: EngineStack;
    const organisation = () =>
      readOrganisation(emulator.url, emulator.token, emulator.rootGroupUid);
    const stateUids = async () => sorted((await stack.resources()).map((r) => r.id));

    beforeAll(async () => {
      emulator = await startTestEmulator();
      stack = await createEngineStack({
        name: "org-hierarchy",
        program: "org-hierarchy",
        emulator,
        projectConfig: { rootGroupUid: emulator.rootGroupUid },
        // A blocked delete gives up quickly here; the default waits two minutes.
        env: { IRM_DELETE_TIMEOUT_MS: "300" },
      });
    }, 120_000);

    afterAll(async () => {
      await stack?.dispose();
      await emulator?.close();
    });

    it("previews a new stack: every object to create, unknown uids flowing on, no write request", async () => {
      const preview = await stack.preview();
      expect(preview.error).toBeUndefined();
      expect(preview.changes).toHaveLength(13);
      expect(preview.changes.every((s) => s.op === "create")).toBe(true);
      const requests = await stack.takeRequests();
      expect(requests.length).toBeGreaterThan(0);
      expect(writesOf(requests)).toEqual([]);
      expect(await stack.resources()).toEqual([]);
    });

    it("up creates everything, once", async () => {
      // The plan of this up is the preview of the test above.
      const result = await stack.up({ skipPreview: true });
      expect(result.error).toBeUndefined();
      expect(result.changes).toHaveLength(13);
      expect(result.changes.every((s) => s.op === "create")).toBe(true);
      // The CLI's summary counts the stack too.
      expect(result.output).toMatch(/\+ 14 created/);
      const writes = writesOf(await stack.takeRequests());
      expect(writes).toHaveLength(13);
      expect(writes.every((w) => w.startsWith("POST ") && w.endsWith(" 200"))).toBe(true);

      const org = await organisation();
      expect({ groups: org.groups, identities: org.identities, bindings: org.bindings }).toEqual(
        FULL_ORGANISATION,
      );
      expect(org.uids).toEqual(await stateUids());
      const outputs = await stack.outputs();
      expect(outputs.groupUids).toEqual({
        engineering: stack.uidOf("engineering"),
        platform: stack.uidOf("platform"),
        payments: stack.uidOf("payments"),
        "payments-api": stack.uidOf("payments-api"),
      });
    });

    it("then the stack has converged: a second up, refreshing first, changes and writes nothing; the CLI's summary and history count as npm run demo reads them", async () => {
      // What `npm run demo` runs (scripts/demo.ts; its own test deploys with a stand-in):
      // the same program twice, the second time changing and writing nothing. Refreshing
      // first (`pulumi up --refresh`), the same run is the drift check `expectConverged`
      // makes: every object read back as in state, and nothing to do.
      const result = await stack.up({ refresh: true, expectNoChanges: true });
      expect(result.error).toBeUndefined();
      // It refreshed: the engine reported a refresh step of each of the 13 resources (the
      // output's event lines).
      const refreshed = result.output
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as { resourcePreEvent?: { metadata?: StepEvent } })
        .map((e) => e.resourcePreEvent?.metadata)
        .filter((m) => m?.op === "refresh" && m.type.startsWith("pulumi-nodejs:dynamic/irm:"))
        .map((m) => m?.urn);
      expect(new Set(refreshed).size).toBe(13);
      expect(result.planned).toEqual([]);
      expect(result.changes).toEqual([]);
      // The engine reports `same` for a refresh that moved only outputs.
      expect(result.refreshChanged).toEqual([]);
      expect(writesOf(await stack.takeRequests())).toEqual([]);
      // The engine's own summary of each run: the 13 resources and the stack itself.
      expect(result.output).toMatch(/^\s+14 unchanged$/m);
      const { path: pulumi, env } = stack.cli;
      const history = JSON.parse(
        execFileSync(pulumi, ["stack", "history", "--json", "--stack", "dev"], {
          cwd: stack.dir,
          env,
          encoding: "utf8",
        }),
      );
      // Newest first: this up, then the one that created everything.
      expect(lastDeployment(history)).toEqual({ changed: 0, unchanged: 14 });
      expect(lastDeployment(history.slice(1))).toEqual({ changed: 14, unchanged: 0 });
    });

    it("changing one description is one PATCH with updateMask=description; renaming a group is one PATCH with updateMask=name, and refresh stays quiet for its bindings", async () => {
      // Two independent edits of one pipeline run, on two groups.
      stack.editProgram(
        'description: "Card and ledger services"',
        'description: "Cards, ledgers and payouts"',
      );
      // Resource names stay; only the group's own name input changes.
      stack.editProgram(
        "name: team.name,",
        'name: team.name === "platform" ? "platform-core" : team.name,',
      );
      const result = await stack.up();
      expect(result.error).toBeUndefined();
      expect(sorted(describeSteps(result.changes))).toEqual(["update payments", "update platform"]);
      // The preview `pulumi up` shows first says the same: payments and platform have
      // child groups, identities and bindings naming them by uid, and none of those is
      // planned for replacement.
      expectPreviewedAsDone(result, "2 to update");
      expect(sorted(writesOf(await stack.takeRequests()))).toEqual([
        "PATCH /iam/v2beta1/groups/<payments>?updateMask=description 200",
        "PATCH /iam/v2beta1/groups/<platform>?updateMask=name 200",
      ]);
      await expectConverged(stack);
    });

    it("changing a group's parent replaces it create-before-delete, and what refers to it follows", async () => {
      const oldGroup = stack.uidOf("payments-api");
      const oldIdentity = stack.uidOf("payments-api-ci");
      stack.editProgram('parent: "payments"', 'parent: "platform"');
      // Its plan is not what this scenario proves (the updates above prove a plan is
      // what the run does).
      const result = await stack.up({ skipPreview: true });
      expect(result.error).toBeUndefined();
      const steps = describeSteps(result.changes);
      expect(steps).toEqual(
        expect.arrayContaining(["replace payments-api", "replace payments-api-ci"]),
      );
      expectBefore(steps, [
        ["replace payments-api", "replace payments-api-ci"],
        ["replace payments-api-ci", "delete-replaced payments-api-ci"],
        ["delete-replaced payments-api-ci", "delete-replaced payments-api"],
      ]);
      const writes = writesOf(await stack.takeRequests());
      const newGroup = "POST /iam/v2beta1/groups/<platform> 200";
      const newIdentity = "POST /iam/v2beta1/identities/<payments-api> 200";
      const oldIdentityDelete = "DELETE /iam/v2beta1/identities/<payments-api-ci> 200";
      const oldGroupDelete = "DELETE /iam/v2beta1/groups/<payments-api> 200";
      expectBefore(writes, [
        [newGroup, newIdentity],
        [newIdentity, oldIdentityDelete],
        [oldIdentityDelete, oldGroupDelete],
      ]);
      const org = await organisation();
      expect(org.groups).toContain("payments-api <- platform-core");
      expect(org.uids).not.toContain(oldGroup);
      expect(org.uids).not.toContain(oldIdentity);
      expect(org.uids).toEqual(await stateUids());
      await expectConverged(stack);
    });

    it("refresh shows edits and deletes made outside Pulumi; the next up restores them, and deletes a removed team's objects, dependants first", async () => {
      const payments = stack.uidOf("payments");
      await apiCall("DELETE", `/iam/v2beta1/roleBindings/${stack.uidOf("platform-ci-editor")}`);
      await apiCall("PATCH", `/iam/v2beta1/groups/${payments}?updateMask=description`, {
        description: "edited by hand",
      });
      await stack.takeRequests();

      const refreshed = await stack.refresh({ skipPreview: true });
      expect(refreshed.error).toBeUndefined();
      expect(sorted(describeSteps(refreshed.changes))).toEqual([
        "refresh-delete platform-ci-editor",
        "refresh-update payments",
      ]);
      expect(writesOf(await stack.takeRequests())).toEqual([]);

      // The same pipeline run removes a team from the program: an independent change.
      stack.editProgram(/ {2}\{\n {4}name: "payments-api",[\s\S]*?\n {2}\},\n/, "");
      const restored = await stack.up({ skipPreview: true });
      expect(restored.error).toBeUndefined();
      expect(sorted(describeSteps(restored.changes))).toEqual([
        "create platform-ci-editor",
        "delete payments-api",
        "delete payments-api-ci",
        "delete payments-api-ci-pull-internal-api",
        "delete payments-api-ci-viewer",
        "update payments",
      ]);
      const writes = writesOf(await stack.takeRequests());
      expect(sorted(writes)).toEqual([
        "DELETE /iam/v2beta1/groups/<payments-api> 200",
        "DELETE /iam/v2beta1/identities/<payments-api-ci> 200",
        "DELETE /iam/v2beta1/roleBindings/<payments-api-ci-pull-internal-api> 200",
        "DELETE /iam/v2beta1/roleBindings/<payments-api-ci-viewer> 200",
        "PATCH /iam/v2beta1/groups/<payments>?updateMask=description 200",
        "POST /iam/v2beta1/roleBindings/<platform> 200",
      ]);
      expectBefore(writes, [
        [
          "DELETE /iam/v2beta1/roleBindings/<payments-api-ci-viewer> 200",
          "DELETE /iam/v2beta1/identities/<payments-api-ci> 200",
        ],
        [
          "DELETE /iam/v2beta1/roleBindings/<payments-api-ci-pull-internal-api> 200",
          "DELETE /iam/v2beta1/identities/<payments-api-ci> 200",
        ],
        [
          "DELETE /iam/v2beta1/identities/<payments-api-ci> 200",
          "DELETE /iam/v2beta1/groups/<payments-api> 200",
        ],
      ]);
      const org = await organisation();
      expect(org.bindings).toContain("platform-ci is editor on platform-core");
      expect(org.groups.some((g) => g.startsWith("payments-api "))).toBe(false);
      expect(org.uids).toEqual(await stateUids());
      await expectConverged(stack);
    });

    it("destroy stops at a group holding an object the stack does not manage, with an actionable message, losing nothing else", async () => {
      const platform = stack.uidOf("platform");
      const engineering = stack.uidOf("engineering");
      const seeded = await emulator.seed({
        repos: [{ parentUid: platform, name: "platform-tools" }],
      });
      await stack.takeRequests();

      // The blocked delete is the point, not the plan.
      const result = await stack.destroy({ skipPreview: true });
      expect(result.error).toContain(
        `Cannot delete group "platform-core" (${platform}): it still holds repo "platform-tools" (${seeded.repos[0]})`,
      );
      expect(result.error).not.toContain(emulator.token);
      const deleted = describeSteps(result.changes);
      expect(deleted).not.toContain("delete platform");
      expect(deleted).not.toContain("delete engineering");
      // The blocked group, its parent and the repository are intact, and state says so.
      expect(sorted((await stack.resources()).map((r) => r.id))).toEqual(
        sorted([engineering, platform]),
      );
      const org = await organisation();
      expect(org.groups).toEqual(sorted(["engineering <- ROOT", "platform-core <- engineering"]));
      expect(org.uids).toEqual(await stateUids());
      const repo = await fetchJson(`/registry/v2beta1/repos/${seeded.repos[0]}`);
      expect(repo.name).toBe("platform-tools");
    });

    async function apiCall(method: string, path: string, body?: unknown): Promise<Response> {
      const response = await fetch(`${emulator.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${emulator.token}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok)
        throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
      return response;
    }

    async function fetchJson(path: string): Promise<Record<string, unknown>> {
      return (await (await apiCall("GET", path)).json()) as Record<string, unknown>;
    }
  },
);
