/**
 * `IdentityProvider`: provider methods called directly against the emulator (request
 * counts from its log). The client secret is write-only in the API: these tests prove
 * it is sent when it changes (alone in the mask), kept by refresh, and never written
 * into an error.
 */
import { describe, expect, it } from "vitest";
import { UNKNOWN_VALUE } from "../../provider/checks";
import type {
  IdentityProviderInputs,
  IdentityProviderOutputs,
} from "../../provider/handlers/identity-provider";
import * as runtime from "../../provider/runtime";
import { reasonsByPlace } from "../support/check-failures";
import { maskOf, type ProviderFixture, useProviderFixture } from "../support/provider-fixture";

const SECRET = "idp-secret-5e1f0c-never-in-errors";

let emu: ProviderFixture;
let groupUid: string;
let viewerRoleUid: string;
let editorRoleUid: string;

/** A name no other test uses, so tests stay independent in one emulator. */
const { uniqueName } = useProviderFixture({
  async onStart(fixture) {
    emu = fixture;
    [groupUid] = (
      await emu.seed({ groups: [{ parentUid: emu.rootGroupUid, name: "sso" }] })
    ).groups;
    const roles = (await emu.client.iam.roles.list({ pageSize: 200 })).items;
    viewerRoleUid = roles.find((r) => r.name === "viewer")!.uid;
    editorRoleUid = roles.find((r) => r.name === "editor")!.uid;
  },
});

function raw(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    parentUid: groupUid,
    name: uniqueName("corp sso"),
    defaultRole: viewerRoleUid,
    oidc: { issuer: "https://login.example.com", clientId: "irm-client" },
    clientSecret: SECRET,
    ...overrides,
  };
}

async function checked(news: Record<string, unknown>): Promise<IdentityProviderInputs> {
  const result = await runtime.idp.check({}, news);
  expect(result.failures).toEqual([]);
  return result.inputs as IdentityProviderInputs;
}

async function created(news: Record<string, unknown>) {
  const result = await runtime.idp.create(await checked(news));
  return { id: result.id, outs: result.outs as IdentityProviderOutputs };
}

describe("IdentityProvider check", () => {
  it("names each bad field and its rule before any request, never quoting the secret", async () => {
    const result = await runtime.idp.check(
      {},
      {
        parentUid: groupUid,
        name: "ab",
        defaultRole: "viewer",
        oidc: {
          issuer: "http://login.example.com",
          clientId: "",
          additionalScopes: ["email", "two words", "email"],
          pkceEnabled: "yes",
          correlationRule: "BY_EMAIL",
        },
        clientSecret: 42,
        adoptUid: `${emu.rootGroupUid}/0123456789abcdef`,
      },
    );
    // Each failure by the place it names (nested ones on their top-level input).
    const byProperty = reasonsByPlace(result.failures);
    expect(Object.keys(byProperty).sort()).toEqual([
      "adoptUid",
      "clientSecret",
      "defaultRole",
      "name",
      "oidc.additionalScopes[1]",
      "oidc.additionalScopes[2]",
      "oidc.clientId",
      "oidc.correlationRule",
      "oidc.issuer",
      "oidc.pkceEnabled",
    ]);
    expect(byProperty.name).toMatch(/3 to 63 characters/);
    expect(byProperty["oidc.issuer"]).toMatch(/https URL/);
    expect(byProperty["oidc.additionalScopes[2]"]).toMatch(/listed twice/);
    expect(byProperty["oidc.correlationRule"]).toMatch(/CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID/);
    expect(byProperty.adoptUid).toMatch(/direct child of parentUid/);
    expect(await emu.requests()).toEqual([]);
  });

  it("requires a client secret unless PKCE is on, and fills the defaults", async () => {
    const missing = await runtime.idp.check({}, raw({ clientSecret: undefined }));
    expect(missing.failures).toEqual([
      { property: "clientSecret", reason: "is required unless oidc.pkceEnabled is true" },
    ]);
    const pkce = await checked(
      raw({
        name: "pkce only",
        clientSecret: undefined,
        oidc: { issuer: "https://login.example.com", clientId: "c", pkceEnabled: true },
      }),
    );
    expect(pkce).toMatchObject({
      description: "",
      clientSecret: "",
      oidc: {
        additionalScopes: [],
        groupsClaim: "",
        pkceEnabled: true,
        correlationRule: "CORRELATION_RULE_UNSPECIFIED",
      },
    });
    const tooLong = await runtime.idp.check({}, raw({ clientSecret: "x".repeat(5000) }));
    expect(tooLong.failures).toEqual([
      { property: "clientSecret", reason: "must be at most 4096 characters, got 5000" },
    ]);
  });

  it("refuses a secret written inside oidc, where it would be neither sent nor kept secret", async () => {
    const secret = "inside-oidc-secret-5e1d";
    const placed = await runtime.idp.check(
      {},
      raw({
        oidc: { issuer: "https://login.example.com", clientId: "c", clientSecret: secret },
      }),
    );
    expect(placed.failures).toEqual([
      {
        // On no input: the engine would print oidc's value, the secret with it.
        property: "",
        reason:
          "oidc.clientSecret: is not an input here: give the secret as clientSecret, which is kept as a Pulumi secret",
      },
    ]);
    expect(JSON.stringify(placed)).not.toContain(secret);
  });

  it("passes values not known yet in a preview", async () => {
    const preview = await runtime.idp.check(
      {},
      {
        parentUid: UNKNOWN_VALUE,
        name: UNKNOWN_VALUE,
        defaultRole: UNKNOWN_VALUE,
        oidc: UNKNOWN_VALUE,
        clientSecret: UNKNOWN_VALUE,
      },
    );
    expect(preview.failures).toEqual([]);
  });
});

