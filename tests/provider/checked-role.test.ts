/**
 * `check` of a RoleBinding and of an IdentityProvider adds what it reads of the role
 * they grant (`checkedRole`: uid, name, built-in or not, capabilities), so a policy
 * pack judges the role by its capabilities in the first preview; the diff ignores it
 * and nothing is written.
 */
import { describe, expect, it } from "vitest";
import { UNKNOWN_VALUE } from "../../provider/checks";
import * as runtime from "../../provider/runtime";
import type { RoleBindingOutputs } from "../../provider/types";
import type { Role } from "../../sdk/index";
import { type ProviderFixture, useProviderFixture } from "../support/provider-fixture";

let emu: ProviderFixture;
let groupUid: string;
let identityUid: string;
let roles: Role[];

const { uniqueName } = useProviderFixture({
  async onStart(fixture) {
    emu = fixture;
    await emu.configureRuntime();
    [groupUid] = (
      await emu.seed({ groups: [{ parentUid: emu.rootGroupUid, name: "checked-role" }] })
    ).groups;
    identityUid = (
      await emu.client.iam.identities.create(groupUid, {
        name: "ci-deployer",
        claimMatch: { issuer: emu.issuer, subject: "main" },
      })
    ).uid;
    roles = (await emu.client.iam.roles.list({ pageSize: 200 })).items;
  },
});

const roleNamed = (name: string) => roles.find((role) => role.name === name) as Role;

async function checkBinding(roleUid: string) {
  const result = await runtime.binding.check({}, { groupUid, identityUid, roleUid });
  expect(result.failures).toEqual([]);
  return result.inputs as unknown as Record<string, unknown>;
}

describe("checkedRole", () => {
  it("a binding granting a custom role made in the same run is checked without reading it", async () => {
    const created = await runtime.role.create({
      parentUid: groupUid,
      name: uniqueName("deployers"),
      description: "",
      capabilities: ["CAP_REPO_LIST", "CAP_IAM_GROUPS_LIST"],
    });
    await emu.clearRequests();
    const inputs = await checkBinding(created.id);
    expect(inputs.checkedRole).toEqual({
      uid: created.id,
      name: created.outs?.name,
      builtIn: false,
      capabilities: ["CAP_IAM_GROUPS_LIST", "CAP_REPO_LIST"],
    });
    expect((await emu.requests()).filter((r) => r.path.includes("/roles/"))).toEqual([]);
  });

  it("a binding's check reads a built-in role once per process; its published set is not copied", async () => {
    const owner = roleNamed("owner");
    await emu.clearRequests();
    const inputs = await checkBinding(owner.uid);
    // The pack judges a built-in role by its published set (BUILT_IN_ROLE_CAPABILITIES),
    // so the record, kept in every binding's state, holds no hundred-name copy of it.
    expect(inputs.checkedRole).toEqual({ uid: owner.uid, name: "owner", builtIn: true });
    const again = await checkBinding(owner.uid);
    expect(again.checkedRole).toEqual(inputs.checkedRole);
    const log = (await emu.requests()).map((r) => `${r.method} ${r.path}`);
    expect(log.filter((r) => r.includes("/roles/"))).toEqual([
      `GET /iam/v2beta1/roles/${owner.uid}`,
    ]);
    expect(log.filter((r) => !r.startsWith("GET "))).toEqual([]);
  });

  it("a custom role is read with its capabilities and marked as not built in", async () => {
    const custom = await emu.client.iam.roles.create(groupUid, {
      name: uniqueName("release"),
      capabilities: ["CAP_IAM_ROLE_BINDINGS_CREATE", "CAP_REPO_LIST"],
    });
    const inputs = await checkBinding(custom.uid);
    expect(inputs.checkedRole).toEqual({
      uid: custom.uid,
      name: custom.name,
      builtIn: false,
      capabilities: ["CAP_IAM_ROLE_BINDINGS_CREATE", "CAP_REPO_LIST"],
    });
  });

  it("no checkedRole for a role uid not known yet, nor for a role that cannot be read; a stale one is dropped", async () => {
    await emu.clearRequests();
    const unknown = await checkBinding(UNKNOWN_VALUE);
    expect(unknown).not.toHaveProperty("checkedRole");
    expect(await emu.requests()).toEqual([]);
    const missing = await checkBinding(`${groupUid}/0123456789abcdef`);
    expect(missing).not.toHaveProperty("checkedRole");
    const forged = await runtime.binding.check(
      {},
      {
        groupUid,
        identityUid,
        roleUid: `${groupUid}/0123456789abcdef`,
        checkedRole: { uid: "x", name: "viewer", builtIn: true, capabilities: [] },
      },
    );
    expect(forged.inputs).not.toHaveProperty("checkedRole");
  });

  it("the state records it, a refresh gives it back with no request of the role, the diff ignores it", async () => {
    const viewer = roleNamed("viewer");
    const inputs = await checkBinding(viewer.uid);
    const created = await runtime.binding.create(inputs as never);
    const outs = created.outs as RoleBindingOutputs & { checkedRole?: unknown };
    expect(outs.checkedRole).toEqual(inputs.checkedRole);
    await emu.clearRequests();
    const refreshed = await runtime.binding.read(created.id, outs);
    expect(refreshed.inputs).toMatchObject({ checkedRole: inputs.checkedRole });
    expect(refreshed.props).toMatchObject({ checkedRole: inputs.checkedRole });
    expect((await emu.requests()).map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /iam/v2beta1/roleBindings/${created.id}`,
    ]);
    const other = { ...inputs, checkedRole: { ...(inputs.checkedRole as object), name: "x" } };
    expect(await runtime.binding.diff(created.id, outs, other as never)).toEqual({
      changes: false,
    });
  });

  it("an unchanged role keeps the state's record with no request; a changed one is read", async () => {
    const viewer = roleNamed("viewer");
    const editor = roleNamed("editor");
    const recorded = { uid: viewer.uid, name: "viewer", builtIn: true, capabilities: [] };
    const olds = { groupUid, identityUid, roleUid: viewer.uid, checkedRole: recorded };
    await emu.clearRequests();
    const same = await runtime.binding.check(olds, { groupUid, identityUid, roleUid: viewer.uid });
    expect((same.inputs as unknown as Record<string, unknown>).checkedRole).toEqual(recorded);
    expect(await emu.requests()).toEqual([]);
    const changed = await runtime.binding.check(olds, {
      groupUid,
      identityUid,
      roleUid: editor.uid,
    });
    expect((changed.inputs as unknown as Record<string, unknown>).checkedRole).toMatchObject({
      uid: editor.uid,
      name: "editor",
    });
  });

  it("an identity provider's check reads its default role", async () => {
    const editor = roleNamed("editor");
    const result = await runtime.idp.check(
      {},
      {
        parentUid: groupUid,
        name: uniqueName("sso"),
        defaultRole: editor.uid,
        oidc: { issuer: "https://login.example.com", clientId: "irm-client" },
        clientSecret: "a-client-secret",
      },
    );
    expect(result.failures).toEqual([]);
    expect((result.inputs as unknown as Record<string, unknown>).checkedRole).toMatchObject({
      uid: editor.uid,
      name: "editor",
      builtIn: true,
    });
  });
});
