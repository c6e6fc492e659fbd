/**
 * External group role mappings (`ExternalGroupRoleMappingsService` at HEAD): create under
 * an identity provider, Get, List (by provider), idempotent Delete, `:batchDelete`, the
 * capabilities each needs, the anti-escalation rule, and what a mapping blocks.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { TestEmulator } from "../../harness/emulator";
import { failure, type Json, type Org, useTestOrg } from "../support/emulator-org";

let emu: TestEmulator;
let o: Org;
let viewer: string;

const path = (suffix = "") => `/iam/v2beta1/externalGroupRoleMappings${suffix}`;

useTestOrg((started) => {
  ({ emu, o } = started);
});
beforeAll(async () => {
  viewer = await o.builtIn("viewer");
});

async function provider(): Promise<string> {
  return o.identityProvider(await o.group(emu.rootGroupUid), viewer);
}

function mapping(overrides: Json = {}): Json {
  return { externalGroupId: "engineering", roleUid: viewer, scope: emu.rootGroupUid, ...overrides };
}

async function create(parent: string, body: Json = mapping()): Promise<Json> {
  const reply = await o.call<Json>("POST", path(`/${parent}`), { body });
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

describe("create, get, list", () => {
  it("answers the mapping under its provider; Get and List answer the same", async () => {
    const idp = await provider();
    const created = await create(idp);
    expect(created).toEqual({
      uid: expect.stringMatching(new RegExp(`^${idp}/[0-9a-f]{16}$`)),
      identityProviderUid: idp,
      externalGroupId: "engineering",
      roleUid: viewer,
      scope: emu.rootGroupUid,
      createTime: expect.stringMatching(/Z$/),
    });
    const got = await o.call<Json>("GET", path(`/${created.uid}`));
    expect(got.body).toEqual(created);
    const listed = await o.call<Json>("GET", path(`?identity_provider_uid=${idp}`));
    expect(listed.body.externalGroupRoleMappings).toEqual([created]);
    expect(listed.body.totalCount).toBe("1");
    const other = await provider();
    const none = await o.call<Json>("GET", path(`?identityProviderUid=${other}`));
    expect(none.body.externalGroupRoleMappings).toEqual([]);
  });

  it.each([
    [{ externalGroupId: "" }, "externalGroupId: is required"],
    [{ externalGroupId: "x".repeat(257) }, "externalGroupId: must be at most 256 characters"],
    [{ roleUid: "" }, "roleUid: is required"],
    [
      { roleUid: "not-a-uid" },
      "roleUid: must be a role uid (40 hex characters, or a custom role's group uid / 16 hex)",
    ],
    [{ scope: undefined }, "scope: is required"],
  ])("refuses %j before anything is made", async (overrides, message) => {
    const idp = await provider();
    const reply = await o.call<Json>("POST", path(`/${idp}`), { body: mapping(overrides) });
    expect(failure(reply)[0]).toBe(400);
    expect(failure(reply)[1]).toContain(message.split(":")[0]);
    const listed = await o.call<Json>("GET", path(`?identity_provider_uid=${idp}`));
    expect(listed.body.externalGroupRoleMappings).toEqual([]);
  });

  it("the scope must be the provider's organisation", async () => {
    const idp = await provider();
    const below = await o.group(emu.rootGroupUid);
    const reply = await o.call<Json>("POST", path(`/${idp}`), { body: mapping({ scope: below }) });
    expect(failure(reply)).toEqual([
      400,
      "Invalid argument: scope: must be the organisation (root group) of the identity provider",
    ]);
  });

  it("the parent must be an identity provider; the role must exist", async () => {
    const group = await o.group(emu.rootGroupUid);
    const missingProvider = `${group}/0123456789abcdef`;
    const noParent = await o.call("POST", path(`/${missingProvider}`), { body: mapping() });
    expect(failure(noParent)).toEqual([404, `Not found: ${missingProvider}`]);
    const idp = await provider();
    const missingRole = "f".repeat(40);
    const noRole = await o.call("POST", path(`/${idp}`), {
      body: mapping({ roleUid: missingRole }),
    });
    expect(failure(noRole)).toEqual([404, `Not found: ${missingRole}`]);
  });

  it("the same group, role and scope twice is ALREADY_EXISTS", async () => {
    const idp = await provider();
    await create(idp);
    const again = await o.call("POST", path(`/${idp}`), { body: mapping() });
    expect(again.status).toBe(409);
    await create(idp, mapping({ externalGroupId: "operations" }));
  });
});

describe("capabilities", () => {
  it("a create needs the providers' CREATE and the bindings' CREATE capabilities", async () => {
    const idp = await provider();
    const onlyProviders = await o.actorWith(emu.rootGroupUid, [
      "CAP_IAM_IDENTITY_PROVIDERS_CREATE",
    ]);
    const refused = await onlyProviders.call("POST", path(`/${idp}`), { body: mapping() });
    expect(failure(refused)[0]).toBe(403);
    expect(failure(refused)[1]).toContain("CAP_IAM_ROLE_BINDINGS_CREATE");
  });

  it("no one maps a role holding more than they hold at the scope", async () => {
    const idp = await provider();
    const owner = await o.builtIn("owner");
    const actor = await o.actorWith(emu.rootGroupUid, [
      "CAP_IAM_IDENTITY_PROVIDERS_CREATE",
      "CAP_IAM_ROLE_BINDINGS_CREATE",
      "CAP_IAM_ROLES_LIST",
    ]);
    const refused = await actor.call("POST", path(`/${idp}`), {
      body: mapping({ roleUid: owner }),
    });
    expect(failure(refused)[0]).toBe(403);
  });

  it("Get and List need the providers' LIST capability; Delete their DELETE one", async () => {
    const idp = await provider();
    const created = await create(idp);
    const stranger = await o.actorWith(await o.group(emu.rootGroupUid), ["CAP_IAM_GROUPS_LIST"]);
    expect((await stranger.call("GET", path(`/${created.uid}`))).status).toBe(403);
    const listed = await stranger.call<Json>("GET", path());
    expect(listed.body.externalGroupRoleMappings).toEqual([]);
    expect((await stranger.call("DELETE", path(`/${created.uid}`))).status).toBe(403);
  });
});

describe("delete", () => {
  it("deletes, answers NOT_FOUND after, and a second delete succeeds", async () => {
    const idp = await provider();
    const created = await create(idp);
    expect((await o.call("DELETE", path(`/${created.uid}`))).body).toEqual({});
    expect(failure(await o.call("GET", path(`/${created.uid}`)))).toEqual([
      404,
      `Not found: ${created.uid}`,
    ]);
    expect((await o.call("DELETE", path(`/${created.uid}`))).status).toBe(200);
  });

  it("a mapping blocks its provider's delete and its custom role's delete", async () => {
    const group = await o.group(emu.rootGroupUid);
    const idp = await o.identityProvider(group, viewer);
    const role = await o.role(emu.rootGroupUid, ["CAP_IAM_GROUPS_LIST"]);
    const created = await create(idp, mapping({ roleUid: role }));
    const providerDelete = await o.call("DELETE", `/iam/v2beta1/identityProviders/${idp}`);
    expect(failure(providerDelete)).toEqual([
      400,
      `Precondition failed: identity provider ${idp} still has 1 external group role mapping`,
    ]);
    const roleDelete = await o.call("DELETE", `/iam/v2beta1/roles/${role}`);
    expect(failure(roleDelete)).toEqual([
      400,
      `Precondition failed: role ${role} is still granted by 1 external group role mapping`,
    ]);
    await o.call("DELETE", path(`/${created.uid}`));
    expect((await o.call("DELETE", `/iam/v2beta1/identityProviders/${idp}`)).status).toBe(200);
    expect((await o.call("DELETE", `/iam/v2beta1/roles/${role}`)).status).toBe(200);
  });
});

describe(":batchDelete", () => {
  it("deletes the named mappings of one provider, skipping those already gone", async () => {
    const idp = await provider();
    const a = await create(idp, mapping({ externalGroupId: "a" }));
    const b = await create(idp, mapping({ externalGroupId: "b" }));
    const kept = await create(idp, mapping({ externalGroupId: "c" }));
    const gone = `${idp}/0123456789abcdef`;
    const reply = await o.call<Json>("POST", path(":batchDelete"), {
      body: { parent: idp, names: [a.uid, gone, b.uid] },
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual({ parent: idp, externalGroupRoleMappings: [a, b] });
    const listed = await o.call<Json>("GET", path(`?identity_provider_uid=${idp}`));
    expect(listed.body.externalGroupRoleMappings).toEqual([kept]);
  });

  it("a name of another provider refuses the whole batch, deleting nothing", async () => {
    const idp = await provider();
    const other = await provider();
    const mine = await create(idp);
    const theirs = await create(other);
    const reply = await o.call("POST", path(":batchDelete"), {
      body: { parent: idp, names: [mine.uid, theirs.uid] },
    });
    expect(failure(reply)).toEqual([
      400,
      "Invalid argument: names[1]: must be the uid of a mapping of parent",
    ]);
    expect((await o.call("GET", path(`/${mine.uid}`))).status).toBe(200);
    expect((await o.call("GET", path(`/${theirs.uid}`))).status).toBe(200);
  });

  it("needs the providers' DELETE capability on the parent, and a parent", async () => {
    const idp = await provider();
    const created = await create(idp);
    const lister = await o.actorWith(emu.rootGroupUid, ["CAP_IAM_IDENTITY_PROVIDERS_LIST"]);
    const refused = await lister.call("POST", path(":batchDelete"), {
      body: { parent: idp, names: [created.uid] },
    });
    expect(failure(refused)[0]).toBe(403);
    const noParent = await o.call("POST", path(":batchDelete"), { body: { names: [created.uid] } });
    expect(failure(noParent)).toEqual([400, "Invalid argument: parent: is required"]);
    expect((await o.call("GET", path(`/${created.uid}`))).status).toBe(200);
  });
});
