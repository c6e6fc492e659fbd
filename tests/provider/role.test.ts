/**
 * `Role` (custom roles): provider methods called directly, as the host would after
 * configure, against the emulator; request counts come from its request log.
 */
import { describe, expect, it } from "vitest";
import { UNKNOWN_VALUE } from "../../provider/checks";
import type { RoleInputs, RoleOutputs } from "../../provider/handlers/role";
import * as runtime from "../../provider/runtime";
import { reasonsByPlace } from "../support/check-failures";
import { maskOf, type ProviderFixture, useProviderFixture } from "../support/provider-fixture";
import { roleProvider } from "../support/provider-texts";

let emu: ProviderFixture;
let groupUid: string;

/** A name no other test uses, so tests stay independent in one emulator. */
const { uniqueName } = useProviderFixture({
  async onStart(fixture) {
    emu = fixture;
    [groupUid] = (
      await emu.seed({ groups: [{ parentUid: emu.rootGroupUid, name: "role tests" }] })
    ).groups;
  },
});

async function checked(raw: Record<string, unknown>): Promise<RoleInputs> {
  const result = await runtime.role.check({}, raw);
  expect(result.failures).toEqual([]);
  return result.inputs as RoleInputs;
}

async function created(raw: Record<string, unknown>) {
  const result = await runtime.role.create(await checked(raw));
  return { id: result.id, outs: result.outs as RoleOutputs };
}

