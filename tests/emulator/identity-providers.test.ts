/**
 * Identity providers (addendum 3): the resource's shape, every validation rule and error
 * row, update semantics (client secret kept, replaced or cleared; the correlation rule
 * immutable), the capabilities a create and an update need, the order of checks, lists,
 * and the client secret never answered.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { TestEmulator } from "../../harness/emulator";
import * as collection from "../support/emulator-collection";
import { failure, type Json, type Org, useTestOrg } from "../support/emulator-org";

let emu: TestEmulator;
let o: Org;
let viewer: string;
let providers: collection.Collection;

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const SECRET = "client-secret-value-4c1d";
const path = (suffix = "") => `/iam/v2beta1/identityProviders${suffix}`;

useTestOrg((started) => {
  ({ emu, o } = started);
});
beforeAll(async () => {
  viewer = await o.builtIn("viewer");
  providers = { o, path, listKey: "identityProviders", noun: "identity provider" };
});

function body(overrides: Json = {}, oidc: Json = {}): Json {
  return {
    name: "corporate sso",
    description: "the corporate directory",
    defaultRole: viewer,
    oidc: {
      issuer: "https://idp.example/realm",
      clientId: "client-1",
      clientSecret: SECRET,
      ...oidc,
    },
    ...overrides,
  };
}

const create = (group: string, b: Json = body()) => collection.create(providers, group, b);

describe("create and read", () => {
  it("answers every field but the client secret; Get and List answer the same", async () => {
    const group = await o.group(emu.rootGroupUid);
    const created = await create(
      group,
      body(
        {},
        { additionalScopes: ["email", "profile"], groupsClaim: "groups", pkceEnabled: true },
      ),
    );
    expect(created.uid).toMatch(new RegExp(`^${group}/[0-9a-f]{16}$`));
    expect(created).toEqual({
      uid: created.uid,
      name: "corporate sso",
      description: "the corporate directory",
      defaultRole: viewer,
      oidc: {
        issuer: "https://idp.example/realm",
        clientId: "client-1",
        additionalScopes: ["email", "profile"],
        groupsClaim: "groups",
        pkceEnabled: true,
        correlationRule: "CORRELATION_RULE_UNSPECIFIED",
      },
      createTime: created.createTime,
      updateTime: created.createTime,
    });
    expect(created.createTime).toMatch(ISO_MS);
    const fetched = await o.call<Json>("GET", path(`/${created.uid}`));
    expect(fetched.body).toEqual(created);
    const listed = await o.call<Json>("GET", path(`?uidp.children_of=${group}`));
    expect(listed.body).toEqual({
      identityProviders: [created],
      nextPageToken: "",
      totalCount: "1",
      skipped: 0,
    });
    expect(JSON.stringify([created, fetched.body, listed.body])).not.toContain(SECRET);
  });

  it("defaults: empty description, no scopes, no groups claim, PKCE off, unspecified rule", async () => {
    const group = await o.group(emu.rootGroupUid);
    const created = await create(group, {
      name: "min",
      defaultRole: viewer,
      oidc: { issuer: "http://127.0.0.1:9/", clientId: "c", clientSecret: "s" },
    });
    expect(created.description).toBe("");
    expect(created.oidc).toEqual({
      issuer: "http://127.0.0.1:9/",
      clientId: "c",
      additionalScopes: [],
      groupsClaim: "",
      pkceEnabled: false,
      correlationRule: "CORRELATION_RULE_UNSPECIFIED",
    });
  });

  it("names need not be unique within a group", async () => {
    const group = await o.group(emu.rootGroupUid);
    await create(group);
    await create(group);
    const listed = await o.call<Json>(
      "GET",
      path(`?uidp.children_of=${group}&name=corporate%20sso`),
    );
    expect(listed.body.totalCount).toBe("2");
  });
});

describe("validation (3.3)", () => {
  const rows: Array<[string, () => Json, string]> = [
    ["name missing", () => body({ name: undefined }), "name: must match ^[a-z0-9 ._-]{1,}$"],
    ["name pattern", () => body({ name: "Corporate" }), "name: must match ^[a-z0-9 ._-]{1,}$"],
    ["name too short", () => body({ name: "ab" }), "name: must be 3 to 63 characters"],
    ["name too long", () => body({ name: "a".repeat(64) }), "name: must be 3 to 63 characters"],
    ["name type", () => body({ name: 5 }), "name: must be a string"],
    ["description type", () => body({ description: 5 }), "description: must be a string"],
    ["defaultRole missing", () => body({ defaultRole: undefined }), "defaultRole: is required"],
    [
      "defaultRole form",
      () => body({ defaultRole: "abc" }),
      "defaultRole: must be a role uid (hex segments separated by /)",
    ],
    ["defaultRole type", () => body({ defaultRole: 1 }), "defaultRole: must be a string"],
    ["oidc missing", () => body({ oidc: undefined }), "oidc: is required"],
    ["oidc type", () => body({ oidc: "x" }), "oidc: must be an object"],
    ["issuer missing", () => body({}, { issuer: undefined }), "oidc.issuer: is required"],
    [
      "issuer not a URL",
      () => body({}, { issuer: "idp.example" }),
      "oidc.issuer: must be an http(s) URL",
    ],
    [
      "issuer scheme",
      () => body({}, { issuer: "ftp://idp.example" }),
      "oidc.issuer: must be an http(s) URL",
    ],
    ["issuer type", () => body({}, { issuer: 3 }), "oidc.issuer: must be a string"],
    ["clientId missing", () => body({}, { clientId: undefined }), "oidc.clientId: is required"],
    ["clientId empty", () => body({}, { clientId: "" }), "oidc.clientId: is required"],
    [
      "no secret without PKCE",
      () => body({}, { clientSecret: undefined }),
      "oidc.clientSecret: is required unless oidc.pkceEnabled is true",
    ],
    [
      "empty secret without PKCE",
      () => body({}, { clientSecret: "", pkceEnabled: false }),
      "oidc.clientSecret: is required unless oidc.pkceEnabled is true",
    ],
    ["secret type", () => body({}, { clientSecret: 7 }), "oidc.clientSecret: must be a string"],
    [
      "scopes type",
      () => body({}, { additionalScopes: "email" }),
      "oidc.additionalScopes: must be an array of strings",
    ],
    [
      "empty scope",
      () => body({}, { additionalScopes: ["email", ""] }),
      "oidc.additionalScopes[1]: must not be empty",
    ],
    [
      "scope with a space",
      () => body({}, { additionalScopes: ["a b"] }),
      "oidc.additionalScopes[0]: must not contain whitespace",
    ],
    [
      "scope twice",
      () => body({}, { additionalScopes: ["email", "email"] }),
      "oidc.additionalScopes[1]: appears twice",
    ],
    ["groupsClaim type", () => body({}, { groupsClaim: [] }), "oidc.groupsClaim: must be a string"],
    [
      "pkceEnabled type",
      () => body({}, { pkceEnabled: "yes" }),
      "oidc.pkceEnabled: must be a boolean",
    ],
    [
      "unknown correlation rule",
      () => body({}, { correlationRule: "CORRELATION_RULE_EMAIL" }),
      "oidc.correlationRule: must be one of CORRELATION_RULE_UNSPECIFIED, CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID, CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID",
    ],
  ];
  it.each(rows)("%s is INVALID_ARGUMENT naming the field", async (_case, b, message) => {
    const group = await o.group(emu.rootGroupUid);
    expect(await collection.expectCreateRefused(providers, group, b(), message)).not.toContain(
      SECRET,
    );
  });

  it("a secret together with PKCE, and PKCE alone, are allowed; the order of scopes is kept", async () => {
    const group = await o.group(emu.rootGroupUid);
    await create(group, body({}, { pkceEnabled: true }));
    const pkceOnly = await create(
      group,
      body({}, { clientSecret: undefined, pkceEnabled: true, additionalScopes: ["z", "a"] }),
    );
    expect((pkceOnly.oidc as Json).additionalScopes).toEqual(["z", "a"]);
  });

  it("an unknown defaultRole is NOT_FOUND; a custom role the caller cannot read looks the same", async () => {
    const group = await o.group(emu.rootGroupUid);
    const missing = "ab".repeat(20);
    expect(
      failure(await o.call("POST", path(`/${group}`), { body: body({ defaultRole: missing }) })),
    ).toEqual([404, `Not found: ${missing}`]);
    const other = await o.group(emu.rootGroupUid);
    const hidden = await o.role(other, ["CAP_IAM_GROUPS_LIST"]);
    const admin = await o.actor(group, [[group, await o.builtIn("owner")]]);
    expect(
      failure(await admin.call("POST", path(`/${group}`), { body: body({ defaultRole: hidden }) })),
    ).toEqual([404, `Not found: ${hidden}`]);
  });

  it("the parent group must exist (after the capability check)", async () => {
    const missing = `${emu.rootGroupUid}/${"0".repeat(16)}`;
    expect(failure(await o.call("POST", path(`/${missing}`), { body: body() }))).toEqual([
      404,
      `Not found: ${missing}`,
    ]);
  });

  it("a malformed parent is INVALID_ARGUMENT on parent; no parent at all too", async () => {
    expect(failure(await o.call("POST", path("/NOT-A-UID"), { body: body() }))).toEqual([
      400,
      "Invalid argument: parent: must be a uid (hex segments separated by /)",
    ]);
    expect(failure(await o.call("POST", path(), { body: body() }))).toEqual([
      400,
      "Invalid argument: parent: the owning group uid belongs in the path",
    ]);
  });
});

describe("capabilities (2.3) and the order of checks", () => {
  it("a create needs identityProviders.create and roleBindings.create, then the default role's capabilities", async () => {
    const group = await o.group(emu.rootGroupUid);
    const onlyProviders = await o.actorWith(group, [
      "CAP_IAM_IDENTITY_PROVIDERS_CREATE",
      "CAP_IAM_GROUPS_LIST",
    ]);
    expect(failure(await onlyProviders.call("POST", path(`/${group}`), { body: body() }))).toEqual([
      403,
      `Permission denied: CAP_IAM_ROLE_BINDINGS_CREATE on ${group}`,
    ]);
    const noProviders = await o.actorWith(group, ["CAP_IAM_ROLE_BINDINGS_CREATE"]);
    expect(failure(await noProviders.call("POST", path(`/${group}`), { body: body() }))).toEqual([
      403,
      `Permission denied: CAP_IAM_IDENTITY_PROVIDERS_CREATE on ${group}`,
    ]);
    // Both, but not every capability of viewer: the first missing one in the enum's order.
    const both = await o.actorWith(group, [
      "CAP_IAM_IDENTITY_PROVIDERS_CREATE",
      "CAP_IAM_ROLE_BINDINGS_CREATE",
      "CAP_IAM_ACCOUNT_ASSOCIATIONS_LIST",
    ]);
    expect(failure(await both.call("POST", path(`/${group}`), { body: body() }))).toEqual([
      403,
      `Permission denied: CAP_IAM_GROUPS_LIST on ${group}`,
    ]);
  });

  it("path, capability, body, references, role usable, grants: the first failure answers", async () => {
    const group = await o.group(emu.rootGroupUid);
    const sibling = await o.group(emu.rootGroupUid);
    const foreign = await o.role(sibling, ["CAP_IAM_GROUPS_LIST"]);
    const limited = await o.actorWith(group, [
      "CAP_IAM_IDENTITY_PROVIDERS_CREATE",
      "CAP_IAM_ROLE_BINDINGS_CREATE",
      "CAP_IAM_GROUPS_LIST",
    ]);
    const bad = body({ name: "x", defaultRole: "ab".repeat(20) });
    // 1. path before everything
    expect(failure(await limited.call("POST", path("/zz"), { body: bad }))[1]).toMatch(
      /^Invalid argument: parent/,
    );
    // 2. capability before the body
    expect(failure(await limited.call("POST", path(`/${sibling}`), { body: bad }))).toEqual([
      403,
      `Permission denied: CAP_IAM_IDENTITY_PROVIDERS_CREATE on ${sibling}`,
    ]);
    // 3. body before references
    expect(failure(await limited.call("POST", path(`/${group}`), { body: bad }))[1]).toBe(
      "Invalid argument: name: must be 3 to 63 characters",
    );
    // 4. references before role usability
    expect(
      failure(
        await o.call("POST", path(`/${group}`), { body: body({ defaultRole: "ab".repeat(20) }) }),
      )[0],
    ).toBe(404);
    // 5. role usability before grants: the limited caller lacks groups.list... of the owner role,
    //    but a role of another group answers INVALID_ARGUMENT first
    expect(
      failure(await o.call("POST", path(`/${group}`), { body: body({ defaultRole: foreign }) }))[0],
    ).toBe(400);
    // 6. grants
    expect(
      failure(
        await limited.call("POST", path(`/${group}`), {
          body: body({ defaultRole: await o.builtIn("owner") }),
        }),
      ),
    ).toEqual([403, `Permission denied: CAP_IAM_GROUPS_CREATE on ${group}`]);
  });

  it("an update needs identityProviders.update; one setting the default role what a create needs", async () => {
    const group = await o.group(emu.rootGroupUid);
    const provider = await create(group);
    const uid = provider.uid as string;
    const onlyUpdate = await o.actorWith(group, ["CAP_IAM_IDENTITY_PROVIDERS_UPDATE"]);
    // The default role left alone: no binding is promised, the update capability suffices.
    expect(
      (await onlyUpdate.call("PATCH", path(`/${uid}`), { body: { description: "x" } })).status,
    ).toBe(200);
    // Setting it (even restated) promises a binding: roleBindings.create first.
    expect(
      failure(
        await onlyUpdate.call("PATCH", path(`/${uid}?updateMask=default_role`), {
          body: { defaultRole: provider.defaultRole },
        }),
      ),
    ).toEqual([403, `Permission denied: CAP_IAM_ROLE_BINDINGS_CREATE on ${group}`]);
    // roles.get: a custom default role must be readable, as for a binding.
    const updater = await o.actorWith(group, [
      "CAP_IAM_IDENTITY_PROVIDERS_UPDATE",
      "CAP_IAM_ROLE_BINDINGS_CREATE",
      "CAP_IAM_ROLES_LIST",
    ]);
    expect(
      (await updater.call("PATCH", path(`/${uid}`), { body: { description: "x" } })).status,
    ).toBe(200);
    // defaultRole among the applied paths: every capability of the role, even a restated one.
    expect(
      failure(await updater.call("PATCH", path(`/${uid}`), { body: { defaultRole: viewer } })),
    ).toEqual([403, `Permission denied: CAP_IAM_GROUPS_LIST on ${group}`]);
    const small = await o.role(group, ["CAP_IAM_ROLES_LIST"]);
    const changed = await updater.call<Json>("PATCH", path(`/${uid}`), {
      body: { defaultRole: small },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.defaultRole).toBe(small);
  });

  it("get, update and delete of an unknown uid are NOT_FOUND, after PERMISSION_DENIED", async () => {
    const group = await o.group(emu.rootGroupUid);
    const missing = `${group}/${"0".repeat(16)}`;
    for (const method of ["GET", "PATCH", "DELETE"]) {
      const reply = await o.call(method, path(`/${missing}`), {
        body: method === "PATCH" ? { description: "x" } : undefined,
      });
      expect(failure(reply)).toEqual([404, `Not found: ${missing}`]);
    }
    const stranger = await o.actor(group, []);
    expect(failure(await stranger.call("GET", path(`/${missing}`)))).toEqual([
      403,
      `Permission denied: CAP_IAM_IDENTITY_PROVIDERS_LIST on ${missing}`,
    ]);
  });
});

describe("update (3.4)", () => {
  it("mask paths are the proto names (JSON names accepted too); others are INVALID_ARGUMENT on update_mask", async () => {
    const uid = (await create(await o.group(emu.rootGroupUid))).uid as string;
    for (const mask of ["uid", "scim", "oidc.client", "create_time"]) {
      const reply = await o.call("PATCH", path(`/${uid}?updateMask=${mask}`), { body: {} });
      expect(failure(reply)[1]).toMatch(
        new RegExp(
          `^Invalid argument: update_mask: "${mask.replace(".", "\\.")}" is not a writable field; writable fields: name, description, default_role, oidc, `,
        ),
      );
    }
    for (const key of ["update_mask", "updateMask"]) {
      for (const [mask, groupsClaim] of [
        ["oidc.groups_claim", "groups-a"],
        ["oidc.groupsClaim", "groups-b"],
      ]) {
        const reply = await o.call<Json>("PATCH", path(`/${uid}?${key}=${mask},description`), {
          body: { description: `by ${mask}`, oidc: { groupsClaim } },
        });
        expect(reply.status, `${key}=${mask}`).toBe(200);
        expect(reply.body.description).toBe(`by ${mask}`);
        expect((reply.body.oidc as Json).groupsClaim).toBe(groupsClaim);
      }
    }
    const secretless = await o.call<Json>(
      "PATCH",
      path(`/${uid}?update_mask=oidc.pkce_enabled,oidc.client_secret`),
      { body: { oidc: { pkceEnabled: true, clientSecret: "" } } },
    );
    expect(secretless.status).toBe(200);
    expect((secretless.body.oidc as Json).pkceEnabled).toBe(true);
    const refused = await o.call("PATCH", path(`/${uid}?update_mask=oidc.pkce_enabled`), {
      body: { oidc: { pkceEnabled: false } },
    });
    expect(failure(refused)).toEqual([
      400,
      "Invalid argument: oidc.clientSecret: is required unless oidc.pkceEnabled is true",
    ]);
  });

  it("without a mask an oidc object counts through its members", async () => {
    const uid = (await create(await o.group(emu.rootGroupUid))).uid as string;
    const reply = await o.call<Json>("PATCH", path(`/${uid}`), {
      body: { oidc: { clientId: "client-2" } },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.oidc).toMatchObject({
      issuer: "https://idp.example/realm",
      clientId: "client-2",
    });
  });

  it("oidc replaces the object but keeps the stored secret and rule when none is sent", async () => {
    const uid = (
      await create(
        await o.group(emu.rootGroupUid),
        body({}, { correlationRule: "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID", groupsClaim: "g" }),
      )
    ).uid as string;
    const reply = await o.call<Json>("PATCH", path(`/${uid}?updateMask=oidc`), {
      body: { oidc: { issuer: "https://new.example", clientId: "n" } },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.oidc).toEqual({
      issuer: "https://new.example",
      clientId: "n",
      additionalScopes: [],
      groupsClaim: "",
      pkceEnabled: false,
      correlationRule: "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID",
    });
    // The secret was kept: turning PKCE off again needs one, and one is there.
    expect(
      (
        await o.call("PATCH", path(`/${uid}?updateMask=oidc.pkceEnabled`), {
          body: { oidc: { pkceEnabled: false } },
        })
      ).status,
    ).toBe(200);
  });

  it("* applies every top-level field; what the body leaves out is cleared, and then validated", async () => {
    const uid = (await create(await o.group(emu.rootGroupUid))).uid as string;
    const cleared = await o.call("PATCH", path(`/${uid}?updateMask=*`), {
      body: {
        name: "renamed",
        defaultRole: viewer,
        oidc: { issuer: "https://i.example", clientId: "c" },
      },
    });
    expect(cleared.status).toBe(200);
    expect((cleared.body as Json).description).toBe("");
    const noRole = await o.call("PATCH", path(`/${uid}?updateMask=*`), {
      body: { name: "renamed", oidc: { issuer: "https://i.example", clientId: "c" } },
    });
    expect(failure(noRole)).toEqual([400, "Invalid argument: defaultRole: is required"]);
  });

  it("the secret is cleared only under an explicit oidc.clientSecret with an empty value, and only with PKCE", async () => {
    const uid = (await create(await o.group(emu.rootGroupUid))).uid as string;
    const refused = await o.call("PATCH", path(`/${uid}?updateMask=oidc.clientSecret`), {
      body: { oidc: { clientSecret: "" } },
    });
    expect(failure(refused)).toEqual([
      400,
      "Invalid argument: oidc.clientSecret: is required unless oidc.pkceEnabled is true",
    ]);
    // Without a mask, the key present in the body is explicit too.
    const refusedNoMask = await o.call("PATCH", path(`/${uid}`), {
      body: { oidc: { clientSecret: "" } },
    });
    expect(failure(refusedNoMask)[0]).toBe(400);
    const cleared = await o.call("PATCH", path(`/${uid}`), {
      body: { oidc: { clientSecret: "", pkceEnabled: true } },
    });
    expect(cleared.status).toBe(200);
    // Now there is no secret: turning PKCE off is refused.
    const off = await o.call("PATCH", path(`/${uid}`), { body: { oidc: { pkceEnabled: false } } });
    expect(failure(off)).toEqual([
      400,
      "Invalid argument: oidc.clientSecret: is required unless oidc.pkceEnabled is true",
    ]);
    // A new secret under oidc.clientSecret, then PKCE off works.
    expect(
      (
        await o.call("PATCH", path(`/${uid}`), {
          body: { oidc: { clientSecret: "another-secret" } },
        })
      ).status,
    ).toBe(200);
    expect(
      (await o.call("PATCH", path(`/${uid}`), { body: { oidc: { pkceEnabled: false } } })).status,
    ).toBe(200);
  });

  it("an explicit clear holds whatever the order of the mask's paths", async () => {
    for (const mask of ["oidc.clientSecret,oidc", "oidc,oidc.clientSecret"]) {
      const uid = (await create(await o.group(emu.rootGroupUid))).uid as string;
      const cleared = await o.call("PATCH", path(`/${uid}?updateMask=${mask}`), {
        body: {
          oidc: {
            issuer: "https://idp.example/realm",
            clientId: "c",
            clientSecret: "",
            pkceEnabled: true,
          },
        },
      });
      expect(cleared.status, mask).toBe(200);
      const off = await o.call("PATCH", path(`/${uid}`), {
        body: { oidc: { pkceEnabled: false } },
      });
      expect(failure(off), mask).toEqual([
        400,
        "Invalid argument: oidc.clientSecret: is required unless oidc.pkceEnabled is true",
      ]);
    }
  });

  it("the correlation rule cannot change; restating the effective rule does nothing", async () => {
    const uid = (await create(await o.group(emu.rootGroupUid))).uid as string;
    const before = (await o.call<Json>("GET", path(`/${uid}`))).body;
    for (const rule of [
      "CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID",
      "CORRELATION_RULE_UNSPECIFIED",
    ]) {
      const same = await o.call<Json>("PATCH", path(`/${uid}`), {
        body: { oidc: { correlationRule: rule } },
      });
      expect(same.status).toBe(200);
      expect(same.body).toEqual(before);
    }
    for (const mask of ["oidc.correlationRule", "oidc"]) {
      const changed = await o.call("PATCH", path(`/${uid}?updateMask=${mask}`), {
        body: {
          oidc: {
            issuer: "https://idp.example/realm",
            clientId: "client-1",
            correlationRule: "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID",
          },
        },
      });
      expect(failure(changed)).toEqual([
        400,
        "Invalid argument: oidc.correlationRule: cannot change; create a new identity provider",
      ]);
    }
  });

  it("a PATCH that changes nothing keeps updateTime", async () => {
    const created = await create(await o.group(emu.rootGroupUid));
    await emu.advanceClock(5);
    const same = await o.call<Json>("PATCH", path(`/${created.uid}`), {
      body: { name: created.name, oidc: { clientId: "client-1" } },
    });
    expect(same.body.updateTime).toBe(created.updateTime);
    const changed = await o.call<Json>("PATCH", path(`/${created.uid}`), {
      body: { description: "new" },
    });
    expect(changed.body.updateTime).not.toBe(created.updateTime);
  });

  it("a new client secret is a change (updateTime moves) though it is never answered", async () => {
    const created = await create(await o.group(emu.rootGroupUid));
    await emu.advanceClock(5);
    const changed = await o.call<Json>("PATCH", path(`/${created.uid}`), {
      body: { oidc: { clientSecret: "rotated-secret" } },
    });
    expect(changed.body.updateTime).not.toBe(created.updateTime);
    expect(changed.text).not.toContain("rotated-secret");
  });
});

describe("lists", () => {
  it("scope filters, name, and order_by uid, name, create_time and update_time with aliases", async () => {
    const group = await o.group(emu.rootGroupUid);
    const child = await o.group(group);
    const a = await create(group, body({ name: "bbb" }));
    await emu.advanceClock(1);
    const b = await create(child, body({ name: "aaa" }));
    const names = async (query: string) =>
      ((await o.call<Json>("GET", path(`?${query}`))).body.identityProviders as Json[]).map(
        (p) => p.name,
      );
    expect(await names(`uidp.children_of=${group}`)).toEqual(["bbb"]);
    expect(await names(`uidp.descendants_of=${group}&order_by=name`)).toEqual(["aaa", "bbb"]);
    expect(await names(`uidp.descendants_of=${group}&orderBy=created_at%20desc`)).toEqual([
      "aaa",
      "bbb",
    ]);
    expect(await names(`uidp.descendants_of=${group}&order_by=update_time`)).toEqual([
      "bbb",
      "aaa",
    ]);
    expect(await names(`uidp.descendants_of=${group}&name=aaa`)).toEqual(["aaa"]);
    expect(a.uid).not.toBe(b.uid);
    const bad = await o.call("GET", path("?order_by=expiration_time"));
    expect(failure(bad)[1]).toMatch(
      /^Invalid argument: order_by: must be one of uid, name, create_time, update_time/,
    );
  });

  it("a page token is bound to the filters", async () => {
    const group = await o.group(emu.rootGroupUid);
    await create(group);
    await create(group);
    await collection.expectPageTokenBound(providers, group, "name=other");
  });
});

describe("delete", () => {
  it("deletes, then NOT_FOUND; the group can go once its providers are gone", async () => {
    const group = await o.group(emu.rootGroupUid);
    const uid = (await create(group)).uid as string;
    await collection.expectBlocksGroupDelete(providers, group, uid);
  });
});
