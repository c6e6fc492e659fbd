/**
 * `client.iam.groupInvites` against a scripted stand-in: `ttl` in its wire form,
 * the one-time `code` readable from the create answer only and never printed,
 * the `key_id` filter, the reader's checks, and no update.
 */
import { inspect } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BadResponseError, encodeTtl, OutcomeUnknownError } from "../../sdk";
import { failure } from "../support/sdk-helpers";
import { apiError, json, StandIn } from "../support/sdk-stand-in";

const ROOT = "a".repeat(40);
const ROLE = "b".repeat(40);
const UID = `${ROOT}/0123456789abcdef`;
const KEY_ID = "c".repeat(32);
const CODE = "Qm9vdHN0cmFwLWludml0ZS1jb2RlLTQzLWNoYXJzLWxvbmc".slice(0, 43);

function invite(overrides: Record<string, unknown> = {}) {
  return {
    uid: UID,
    roleUid: ROLE,
    role: { uid: ROLE, name: "viewer", description: "", capabilities: ["CAP_IAM_GROUPS_LIST"] },
    email: "",
    expirationTime: "2026-11-29T10:00:00.000Z",
    singleUse: true,
    keyId: KEY_ID,
    createTime: "2026-11-22T10:00:00.000Z",
    ...overrides,
  };
}

let standIn: StandIn;
beforeAll(async () => {
  standIn = await new StandIn().start();
});
afterEach(() => standIn.reset());
afterAll(() => standIn.close());

describe("group invites: ttl", () => {
  it.each([
    [3600, "3600s"],
    [1.5, "1.5s"],
    [0.001, "0.001s"],
    [604800, "604800s"],
    ["86400s", "86400s"],
    ["0.5s", "0.5s"],
  ])("sends %j as %j", async (ttl, wire) => {
    standIn.answer(json({ ...invite(), code: CODE }));
    await standIn.client().iam.groupInvites.create(ROOT, { roleUid: ROLE, ttl });
    expect(standIn.seen[0]).toMatchObject({
      method: "POST",
      path: `/iam/v2beta1/groupInvites/${ROOT}`,
      body: { roleUid: ROLE, ttl: wire },
    });
  });

  it.each([
    [-1, "ttl: must be a non-negative number of seconds, got -1"],
    [Number.NaN, "ttl: must be a non-negative number of seconds, got NaN"],
    [Number.POSITIVE_INFINITY, "ttl: must be a non-negative number of seconds, got Infinity"],
    ["168h", 'ttl: must be a number of seconds or a duration string such as "3600s", got "168h"'],
    ["3600", 'ttl: must be a number of seconds or a duration string such as "3600s", got "3600"'],
  ])("refuses %j before any request", async (ttl, message) => {
    const error = await failure(
      standIn.client().iam.groupInvites.create(ROOT, { roleUid: ROLE, ttl }),
    );
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe(message);
    expect(standIn.seen).toEqual([]);
  });

  it("writes no exponent for tiny or huge numbers", () => {
    expect(encodeTtl(1e-7)).toBe("0.0000001s");
    expect(encodeTtl(31536000)).toBe("31536000s");
    expect(() => encodeTtl(1e21)).toThrow("ttl: 1e+21 seconds cannot be written as a duration");
  });
});

describe("group invites: opaque key id and code", () => {
  it("accepts a key id and code of any form, and a custom role's child uid", async () => {
    const customRole = `${ROOT}/fedcba9876543210`;
    const keyId = "kid:2026/11+one";
    const code = "an.opaque/code+with=any~form";
    standIn.answer(
      json({
        ...invite({
          keyId,
          roleUid: customRole,
          role: { uid: customRole, name: "puller", description: "", capabilities: [] },
        }),
        code,
      }),
    );
    const created = await standIn
      .client()
      .iam.groupInvites.create(ROOT, { roleUid: customRole, ttl: 60 });
    expect(created.keyId).toBe(keyId);
    expect(created.code).toBe(code);
    expect(created.role?.uid).toBe(customRole);
  });
});

