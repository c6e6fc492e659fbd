/**
 * Provider methods called directly (as the host would, after configure) against the
 * emulator; request counts come from the emulator's request log.
 */
import { UnsecuredJWT } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { NAMED_BLOCKER_GRACE_MS, providerClock } from "../../provider/handlers/common";
import * as runtime from "../../provider/runtime";
import type { GroupInputs, IdentityInputs, RoleBindingInputs } from "../../provider/types";
import { maskOf, type ProviderFixture, useProviderFixture } from "../support/provider-fixture";
import { groupProvider, identityProvider, roleBindingProvider } from "../support/provider-texts";

let emu: ProviderFixture;
let viewerRoleUid: string;
let editorRoleUid: string;

/** A name no other test uses, so tests stay independent in one emulator. */
const { uniqueName } = useProviderFixture({
  async onStart(fixture) {
    emu = fixture;
    await emu.configureRuntime();
    const roles = await emu.client.iam.roles.list({ pageSize: 200 });
    viewerRoleUid = roles.items.find((r) => r.name === "viewer")!.uid;
    editorRoleUid = roles.items.find((r) => r.name === "editor")!.uid;
  },
});

async function checkedGroup(raw: Record<string, unknown>): Promise<GroupInputs> {
  const result = await runtime.group.check({}, raw);
  expect(result.failures).toEqual([]);
  return result.inputs as GroupInputs;
}

/**
 * Runs the provider's waits in virtual time: its `sleep` returns at once and moves its
 * `now` on by as much, so the grace of seconds a delete gives costs no wall time.
 * Undone after each test.
 */
function virtualClock(): { elapsed(): number } {
  let offset = 0;
  vi.spyOn(providerClock, "now").mockImplementation(() => Date.now() + offset);
  vi.spyOn(providerClock, "sleep").mockImplementation(async (ms) => {
    offset += ms;
    await new Promise((resolve) => setImmediate(resolve));
  });
  const start = providerClock.now();
  return { elapsed: () => providerClock.now() - start };
}
afterEach(() => {
  vi.restoreAllMocks();
});

