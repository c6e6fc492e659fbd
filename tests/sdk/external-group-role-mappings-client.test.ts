/**
 * `client.iam.externalGroupRoleMappings`: the requests each verb sends (a stand-in), the
 * answers it refuses, and the whole round trip against the emulator; and the other
 * batch call HEAD adds, `client.iam.roleBindings.batchCreate`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import {
  AlreadyExistsError,
  BadResponseError,
  type IrmClient,
  OutcomeUnknownError,
} from "../../sdk";
import { clientFor, closeClients, failure } from "../support/sdk-helpers";
import { json, StandIn } from "../support/sdk-stand-in";

const ROOT = "a".repeat(40);
const IDP = `${ROOT}/0123456789abcdef`;
const MAPPING = `${IDP}/fedcba9876543210`;
const VIEWER = "b".repeat(40);

function mapping(overrides: Record<string, unknown> = {}) {
  return {
    uid: MAPPING,
    identityProviderUid: IDP,
    externalGroupId: "engineering",
    roleUid: VIEWER,
    scope: ROOT,
    createTime: "2026-11-29T10:00:00.000Z",
    ...overrides,
  };
}

describe("against a stand-in", () => {
  let standIn: StandIn;
  beforeAll(async () => {
    standIn = await new StandIn().start();
  });
  afterEach(() => standIn.reset());
  afterAll(() => standIn.close());

  it("creates under the provider, reads, lists by provider, deletes, batch-deletes", async () => {
    const client = standIn.client();
    const mappings = client.iam.externalGroupRoleMappings;
    standIn.answer(
      json(mapping()),
      json(mapping()),
      json({ externalGroupRoleMappings: [mapping()], totalCount: "1" }),
      json({}),
      json({ parent: IDP, externalGroupRoleMappings: [mapping()] }),
    );
    const body = { externalGroupId: "engineering", roleUid: VIEWER, scope: ROOT };
    expect(await mappings.create(IDP, body)).toEqual(mapping());
    await mappings.get(MAPPING);
    const page = await mappings.list({ identityProviderUid: IDP, pageSize: 10 });
    expect(page.items).toEqual([mapping()]);
    await mappings.delete(MAPPING);
    const removed = await mappings.batchDelete(IDP, [MAPPING]);
    expect(removed).toEqual({ parent: IDP, externalGroupRoleMappings: [mapping()] });
    const base = "/iam/v2beta1/externalGroupRoleMappings";
    expect(standIn.seen.map((r) => `${r.method} ${r.path}?${r.rawQuery}`)).toEqual([
      `POST ${base}/${IDP}?`,
      `GET ${base}/${MAPPING}?`,
      `GET ${base}?page_size=10&identity_provider_uid=${encodeURIComponent(IDP)}`,
      `DELETE ${base}/${MAPPING}?`,
      `POST ${base}:batchDelete?`,
    ]);
    expect(standIn.seen[0].body).toEqual(body);
    expect(standIn.seen[4].body).toEqual({ parent: IDP, names: [MAPPING] });
  });

  it.each([
    ["a uid not under its provider", { identityProviderUid: ROOT }, "identityProviderUid"],
    ["a role that is no role uid", { roleUid: "viewer" }, "roleUid"],
    ["an outside group id past the bound", { externalGroupId: "x".repeat(257) }, "externalGroupId"],
    ["no createTime", { createTime: undefined }, "createTime"],
  ])("refuses a Get answering %s", async (_what, overrides, field) => {
    standIn.answer(json(mapping(overrides)));
    const error = await failure(standIn.client().iam.externalGroupRoleMappings.get(MAPPING));
    expect(error).toBeInstanceOf(BadResponseError);
    expect((error as Error).message).toContain(`externalGroupRoleMapping.${field}`);
  });

  it("a create answered with a mapping of another provider is an unknown outcome", async () => {
    standIn.answer(
      json(
        mapping({
          uid: `${ROOT}/1111111111111111/fedcba9876543210`,
          identityProviderUid: `${ROOT}/1111111111111111`,
        }),
      ),
    );
    const error = await failure(
      standIn.client().iam.externalGroupRoleMappings.create(IDP, {
        externalGroupId: "e",
        roleUid: VIEWER,
        scope: ROOT,
      }),
    );
    expect(error).toBeInstanceOf(OutcomeUnknownError);
  });

  it("refuses a list item of another provider than filtered on", async () => {
    const other = `${ROOT}/1111111111111111`;
    standIn.answer(
      json({
        externalGroupRoleMappings: [
          mapping({ uid: `${other}/fedcba9876543210`, identityProviderUid: other }),
        ],
        totalCount: "1",
      }),
    );
    const error = await failure(
      standIn.client().iam.externalGroupRoleMappings.list({ identityProviderUid: IDP }),
    );
    expect(error).toBeInstanceOf(BadResponseError);
    expect((error as Error).message).toContain("externalGroupRoleMappings[0].identityProviderUid");
  });

  it("batchDelete refuses an answer naming a mapping not asked for, and bad names before any request", async () => {
    standIn.answer(
      json({
        parent: IDP,
        externalGroupRoleMappings: [mapping({ uid: `${IDP}/0000000000000000` })],
      }),
    );
    const mappings = standIn.client().iam.externalGroupRoleMappings;
    const error = await failure(mappings.batchDelete(IDP, [MAPPING]));
    expect(error).toBeInstanceOf(BadResponseError);
    expect((error as Error).message).toContain("is not one of the names sent");
    expect(await failure(mappings.batchDelete(IDP, []))).toBeInstanceOf(TypeError);
    expect(standIn.seen).toHaveLength(1);
  });
});

describe("against the emulator", () => {
  let emu: TestEmulator;
  let client: IrmClient;
  let viewer: string;
  beforeAll(async () => {
    emu = await startTestEmulator();
    client = clientFor(emu).client;
    viewer = (await client.iam.roles.list({ name: "viewer" })).items[0].uid;
  });
  afterAll(async () => {
    await closeClients();
    await emu.close();
  });

  it("creates, lists, refuses a duplicate and batch-deletes", async () => {
    const team = await client.iam.groups.create(emu.rootGroupUid, { name: "sso team" });
    const idp = await client.iam.identityProviders.create(team.uid, {
      name: "sso",
      defaultRole: viewer,
      oidc: { issuer: "https://idp.example", clientId: "c", pkceEnabled: true },
    });
    const mappings = client.iam.externalGroupRoleMappings;
    const fields = { externalGroupId: "eng", roleUid: viewer, scope: emu.rootGroupUid };
    const made = await mappings.create(idp.uid, fields);
    expect(made).toMatchObject({ ...fields, identityProviderUid: idp.uid });
    expect(await failure(mappings.create(idp.uid, fields))).toBeInstanceOf(AlreadyExistsError);
    const listed = await mappings.list({ identityProviderUid: idp.uid }).all();
    expect(listed).toEqual([made]);
    const removed = await mappings.batchDelete(idp.uid, [made.uid]);
    expect(removed.externalGroupRoleMappings).toEqual([made]);
    expect(await mappings.list({ identityProviderUid: idp.uid }).all()).toEqual([]);
  });
});

describe("roleBindings.batchCreate", () => {
  let emu: TestEmulator;
  let client: IrmClient;
  beforeAll(async () => {
    emu = await startTestEmulator();
    client = clientFor(emu).client;
  });
  afterAll(async () => {
    await closeClients();
    await emu.close();
  });

  it("makes the bindings in one request, in the order given, and refuses bad input before any", async () => {
    const viewer = (await client.iam.roles.list({ name: "viewer" })).items[0].uid;
    const team = await client.iam.groups.create(emu.rootGroupUid, { name: "batch team" });
    const who = await Promise.all(
      ["a", "b"].map((n) =>
        client.iam.identities.create(team.uid, {
          name: `ci ${n}`,
          claimMatch: { issuer: "https://issuer.example", subject: `repo:${n}` },
        }),
      ),
    );
    await emu.clearRequests();
    const made = await client.iam.roleBindings.batchCreate(
      team.uid,
      who.map((identity) => ({ identityUid: identity.uid, roleUid: viewer })),
    );
    expect(made.map((b) => b.identity.uid)).toEqual(who.map((i) => i.uid));
    expect((await emu.requests()).map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /iam/v2beta1/roleBindings:batchCreate",
    ]);
    const tooMany = Array.from({ length: 26 }, () => ({
      identityUid: who[0].uid,
      roleUid: viewer,
    }));
    expect(await failure(client.iam.roleBindings.batchCreate(team.uid, tooMany))).toBeInstanceOf(
      TypeError,
    );
    expect(await emu.requests()).toHaveLength(1);
  });
});

describe("roleBindings.batchCreate: answers are checked", () => {
  let standIn: StandIn;
  beforeAll(async () => {
    standIn = await new StandIn().start();
  });
  afterAll(() => standIn.close());

  it("an answer missing a binding is an unknown outcome", async () => {
    standIn.answer(json({ roleBindings: [] }));
    const error = await failure(
      standIn
        .client()
        .iam.roleBindings.batchCreate(ROOT, [{ identityUid: MAPPING, roleUid: VIEWER }]),
    );
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as Error).message).toContain("batchCreate.roleBindings");
  });
});