describe("IdentityProvider lifecycle", () => {
  it("create (1 POST), no-op diff, one-field updates with exact masks, refresh keeps the secret, delete", async () => {
    const idp = await created(
      raw({
        oidc: { issuer: "https://login.example.com", clientId: "a", additionalScopes: ["email"] },
      }),
    );
    expect(idp.id).toMatch(new RegExp(`^${groupUid}/[0-9a-f]{16}$`));
    expect(idp.outs).toMatchObject({
      uid: idp.id,
      parentUid: groupUid,
      defaultRole: viewerRoleUid,
      clientSecret: SECRET,
      oidc: {
        issuer: "https://login.example.com",
        clientId: "a",
        additionalScopes: ["email"],
        groupsClaim: "",
        pkceEnabled: false,
      },
    });
    expect((await emu.requests()).map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /iam/v2beta1/identityProviders/${groupUid}`,
    ]);
    const inputs = await checked({
      ...raw({ name: idp.outs.name }),
      oidc: { issuer: "https://login.example.com", clientId: "a", additionalScopes: ["email"] },
    });

    await emu.clearRequests();
    expect(await runtime.idp.diff(idp.id, idp.outs, inputs)).toEqual({
      changes: false,
    });
    // UNSPECIFIED and SUB_EQUALS_EXTERNAL_ID are one rule: restating it is no change.
    const restated = {
      ...inputs,
      oidc: { ...inputs.oidc, correlationRule: "CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID" as const },
    };
    expect(await runtime.idp.diff(idp.id, idp.outs, restated)).toEqual({
      changes: false,
    });
    const oid = {
      ...inputs,
      oidc: { ...inputs.oidc, correlationRule: "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID" as const },
    };
    expect(await runtime.idp.diff(idp.id, idp.outs, oid)).toEqual({
      changes: true,
      replaces: ["oidc"],
    });
    // A pkceEnabled not yet known (preview) may differ: a change, not "no change".
    const pending = await checked({
      ...raw({ name: idp.outs.name }),
      oidc: {
        issuer: "https://login.example.com",
        clientId: "a",
        additionalScopes: ["email"],
        pkceEnabled: UNKNOWN_VALUE,
      },
    });
    expect(await runtime.idp.diff(idp.id, idp.outs, pending)).toEqual({ changes: true });
    expect(await emu.requests()).toEqual([]);

    // A new secret: one PATCH naming only oidc.clientSecret.
    const rotated = { ...inputs, clientSecret: "rotated-secret" };
    expect(await runtime.idp.diff(idp.id, idp.outs, rotated)).toEqual({
      changes: true,
    });
    const afterRotation = await runtime.idp.update(idp.id, idp.outs, rotated);
    expect(afterRotation.outs).toMatchObject({ clientSecret: "rotated-secret" });
    let log = await emu.requests();
    expect(log.map((r) => r.method)).toEqual(["PATCH"]);
    expect(maskOf(log[0])).toEqual(["oidc.client_secret"]);

    // Scopes, role and groups claim: one PATCH with exactly those paths.
    await emu.clearRequests();
    const changed = {
      ...rotated,
      defaultRole: editorRoleUid,
      oidc: { ...rotated.oidc, additionalScopes: ["email", "profile"], groupsClaim: "groups" },
    };
    const updated = await runtime.idp.update(idp.id, afterRotation.outs!, changed);
    log = await emu.requests();
    expect(log.map((r) => r.method)).toEqual(["PATCH"]);
    expect(maskOf(log[0]).sort()).toEqual([
      "default_role",
      "oidc.additional_scopes",
      "oidc.groups_claim",
    ]);
    expect(updated.outs).toMatchObject({
      defaultRole: editorRoleUid,
      clientSecret: "rotated-secret",
      oidc: { additionalScopes: ["email", "profile"], groupsClaim: "groups" },
    });

    await emu.clearRequests();
    const refreshed = await runtime.idp.read(idp.id, updated.outs);
    expect(refreshed.props?.clientSecret).toBe("rotated-secret");
    expect(refreshed.inputs).toMatchObject({
      clientSecret: "rotated-secret",
      defaultRole: editorRoleUid,
    });
    expect(await runtime.idp.diff(idp.id, refreshed.props!, changed)).toEqual({
      changes: false,
    });
    expect(await emu.requests()).toHaveLength(1);

    await emu.clearRequests();
    await runtime.idp.delete(idp.id, refreshed.props!);
    await runtime.idp.delete(idp.id, refreshed.props!);
    expect((await emu.requests()).map((r) => `${r.method} ${r.status}`)).toEqual([
      "DELETE 200",
      "DELETE 404",
    ]);
    expect(await runtime.idp.read(idp.id, refreshed.props)).toEqual({ id: "" });
  });

  it("switching to PKCE clears the secret with an explicit empty oidc.clientSecret", async () => {
    const idp = await created(raw());
    await emu.clearRequests();
    const pkce = await checked(
      raw({
        name: idp.outs.name,
        clientSecret: undefined,
        oidc: { issuer: "https://login.example.com", clientId: "irm-client", pkceEnabled: true },
      }),
    );
    const updated = await runtime.idp.update(idp.id, idp.outs, pkce);
    const log = await emu.requests();
    expect(maskOf(log[0]).sort()).toEqual(["oidc.client_secret", "oidc.pkce_enabled"]);
    expect(updated.outs).toMatchObject({ clientSecret: "", oidc: { pkceEnabled: true } });
    await runtime.idp.delete(idp.id, updated.outs!);
  });

  it("adopts by uid, sending the client secret once, and refuses another correlation rule", async () => {
    const name = uniqueName("legacy sso");
    const existing = await emu.client.iam.identityProviders.create(groupUid, {
      name,
      defaultRole: viewerRoleUid,
      oidc: { issuer: "https://login.example.com", clientId: "irm-client", clientSecret: "old" },
    });
    await emu.clearRequests();
    const adopted = await runtime.idp.create(await checked(raw({ name, adoptUid: existing.uid })));
    expect(adopted.id).toBe(existing.uid);
    expect(adopted.outs).toMatchObject({ clientSecret: SECRET });
    const log = await emu.requests();
    expect(log.map((r) => r.method)).toEqual(["GET", "PATCH"]);
    expect(maskOf(log[1])).toEqual(["oidc.client_secret"]);

    await emu.clearRequests();
    const other = runtime.idp.create(
      await checked(
        raw({
          name,
          adoptUid: existing.uid,
          oidc: {
            issuer: "https://login.example.com",
            clientId: "irm-client",
            correlationRule: "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID",
          },
        }),
      ),
    );
    await expect(other).rejects.toThrow(/cannot change it/);
    expect((await emu.requests()).map((r) => r.method)).toEqual(["GET"]);
  });

  it("recovers a create whose answer was lost without making a second provider", async () => {
    const news = raw();
    await emu.fault({
      match: { method: "POST", path: `/iam/v2beta1/identityProviders/${groupUid}` },
      drop: "after",
    });
    const idp = await created(news);
    expect(idp.outs.clientSecret).toBe(SECRET);
    expect((await emu.requests()).map((r) => r.method)).toEqual(["POST", "GET"]);
    const mine = await emu.client.iam.identityProviders.list({
      childrenOf: groupUid,
      name: news.name as string,
    });
    expect(mine.items.map((i) => i.uid)).toEqual([idp.id]);
  });

  it("keeps the secret out of the error of a refused create", async () => {
    const failure = runtime.idp.create(await checked(raw({ defaultRole: "f".repeat(40) })));
    await expect(failure).rejects.toThrow(/f{40}/);
    const message = await failure.then(
      () => "",
      (error: Error) => `${error.message}\n${error.stack ?? ""}`,
    );
    expect(message).not.toContain(SECRET);
  });

  it("a role that is some provider's defaultRole cannot be deleted: the message says so", async () => {
    await emu.configureRuntime({ "irm:deleteTimeoutMs": "0" });
    const role = await runtime.role.create(
      (
        await runtime.role.check(
          {},
          { parentUid: groupUid, name: uniqueName("sso users"), capabilities: ["CAP_REPO_LIST"] },
        )
      ).inputs as never,
    );
    const idp = await created(raw({ defaultRole: role.id }));
    const failure = runtime.role.delete(role.id, role.outs as never);
    // Named, with what to do, at the first refusal (a timeout of 0 waits for nothing).
    await expect(failure).rejects.toThrow(
      `identity provider ${JSON.stringify(idp.outs.name)} (${idp.id}) still refers to it, which this run did not delete.`,
    );
    await expect(failure).rejects.toThrow(/change the defaultRole of the identity providers/);
    await runtime.idp.delete(idp.id, idp.outs);
    await runtime.role.delete(role.id, role.outs as never);
  });
});