describe("Group lifecycle", () => {
  it("check rejects bad inputs before any request", async () => {
    const result = await runtime.group.check({}, { parentUid: emu.rootGroupUid, name: "Bad!" });
    expect(result.failures).toEqual([
      { property: "name", reason: expect.stringContaining("must match") },
    ]);
    expect(await emu.requests()).toEqual([]);
  });

  it("a parent that does not exist fails the check of a create, naming parentUid; an existing one passes", async () => {
    const missing = `${emu.rootGroupUid}/0123456789abcdef`;
    const result = await runtime.group.check({}, { parentUid: missing, name: "orphan" });
    expect(result.failures).toEqual([
      {
        property: "parentUid",
        reason: `no group ${missing} exists (or this token may not see it); nothing was created`,
      },
    ]);
    expect((await emu.requests()).map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /iam/v2beta1/groups/${missing}`,
    ]);
    // An update that keeps its parent asks nothing.
    await emu.clearRequests();
    const kept = await runtime.group.check(
      { parentUid: missing, name: "orphan" },
      { parentUid: missing, name: "renamed" },
    );
    expect(kept.failures ?? []).toEqual([]);
    expect(await emu.requests()).toEqual([]);
  });

  it("create (1 POST), no-op diff (0), update (1 PATCH, exact mask), refresh (1 GET), delete (1 DELETE)", async () => {
    const inputs = await checkedGroup({ parentUid: emu.rootGroupUid, name: uniqueName("team") });
    // The check of a create reads its parent at most once per process (see below).
    await emu.clearRequests();
    const created = await runtime.group.create(inputs);
    expect(created.id).toMatch(new RegExp(`^${emu.rootGroupUid}/[0-9a-f]{16}$`));
    expect(created.outs).toMatchObject({
      uid: created.id,
      parentUid: emu.rootGroupUid,
      name: inputs.name,
      description: "",
      verified: false,
      resourceLimits: {},
    });
    expect(created.outs?.createTime).toMatch(/Z$/);
    let log = await emu.requests();
    expect(log.map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /iam/v2beta1/groups/${emu.rootGroupUid}`,
    ]);
    const outs = created.outs!;

    await emu.clearRequests();
    const again = await checkedGroup({ parentUid: emu.rootGroupUid, name: inputs.name });
    expect(await runtime.group.diff(created.id, outs, again)).toEqual({ changes: false });
    expect(await emu.requests()).toEqual([]);

    const changed = await checkedGroup({ ...again, description: "the platform team" });
    expect(await runtime.group.diff(created.id, outs, changed)).toEqual({ changes: true });
    const updated = await runtime.group.update(created.id, outs, changed);
    expect(updated.outs).toMatchObject({ uid: created.id, description: "the platform team" });
    expect(updated.outs?.createTime).toBe(outs.createTime);
    log = await emu.requests();
    expect(log).toHaveLength(1);
    expect(log[0].method).toBe("PATCH");
    expect(maskOf(log[0])).toEqual(["description"]);

    await emu.clearRequests();
    const renamed = { ...changed, name: uniqueName("renamed"), description: "" };
    await runtime.group.update(created.id, updated.outs!, renamed);
    log = await emu.requests();
    expect(log).toHaveLength(1);
    expect(maskOf(log[0]).sort()).toEqual(["description", "name"]);

    await emu.clearRequests();
    const refreshed = await runtime.group.read(created.id, updated.outs);
    expect(refreshed.id).toBe(created.id);
    expect(refreshed.props).toMatchObject({ name: renamed.name, description: "" });
    // A refresh also moves the stored provider text to this release's.
    expect(refreshed.inputs).toEqual({
      parentUid: emu.rootGroupUid,
      name: renamed.name,
      description: "",
      __provider: groupProvider,
    });
    expect(await emu.requests()).toHaveLength(1);
    // A refresh of an unchanged object leaves nothing to do.
    expect(await runtime.group.diff(created.id, refreshed.props!, renamed)).toEqual({
      changes: false,
    });

    await emu.clearRequests();
    await runtime.group.delete(created.id, refreshed.props!);
    log = await emu.requests();
    expect(log.map((r) => `${r.method} ${r.status}`)).toEqual(["DELETE 200"]);
    await expect(emu.client.iam.groups.get(created.id)).rejects.toMatchObject({ code: 5 });
  });

  it("treats NOT_FOUND on delete as success and reports an out-of-band delete on refresh", async () => {
    const inputs = await checkedGroup({ parentUid: emu.rootGroupUid, name: uniqueName("gone") });
    const created = await runtime.group.create(inputs);
    await emu.client.iam.groups.delete(created.id);
    await emu.clearRequests();
    expect(await runtime.group.read(created.id, created.outs)).toEqual({ id: "" });
    await runtime.group.delete(created.id, created.outs!);
    const log = await emu.requests();
    expect(log.map((r) => `${r.method} ${r.status}`)).toEqual(["GET 404", "DELETE 404"]);
  });

  it("a group holding an object this run did not delete fails within seconds, naming it", async () => {
    // The default wait (two minutes) is not waited out: the repository is named at once.
    await emu.configureRuntime({ "irm:deleteTimeoutMs": "120000" });
    const name = uniqueName("has-repos");
    const inputs = await checkedGroup({ parentUid: emu.rootGroupUid, name });
    const created = await runtime.group.create(inputs);
    const [repoUid] = (await emu.seed({ repos: [{ parentUid: created.id, name: "pushed-by-ci" }] }))
      .repos;
    await emu.clearRequests();
    const started = Date.now();
    const clock = virtualClock();
    const failure = runtime.group.delete(created.id, created.outs!);
    await expect(failure).rejects.toThrow(
      `Cannot delete group "${name}" (${created.id}): it still holds repo "pushed-by-ci" (${repoUid}), which this run did not delete.`,
    );
    await expect(failure).rejects.not.toThrow(/Nothing else was deleted/);
    expect(Date.now() - started).toBeLessThan(15_000);
    // On the provider's clock: the short grace for a named blocker, not the two minutes.
    expect(clock.elapsed()).toBeGreaterThanOrEqual(NAMED_BLOCKER_GRACE_MS);
    expect(clock.elapsed()).toBeLessThan(15_000);
    const log = await emu.requests();
    expect(log.filter((r) => r.method !== "GET").every((r) => r.method === "DELETE")).toBe(true);
    expect((await emu.client.iam.groups.get(created.id)).uid).toBe(created.id);
    const repos = await emu.client.registry.repos.list({ childrenOf: created.id });
    expect(repos.items.map((r) => r.name)).toEqual(["pushed-by-ci"]);
  });

  it("a group holding only a binding, an invite and an association made outside the run names each within seconds", async () => {
    // None of these is a child group, identity or repository; each still keeps the
    // API from deleting the group, and the default wait (two minutes) is not waited out.
    await emu.configureRuntime({ "irm:deleteTimeoutMs": "120000" });
    const name = uniqueName("has-grants");
    const created = await runtime.group.create(
      await checkedGroup({ parentUid: emu.rootGroupUid, name }),
    );
    const outsider = await emu.client.iam.identities.create(emu.rootGroupUid, {
      name: uniqueName("outsider"),
      claimMatch: { issuer: "https://issuer.example.com", subject: "outsider" },
    });
    const binding = await emu.client.iam.roleBindings.create(created.id, {
      identityUid: outsider.uid,
      roleUid: viewerRoleUid,
    });
    const invite = await emu.client.iam.groupInvites.create(created.id, {
      roleUid: viewerRoleUid,
      ttl: 600,
    });
    await emu.client.iam.accountAssociations.create(created.id, {
      name: "aws-prod",
      amazon: { account: "123456789012" },
    });
    await emu.clearRequests();
    const started = Date.now();
    const clock = virtualClock();
    const failure = runtime.group.delete(created.id, created.outs!);
    await expect(failure).rejects.toThrow(
      `Cannot delete group "${name}" (${created.id}): it still holds ` +
        `role binding of identity ${JSON.stringify(outsider.name)} as "viewer" (${binding.uid}), ` +
        `group invite for role "viewer" (${invite.uid}), ` +
        `its account association "aws-prod", which this run did not delete.`,
    );
    expect(Date.now() - started).toBeLessThan(15_000);
    // On the provider's clock: the short grace for a named blocker, not the two minutes.
    expect(clock.elapsed()).toBeGreaterThanOrEqual(NAMED_BLOCKER_GRACE_MS);
    expect(clock.elapsed()).toBeLessThan(15_000);
    const writes = (await emu.requests()).filter((r) => r.method !== "GET");
    expect(
      writes.every((r) => r.method === "DELETE" && r.path.startsWith("/iam/v2beta1/groups/")),
    ).toBe(true);
    expect((await emu.client.iam.roleBindings.get(binding.uid)).uid).toBe(binding.uid);
    expect((await emu.client.iam.groups.get(created.id)).uid).toBe(created.id);
  });

  it("a group holding only an event subscription made outside the run names it within seconds", async () => {
    await emu.configureRuntime({ "irm:deleteTimeoutMs": "120000" });
    const name = uniqueName("has-webhook");
    const created = await runtime.group.create(
      await checkedGroup({ parentUid: emu.rootGroupUid, name }),
    );
    const subscription = await emu.client.events.subscriptions.create(created.id, {
      sink: "https://hooks.example.com/irm",
    });
    const started = Date.now();
    const clock = virtualClock();
    await expect(runtime.group.delete(created.id, created.outs!)).rejects.toThrow(
      `Cannot delete group "${name}" (${created.id}): it still holds ` +
        `event subscription to https://hooks.example.com/irm (${subscription.uid}), which this run did not delete.`,
    );
    expect(Date.now() - started).toBeLessThan(15_000);
    // On the provider's clock: the short grace for a named blocker, not the two minutes.
    expect(clock.elapsed()).toBeGreaterThanOrEqual(NAMED_BLOCKER_GRACE_MS);
    expect(clock.elapsed()).toBeLessThan(15_000);
    expect((await emu.client.events.subscriptions.get(subscription.uid)).uid).toBe(
      subscription.uid,
    );
  });

  it("retries RESOURCE_NOT_EMPTY while a child is still being deleted, then succeeds", async () => {
    await emu.configureRuntime({ "irm:deleteTimeoutMs": "60000" });
    const parent = await runtime.group.create(
      await checkedGroup({ parentUid: emu.rootGroupUid, name: uniqueName("parent") }),
    );
    const child = await emu.client.iam.groups.create(parent.id, { name: "child" });
    await emu.clearRequests();

    const deletion = runtime.group.delete(parent.id, parent.outs!);
    // Remove the child only once the parent's delete has been refused at least once.
    const parentPath = `/iam/v2beta1/groups/${parent.id}`;
    for (;;) {
      const log = await emu.requests();
      if (log.some((r) => r.method === "DELETE" && r.path === parentPath && r.status !== 200))
        break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await emu.client.iam.groups.delete(child.uid);
    await deletion;

    const parentDeletes = (await emu.requests()).filter(
      (r) => r.method === "DELETE" && r.path === parentPath,
    );
    expect(parentDeletes.length).toBeGreaterThanOrEqual(2);
    expect(parentDeletes.at(-1)?.status).toBe(200);
    expect(parentDeletes.slice(0, -1).every((r) => r.status === 400)).toBe(true);
  });

  it("never leaves a duplicate when the create's outcome is unknown (request handled, answer lost)", async () => {
    const name = uniqueName("lost-answer");
    const inputs = await checkedGroup({ parentUid: emu.rootGroupUid, name });
    await emu.fault({
      match: { method: "POST", path: `/iam/v2beta1/groups/${emu.rootGroupUid}` },
      drop: "after",
    });
    const created = await runtime.group.create(inputs);
    // The provider's own requests: the create whose answer was lost, then one lookup.
    const log = await emu.requests();
    expect(log.map((r) => `${r.method} ${r.status}`)).toEqual(["POST 0", "GET 200"]);
    expect(new URLSearchParams(log[1].query).get("name")).toBe(name);
    const matches = await emu.client.iam.groups.list({ childrenOf: emu.rootGroupUid, name });
    expect(matches.items.map((g) => g.uid)).toEqual([created.id]);
  });

  it("creates again once when the lost create never took effect", async () => {
    const name = uniqueName("never-arrived");
    const inputs = await checkedGroup({ parentUid: emu.rootGroupUid, name });
    await emu.fault({
      match: { method: "POST", path: `/iam/v2beta1/groups/${emu.rootGroupUid}` },
      drop: "before",
    });
    const created = await runtime.group.create(inputs);
    const log = await emu.requests();
    expect(log.map((r) => `${r.method} ${r.status}`)).toEqual(["POST 0", "GET 200", "POST 200"]);
    const matches = await emu.client.iam.groups.list({ childrenOf: emu.rootGroupUid, name });
    expect(matches.items.map((g) => g.uid)).toEqual([created.id]);
  });

  it("never takes over an older group of the same name after an unknown outcome", async () => {
    const name = uniqueName("older-namesake");
    const older = await emu.client.iam.groups.create(emu.rootGroupUid, { name });
    // More than the Date header's one-second resolution later, on the service's clock
    // (which its Date headers and timestamps share), a create of the same name is lost
    // before it reaches the service.
    await emu.advanceClock(2);
    const inputs = await checkedGroup({ parentUid: emu.rootGroupUid, name });
    await emu.clearRequests();
    await emu.fault({
      match: { method: "POST", path: `/iam/v2beta1/groups/${emu.rootGroupUid}` },
      drop: "before",
    });
    const created = await runtime.group.create(inputs);
    expect(created.id).not.toBe(older.uid);
    const log = await emu.requests();
    expect(log.map((r) => `${r.method} ${r.status}`)).toEqual(["POST 0", "GET 200", "POST 200"]);
    const matches = await emu.client.iam.groups.list({ childrenOf: emu.rootGroupUid, name });
    expect(matches.items.map((g) => g.uid).sort()).toEqual([older.uid, created.id].sort());
  });

  it("adopts an existing group by uid: one GET, one PATCH of the differing field, no create", async () => {
    const name = uniqueName("existing");
    const existing = await emu.client.iam.groups.create(emu.rootGroupUid, {
      name,
      description: "made by hand",
    });
    await emu.clearRequests();
    const inputs = await checkedGroup({
      parentUid: emu.rootGroupUid,
      name,
      description: "managed now",
      adoptUid: existing.uid,
    });
    const adopted = await runtime.group.create(inputs);
    expect(adopted.id).toBe(existing.uid);
    expect(adopted.outs).toMatchObject({
      description: "managed now",
      createTime: existing.createTime,
    });
    const log = await emu.requests();
    expect(log.map((r) => r.method)).toEqual(["GET", "PATCH"]);
    expect(maskOf(log[1])).toEqual(["description"]);
    // After adoption, adoptUid is not a difference.
    expect(await runtime.group.diff(adopted.id, adopted.outs!, inputs)).toEqual({ changes: false });
  });

  it("refuses to adopt a missing group or one under another parent", async () => {
    const elsewhere = await emu.client.iam.groups.create(emu.rootGroupUid, {
      name: uniqueName("a"),
    });
    const nested = await emu.client.iam.groups.create(elsewhere.uid, { name: "nested" });
    await expect(
      runtime.group.create({
        parentUid: emu.rootGroupUid,
        name: "nested",
        description: "",
        adoptUid: nested.uid,
      }),
    ).rejects.toThrow(/adoptUid: group .* sits under/);
    const missing = `${emu.rootGroupUid}/${"0".repeat(16)}`;
    await expect(
      runtime.group.create({
        parentUid: emu.rootGroupUid,
        name: "xyz",
        description: "",
        adoptUid: missing,
      }),
    ).rejects.toThrow(`adoptUid: no group ${missing}`);
  });
});

