/**
 * The `pulumi up` lifecycle a GitOps pipeline relies on, on the unmodified
 * `examples/org-hierarchy` program with the package installed as users install it:
 * every dynamic resource goes through the real provider host over gRPC against the
 * emulator. Each scenario asserts the resulting objects in the service and the
 * exact requests in the emulator's request log (sorted where the engine's order
 * between independent resources is not fixed).
 *
 * The scenarios run in order on one stack, each starting from the state the
 * previous one left, as successive pipeline runs would.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../support/emulator";
import {
  createExampleStack,
  type ExampleStack,
  writesOf,
} from "../support/lifecycle/example-stack";
import { type OrgSnapshot, readOrganisation, stateUids } from "../support/lifecycle/org-snapshot";
import type { Step } from "../support/lifecycle/state";

const changes = (steps: Step[]) =>
  steps.filter((s) => s.op !== "same").map((s) => `${s.op} ${s.urn.split("::").pop()}`);
const sorted = (list: string[]) => [...list].sort();

/**
 * Asserts that each `[earlier, later]` pair occurs in that order in `list`. The engine
 * orders steps by dependency; between independent resources the order follows the
 * program's timing, so only the orders that matter are pinned down.
 */
function expectBefore(list: string[], pairs: Array<[string, string]>): void {
  for (const [earlier, later] of pairs) {
    const at = list.indexOf(earlier);
    expect(at, `${earlier} missing from ${list.join(" | ")}`).toBeGreaterThanOrEqual(0);
    expect(list.indexOf(later), `${later} should follow ${earlier}`).toBeGreaterThan(at);
  }
}

/** The lookups the program makes on every run (roles by name, the shared repo). */
const LOOKUPS = [
  "GET /iam/v2beta1/roles?name=editor&page_size=200 200",
  "GET /iam/v2beta1/roles?name=viewer&page_size=200 200",
  "GET /iam/v2beta1/roles?name=registry.pull&page_size=200 200",
  "GET /registry/v2beta1/repos?uidp.descendants_of=ROOT&name=internal-api&page_size=200 200",
];

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

