/**
 * A RoleBinding's state holds only what the binding owns and what cannot change under
 * it: after its group or identity is renamed or redescribed, or a custom role it binds
 * is renamed, reading the binding gives exactly the state it has, so a refresh of an
 * unchanged stack reports no change whatever ran before.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as runtime from "../../provider/runtime";
import type { RoleBindingInputs, RoleBindingOutputs } from "../../provider/types";
import { type ProviderFixture, startProviderFixture } from "../support/provider-fixture";
import { roleBindingProvider } from "../support/provider-texts";

let emu: ProviderFixture;
let viewerRoleUid: string;

beforeAll(async () => {
  emu = await startProviderFixture();
  const roles = await emu.client.iam.roles.list({ name: "viewer" });
  viewerRoleUid = roles.items[0].uid;
});

afterAll(async () => {
  await emu?.close();
});

beforeEach(async () => {
  await emu.configureRuntime();
  await emu.clearFaults();
});

let counter = 0;
const unique = (prefix: string) => `${prefix}-${++counter}`;

async function boundSetup(roleUid?: string, parentUid?: string) {
  const group = await emu.client.iam.groups.create(parentUid ?? emu.rootGroupUid, {
    name: unique("team"),
  });
  const identity = await emu.client.iam.identities.create(group.uid, {
    name: unique("ci"),
    description: "first words",
    claimMatch: { issuer: emu.issuer, subject: "main" },
  });
  const checked = await runtime.binding.check(
    {},
    { groupUid: group.uid, identityUid: identity.uid, roleUid: roleUid ?? viewerRoleUid },
  );
  expect(checked.failures).toEqual([]);
  const created = await runtime.binding.create(checked.inputs as RoleBindingInputs);
  return { group, identity, created, inputs: checked.inputs as RoleBindingInputs };
}

describe("RoleBinding state after what it refers to changes", () => {
  it("renaming the group and the identity and changing their descriptions changes nothing in the binding's state", async () => {
    const { group, identity, created, inputs } = await boundSetup();
    const state = created.outs as RoleBindingOutputs;
    expect(state).toEqual({
      uid: created.id,
      groupUid: group.uid,
      identityUid: identity.uid,
      roleUid: viewerRoleUid,
      builtInRoleName: "viewer",
      createTime: expect.any(String),
      // What the check read of the role when the binding was made (checked-role.ts).
      checkedRole: expect.objectContaining({ uid: viewerRoleUid, name: "viewer" }),
    });

    await emu.client.iam.groups.update(group.uid, { name: unique("renamed"), description: "new" });
    await emu.client.iam.identities.update(identity.uid, {
      name: unique("renamed-ci"),
      description: "other words",
    });

    await emu.clearRequests();
    const refreshed = await runtime.binding.read(created.id, state);
    // A refresh writes this release's provider text into both, nothing else moves.
    expect(refreshed).toEqual({
      id: created.id,
      props: { ...state, __provider: roleBindingProvider },
      inputs: { ...inputs, __provider: roleBindingProvider },
    });
    expect(await runtime.binding.diff(created.id, refreshed.props!, inputs)).toEqual({
      changes: false,
    });
    // One request: the binding's own GET (the role's name is carried over, it cannot change).
    expect((await emu.requests()).map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /iam/v2beta1/roleBindings/${created.id}`,
    ]);
  });

  it("a custom role renamed under the binding changes nothing either: its name is never kept", async () => {
    const team = await emu.client.iam.groups.create(emu.rootGroupUid, { name: unique("owner") });
    const role = await emu.client.iam.roles.create(team.uid, {
      name: unique("deployers"),
      capabilities: ["CAP_REPO_LIST"],
    });
    // The binding is in a subgroup of the role's group, where the custom role applies.
    const { created } = await boundSetup(role.uid, team.uid);
    const state = created.outs as RoleBindingOutputs;
    expect(state.builtInRoleName).toBe("");
    await emu.client.iam.roles.update(role.uid, { name: unique("renamed-role") });
    const refreshed = await runtime.binding.read(created.id, state);
    expect(refreshed.props).toEqual({ ...state, __provider: roleBindingProvider });
  });

  it("state written by an earlier version (hydrated copies) is rewritten once to the owned fields", async () => {
    const { created } = await boundSetup();
    const state = created.outs as RoleBindingOutputs;
    const legacy = {
      ...state,
      builtInRoleName: undefined,
      identity: { uid: state.identityUid, name: "old", description: "", subject: "", issuer: "" },
      group: { uid: state.groupUid, name: "old", description: "" },
      role: { uid: state.roleUid, name: "viewer", description: "" },
    } as unknown as RoleBindingOutputs;
    const refreshed = await runtime.binding.read(created.id, legacy);
    expect(refreshed.props).toEqual({ ...state, __provider: roleBindingProvider });
  });
});

describe("RoleBinding's built-in role name", () => {
  it("comes from the binding's own answer: a create is one POST, with no look-up of the role", async () => {
    await emu.configureRuntime();
    const editor = (await emu.client.iam.roles.list({ name: "editor" })).items[0].uid;
    const group = await emu.client.iam.groups.create(emu.rootGroupUid, { name: unique("team") });
    const custom = await emu.client.iam.roles.create(group.uid, {
      name: unique("deployer"),
      capabilities: ["CAP_IAM_GROUPS_LIST"],
    });
    const identities = await Promise.all(
      [1, 2, 3].map((i) =>
        emu.client.iam.identities.create(group.uid, {
          name: unique(`ci${i}`),
          claimMatch: { issuer: emu.issuer, subject: `main-${i}` },
        }),
      ),
    );
    await emu.clearRequests();
    const created = await Promise.all(
      identities.map((identity, i) =>
        runtime.binding.create({
          groupUid: group.uid,
          identityUid: identity.uid,
          roleUid: i === 2 ? custom.uid : editor,
        }),
      ),
    );
    expect(created.map((c) => (c.outs as RoleBindingOutputs).builtInRoleName)).toEqual([
      "editor",
      "editor",
      "",
    ]);
    const requests = await emu.requests();
    expect(requests.map((r) => `${r.method} ${r.path.split("/").slice(0, 4).join("/")}`)).toEqual([
      "POST /iam/v2beta1/roleBindings",
      "POST /iam/v2beta1/roleBindings",
      "POST /iam/v2beta1/roleBindings",
    ]);
  });
});