describe("Identity lifecycle", () => {
  it("creates, updates claimMatch.subject alone, refreshes and deletes", async () => {
    const group = await emu.client.iam.groups.create(emu.rootGroupUid, { name: uniqueName("ids") });
    const checked = await runtime.identity.check(
      {},
      {
        parentUid: group.uid,
        name: "deployer",
        claimMatch: { issuer: emu.issuer, subject: "repo:org/app:ref:refs/heads/main" },
      },
    );
    expect(checked.failures).toEqual([]);
    const inputs = checked.inputs as IdentityInputs;
    await emu.clearRequests();

    const created = await runtime.identity.create(inputs);
    expect(created.outs).toMatchObject({
      uid: created.id,
      parentUid: group.uid,
      name: "deployer",
      description: "",
      claimMatch: inputs.claimMatch,
    });
    expect((await emu.requests()).map((r) => r.method)).toEqual(["POST"]);

    await emu.clearRequests();
    const release = { ...inputs, claimMatch: { ...inputs.claimMatch, subject: "release" } };
    expect(await runtime.identity.diff(created.id, created.outs!, inputs)).toEqual({
      changes: false,
    });
    expect(await runtime.identity.diff(created.id, created.outs!, release)).toEqual({
      changes: true,
    });
    const updated = await runtime.identity.update(created.id, created.outs!, release);
    expect(updated.outs?.claimMatch).toEqual({ issuer: emu.issuer, subject: "release" });
    const log = await emu.requests();
    expect(log.map((r) => r.method)).toEqual(["PATCH"]);
    expect(maskOf(log[0])).toEqual(["claim_match.subject"]);

    await emu.clearRequests();
    const refreshed = await runtime.identity.read(created.id, updated.outs);
    expect(refreshed.inputs).toEqual({
      ...release,
      description: "",
      __provider: identityProvider,
    });
    expect(await runtime.identity.diff(created.id, refreshed.props!, release)).toEqual({
      changes: false,
    });
    await runtime.identity.delete(created.id, refreshed.props!);
    expect((await emu.requests()).map((r) => r.method)).toEqual(["GET", "DELETE"]);
  });

  it("a role binding made outside the run that still names it fails the delete within seconds, naming the binding", async () => {
    // The default wait (two minutes) is not waited out: the binding is named at once.
    await emu.configureRuntime({ "irm:deleteTimeoutMs": "120000" });
    const groupName = uniqueName("ids");
    const group = await emu.client.iam.groups.create(emu.rootGroupUid, { name: groupName });
    const created = await runtime.identity.create({
      parentUid: group.uid,
      name: "still bound",
      description: "",
      claimMatch: { issuer: emu.issuer, subject: "s" },
    });
    // A binding this stack does not manage (made by hand).
    const binding = await emu.client.iam.roleBindings.create(group.uid, {
      identityUid: created.id,
      roleUid: viewerRoleUid,
    });
    await emu.clearRequests();
    const started = Date.now();
    const clock = virtualClock();
    const failure = runtime.identity.delete(created.id, created.outs!);
    await expect(failure).rejects.toThrow(
      `Cannot delete identity "still bound" (${created.id}): role binding of identity ` +
        `"still bound" as "viewer" in group ${JSON.stringify(groupName)} (${binding.uid}) ` +
        "still refers to it, which this run did not delete. Remove the role bindings that " +
        "still refer to it",
    );
    await expect(failure).rejects.toThrow(/The identity was not deleted\.$/);
    expect(Date.now() - started).toBeLessThan(15_000);
    // On the provider's clock: the short grace for a named blocker, not the two minutes.
    expect(clock.elapsed()).toBeGreaterThanOrEqual(NAMED_BLOCKER_GRACE_MS);
    expect(clock.elapsed()).toBeLessThan(15_000);
    const writes = (await emu.requests()).filter((r) => r.method !== "GET");
    expect(writes.every((r) => r.method === "DELETE" && r.status === 400)).toBe(true);
    expect((await emu.client.iam.identities.get(created.id)).uid).toBe(created.id);
  });

  it("with no binding left to name, waits out RESOURCE_IN_USE, then says what blocks and what to do", async () => {
    await emu.configureRuntime({ "irm:deleteTimeoutMs": "0" });
    const group = await emu.client.iam.groups.create(emu.rootGroupUid, { name: uniqueName("ids") });
    const created = await runtime.identity.create({
      parentUid: group.uid,
      name: "still bound",
      description: "",
      claimMatch: { issuer: emu.issuer, subject: "s" },
    });
    await emu.client.iam.roleBindings.create(group.uid, {
      identityUid: created.id,
      roleUid: viewerRoleUid,
    });
    // The listing of bindings fails (a token that may not list them): nothing is named.
    await emu.fault({
      match: { method: "GET", path: "/iam/v2beta1/roleBindings" },
      status: 403,
      count: 0,
    });
    await emu.clearRequests();
    const failure = runtime.identity.delete(created.id, created.outs!);
    await expect(failure).rejects.toThrow(`identity "still bound" (${created.id})`);
    await expect(failure).rejects.toThrow(/RESOURCE_IN_USE/);
    await expect(failure).rejects.toThrow(/Remove the role bindings that still refer to it/);
    expect((await emu.client.iam.identities.get(created.id)).uid).toBe(created.id);
  });

  it("finds the identity by name under its group after an unknown outcome", async () => {
    const group = await emu.client.iam.groups.create(emu.rootGroupUid, { name: uniqueName("ids") });
    await emu.fault({
      match: { method: "POST", path: `/iam/v2beta1/identities/${group.uid}` },
      drop: "after",
    });
    await emu.clearRequests();
    const created = await runtime.identity.create({
      parentUid: group.uid,
      name: "once",
      description: "",
      claimMatch: { issuer: emu.issuer, subject: "s" },
    });
    const log = await emu.requests();
    expect(log.map((r) => `${r.method} ${r.status}`)).toEqual(["POST 0", "GET 200"]);
    const all = await emu.client.iam.identities.list({ childrenOf: group.uid });
    expect(all.items.map((i) => i.uid)).toEqual([created.id]);
  });
});

