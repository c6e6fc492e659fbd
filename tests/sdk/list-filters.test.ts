/**
 * The collection-specific list filters against a scripted stand-in: their wire
 * names (snake_case, as the service documents them), and listed items that do
 * not match a filter refused like items outside a scope.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BadResponseError } from "../../sdk";
import { failure } from "../support/sdk-helpers";
import { json, StandIn } from "../support/sdk-stand-in";

const ROOT = "a".repeat(40);
const ROLE = "b".repeat(40);
const IDENTITY = `${ROOT}/1111111111111111`;
const TIME = "2026-11-22T10:00:00.000Z";

function binding(identityUid: string, roleUid: string) {
  return {
    uid: `${ROOT}/2222222222222222`,
    identity: { uid: identityUid, name: "i", description: "", issuer: "", subject: "" },
    group: { uid: ROOT, name: "root", description: "" },
    role: { uid: roleUid, name: "viewer", description: "" },
    createTime: TIME,
  };
}

function advisory(severity: string) {
  return { uid: `${ROOT}/3333333333333333`, advisoryId: "CVE-1", packageName: "zlib", severity };
}

let standIn: StandIn;
beforeAll(async () => {
  standIn = await new StandIn().start();
});
afterEach(() => standIn.reset());
afterAll(() => standIn.close());

describe("list filters", () => {
  it("role bindings: identityUid and roleUid as identity_uid and role_uid", async () => {
    standIn.answer(json({ roleBindings: [binding(IDENTITY, ROLE)], totalCount: "1" }));
    const page = await standIn
      .client()
      .iam.roleBindings.list({ identityUid: IDENTITY, roleUid: ROLE, pageSize: 10 });
    expect(page.items).toHaveLength(1);
    expect(standIn.seen[0].query).toEqual({
      identity_uid: IDENTITY,
      role_uid: ROLE,
      page_size: "10",
    });
  });

  it.each([
    [{ identityUid: `${ROOT}/9999999999999999` }, "roleBindings[0].identity.uid: is not"],
    [{ roleUid: "c".repeat(40) }, "roleBindings[0].role.uid: is not"],
  ])("role bindings: refuses an item that does not match %j", async (params, message) => {
    standIn.answer(json({ roleBindings: [binding(IDENTITY, ROLE)], totalCount: "1" }));
    const error = await failure(
      standIn
        .client()
        .iam.roleBindings.list(params)
        .then((page) => page),
    );
    expect(error).toBeInstanceOf(BadResponseError);
    expect((error as Error).message).toContain(message);
  });

  it("advisories: severity, beside name and packageName", async () => {
    standIn.answer(json({ advisories: [advisory("HIGH")], totalCount: "1" }));
    await standIn
      .client()
      .vulnerabilities.advisories.list({ severity: "HIGH", packageName: "zlib", name: "CVE-1" });
    expect(standIn.seen[0].query).toEqual({ severity: "HIGH", packageName: "zlib", name: "CVE-1" });
    standIn.answer(json({ advisories: [advisory("LOW")], totalCount: "1" }));
    const error = await failure(
      standIn
        .client()
        .vulnerabilities.advisories.list({ severity: "HIGH" })
        .then((p) => p),
    );
    expect(error).toBeInstanceOf(BadResponseError);
    expect((error as Error).message).toContain(
      "advisories[0].severity: is not HIGH, the severity filtered on",
    );
  });

  it("a filter follows every page of an iteration", async () => {
    standIn.answer(
      json({ groupInvites: [], totalCount: "0", nextPageToken: "p2" }),
      json({ groupInvites: [], totalCount: "0" }),
    );
    const all = await standIn
      .client()
      .iam.groupInvites.list({ keyId: "d".repeat(32) })
      .all();
    expect(all).toEqual([]);
    expect(standIn.seen.map((r) => r.query)).toEqual([
      { key_id: "d".repeat(32), page_size: "200" },
      { key_id: "d".repeat(32), page_size: "200", page_token: "p2" },
    ]);
  });
});
