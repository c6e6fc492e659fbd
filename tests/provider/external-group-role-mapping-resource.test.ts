/**
 * `ExternalGroupRoleMapping`: provider methods called directly against the emulator
 * (request counts from its log). A mapping never changes: every input replaces it; its
 * identity provider must exist before a create; a duplicate is refused with how to
 * adopt it; a lost create finds the mapping it made.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { UNKNOWN_VALUE } from "../../provider/checks";
import { getExternalGroupRoleMappings } from "../../provider/lookups";
import * as runtime from "../../provider/runtime";
import type {
  ExternalGroupRoleMappingInputs,
  ExternalGroupRoleMappingOutputs,
} from "../../provider/types";
import { type ProviderFixture, useProviderFixture } from "../support/provider-fixture";

let emu: ProviderFixture;
let viewer: string;
const { freshGroup } = useProviderFixture({
  groupPrefix: "sso",
  onStart(fixture) {
    emu = fixture;
  },
});
beforeAll(async () => {
  viewer = (await emu.client.iam.roles.list({ name: "viewer" })).items[0].uid;
});

async function freshProvider(): Promise<string> {
  const group = await freshGroup();
  const provider = await emu.client.iam.identityProviders.create(group, {
    name: "sso",
    defaultRole: viewer,
    oidc: { issuer: "https://idp.example", clientId: "c", pkceEnabled: true },
  });
  await emu.clearRequests();
  return provider.uid;
}

function declared(identityProviderUid: string, overrides: Record<string, unknown> = {}) {
  return {
    identityProviderUid,
    externalGroupId: "engineering",
    roleUid: viewer,
    scope: emu.rootGroupUid,
    ...overrides,
  };
}

async function checked(news: Record<string, unknown>): Promise<ExternalGroupRoleMappingInputs> {
  const result = await runtime.egrm.check({}, news);
  expect(result.failures).toEqual([]);
  return result.inputs as ExternalGroupRoleMappingInputs;
}

async function created(news: Record<string, unknown>) {
  const inputs = await checked(news);
  await emu.clearRequests();
  const result = await runtime.egrm.create(inputs);
  return { id: result.id, outs: result.outs as ExternalGroupRoleMappingOutputs };
}

describe("ExternalGroupRoleMapping check", () => {
  it("names each bad field and its rule before any request", async () => {
    const result = await runtime.egrm.check(
      {},
      {
        identityProviderUid: emu.rootGroupUid,
        externalGroupId: "x".repeat(257),
        roleUid: "viewer",
        scope: "root",
      },
    );
    const byProperty = Object.fromEntries(
      (result.failures ?? []).map((f) => [f.property, f.reason]),
    );
    expect(Object.keys(byProperty).sort()).toEqual([
      "externalGroupId",
      "identityProviderUid",
      "roleUid",
      "scope",
    ]);
    expect(byProperty.externalGroupId).toBe("must be at most 256 characters, got 257");
    expect(await emu.requests()).toEqual([]);
  });

  it("refuses a scope other than the provider's organisation in preview", async () => {
    const idp = `${emu.rootGroupUid}/0123456789abcdef`;
    const below = `${emu.rootGroupUid}/fedcba9876543210`;
    const result = await runtime.egrm.check({}, declared(idp, { scope: below }));
    expect(result.failures).toEqual([
      {
        property: "scope",
        reason: `must be the identity provider's organisation (its root group ${emu.rootGroupUid}), got ${below}`,
      },
    ]);
  });

  it("refuses a provider that does not exist, naming it; values unknown in preview pass", async () => {
    const missing = `${emu.rootGroupUid}/0123456789abcdef`;
    const result = await runtime.egrm.check({}, declared(missing));
    expect(result.failures).toEqual([
      {
        property: "identityProviderUid",
        reason: `no identity provider ${missing} exists (or this token may not see it); nothing was created`,
      },
    ]);
    const preview = await runtime.egrm.check(
      {},
      declared(UNKNOWN_VALUE, { roleUid: UNKNOWN_VALUE, scope: UNKNOWN_VALUE }),
    );
    expect(preview.failures).toEqual([]);
  });
});

describe("ExternalGroupRoleMapping lifecycle", () => {
  it("creates with one request; refresh sees no change; any change replaces; deletes", async () => {
    const idp = await freshProvider();
    const mapping = await created(declared(idp));
    expect((await emu.requests()).map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /iam/v2beta1/externalGroupRoleMappings/${idp}`,
    ]);
    expect(mapping.outs).toEqual({
      uid: mapping.id,
      identityProviderUid: idp,
      externalGroupId: "engineering",
      roleUid: viewer,
      scope: emu.rootGroupUid,
      createTime: expect.stringMatching(/Z$/),
    });
    const inputs = await checked(declared(idp));
    expect(await runtime.egrm.diff(mapping.id, mapping.outs, inputs)).toMatchObject({
      changes: false,
    });
    const refreshed = await runtime.egrm.read(mapping.id, mapping.outs);
    expect(refreshed.props).toMatchObject(mapping.outs);
    const renamed = await checked(declared(idp, { externalGroupId: "operations" }));
    expect(await runtime.egrm.diff(mapping.id, mapping.outs, renamed)).toMatchObject({
      changes: true,
      replaces: ["externalGroupId"],
    });
    await emu.clearRequests();
    await runtime.egrm.delete(mapping.id, mapping.outs);
    expect((await emu.requests()).map((r) => `${r.method} ${r.status}`)).toEqual(["DELETE 200"]);
    const gone = await runtime.egrm.read(mapping.id, mapping.outs);
    expect(gone.id).toBe("");
  });

  it("a duplicate is refused, naming the existing mapping and adoptUid; adoption takes it", async () => {
    const idp = await freshProvider();
    const existing = await emu.client.iam.externalGroupRoleMappings.create(idp, {
      externalGroupId: "engineering",
      roleUid: viewer,
      scope: emu.rootGroupUid,
    });
    const inputs = await checked(declared(idp));
    await expect(runtime.egrm.create(inputs)).rejects.toThrow(
      `already exists as ${existing.uid}. To manage it from this stack, set adoptUid to ${existing.uid}`,
    );
    const adopted = await created(declared(idp, { adoptUid: existing.uid }));
    expect(adopted.id).toBe(existing.uid);
    expect((await emu.requests()).map((r) => r.method)).toEqual(["GET"]);
  });

  it("a create whose answer was lost finds the mapping it made, making no second one", async () => {
    const idp = await freshProvider();
    await emu.fault({
      match: { method: "POST", path: `/iam/v2beta1/externalGroupRoleMappings/${idp}` },
      drop: "after",
    });
    const mapping = await created(declared(idp));
    expect((await emu.requests()).map((r) => `${r.method} ${r.status}`)).toEqual([
      "POST 0",
      "GET 200",
    ]);
    const listed = await emu.client.iam.externalGroupRoleMappings
      .list({ identityProviderUid: idp })
      .all();
    expect(listed.map((m) => m.uid)).toEqual([mapping.id]);
  });
});

describe("getExternalGroupRoleMappings", () => {
  it("lists a provider's mappings in one request, optionally of one outside group", async () => {
    const idp = await freshProvider();
    const opts = { settings: { apiUrl: emu.url, token: emu.token } };
    const mappings = emu.client.iam.externalGroupRoleMappings;
    const staff = await mappings.create(idp, {
      externalGroupId: "staff",
      roleUid: viewer,
      scope: emu.rootGroupUid,
    });
    const admins = await mappings.create(idp, {
      externalGroupId: "admins",
      roleUid: viewer,
      scope: emu.rootGroupUid,
    });
    await emu.clearRequests();
    const all = await getExternalGroupRoleMappings({ identityProviderUid: idp }, opts);
    expect(all.map((m) => m.uid).sort()).toEqual([staff.uid, admins.uid].sort());
    expect(await emu.requests()).toHaveLength(1);
    const one = await getExternalGroupRoleMappings(
      { identityProviderUid: idp, externalGroupId: "admins" },
      opts,
    );
    expect(one).toEqual([admins]);
    await expect(
      getExternalGroupRoleMappings({ identityProviderUid: "sso" }, opts),
    ).rejects.toThrow("getExternalGroupRoleMappings: identityProviderUid: must be a child uid");
  });
});