describe("org-hierarchy example: the pulumi up lifecycle", () => {
  let emulator: TestEmulator;
  let stack: ExampleStack;
  const organisation = () => readOrganisation(emulator.url, emulator.token, emulator.rootGroupUid);

  beforeAll(async () => {
    emulator = await startTestEmulator();
    stack = createExampleStack({
      example: "org-hierarchy",
      emulator,
      projectConfig: { rootGroupUid: emulator.rootGroupUid },
      // A blocked delete gives up quickly here; the default waits two minutes.
      env: { IRM_DELETE_TIMEOUT_MS: "300" },
    });
  });

  afterAll(async () => {
    await emulator?.close();
    stack?.project.remove();
  });

  it("1. up on an empty organisation creates everything", async () => {
    const result = await stack.up();
    expect(result.error).toBeUndefined();
    expect(result.steps.every((s) => s.op === "create")).toBe(true);
    expect(result.steps).toHaveLength(13);

    const requests = await stack.takeRequests();
    expect(sorted(requests)).toEqual(
      sorted([
        ...LOOKUPS,
        "POST /iam/v2beta1/groups/ROOT 200",
        "POST /iam/v2beta1/groups/<engineering> 200",
        "POST /iam/v2beta1/groups/<engineering> 200",
        "POST /iam/v2beta1/groups/<payments> 200",
        "POST /iam/v2beta1/identities/<platform> 200",
        "POST /iam/v2beta1/identities/<payments> 200",
        "POST /iam/v2beta1/identities/<payments-api> 200",
        "POST /iam/v2beta1/roleBindings/<platform> 200",
        "POST /iam/v2beta1/roleBindings/<payments> 200",
        "POST /iam/v2beta1/roleBindings/<payments-api> 200",
        "POST /iam/v2beta1/roleBindings/ROOT 200",
        "POST /iam/v2beta1/roleBindings/ROOT 200",
        "POST /iam/v2beta1/roleBindings/ROOT 200",
      ]),
    );

    const org = await organisation();
    expect({ groups: org.groups, identities: org.identities, bindings: org.bindings }).toEqual(
      FULL_ORGANISATION,
    );
    expect(org.uids).toEqual(stateUids(stack.state));
    expect(stack.state.outputs.access).toEqual(expect.arrayContaining(FULL_ORGANISATION.bindings));
    expect(stack.state.outputs.groupUids).toEqual({
      engineering: stack.uidOf("engineering"),
      platform: stack.uidOf("platform"),
      payments: stack.uidOf("payments"),
      "payments-api": stack.uidOf("payments-api"),
    });
    // The token reaches the provider as configuration, never the state.
    expect(JSON.stringify(stack.state)).not.toContain(emulator.token);
  });

  it("2. a second up makes no write request at all", async () => {
    const result = await stack.up();
    expect(result.error).toBeUndefined();
    expect(changes(result.steps)).toEqual([]);
    expect(sorted(await stack.takeRequests())).toEqual(sorted(LOOKUPS));
  });

  it("5. refresh of an unchanged stack reports no changes", async () => {
    const before = stack.state;
    const result = await stack.refresh();
    expect(result.error).toBeUndefined();
    expect(changes(result.steps)).toEqual([]);
    expect(result.state.resources).toEqual(before.resources);
    const requests = await stack.takeRequests();
    expect(writesOf(requests)).toEqual([]);
    // One read per resource, nothing else.
    expect(requests).toHaveLength(13);
    expect(requests.every((r) => r.startsWith("GET /iam/v2beta1/") && r.endsWith(" 200"))).toBe(
      true,
    );
  });

  it("3. changing one description makes exactly one PATCH with updateMask=description", async () => {
    stack.editProgram(
      'description: "Card and ledger services"',
      'description: "Cards, ledgers and payouts"',
    );
    const result = await stack.up();
    expect(result.error).toBeUndefined();
    expect(changes(result.steps)).toEqual(["update payments"]);
    expect(writesOf(await stack.takeRequests())).toEqual([
      "PATCH /iam/v2beta1/groups/<payments>?updateMask=description 200",
    ]);
    const group = await fetchJson(`/iam/v2beta1/groups/${stack.uidOf("payments")}`);
    expect(group.description).toBe("Cards, ledgers and payouts");
  });

  it("4. changing a group's parent replaces it and re-parents what depends on it", async () => {
    const oldGroup = stack.uidOf("payments-api");
    const oldIdentity = stack.uidOf("payments-api-ci");
    stack.editProgram('parent: "payments"', 'parent: "platform"');
    const result = await stack.up();
    expect(result.error).toBeUndefined();
    // The group, its identity and the binding in it are replaced; the binding in the
    // repository's group only changes identity, in place.
    const steps = changes(result.steps);
    expect(sorted(steps)).toEqual(
      sorted([
        "replace payments-api",
        "replace payments-api-ci",
        "update payments-api-ci-pull-internal-api",
        "replace payments-api-ci-viewer",
        "delete-replaced payments-api-ci-viewer",
        "delete-replaced payments-api-ci",
        "delete-replaced payments-api",
      ]),
    );
    expectBefore(steps, [
      ["replace payments-api", "replace payments-api-ci"],
      ["replace payments-api-ci", "replace payments-api-ci-viewer"],
      ["replace payments-api-ci", "update payments-api-ci-pull-internal-api"],
      ["replace payments-api-ci-viewer", "delete-replaced payments-api-ci-viewer"],
      ["update payments-api-ci-pull-internal-api", "delete-replaced payments-api-ci-viewer"],
      ["delete-replaced payments-api-ci-viewer", "delete-replaced payments-api-ci"],
      ["delete-replaced payments-api-ci", "delete-replaced payments-api"],
    ]);
    // New objects first (create-before-delete), the old ones after, children first.
    const writes = writesOf(await stack.takeRequests());
    const newGroup = "POST /iam/v2beta1/groups/<platform> 200";
    const newIdentity = "POST /iam/v2beta1/identities/<payments-api> 200";
    const patchedBinding =
      "PATCH /iam/v2beta1/roleBindings/<payments-api-ci-pull-internal-api>?updateMask=identityUid 200";
    const newBinding = "POST /iam/v2beta1/roleBindings/<payments-api> 200";
    const oldBinding = "DELETE /iam/v2beta1/roleBindings/<payments-api-ci-viewer> 200";
    const oldIdentityDelete = "DELETE /iam/v2beta1/identities/<payments-api-ci> 200";
    const oldGroupDelete = "DELETE /iam/v2beta1/groups/<payments-api> 200";
    expect(sorted(writes)).toEqual(
      sorted([
        newGroup,
        newIdentity,
        patchedBinding,
        newBinding,
        oldBinding,
        oldIdentityDelete,
        oldGroupDelete,
      ]),
    );
    expectBefore(writes, [
      [newGroup, newIdentity],
      [newIdentity, patchedBinding],
      [newIdentity, newBinding],
      [patchedBinding, oldBinding],
      [newBinding, oldBinding],
      [oldBinding, oldIdentityDelete],
      [oldIdentityDelete, oldGroupDelete],
    ]);

    expect(stack.uidOf("payments-api")).toMatch(
      new RegExp(`^${stack.uidOf("platform")}/[0-9a-f]{16}$`),
    );
    expect(stack.uidOf("payments-api-ci").startsWith(`${stack.uidOf("payments-api")}/`)).toBe(true);
    const org = await organisation();
    expect(org.groups).toContain("payments-api <- platform");
    expect(org.identities).toContain(
      "payments-api-ci in payments-api: repo:acme/payments-api:ref:refs/heads/main",
    );
    expect(org.bindings).toEqual(FULL_ORGANISATION.bindings);
    expect(org.uids).not.toContain(oldGroup);
    expect(org.uids).not.toContain(oldIdentity);
    expect(org.uids).toEqual(stateUids(stack.state));
    expect(stack.state.pendingDeletes).toEqual([]);
  });

  it("6. an object deleted out of band disappears on refresh and comes back on up; an edit is restored", async () => {
    const payments = stack.uidOf("payments");
    await apiCall("DELETE", `/iam/v2beta1/roleBindings/${stack.uidOf("platform-ci-editor")}`);
    await apiCall("PATCH", `/iam/v2beta1/groups/${payments}?updateMask=description`, {
      description: "edited by hand",
    });
    await stack.takeRequests();

    const refreshed = await stack.refresh();
    expect(refreshed.error).toBeUndefined();
    // The payments-ci binding reports the group it hydrates, so it sees the edit too.
    expect(sorted(changes(refreshed.steps))).toEqual([
      "refresh-delete platform-ci-editor",
      "refresh-update payments",
      "refresh-update payments-ci-editor",
    ]);
    expect(stack.state.resources.some((r) => r.urn.endsWith("::platform-ci-editor"))).toBe(false);
    expect(writesOf(await stack.takeRequests())).toEqual([]);

    const restored = await stack.up();
    expect(restored.error).toBeUndefined();
    expect(sorted(changes(restored.steps))).toEqual([
      "create platform-ci-editor",
      "update payments",
    ]);
    expect(sorted(writesOf(await stack.takeRequests()))).toEqual([
      "PATCH /iam/v2beta1/groups/<payments>?updateMask=description 200",
      "POST /iam/v2beta1/roleBindings/<platform> 200",
    ]);
    expect((await fetchJson(`/iam/v2beta1/groups/${payments}`)).description).toBe(
      "Cards, ledgers and payouts",
    );
    const org = await organisation();
    expect(org.bindings).toContain("platform-ci is editor on platform");
    expect(org.uids).toEqual(stateUids(stack.state));
  });

  it("7. removing resources from the program deletes them, children before parents", async () => {
    stack.editProgram(/ {2}\{\n {4}name: "payments-api",[\s\S]*?\n {2}\},\n/, "");
    const result = await stack.up();
    expect(result.error).toBeUndefined();
    const steps = changes(result.steps);
    expect(sorted(steps)).toEqual([
      "delete payments-api",
      "delete payments-api-ci",
      "delete payments-api-ci-pull-internal-api",
      "delete payments-api-ci-viewer",
    ]);
    // Bindings, then the identity they bind, then the group holding it.
    const writes = writesOf(await stack.takeRequests());
    const viewer = "DELETE /iam/v2beta1/roleBindings/<payments-api-ci-viewer> 200";
    const pull = "DELETE /iam/v2beta1/roleBindings/<payments-api-ci-pull-internal-api> 200";
    const identity = "DELETE /iam/v2beta1/identities/<payments-api-ci> 200";
    const group = "DELETE /iam/v2beta1/groups/<payments-api> 200";
    expect(sorted(writes)).toEqual(sorted([viewer, pull, identity, group]));
    expectBefore(writes, [
      [viewer, identity],
      [pull, identity],
      [identity, group],
    ]);
    const org = await organisation();
    expect(org.groups).toEqual(
      sorted(["engineering <- ROOT", "platform <- engineering", "payments <- engineering"]),
    );
    expect(org.identities.some((i) => i.startsWith("payments-api-ci"))).toBe(false);
    expect(org.uids).toEqual(stateUids(stack.state));
  });

  it("8. destroy while a group holds a repository fails with RESOURCE_NOT_EMPTY and loses nothing else", async () => {
    const platform = stack.uidOf("platform");
    const engineering = stack.uidOf("engineering");
    const seeded = await emulator.seed({
      repos: [{ parentUid: platform, name: "platform-tools" }],
    });
    await stack.takeRequests();

    const result = await stack.destroy();
    expect(result.error).toContain("RESOURCE_NOT_EMPTY");
    expect(result.error).toContain('Cannot delete group "platform"');
    expect(result.error).not.toContain(emulator.token);
    // Everything that depends on nothing left behind went, dependants first; then the
    // blocked group stopped the destroy before its parent.
    const steps = changes(result.steps);
    expect(sorted(steps)).toEqual([
      "delete payments",
      "delete payments-ci",
      "delete payments-ci-editor",
      "delete payments-ci-pull-internal-api",
      "delete platform-ci",
      "delete platform-ci-editor",
      "delete platform-ci-pull-internal-api",
    ]);
    expectBefore(steps, [
      ["delete payments-ci-editor", "delete payments-ci"],
      ["delete payments-ci-pull-internal-api", "delete payments-ci"],
      ["delete payments-ci", "delete payments"],
      ["delete platform-ci-editor", "delete platform-ci"],
      ["delete platform-ci-pull-internal-api", "delete platform-ci"],
    ]);
    const writes = writesOf(await stack.takeRequests());
    // The provider retries the refused delete until its (short) wait runs out; it is
    // the last thing the destroy did.
    const refusal = "DELETE /iam/v2beta1/groups/<platform> 400";
    expect(writes.filter((w) => w === refusal).length).toBeGreaterThanOrEqual(1);
    expect(writes.at(-1)).toBe(refusal);
    const deleted = writes.filter((w) => w !== refusal);
    expect(sorted(deleted)).toEqual([
      "DELETE /iam/v2beta1/groups/<payments> 200",
      "DELETE /iam/v2beta1/identities/<payments-ci> 200",
      "DELETE /iam/v2beta1/identities/<platform-ci> 200",
      "DELETE /iam/v2beta1/roleBindings/<payments-ci-editor> 200",
      "DELETE /iam/v2beta1/roleBindings/<payments-ci-pull-internal-api> 200",
      "DELETE /iam/v2beta1/roleBindings/<platform-ci-editor> 200",
      "DELETE /iam/v2beta1/roleBindings/<platform-ci-pull-internal-api> 200",
    ]);
    expect(writes.indexOf(refusal)).toBeGreaterThan(
      writes.indexOf("DELETE /iam/v2beta1/identities/<platform-ci> 200"),
    );

    // The blocked group, its parent and the repository are intact, and state says so.
    expect(stack.state.resources.map((r) => r.id)).toEqual([engineering, platform]);
    const org = await organisation();
    expect(org.groups).toEqual(sorted(["engineering <- ROOT", "platform <- engineering"]));
    expect(org.uids).toEqual(stateUids(stack.state));
    expect((await fetchJson(`/registry/v2beta1/repos/${seeded.repos[0]}`)).name).toBe(
      "platform-tools",
    );
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
});
