/** IAM v2beta1 CRUD: groups, identities, roles, role bindings, their updates and errors. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { type Caller, caller, enc, reasonOf } from "../support/emulator-http";

type Json = Record<string, unknown>;

let emu: TestEmulator;
let call: Caller;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DOMAIN = "iam.irm.local";

beforeAll(async () => {
  emu = await startTestEmulator();
  call = caller(emu.url, emu.token);
});
afterAll(() => emu.close());

async function createGroup(parent: string, name: string, description?: string): Promise<Json> {
  const reply = await call<Json>("POST", `/iam/v2beta1/groups/${parent}`, {
    body: { name, description },
  });
  expect(reply.status).toBe(200);
  return reply.body;
}

async function roleUid(name: string): Promise<string> {
  const reply = await call<{ roles: Json[] }>("GET", `/iam/v2beta1/roles?name=${enc(name)}`);
  return reply.body.roles[0].uid as string;
}

describe("groups", () => {
  it("create answers the group: child uid of the parent, verified false, timestamps with ms and Z", async () => {
    const group = await createGroup(emu.rootGroupUid, "platform team", "builds things");
    expect(group.uid).toMatch(new RegExp(`^${emu.rootGroupUid}/[0-9a-f]{16}$`));
    expect(group).toMatchObject({
      name: "platform team",
      description: "builds things",
      verified: false,
      resourceLimits: {},
    });
    expect(group.createTime).toMatch(ISO_MS);
    expect(group.updateTime).toBe(group.createTime);
    const fetched = await call("GET", `/iam/v2beta1/groups/${group.uid}`);
    expect(fetched.body).toEqual(group);
  });

  it("an empty create body is INVALID_ARGUMENT with a BadRequest on name stating the pattern", async () => {
    const reply = await call("POST", `/iam/v2beta1/groups/${emu.rootGroupUid}`, { body: {} });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({
      code: 3,
      message: "Invalid argument: name: must match ^[a-z0-9 ._-]{1,}$",
      details: [
        {
          "@type": "type.googleapis.com/google.rpc.ErrorInfo",
          reason: "INVALID_ARGUMENT",
          domain: DOMAIN,
        },
        {
          "@type": "type.googleapis.com/google.rpc.BadRequest",
          fieldViolations: [{ field: "name", description: "must match ^[a-z0-9 ._-]{1,}$" }],
        },
      ],
    });
    const noBody = await call("POST", `/iam/v2beta1/groups/${emu.rootGroupUid}`);
    expect(noBody.body).toEqual(reply.body);
  });

  it.each([
    [{ name: "Upper" }, "Invalid argument: name: must match ^[a-z0-9 ._-]{1,}$"],
    [{ name: 42 }, "Invalid argument: name: must be a string"],
    [{ name: "okay", description: 7 }, "Invalid argument: description: must be a string"],
  ])("create with %j is rejected naming the field", async (body, message) => {
    const reply = await call<Json>("POST", `/iam/v2beta1/groups/${emu.rootGroupUid}`, { body });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe(message);
  });

  it("create under an unknown parent is NOT_FOUND naming the uid", async () => {
    const missing = `${emu.rootGroupUid}/0000000000000000`;
    const reply = await call<Json>("POST", `/iam/v2beta1/groups/${missing}`, {
      body: { name: "xyz" },
    });
    expect(reply.status).toBe(404);
    expect(reply.body).toMatchObject({ code: 5, message: `Not found: ${missing}` });
    expect(reasonOf(reply.body)).toBe("NOT_FOUND");
  });

  it("update without updateMask changes the fields present and keeps the others", async () => {
    const group = await createGroup(emu.rootGroupUid, "keep-name", "old");
    await emu.advanceClock(5);
    const reply = await call<Json>("PATCH", `/iam/v2beta1/groups/${group.uid}`, {
      body: { description: "new" },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ uid: group.uid, name: "keep-name", description: "new" });
    expect(reply.body.createTime).toBe(group.createTime);
    expect(Date.parse(reply.body.updateTime as string)).toBeGreaterThan(
      Date.parse(group.updateTime as string),
    );
  });

  it("update with updateMask changes only the named fields, ignoring the rest of the body", async () => {
    const group = await createGroup(emu.rootGroupUid, "masked", "before");
    const reply = await call<Json>(
      "PATCH",
      `/iam/v2beta1/groups/${group.uid}?updateMask=description`,
      {
        body: { name: "ignored", description: "after" },
      },
    );
    expect(reply.body).toMatchObject({ name: "masked", description: "after" });
    const both = await call<Json>(
      "PATCH",
      `/iam/v2beta1/groups/${group.uid}?updateMask=name,description`,
      {
        body: { name: "renamed", description: "both" },
      },
    );
    expect(both.body).toMatchObject({ name: "renamed", description: "both" });
    const star = await call<Json>("PATCH", `/iam/v2beta1/groups/${group.uid}?updateMask=*`, {
      body: { name: "starred" },
    });
    expect(star.body).toMatchObject({ name: "starred", description: "" });
  });

  it("a mask path that is not writable is INVALID_ARGUMENT on update_mask; output-only body fields are ignored", async () => {
    const group = await createGroup(emu.rootGroupUid, "mask-errors");
    const reply = await call<Json>(
      "PATCH",
      `/iam/v2beta1/groups/${group.uid}?updateMask=resource_limits`,
      { body: { resourceLimits: { repositories: 1 } } },
    );
    expect(reply.status).toBe(400);
    expect(String(reply.body.message)).toBe(
      'Invalid argument: update_mask: "resource_limits" is not a writable field; writable fields: name, description, verified',
    );
    const ignored = await call<Json>("PATCH", `/iam/v2beta1/groups/${group.uid}`, {
      body: { uid: "other", verified: true, createTime: "2000-01-01T00:00:00.000Z" },
    });
    expect(ignored.body).toMatchObject({
      uid: group.uid,
      verified: false,
      createTime: group.createTime,
    });
  });

  it("group and identity names follow the name pattern, 3 to 63 characters", async () => {
    // The specification's pattern (`^[a-z0-9 ._-]{1,}$`) and the definitions' length
    // (corrections 17; the length's refusals: name-length.test.ts).
    for (const [collection, extra] of [
      ["groups", {}],
      ["identities", { claimMatch: { issuer: "https://i.example", subject: "s" } }],
    ] as const) {
      for (const name of ["eur", "a".repeat(63)]) {
        const reply = await call<Json>("POST", `/iam/v2beta1/${collection}/${emu.rootGroupUid}`, {
          body: { name, ...extra },
        });
        expect(reply.status, `${collection} ${name.length}`).toBe(200);
        expect(reply.body.name).toBe(name);
        await call("DELETE", `/iam/v2beta1/${collection}/${reply.body.uid}`);
      }
      for (const name of ["", "EUR"]) {
        const reply = await call<Json>("POST", `/iam/v2beta1/${collection}/${emu.rootGroupUid}`, {
          body: { name, ...extra },
        });
        expect(reply.status, `${collection} ${JSON.stringify(name)}`).toBe(400);
        expect(reply.body.message).toMatch(/^Invalid argument: name: must match/);
      }
    }
  });

  it("a mask naming verified is accepted and leaves it unchanged (only the platform's staff set it)", async () => {
    const group = await createGroup(emu.rootGroupUid, "verified-echo");
    for (const mask of ["verified", "name,description,verified", "*"]) {
      const reply = await call<Json>(
        "PATCH",
        `/iam/v2beta1/groups/${group.uid}?update_mask=${mask}`,
        { body: { name: "verified-echo", description: "d", verified: true } },
      );
      expect(reply.status, mask).toBe(200);
      expect(reply.body.verified, mask).toBe(false);
    }
  });

  it("deleting a group with children is FAILED_PRECONDITION RESOURCE_NOT_EMPTY; an empty one goes", async () => {
    const parent = await createGroup(emu.rootGroupUid, "parent");
    const child = await createGroup(parent.uid as string, "child");
    const reply = await call("DELETE", `/iam/v2beta1/groups/${parent.uid}`);
    expect(reply.status).toBe(400);
    const description = `group ${parent.uid} is not empty: it still has 1 child group`;
    expect(reply.body).toEqual({
      code: 9,
      message: `Precondition failed: ${description}`,
      details: [
        {
          "@type": "type.googleapis.com/google.rpc.ErrorInfo",
          reason: "FAILED_PRECONDITION",
          domain: DOMAIN,
        },
        {
          "@type": "type.googleapis.com/google.rpc.PreconditionFailure",
          violations: [{ type: "RESOURCE_NOT_EMPTY", subject: parent.uid, description }],
        },
      ],
    });
    const deleted = await call("DELETE", `/iam/v2beta1/groups/${child.uid}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({});
    expect((await call("GET", `/iam/v2beta1/groups/${child.uid}`)).status).toBe(404);
    expect((await call("DELETE", `/iam/v2beta1/groups/${parent.uid}`)).status).toBe(200);
  });

  it("a group that still holds identities, bindings or repos cannot be deleted either", async () => {
    const withRepo = await createGroup(emu.rootGroupUid, "with-repo");
    await emu.seed({ repos: [{ parentUid: withRepo.uid as string, name: "app" }] });
    const repoReply = await call<Json>("DELETE", `/iam/v2beta1/groups/${withRepo.uid}`);
    expect(repoReply.status).toBe(400);
    expect(String(repoReply.body.message)).toContain("1 repo");
    const withIdentity = await createGroup(emu.rootGroupUid, "with-identity");
    await call("POST", `/iam/v2beta1/identities/${withIdentity.uid}`, {
      body: { name: "ci bot", claimMatch: { issuer: "https://token.example", subject: "ci" } },
    });
    const identityReply = await call<Json>("DELETE", `/iam/v2beta1/groups/${withIdentity.uid}`);
    expect(String(identityReply.body.message)).toContain("1 identity");
  });
});

describe("identities", () => {
  it("create, get, update a claim member by mask, delete", async () => {
    const group = await createGroup(emu.rootGroupUid, "id-home");
    const created = await call<Json>("POST", `/iam/v2beta1/identities/${group.uid}`, {
      body: {
        name: "deployer",
        description: "ci",
        claimMatch: { issuer: "https://ci.example", subject: "repo:x" },
      },
    });
    expect(created.status).toBe(200);
    expect(created.body.uid).toMatch(new RegExp(`^${group.uid}/[0-9a-f]{16}$`));
    expect(created.body).toMatchObject({
      name: "deployer",
      description: "ci",
      claimMatch: { issuer: "https://ci.example", subject: "repo:x" },
    });
    const patched = await call<Json>(
      "PATCH",
      `/iam/v2beta1/identities/${created.body.uid}?updateMask=claimMatch.subject`,
      {
        body: {
          name: "ignored",
          claimMatch: { issuer: "https://ignored.example", subject: "repo:y" },
        },
      },
    );
    expect(patched.body).toMatchObject({
      name: "deployer",
      claimMatch: { issuer: "https://ci.example", subject: "repo:y" },
    });
    const merged = await call<Json>("PATCH", `/iam/v2beta1/identities/${created.body.uid}`, {
      body: { claimMatch: { issuer: "https://other.example" } },
    });
    expect(merged.body.claimMatch).toEqual({ issuer: "https://other.example", subject: "repo:y" });
    expect((await call("DELETE", `/iam/v2beta1/identities/${created.body.uid}`)).status).toBe(200);
    expect((await call("GET", `/iam/v2beta1/identities/${created.body.uid}`)).status).toBe(404);
  });

  it.each([
    [{ name: "abc" }, "Invalid argument: claimMatch.issuer: is required"],
    [{ name: "abc", claimMatch: "x" }, "Invalid argument: claimMatch: must be an object"],
    [
      { name: "abc", claimMatch: { issuer: "not a url", subject: "s" } },
      "Invalid argument: claimMatch.issuer: must be an http(s) URL",
    ],
    [
      { name: "abc", claimMatch: { issuer: "https://i.example", subject: 5 } },
      "Invalid argument: claimMatch.subject: must be a string",
    ],
  ])("create with %j is INVALID_ARGUMENT naming the field", async (body, message) => {
    const reply = await call<Json>("POST", `/iam/v2beta1/identities/${emu.rootGroupUid}`, { body });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe(message);
  });
});

describe("rules shared by the IAM collections", () => {
  it("identity and role names follow the group name pattern", async () => {
    const identity = await call<Json>("POST", `/iam/v2beta1/identities/${emu.rootGroupUid}`, {
      body: { name: "Not Allowed", claimMatch: { issuer: "https://i.example", subject: "s" } },
    });
    expect(identity.status).toBe(400);
    expect(identity.body.message).toBe("Invalid argument: name: must match ^[a-z0-9 ._-]{1,}$");
    const role = await call<Json>("POST", `/iam/v2beta1/roles/${emu.rootGroupUid}`, {
      body: { name: "" },
    });
    expect(role.status).toBe(400);
    expect(role.body.message).toBe("Invalid argument: name: must match ^[a-z0-9 ._-]{1,}$");
  });

  it("order_by update_time follows updates; ties and the default fall back to uid", async () => {
    const parent = await createGroup(emu.rootGroupUid, "by-update");
    // Seeded in one call, both get the same timestamps.
    const [firstUid, secondUid] = (
      await emu.seed({
        groups: [
          { parentUid: parent.uid as string, name: "first" },
          { parentUid: parent.uid as string, name: "second" },
        ],
      })
    ).groups;
    const first = { uid: firstUid };
    const second = { uid: secondUid };
    await emu.advanceClock(2);
    await call("PATCH", `/iam/v2beta1/groups/${first.uid}`, { body: { description: "touched" } });
    for (const order of ["update_time desc", "updateTime desc", "updated_at desc"]) {
      const reply = await call<{ groups: Json[] }>(
        "GET",
        `/iam/v2beta1/groups?uidp.children_of=${enc(parent.uid as string)}&order_by=${enc(order)}`,
      );
      expect(reply.body.groups.map((g) => g.uid)).toEqual([first.uid, second.uid]);
    }
    const byCreate = await call<{ groups: Json[] }>(
      "GET",
      `/iam/v2beta1/groups?uidp.children_of=${enc(parent.uid as string)}&order_by=create_time`,
    );
    // Same createTime: ties are broken by uid.
    expect(byCreate.body.groups.map((g) => g.uid)).toEqual([first.uid, second.uid].sort());
  });

  it("updateMask=claimMatch replaces the whole object and requires both members", async () => {
    const identity = (
      await call<Json>("POST", `/iam/v2beta1/identities/${emu.rootGroupUid}`, {
        body: { name: "whole", claimMatch: { issuer: "https://a.example", subject: "a" } },
      })
    ).body;
    const partial = await call<Json>(
      "PATCH",
      `/iam/v2beta1/identities/${identity.uid}?updateMask=claimMatch`,
      {
        body: { claimMatch: { subject: "b" } },
      },
    );
    expect(partial.status).toBe(400);
    expect(partial.body.message).toBe("Invalid argument: claimMatch.issuer: is required");
    const whole = await call<Json>(
      "PATCH",
      `/iam/v2beta1/identities/${identity.uid}?updateMask=claimMatch`,
      {
        body: { claimMatch: { issuer: "https://b.example", subject: "b" } },
      },
    );
    expect(whole.body.claimMatch).toEqual({ issuer: "https://b.example", subject: "b" });
  });
});

describe("roles", () => {
  it("lists the built-in roles with their capabilities to any authenticated caller", async () => {
    const reply = await call<{ roles: Json[] }>("GET", "/iam/v2beta1/roles?order_by=name");
    // Built-in roles are told apart by their flat uid; no role answers a parentUid.
    for (const role of reply.body.roles) expect(role).not.toHaveProperty("parentUid");
    const builtIn = reply.body.roles.filter((role) => !String(role.uid).includes("/"));
    expect(builtIn.map((role) => role.name)).toEqual([
      "editor",
      "owner",
      "registry.pull",
      "viewer",
    ]);
    for (const role of builtIn) expect(role.uid).toMatch(/^[0-9a-f]{40}$/);
    const viewer = builtIn.find((role) => role.name === "viewer") as { capabilities: string[] };
    expect(viewer.capabilities).toContain("CAP_IAM_GROUPS_LIST");
    expect(viewer.capabilities.every((c) => /^CAP_[A-Z0-9_]+$/.test(c))).toBe(true);
    const editor = builtIn.find((role) => role.name === "editor") as { capabilities: string[] };
    expect(editor.capabilities).toContain("CAP_REPO_CREATE");
    expect(editor.capabilities).not.toContain("CAP_IAM_GROUPS_CREATE");
    expect(editor.capabilities).not.toContain("CAP_IAM_ROLE_BINDINGS_CREATE");
    const pull = builtIn.find((role) => role.name === "registry.pull") as {
      capabilities: string[];
    };
    expect(pull.capabilities).toEqual(expect.arrayContaining(["CAP_REPO_LIST", "CAP_TAG_LIST"]));
  });

  it("custom roles: create with capabilities, update, delete; built-ins cannot change", async () => {
    const created = await call<Json>("POST", `/iam/v2beta1/roles/${emu.rootGroupUid}`, {
      body: { name: "group-reader", capabilities: ["CAP_IAM_GROUPS_LIST", "CAP_IAM_GROUPS_LIST"] },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      name: "group-reader",
      capabilities: ["CAP_IAM_GROUPS_LIST"],
    });
    expect(created.body).not.toHaveProperty("parentUid");
    // A custom role is a child of its group.
    expect(created.body.uid).toMatch(new RegExp(`^${emu.rootGroupUid}/[0-9a-f]{16}$`));
    const updated = await call<Json>(
      "PATCH",
      `/iam/v2beta1/roles/${created.body.uid}?updateMask=capabilities`,
      {
        body: { capabilities: ["CAP_REPO_LIST", "CAP_IAM_GROUPS_LIST"] },
      },
    );
    // In the enum's order.
    expect(updated.body.capabilities).toEqual(["CAP_IAM_GROUPS_LIST", "CAP_REPO_LIST"]);
    const unknown = await call<Json>("POST", `/iam/v2beta1/roles/${emu.rootGroupUid}`, {
      body: { name: "bad", capabilities: ["groups.fly"] },
    });
    expect(unknown.status).toBe(400);
    expect(String(unknown.body.message)).toMatch(/^Invalid argument: capabilities: /);
    const builtIn = await call<Json>("PATCH", `/iam/v2beta1/roles/${await roleUid("viewer")}`, {
      body: { description: "mine now" },
    });
    expect(builtIn.status).toBe(403);
    expect(builtIn.body.code).toBe(7);
    expect((await call("DELETE", `/iam/v2beta1/roles/${created.body.uid}`)).status).toBe(200);
    expect((await call("GET", `/iam/v2beta1/roles/${created.body.uid}`)).status).toBe(404);
  });
});

describe("role bindings", () => {
  let group: Json;
  let identity: Json;

  beforeAll(async () => {
    group = await createGroup(emu.rootGroupUid, "bound");
    identity = (
      await call<Json>("POST", `/iam/v2beta1/identities/${group.uid}`, {
        body: {
          name: "robot",
          description: "a robot",
          claimMatch: { issuer: "https://ci.example", subject: "robot" },
        },
      })
    ).body;
  });

  it("create answers the binding with hydrated identity, group and role", async () => {
    const viewer = await roleUid("viewer");
    const reply = await call<Json>("POST", `/iam/v2beta1/roleBindings/${group.uid}`, {
      body: { identityUid: identity.uid, roleUid: viewer },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.uid).toMatch(new RegExp(`^${group.uid}/[0-9a-f]{16}$`));
    expect(reply.body).toMatchObject({
      identity: {
        uid: identity.uid,
        name: "robot",
        description: "a robot",
        subject: "robot",
        issuer: "https://ci.example",
      },
      group: { uid: group.uid, name: "bound", description: "" },
      role: { uid: viewer, name: "viewer", description: "Reads, and pulls from the registries" },
    });
    expect(reply.body.createTime).toMatch(ISO_MS);
    const fetched = await call("GET", `/iam/v2beta1/roleBindings/${reply.body.uid}`);
    expect(fetched.body).toEqual(reply.body);

    const duplicate = await call<Json>("POST", `/iam/v2beta1/roleBindings/${group.uid}`, {
      body: { identityUid: identity.uid, roleUid: viewer },
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.code).toBe(6);
    expect(reasonOf(duplicate.body)).toBe("ALREADY_EXISTS");

    const inUse = await call<Json>("DELETE", `/iam/v2beta1/identities/${identity.uid}`);
    expect(inUse.status).toBe(400);
    expect(inUse.body.code).toBe(9);

    const editor = await roleUid("editor");
    const patched = await call<Json>(
      "PATCH",
      `/iam/v2beta1/roleBindings/${reply.body.uid}?updateMask=roleUid`,
      {
        body: { roleUid: editor },
      },
    );
    expect(patched.body).toMatchObject({
      uid: reply.body.uid,
      role: { uid: editor, name: "editor" },
    });
    expect((await call("DELETE", `/iam/v2beta1/roleBindings/${reply.body.uid}`)).status).toBe(200);
    expect((await call("DELETE", `/iam/v2beta1/identities/${identity.uid}`)).status).toBe(200);
  });

  it("a bound custom role cannot be deleted; unknown identity or role is NOT_FOUND", async () => {
    const role = (
      await call<Json>("POST", `/iam/v2beta1/roles/${group.uid}`, {
        body: { name: "tiny", capabilities: ["CAP_IAM_GROUPS_LIST"] },
      })
    ).body;
    const someone = (
      await call<Json>("POST", `/iam/v2beta1/identities/${group.uid}`, {
        body: { name: "someone", claimMatch: { issuer: "https://ci.example", subject: "someone" } },
      })
    ).body;
    const binding = await call<Json>("POST", `/iam/v2beta1/roleBindings/${group.uid}`, {
      body: { identityUid: someone.uid, roleUid: role.uid },
    });
    expect(binding.status).toBe(200);
    const busy = await call<Json>("DELETE", `/iam/v2beta1/roles/${role.uid}`);
    expect(busy.status).toBe(400);
    expect(busy.body.code).toBe(9);
    const missingIdentity = await call<Json>("POST", `/iam/v2beta1/roleBindings/${group.uid}`, {
      body: { identityUid: `${group.uid}/0000000000000000`, roleUid: role.uid },
    });
    expect(missingIdentity.status).toBe(404);
    const missingField = await call<Json>("POST", `/iam/v2beta1/roleBindings/${group.uid}`, {
      body: { identityUid: someone.uid },
    });
    expect(missingField.body.message).toBe("Invalid argument: roleUid: is required");
  });
});