describe("group invites: the code", () => {
  it("is readable from the create answer, and nowhere printed", async () => {
    standIn.answer(json({ ...invite(), code: CODE }));
    const created = await standIn
      .client()
      .iam.groupInvites.create(ROOT, { roleUid: ROLE, ttl: 3600, singleUse: true });
    expect(created.code).toBe(CODE);
    expect(created.keyId).toBe(KEY_ID);
    expect(Object.keys(created)).not.toContain("code");
    expect(JSON.stringify(created)).not.toContain(CODE);
    expect(JSON.stringify({ ...created })).not.toContain(CODE);
    expect(inspect(created, { depth: 5 })).not.toContain(CODE);
    expect(inspect(created, { depth: 5, showHidden: true })).not.toContain(CODE);
    expect(inspect(created)).toContain("code: '[REDACTED]'");
    expect(`${created}`).not.toContain(CODE);
    // The rest of the invite is as read later.
    expect({ ...created }).toEqual(invite());
  });

  it("is dropped from Get and List, which should not carry it", async () => {
    standIn.answer(
      json({ ...invite(), code: CODE }),
      json({ groupInvites: [{ ...invite(), code: CODE }], totalCount: "1" }),
    );
    const client = standIn.client();
    const read = await client.iam.groupInvites.get(UID);
    expect("code" in read).toBe(false);
    const page = await client.iam.groupInvites.list({ childrenOf: ROOT });
    expect("code" in page.items[0]).toBe(false);
  });

  it.each([
    ["missing", undefined, "groupInvite.code: missing (the create answer must carry the code)"],
    ["empty", "", "groupInvite.code: missing (the create answer must carry the code)"],
    ["too long", `${CODE}${"x".repeat(8192)}`, "groupInvite.code: longer than 8192 characters"],
    ["a number", 12345, "groupInvite.code: expected a string, got a number"],
  ])(
    "is required in the create answer: %s is an unknown outcome, never quoted",
    async (_what, code, message) => {
      standIn.answer(json({ ...invite(), code }));
      const error = await failure(
        standIn.client().iam.groupInvites.create(ROOT, { roleUid: ROLE, ttl: 60 }),
      );
      expect(error).toBeInstanceOf(OutcomeUnknownError);
      expect((error as Error).message).toContain(message);
      if (typeof code === "string" && code !== "") {
        expect(inspect(error, { depth: 5 })).not.toContain(code.slice(0, 30));
      }
    },
  );

  it("never shows in the excerpt of a garbled create answer", async () => {
    standIn.answer(json(`{"uid":"${UID}","code":"${CODE}","keyId":`));
    const error = await failure(
      standIn.client().iam.groupInvites.create(ROOT, { roleUid: ROLE, ttl: 60 }),
    );
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    const text = `${(error as Error).stack}\n${inspect(error, { depth: 5 })}`;
    expect(text).toContain('\\"code\\":\\"[REDACTED]');
    expect(text).not.toContain(CODE);
  });

  it("never shows in an error that echoes it", async () => {
    standIn.answer(apiError(400, 3, `Invalid argument: {"code": "${CODE}"}`));
    const error = await failure(standIn.client().iam.groupInvites.get(UID));
    expect((error as Error).message).toBe('Invalid argument: {"code": "[REDACTED]"}');
  });
});

describe("group invites: requests and answers", () => {
  it("lists by key id as key_id and deletes by uid; offers no update", async () => {
    standIn.answer(json({ groupInvites: [invite()], totalCount: "1" }), json({}));
    const client = standIn.client();
    const page = await client.iam.groupInvites.list({ keyId: KEY_ID, descendantsOf: ROOT });
    expect(page.items).toEqual([invite()]);
    expect(standIn.seen[0].query).toEqual({ "uidp.descendants_of": ROOT, key_id: KEY_ID });
    await client.iam.groupInvites.delete(UID);
    expect(standIn.seen[1]).toMatchObject({
      method: "DELETE",
      path: `/iam/v2beta1/groupInvites/${ROOT}/0123456789abcdef`,
    });
    expect("update" in client.iam.groupInvites).toBe(false);
  });

  it("refuses a listed invite of another key id", async () => {
    standIn.answer(json({ groupInvites: [invite({ keyId: "d".repeat(32) })], totalCount: "1" }));
    const error = await failure(
      standIn
        .client()
        .iam.groupInvites.list({ keyId: KEY_ID })
        .then((page) => page),
    );
    expect(error).toBeInstanceOf(BadResponseError);
    expect((error as Error).message).toContain(
      `groupInvites[0].keyId: is not ${KEY_ID}, the key id filtered on`,
    );
  });

  it("keeps an invite whose role is gone: no role, roleUid kept", async () => {
    standIn.answer(json(invite({ role: undefined, email: "dev@example.com" })));
    const read = await standIn.client().iam.groupInvites.get(UID);
    expect(read).toEqual({ ...invite({ email: "dev@example.com" }), role: undefined });
    expect("role" in read).toBe(false);
  });

  it.each([
    [
      "a role of another uid",
      { role: { ...invite().role, uid: "e".repeat(40) } },
      "groupInvite.role.uid",
    ],
    ["a key id that is empty", { keyId: "" }, "groupInvite.keyId: empty"],
    [
      "a role capability that is not an enum name",
      { role: { ...invite().role, capabilities: ["groups.list"] } },
      "groupInvite.role.capabilities[0]: not a capability name",
    ],
    ["no expiration time", { expirationTime: undefined }, "groupInvite.expirationTime: missing"],
    ["singleUse as a string", { singleUse: "yes" }, "groupInvite.singleUse: expected a boolean"],
    [
      "a roleUid that is not a role uid",
      { roleUid: "viewer", role: undefined },
      "groupInvite.roleUid: not a role uid",
    ],
  ])("refuses %s", async (_what, overrides, message) => {
    standIn.answer(json(invite(overrides)));
    const error = await failure(standIn.client().iam.groupInvites.get(UID));
    expect(error).toBeInstanceOf(BadResponseError);
    expect((error as Error).message).toContain(message);
  });
});