describe("RoleBinding lifecycle", () => {
  async function identityIn(groupUid: string): Promise<string> {
    const identity = await emu.client.iam.identities.create(groupUid, {
      name: "bound",
      claimMatch: { issuer: emu.issuer, subject: "x" },
    });
    return identity.uid;
  }

  it("creates with only what the binding owns, updates roleUid alone, refreshes and deletes", async () => {
    const group = await emu.client.iam.groups.create(emu.rootGroupUid, { name: uniqueName("rb") });
    const identityUid = await identityIn(group.uid);
    const checked = await runtime.binding.check(
      {},
      { groupUid: group.uid, identityUid, roleUid: viewerRoleUid },
    );
    expect(checked.failures).toEqual([]);
    const inputs = checked.inputs as RoleBindingInputs;
    await emu.clearRequests();

    const created = await runtime.binding.create(inputs);
    expect(created.outs).toEqual({
      uid: created.id,
      groupUid: group.uid,
      identityUid,
      roleUid: viewerRoleUid,
      builtInRoleName: "viewer",
      createTime: expect.any(String),
      // What the check read of the role, recorded for policies (see checked-role.ts).
      checkedRole: expect.objectContaining({ uid: viewerRoleUid, name: "viewer" }),
    });
    // The role's kind is read once per role and process (another test may have read it).
    expect((await emu.requests()).map((r) => r.method)).toEqual(expect.arrayContaining(["POST"]));
    expect((await emu.requests()).filter((r) => r.method === "POST")).toHaveLength(1);

    await emu.clearRequests();
    const asEditor = { ...inputs, roleUid: editorRoleUid };
    expect(await runtime.binding.diff(created.id, created.outs!, asEditor)).toEqual({
      changes: true,
    });
    const updated = await runtime.binding.update(created.id, created.outs!, asEditor);
    expect(updated.outs).toMatchObject({ roleUid: editorRoleUid, builtInRoleName: "editor" });
    const log = (await emu.requests()).filter((r) => r.method === "PATCH");
    expect(log).toHaveLength(1);
    expect(maskOf(log[0])).toEqual(["role_uid"]);

    await emu.clearRequests();
    const refreshed = await runtime.binding.read(created.id, updated.outs);
    // The update's inputs still held the viewer role's record: the state drops it, as
    // it records only what a check read of the role the binding has.
    const { checkedRole: _stale, ...declared } = asEditor as RoleBindingInputs & {
      checkedRole?: unknown;
    };
    expect(refreshed.inputs).toEqual({ ...declared, __provider: roleBindingProvider });
    await runtime.binding.delete(created.id, refreshed.props!);
    expect((await emu.requests()).map((r) => r.method)).toEqual(["GET", "DELETE"]);
  });

  it("finds its own binding after an unknown outcome instead of failing on the duplicate", async () => {
    const group = await emu.client.iam.groups.create(emu.rootGroupUid, { name: uniqueName("rb") });
    const identityUid = await identityIn(group.uid);
    await emu.fault({
      match: { method: "POST", path: `/iam/v2beta1/roleBindings/${group.uid}` },
      drop: "after",
    });
    await emu.clearRequests();
    const created = await runtime.binding.create({
      groupUid: group.uid,
      identityUid,
      roleUid: viewerRoleUid,
    });
    const all = await emu.client.iam.roleBindings.list({ childrenOf: group.uid });
    expect(all.items.map((b) => b.uid)).toEqual([created.id]);
    expect((await emu.requests()).filter((r) => r.method === "POST")).toHaveLength(1);
  });

  it("explains how to adopt a binding that already exists", async () => {
    const group = await emu.client.iam.groups.create(emu.rootGroupUid, { name: uniqueName("rb") });
    const identityUid = await identityIn(group.uid);
    const existing = await emu.client.iam.roleBindings.create(group.uid, {
      identityUid,
      roleUid: viewerRoleUid,
    });
    const inputs = { groupUid: group.uid, identityUid, roleUid: viewerRoleUid };
    await expect(runtime.binding.create(inputs)).rejects.toThrow(
      `already exists as ${existing.uid}. To manage it from this stack, set adoptUid to ${existing.uid}`,
    );
    const adopted = await runtime.binding.create({ ...inputs, adoptUid: existing.uid });
    expect(adopted.id).toBe(existing.uid);
  });
});

describe("secrets", () => {
  it("never puts the token in outputs, errors or settings diagnostics", async () => {
    // Well-formed (a JWT, unexpired), so the provider sends it and the API refuses it.
    const sentinel = new UnsecuredJWT({ sub: "sentinel-secret-token-do-not-leak" })
      .setExpirationTime("1h")
      .encode();
    await emu.configureRuntime({ "irm:token": sentinel });
    expect(JSON.stringify(runtime.describeSettings())).not.toContain(sentinel);
    const inputs = await checkedGroup({ parentUid: emu.rootGroupUid, name: uniqueName("denied") });
    const error = await runtime.group.create(inputs).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(Error);
    expect(`${error}\n${error?.stack}\n${JSON.stringify(error)}`).not.toContain(sentinel);

    await emu.configureRuntime();
    const created = await runtime.group.create(inputs);
    expect(JSON.stringify(created)).not.toContain(emu.token);
  });
});
