/**
 * The v1 lists of roles, role bindings, identity providers, group invites and account
 * associations, over their v1 HTTP routes: each v1 filter becomes the v2beta1 list's
 * query, every page of that list is read, and each item is reshaped into the v1 message
 * (the Go scenario in `contract/grpcscenario` judges them with the official clients).
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { TestEmulator } from "../../harness/emulator";
import { failure, type Json, type Org, useTestOrg } from "../support/emulator-org";

let emu: TestEmulator;
let o: Org;
let group: string;
let viewer: string;

useTestOrg((started) => {
  ({ emu, o } = started);
});
beforeAll(async () => {
  group = await o.group(emu.rootGroupUid);
  viewer = await o.builtIn("viewer");
});

const items = async (path: string, call = o.call): Promise<Json[]> => {
  const reply = await call<{ items: Json[] }>("GET", path);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.items;
};

describe("v1 lists", () => {
  it("answer every match, beyond one page of the v2 list (v1 lists have no pages)", async () => {
    const many = await o.group(group);
    const made: string[] = [];
    for (let index = 0; index < 205; index++) {
      made.push(await o.role(many, ["CAP_REPO_LIST"], `role-${index}`));
    }
    const listed = await items(`/iam/v1/roles?parent=${many}`);
    expect(listed.map((role) => role.id).sort()).toEqual([...made].sort());
  });

  it("answer the v1 shape only: id, no uid and no v2 times", async () => {
    const role = await o.role(group, ["CAP_REPO_LIST", "CAP_IAM_GROUPS_LIST"], "shaped");
    const [listed] = await items(`/iam/v1/roles?id=${role}`);
    expect(listed).toEqual({
      id: role,
      name: "shaped",
      description: "",
      capabilities: ["CAP_IAM_GROUPS_LIST", "CAP_REPO_LIST"],
    });
    const provider = await o.call<Json>("POST", `/iam/v2beta1/identityProviders/${group}`, {
      body: {
        name: "sso",
        defaultRole: viewer,
        oidc: { issuer: "https://sso.example", clientId: "c", clientSecret: "s3cret-value" },
      },
    });
    expect(provider.status, provider.text).toBe(200);
    const reply = await o.call("GET", `/iam/v1/identityProviders?id=${provider.body.uid}`);
    expect(reply.text).not.toContain("s3cret-value");
    expect((reply.body as { items: Json[] }).items).toEqual([
      {
        id: provider.body.uid,
        name: "sso",
        description: "",
        defaultRole: viewer,
        oidc: {
          issuer: "https://sso.example",
          clientId: "c",
          additionalScopes: [],
          groupsClaim: "",
        },
      },
    ]);
  });

  it("`parent` is a custom role's group, or / for the built-in roles", async () => {
    const atRoot = await items("/iam/v1/roles?parent=/");
    expect(atRoot.length).toBeGreaterThan(0);
    expect(atRoot.every((role) => !String(role.id).includes("/"))).toBe(true);
    expect(atRoot.map((role) => role.id)).toContain(viewer);
    const below = await o.group(group);
    const role = await o.role(below, ["CAP_REPO_LIST"]);
    expect((await items(`/iam/v1/roles?parent=${below}`)).map((r) => r.id)).toEqual([role]);
    // The role's group only: not its ancestors'.
    expect((await items(`/iam/v1/roles?parent=${group}`)).map((r) => r.id)).not.toContain(role);
  });

  it("`id` finds an object, and nothing once it is deleted", async () => {
    const identity = await o.identity(group);
    const binding = await o.bind(group, identity, viewer);
    expect((await items(`/iam/v1/rolebindings?id=${binding}`)).map((b) => b.id)).toEqual([binding]);
    expect((await o.call("DELETE", `/iam/v2beta1/roleBindings/${binding}`)).status).toBe(200);
    expect(await items(`/iam/v1/rolebindings?id=${binding}`)).toEqual([]);
    // `id` narrows a `uidp.ids` given beside it.
    expect(await items(`/iam/v1/rolebindings?id=${binding}&uidp.ids=${group}`)).toEqual([]);
  });

  it("group invites: `group` takes the invites rooted under it, `key_id` or `keyId` one key", async () => {
    const below = await o.group(group);
    const made = await o.call<Json>("POST", `/iam/v2beta1/groupInvites/${below}`, {
      body: { roleUid: viewer, ttl: "3600s" },
    });
    expect(made.status, made.text).toBe(200);
    const { uid, keyId } = made.body as { uid: string; keyId: string };
    for (const path of [
      `/iam/v1/group_invites?group=${below}`,
      `/iam/v1/group_invites?group=${group}`,
      `/iam/v1/group_invites?key_id=${keyId}`,
      `/iam/v1/group_invites?keyId=${keyId}`,
    ]) {
      expect(
        (await items(path)).map((invite) => invite.id),
        path,
      ).toEqual([uid]);
    }
    const [invite] = await items(`/iam/v1/group_invites?id=${uid}`);
    expect(invite).not.toHaveProperty("code");
    expect(invite.role).toMatchObject({ id: viewer, name: "viewer" });
    const other = await o.group(group);
    expect(await items(`/iam/v1/group_invites?group=${other}`)).toEqual([]);
  });

  it("account associations: `group` is the association's group, answered as `group`", async () => {
    const associated = await o.group(group);
    const made = await o.call("POST", `/iam/v2beta1/accountAssociations/${associated}`, {
      body: { name: "cloud", amazon: { account: "123456789012" } },
    });
    expect(made.status, made.text).toBe(200);
    expect(await items(`/iam/v1/account_associations?group=${associated}`)).toEqual([
      { group: associated, name: "cloud", description: "", amazon: { account: "123456789012" } },
    ]);
    expect(await items(`/iam/v1/account_associations?group=${group}`)).toEqual([]);
  });

  it("a caller sees only what the v2 list shows it", async () => {
    const visible = await o.group(group);
    const hidden = await o.group(group);
    const shown = await o.role(visible, ["CAP_REPO_LIST"]);
    await o.role(hidden, ["CAP_REPO_LIST"]);
    const actor = await o.actor(visible, [[visible, viewer]]);
    const v2 = await actor.call<{ roles: Json[] }>(
      "GET",
      `/iam/v2beta1/roles?uidp.descendants_of=${group}&page_size=200`,
    );
    const v1 = await items(`/iam/v1/roles?uidp.descendants_of=${group}`, actor.call);
    expect(v1.map((role) => role.id)).toEqual(v2.body.roles.map((role) => role.uid));
    expect(v1.map((role) => role.id)).toEqual([shown]);
  });

  it("bad filters name the v1 field; writes and paths below a list are UNIMPLEMENTED", async () => {
    expect(failure(await o.call("GET", "/iam/v1/roles?id=nope"))).toEqual([
      400,
      "Invalid argument: id: must be a uid (hex segments separated by /)",
    ]);
    expect(failure(await o.call("GET", "/iam/v1/roles?parent=nope"))[1]).toMatch(/^.*parent: /);
    expect(failure(await o.call("GET", "/iam/v1/group_invites?group=nope"))[1]).toMatch(/group: /);
    expect((await o.call("POST", `/iam/v1/roles`, { body: {} })).status).toBe(501);
    expect((await o.call("GET", `/iam/v1/rolebindings/${group}`)).status).toBe(501);
    expect((await o.call("GET", "/iam/v1/roles", { token: null })).status).toBe(401);
  });
});