describe("Role check", () => {
  it("names each bad field and its rule, before any request", async () => {
    const result = await runtime.role.check(
      {},
      {
        parentUid: "not-a-group",
        name: "viewer",
        capabilities: ["CAP_REPO_LIST", "repos.push", "groups.create", "repos.get", 7],
        adoptUid: `${emu.rootGroupUid}/0123`,
      },
    );
    // Each failure by the place it names: every capability's on `capabilities` (the
    // input the engine can show), its place leading the reason.
    expect(new Set(result.failures?.map((f) => f.property))).toEqual(
      new Set(["adoptUid", "capabilities", "name", "parentUid"]),
    );
    const byProperty = reasonsByPlace(result.failures);
    expect(Object.keys(byProperty).sort()).toEqual([
      "adoptUid",
      "capabilities[1]",
      "capabilities[2]",
      "capabilities[3]",
      "capabilities[4]",
      "name",
      "parentUid",
    ]);
    expect(byProperty.name).toMatch(/name of a built-in role/);
    expect(byProperty["capabilities[1]"]).toMatch(/^unknown capability "repos.push"/);
    expect(byProperty["capabilities[1]"]).toMatch(/value name of the API's Capability enum/);
    expect(byProperty["capabilities[2]"]).toBe(
      '"groups.create" is a former name: write CAP_IAM_GROUPS_CREATE (capabilities are the API\'s enum value names)',
    );
    expect(byProperty["capabilities[3]"]).toMatch(
      /^"repos.get" is a former name with no replacement: there is no GET capability, a Get needs the LIST capability CAP_REPO_LIST/,
    );
    expect(byProperty["capabilities[4]"]).toMatch(/must be a string/);
    expect(byProperty.adoptUid).toMatch(/role uid/);
    expect(await emu.requests()).toEqual([]);
  });

  it("requires at least one capability", async () => {
    for (const capabilities of [[], undefined]) {
      const result = await runtime.role.check(
        {},
        { parentUid: groupUid, name: "empty", capabilities },
      );
      expect(result.failures).toEqual([
        { property: "capabilities", reason: "at least one capability is required" },
      ]);
    }
  });

  it("normalizes capabilities to the sorted set and passes unknown values in a preview", async () => {
    const inputs = await checked({
      parentUid: groupUid,
      name: "deployers",
      capabilities: ["CAP_TAG_LIST", "CAP_REPO_LIST", "CAP_TAG_LIST"],
    });
    expect(inputs).toEqual({
      parentUid: groupUid,
      name: "deployers",
      description: "",
      capabilities: ["CAP_REPO_LIST", "CAP_TAG_LIST"],
    });
    const preview = await runtime.role.check(
      {},
      { parentUid: UNKNOWN_VALUE, name: UNKNOWN_VALUE, capabilities: UNKNOWN_VALUE },
    );
    expect(preview.failures).toEqual([]);
  });
});

describe("Role lifecycle", () => {
  it("create (1 POST), same set in another order (no change), update (1 PATCH, exact mask), refresh (1 GET), delete (1 DELETE)", async () => {
    const name = uniqueName("pullers");
    const role = await created({
      parentUid: groupUid,
      name,
      capabilities: ["CAP_REPO_LIST", "CAP_MANIFEST_LIST"],
    });
    // A custom role is a child of its group.
    expect(role.id).toMatch(new RegExp(`^${groupUid}/[0-9a-f]{16}$`));
    expect(role.outs).toMatchObject({
      uid: role.id,
      parentUid: groupUid,
      name,
      description: "",
      capabilities: ["CAP_MANIFEST_LIST", "CAP_REPO_LIST"],
    });
    expect((await emu.requests()).map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /iam/v2beta1/roles/${groupUid}`,
    ]);

    await emu.clearRequests();
    const reordered = await checked({
      parentUid: groupUid,
      name,
      capabilities: ["CAP_REPO_LIST", "CAP_MANIFEST_LIST", "CAP_REPO_LIST"],
    });
    expect(await runtime.role.diff(role.id, role.outs, reordered)).toEqual({ changes: false });

    const wider = await checked({
      ...reordered,
      capabilities: ["CAP_MANIFEST_LIST", "CAP_TAG_LIST"],
    });
    expect(await runtime.role.diff(role.id, role.outs, wider)).toEqual({ changes: true });
    expect(await emu.requests()).toEqual([]);
    const updated = await runtime.role.update(role.id, role.outs, wider);
    expect(updated.outs).toMatchObject({
      uid: role.id,
      capabilities: ["CAP_MANIFEST_LIST", "CAP_TAG_LIST"],
      createTime: role.outs.createTime,
    });
    let log = await emu.requests();
    expect(log.map((r) => r.method)).toEqual(["PATCH"]);
    expect(maskOf(log[0])).toEqual(["capabilities"]);

    const moved = { ...wider, parentUid: emu.rootGroupUid };
    expect(await runtime.role.diff(role.id, updated.outs!, moved)).toEqual({
      changes: true,
      replaces: ["parentUid"],
    });

    await emu.clearRequests();
    const refreshed = await runtime.role.read(role.id, updated.outs);
    expect(refreshed.inputs).toEqual({
      parentUid: groupUid,
      name,
      description: "",
      capabilities: ["CAP_MANIFEST_LIST", "CAP_TAG_LIST"],
      __provider: roleProvider,
    });
    expect(await runtime.role.diff(role.id, refreshed.props!, wider)).toEqual({ changes: false });
    expect(await emu.requests()).toHaveLength(1);

    await emu.clearRequests();
    await runtime.role.delete(role.id, refreshed.props!);
    log = await emu.requests();
    expect(log.map((r) => `${r.method} ${r.status}`)).toEqual(["DELETE 200"]);
    expect(await runtime.role.read(role.id, refreshed.props)).toEqual({ id: "" });
    // Already gone: the API's NOT_FOUND to the DELETE is success.
    await runtime.role.delete(role.id, refreshed.props!);
  });

  it("adopts an existing custom role by uid, patching only what differs", async () => {
    const name = uniqueName("legacy");
    const existing = await emu.client.iam.roles.create(groupUid, {
      name,
      description: "made by hand",
      capabilities: ["CAP_REPO_LIST"],
    });
    await emu.clearRequests();
    const adopted = await runtime.role.create(
      await checked({
        parentUid: groupUid,
        name,
        description: "made by hand",
        capabilities: ["CAP_REPO_LIST", "CAP_MANIFEST_LIST"],
        adoptUid: existing.uid,
      }),
    );
    expect(adopted.id).toBe(existing.uid);
    const log = await emu.requests();
    expect(log.map((r) => r.method)).toEqual(["GET", "PATCH"]);
    expect(maskOf(log[1])).toEqual(["capabilities"]);

    const elsewhere = runtime.role.create(
      await checked({
        parentUid: emu.rootGroupUid,
        name,
        capabilities: ["CAP_REPO_LIST"],
        adoptUid: existing.uid,
      }),
    );
    await expect(elsewhere).rejects.toThrow(
      `adoptUid: role ${existing.uid} sits under ${groupUid}, not under parentUid ${emu.rootGroupUid}`,
    );
    const viewer = (await emu.client.iam.roles.list({ name: "viewer" })).items[0];
    const builtIn = runtime.role.create(
      await checked({
        parentUid: groupUid,
        name,
        capabilities: ["CAP_REPO_LIST"],
        adoptUid: viewer.uid,
      }),
    );
    await expect(builtIn).rejects.toThrow(/sits under no group \(it is a built-in role\)/);
  });

  it("recovers a create whose answer was lost without making a second role", async () => {
    const name = uniqueName("lost");
    await emu.fault({
      match: { method: "POST", path: `/iam/v2beta1/roles/${groupUid}` },
      drop: "after",
    });
    const role = await created({ parentUid: groupUid, name, capabilities: ["CAP_TAG_LIST"] });
    const log = await emu.requests();
    expect(log.map((r) => r.method)).toEqual(["POST", "GET"]);
    const mine = (await emu.client.iam.roles.list({ childrenOf: groupUid, name })).items;
    expect(mine.map((r) => r.uid)).toEqual([role.id]);
  });

  it("a role still bound: names the role, the binding that uses it and what to remove", async () => {
    await emu.configureRuntime({ "irm:deleteTimeoutMs": "0" });
    const name = uniqueName("bound");
    const role = await created({ parentUid: groupUid, name, capabilities: ["CAP_REPO_LIST"] });
    const identity = await emu.client.iam.identities.create(groupUid, {
      name: uniqueName("robot"),
      claimMatch: { issuer: emu.issuer, subject: "robot" },
    });
    const binding = await emu.client.iam.roleBindings.create(groupUid, {
      identityUid: identity.uid,
      roleUid: role.id,
    });
    await emu.clearRequests();
    const failure = runtime.role.delete(role.id, role.outs);
    await expect(failure).rejects.toThrow(
      `Cannot delete role "${name}" (${role.id}): role binding of identity ` +
        `${JSON.stringify(identity.name)} as ${JSON.stringify(name)} in group "role tests" ` +
        `(${binding.uid}) still refers to it, which this run did not delete.`,
    );
    await expect(failure).rejects.toThrow(/defaultRole of the identity providers/);
    // One refused DELETE, then one listing each of the bindings and the providers.
    expect(
      (await emu.requests())
        .map((r) => `${r.method} ${r.path.split("/").slice(0, 4).join("/")} ${r.status}`)
        .sort(),
    ).toEqual([
      "DELETE /iam/v2beta1/roles 400",
      "GET /iam/v2beta1/identityProviders 200",
      "GET /iam/v2beta1/roleBindings 200",
    ]);
    await emu.client.iam.roleBindings.delete(binding.uid);
    await emu.client.iam.identities.delete(identity.uid);
    await runtime.role.delete(role.id, role.outs);
  });
});

describe("Role state written with the former capability names", () => {
  it("diffs equal to the same set in enum names (no PATCH); a refresh stores the new names", async () => {
    const name = uniqueName("upgraded");
    const role = await created({
      parentUid: groupUid,
      name,
      capabilities: ["CAP_REPO_LIST", "CAP_TAG_LIST", "CAP_IAM_GROUPS_CREATE"],
    });
    // What today's package wrote for this role: the former names (a *.get had its own).
    const former: RoleOutputs = {
      ...role.outs,
      capabilities: ["groups.create", "repos.get", "repos.list", "tags.list"],
    };
    await emu.clearRequests();
    const program = await checked({
      parentUid: groupUid,
      name,
      capabilities: ["CAP_IAM_GROUPS_CREATE", "CAP_REPO_LIST", "CAP_TAG_LIST"],
    });
    expect(await runtime.role.diff(role.id, former, program)).toEqual({ changes: false });
    // A real difference still shows, and the PATCH carries only the new names.
    const narrower = await checked({ ...program, capabilities: ["CAP_REPO_LIST"] });
    expect(await runtime.role.diff(role.id, former, narrower)).toEqual({ changes: true });
    expect(await emu.requests()).toEqual([]);

    const refreshed = await runtime.role.read(role.id, former);
    expect(refreshed.props?.capabilities).toEqual([
      "CAP_IAM_GROUPS_CREATE",
      "CAP_REPO_LIST",
      "CAP_TAG_LIST",
    ]);
    expect(refreshed.inputs?.capabilities).toEqual(refreshed.props?.capabilities);
    expect(await runtime.role.diff(role.id, refreshed.props!, program)).toEqual({
      changes: false,
    });

    await emu.clearRequests();
    const updated = await runtime.role.update(role.id, former, narrower);
    expect(updated.outs?.capabilities).toEqual(["CAP_REPO_LIST"]);
    const log = await emu.requests();
    expect(log.map((r) => r.method)).toEqual(["PATCH"]);
    expect(maskOf(log[0])).toEqual(["capabilities"]);
    await runtime.role.delete(role.id, updated.outs!);
  });
});
