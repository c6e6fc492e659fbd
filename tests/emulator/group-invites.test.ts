/**
 * Group invites (addendum 4): the code answered once and kept only as a digest, keyId,
 * expiry on the service clock, every validation rule and error row, no update, lists
 * with key_id and their own order fields, and what blocks or does not block a delete.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { TestEmulator } from "../../harness/emulator";
import * as collection from "../support/emulator-collection";
import { failure, type Json, type Org, useTestOrg } from "../support/emulator-org";

let emu: TestEmulator;
let o: Org;
let viewer: string;
let invites: collection.Collection;

const path = (suffix = "") => `/iam/v2beta1/groupInvites${suffix}`;

useTestOrg((started) => {
  ({ emu, o } = started);
});
beforeAll(async () => {
  viewer = await o.builtIn("viewer");
  invites = { o, path, listKey: "groupInvites", noun: "group invite" };
});

const create = (group: string, body: Json) => collection.create(invites, group, body);

describe("create and read", () => {
  it("the create answers the code (43 base64url characters); Get and List never do", async () => {
    const group = await o.group(emu.rootGroupUid);
    const created = await create(group, {
      roleUid: viewer,
      ttl: "3600s",
      email: "someone@example.com",
      singleUse: true,
    });
    const code = created.code as string;
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(code, "base64url")).toHaveLength(32);
    expect(created.uid).toMatch(new RegExp(`^${group}/[0-9a-f]{16}$`));
    expect(created.keyId).toMatch(/^[0-9a-f]{32}$/);
    expect(
      Date.parse(created.expirationTime as string) - Date.parse(created.createTime as string),
    ).toBe(3_600_000);
    const { code: _code, ...withoutCode } = created;
    expect(withoutCode).toEqual({
      uid: created.uid,
      roleUid: viewer,
      role: {
        uid: viewer,
        name: "viewer",
        description: "Reads, and pulls from the registries",
        capabilities: expect.any(Array),
      },
      email: "someone@example.com",
      expirationTime: created.expirationTime,
      singleUse: true,
      keyId: created.keyId,
      createTime: created.createTime,
    });
    expect(created).not.toHaveProperty("updateTime");
    expect(created).not.toHaveProperty("ttl");
    const fetched = await o.call<Json>("GET", path(`/${created.uid}`));
    expect(fetched.body).toEqual(withoutCode);
    const listed = await o.call<Json>("GET", path(`?uidp.children_of=${group}`));
    expect(listed.body.groupInvites).toEqual([withoutCode]);
    expect(fetched.text + listed.text).not.toContain(code);
  });

  it("each invite has its own code and keyId, even for the same role and email", async () => {
    const group = await o.group(emu.rootGroupUid);
    const a = await create(group, { roleUid: viewer, ttl: "60s", email: "x@y" });
    const b = await create(group, { roleUid: viewer, ttl: "60s", email: "x@y" });
    expect(a.code).not.toBe(b.code);
    expect(a.keyId).not.toBe(b.keyId);
  });

  it("defaults: anyone with the code (email empty), reusable; fractional ttl to the millisecond", async () => {
    const created = await create(await o.group(emu.rootGroupUid), { roleUid: viewer, ttl: "1.5s" });
    expect(created.email).toBe("");
    expect(created.singleUse).toBe(false);
    expect(
      Date.parse(created.expirationTime as string) - Date.parse(created.createTime as string),
    ).toBe(1500);
  });

  it("an expired invite stays in Get and List with its past time, and can be deleted", async () => {
    const group = await o.group(emu.rootGroupUid);
    const created = await create(group, { roleUid: viewer, ttl: "1s" });
    await emu.advanceClock(10);
    const fetched = await o.call<Json>("GET", path(`/${created.uid}`));
    expect(fetched.status).toBe(200);
    expect(fetched.body.expirationTime).toBe(created.expirationTime);
    const listed = await o.call<Json>("GET", path(`?uidp.children_of=${group}`));
    expect(listed.body.totalCount).toBe("1");
    await collection.expectBlocksGroupDelete(invites, group, created.uid as string);
  });
});

describe("validation (4.3)", () => {
  const rows: Array<[string, () => Json, string]> = [
    ["roleUid missing", () => ({ ttl: "60s" }), "roleUid: is required"],
    [
      "roleUid form",
      () => ({ roleUid: "abc", ttl: "60s" }),
      "roleUid: must be a role uid (hex segments separated by /)",
    ],
    ["roleUid type", () => ({ roleUid: 5, ttl: "60s" }), "roleUid: must be a string"],
    ["ttl missing", () => ({ roleUid: viewer }), "ttl: is required"],
    [
      "ttl number",
      () => ({ roleUid: viewer, ttl: 3600 }),
      'ttl: must be a duration string such as "3600s"',
    ],
    [
      "ttl hours",
      () => ({ roleUid: viewer, ttl: "168h" }),
      'ttl: must be a duration string such as "3600s"',
    ],
    [
      "ttl ten fractional digits",
      () => ({ roleUid: viewer, ttl: "1.0000000001s" }),
      'ttl: must be a duration string such as "3600s"',
    ],
    [
      "ttl negative",
      () => ({ roleUid: viewer, ttl: "-5s" }),
      'ttl: must be a duration string such as "3600s"',
    ],
    ["ttl zero", () => ({ roleUid: viewer, ttl: "0s" }), "ttl: must be between 1ms and 365 days"],
    [
      "ttl under 1ms",
      () => ({ roleUid: viewer, ttl: "0.0009s" }),
      "ttl: must be between 1ms and 365 days",
    ],
    [
      "ttl over 365 days",
      () => ({ roleUid: viewer, ttl: "31536000.5s" }),
      "ttl: must be between 1ms and 365 days",
    ],
    [
      "email form",
      () => ({ roleUid: viewer, ttl: "60s", email: "not an email" }),
      "email: must be an email address",
    ],
    [
      "email brackets",
      () => ({ roleUid: viewer, ttl: "60s", email: "<a@b>" }),
      "email: must be an email address",
    ],
    [
      "email too long",
      () => ({ roleUid: viewer, ttl: "60s", email: `${"a".repeat(250)}@b.cd` }),
      "email: must be at most 254 characters",
    ],
    ["email type", () => ({ roleUid: viewer, ttl: "60s", email: 1 }), "email: must be a string"],
    [
      "singleUse type",
      () => ({ roleUid: viewer, ttl: "60s", singleUse: "yes" }),
      "singleUse: must be a boolean",
    ],
  ];
  it.each(rows)("%s is INVALID_ARGUMENT naming the field", async (_case, body, message) => {
    await collection.expectCreateRefused(invites, await o.group(emu.rootGroupUid), body(), message);
  });

  it("1ms and exactly 365 days are accepted", async () => {
    const group = await o.group(emu.rootGroupUid);
    await create(group, { roleUid: viewer, ttl: "0.001s" });
    const year = await create(group, { roleUid: viewer, ttl: "31536000s" });
    expect(Date.parse(year.expirationTime as string) - Date.parse(year.createTime as string)).toBe(
      31_536_000_000,
    );
  });

  it("an unknown role is NOT_FOUND; a role of another group is INVALID_ARGUMENT on roleUid", async () => {
    const group = await o.group(emu.rootGroupUid);
    const missing = "cd".repeat(20);
    expect(
      failure(await o.call("POST", path(`/${group}`), { body: { roleUid: missing, ttl: "60s" } })),
    ).toEqual([404, `Not found: ${missing}`]);
    const foreign = await o.role(await o.group(emu.rootGroupUid), ["CAP_IAM_GROUPS_LIST"]);
    expect(
      failure(await o.call("POST", path(`/${group}`), { body: { roleUid: foreign, ttl: "60s" } })),
    ).toEqual([
      400,
      "Invalid argument: roleUid: the role belongs to a group that is not this group or an ancestor",
    ]);
  });
});

describe("capabilities (2.3) and the order of checks", () => {
  it("groupInvites.create and CAP_IAM_ROLE_BINDINGS_CREATE on the group, then every capability of the role", async () => {
    const group = await o.group(emu.rootGroupUid);
    const onlyInvites = await o.actorWith(group, ["CAP_IAM_GROUP_INVITES_CREATE"]);
    expect(
      failure(
        await onlyInvites.call("POST", path(`/${group}`), {
          body: { roleUid: viewer, ttl: "60s" },
        }),
      ),
    ).toEqual([403, `Permission denied: CAP_IAM_ROLE_BINDINGS_CREATE on ${group}`]);
    const inviter = await o.actorWith(group, [
      "CAP_IAM_GROUP_INVITES_CREATE",
      "CAP_IAM_ROLE_BINDINGS_CREATE",
      "CAP_REPO_LIST",
    ]);
    // The first missing capability of viewer, in the enum's order.
    expect(
      failure(
        await inviter.call("POST", path(`/${group}`), { body: { roleUid: viewer, ttl: "60s" } }),
      ),
    ).toEqual([403, `Permission denied: CAP_IAM_GROUPS_LIST on ${group}`]);
    const pull = await o.builtIn("registry.pull");
    expect(
      failure(
        await inviter.call("POST", path(`/${group}`), { body: { roleUid: pull, ttl: "60s" } }),
      ),
    ).toEqual([403, `Permission denied: CAP_IAM_GROUPS_LIST on ${group}`]);
    const own = await o.role(group, ["CAP_REPO_LIST"]);
    // A custom role needs CAP_IAM_ROLES_LIST to be read, as for a binding: NOT_FOUND otherwise.
    expect(
      failure(
        await inviter.call("POST", path(`/${group}`), { body: { roleUid: own, ttl: "60s" } }),
      ),
    ).toEqual([404, `Not found: ${own}`]);
  });

  it("path, capability, body, references, role usable, grants: the first failure answers", async () => {
    const group = await o.group(emu.rootGroupUid);
    const other = await o.group(emu.rootGroupUid);
    const inviter = await o.actorWith(group, [
      "CAP_IAM_GROUP_INVITES_CREATE",
      "CAP_IAM_ROLE_BINDINGS_CREATE",
      "CAP_IAM_ROLES_LIST",
    ]);
    const bad = { roleUid: "cd".repeat(20), ttl: "1h" };
    expect(failure(await inviter.call("POST", path("/xyz"), { body: bad }))[1]).toBe(
      "Invalid argument: parent: must be a uid (hex segments separated by /)",
    );
    expect(failure(await inviter.call("POST", path(`/${other}`), { body: bad }))).toEqual([
      403,
      `Permission denied: CAP_IAM_GROUP_INVITES_CREATE on ${other}`,
    ]);
    expect(failure(await inviter.call("POST", path(`/${group}`), { body: bad }))[1]).toBe(
      'Invalid argument: ttl: must be a duration string such as "3600s"',
    );
    expect(
      failure(await inviter.call("POST", path(`/${group}`), { body: { ...bad, ttl: "1s" } })),
    ).toEqual([404, `Not found: ${bad.roleUid}`]);
    const foreign = await o.role(other, ["CAP_IAM_GROUPS_LIST"]);
    expect(
      failure(
        await o.call("POST", path(`/${group}`), { body: { roleUid: foreign, ttl: "1s" } }),
      )[0],
    ).toBe(400);
    expect(
      failure(
        await inviter.call("POST", path(`/${group}`), { body: { roleUid: viewer, ttl: "1s" } }),
      )[0],
    ).toBe(403);
  });

  it("get and delete need their capabilities before NOT_FOUND", async () => {
    const group = await o.group(emu.rootGroupUid);
    const missing = `${group}/${"0".repeat(16)}`;
    const stranger = await o.actor(group, []);
    for (const [method, capability] of [
      ["GET", "CAP_IAM_GROUP_INVITES_LIST"],
      ["DELETE", "CAP_IAM_GROUP_INVITES_DELETE"],
    ]) {
      expect(failure(await stranger.call(method, path(`/${missing}`)))).toEqual([
        403,
        `Permission denied: ${capability} on ${missing}`,
      ]);
      expect(failure(await o.call(method, path(`/${missing}`)))).toEqual([
        404,
        `Not found: ${missing}`,
      ]);
    }
  });
});

describe("no update", () => {
  it("PATCH is UNIMPLEMENTED and changes nothing", async () => {
    const created = await create(await o.group(emu.rootGroupUid), { roleUid: viewer, ttl: "60s" });
    const reply = await o.call<Json>("PATCH", path(`/${created.uid}`), { body: { email: "a@b" } });
    expect(reply.status).toBe(501);
    expect(reply.body.code).toBe(12);
    expect(reply.body.message).toBe(
      `Unimplemented: PATCH is not supported on ${path(`/${created.uid}`)}`,
    );
    expect(JSON.stringify(reply.body)).toContain('"reason":"UNIMPLEMENTED"');
    expect((await o.call<Json>("GET", path(`/${created.uid}`))).body.email).toBe("");
  });
});

describe("lists (4.2)", () => {
  it("key_id (alias keyId) matches exactly; name is ignored", async () => {
    const group = await o.group(emu.rootGroupUid);
    const a = await create(group, { roleUid: viewer, ttl: "60s" });
    await create(group, { roleUid: viewer, ttl: "60s" });
    const uids = async (query: string) =>
      (
        (await o.call<Json>("GET", path(`?uidp.children_of=${group}&${query}`))).body
          .groupInvites as Json[]
      ).map((invite) => invite.uid);
    expect(await uids(`key_id=${a.keyId}`)).toEqual([a.uid]);
    expect(await uids(`keyId=${a.keyId}`)).toEqual([a.uid]);
    expect(await uids("key_id=ffffffffffffffffffffffffffffffff")).toEqual([]);
    expect(await uids("name=anything")).toHaveLength(2);
  });

  it("order_by uid, create_time and expiration_time with aliases; name and update_time are refused", async () => {
    const group = await o.group(emu.rootGroupUid);
    const late = await create(group, { roleUid: viewer, ttl: "9000s" });
    await emu.advanceClock(1);
    const soon = await create(group, { roleUid: viewer, ttl: "10s" });
    const uids = async (order: string) =>
      (
        (await o.call<Json>("GET", path(`?uidp.children_of=${group}&order_by=${order}`))).body
          .groupInvites as Json[]
      ).map((invite) => invite.uid);
    expect(await uids("expiration_time")).toEqual([soon.uid, late.uid]);
    expect(await uids("expirationTime%20desc")).toEqual([late.uid, soon.uid]);
    expect(await uids("create_time")).toEqual([late.uid, soon.uid]);
    expect(await uids("created_at%20desc")).toEqual([soon.uid, late.uid]);
    expect(await uids("uid")).toEqual([late.uid, soon.uid].sort());
    for (const field of ["name", "update_time", "updateTime"]) {
      const reply = await o.call("GET", path(`?order_by=${field}`));
      expect(failure(reply)).toEqual([
        400,
        "Invalid argument: order_by: must be one of uid, create_time, expiration_time, optionally followed by asc or desc",
      ]);
    }
  });

  it("without order_by, invites list newest first", async () => {
    const group = await o.group(emu.rootGroupUid);
    const made: string[] = [];
    for (let index = 0; index < 4; index++) {
      made.push((await create(group, { roleUid: viewer, ttl: "600s" })).uid as string);
      await emu.advanceClock(1);
    }
    const listed = async (query: string) =>
      (
        (await o.call<Json>("GET", path(`?uidp.children_of=${group}${query}`))).body
          .groupInvites as Json[]
      ).map((invite) => invite.uid);
    expect(await listed("")).toEqual([...made].reverse());
    expect(await listed("&order_by=")).toEqual([...made].reverse());
    expect(await listed("&order_by=uid")).toEqual([...made].sort());
    // Paged, the default order holds across pages.
    const first = await o.call<Json>("GET", path(`?uidp.children_of=${group}&page_size=2`));
    const second = await o.call<Json>(
      "GET",
      path(`?uidp.children_of=${group}&page_size=2&page_token=${first.body.nextPageToken}`),
    );
    expect(
      [...(first.body.groupInvites as Json[]), ...(second.body.groupInvites as Json[])].map(
        (invite) => invite.uid,
      ),
    ).toEqual([...made].reverse());
  });

  it("a page token is bound to key_id", async () => {
    const group = await o.group(emu.rootGroupUid);
    const a = await create(group, { roleUid: viewer, ttl: "60s" });
    await create(group, { roleUid: viewer, ttl: "60s" });
    await collection.expectPageTokenBound(invites, group, `key_id=${a.keyId}`);
  });
});

describe("the code is a secret", () => {
  it("the request log never holds it (the --data file: actions-data-filters.test.ts)", async () => {
    const group = await o.group(emu.rootGroupUid);
    const created = await create(group, { roleUid: viewer, ttl: "60s" });
    const log = JSON.stringify(await emu.requests());
    expect(log).toContain(path(`/${group}`));
    expect(log).not.toContain(created.code as string);
  });
});
