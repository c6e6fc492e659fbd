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

/** An advisory as the official message carries it, unpopulated members included. */
function advisory(advisoryId: string, componentName = "zlib") {
  return {
    uid: `${ROOT}/3333333333333333`,
    advisoryId,
    createTime: TIME,
    updateTime: TIME,
    deleteTime: null,
    author: "",
    artifactName: "zlib",
    artifactType: "",
    artifactArchitecture: "",
    componentName,
    componentLocation: "",
    componentType: "",
    aliases: ["CVE-2026-0001"],
    events: [],
  };
}

let standIn: StandIn;
beforeAll(async () => {
  standIn = await new StandIn().start();
});
afterEach(() => standIn.reset());
afterAll(() => standIn.close());

describe("list filters", () => {
  it("role bindings: identity, group and role, under the official query keys", async () => {
    standIn.answer(json({ roleBindings: [binding(IDENTITY, ROLE)], totalCount: "1" }));
    const page = await standIn
      .client()
      .iam.roleBindings.list({ identity: IDENTITY, group: ROOT, role: ROLE, pageSize: 10 });
    expect(page.items).toHaveLength(1);
    expect(standIn.seen[0].query).toEqual({
      identity: IDENTITY,
      group: ROOT,
      role: ROLE,
      page_size: "10",
    });
  });

  it.each([
    [{ identity: `${ROOT}/9999999999999999` }, "roleBindings[0].identity.uid: is not"],
    [{ role: "c".repeat(40) }, "roleBindings[0].role.uid: is not"],
    [{ group: "c".repeat(40) }, "roleBindings[0].group.uid: is not"],
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

  it("sends no name where the request has none (role bindings, invites, advisories)", async () => {
    standIn.answer(
      json({ roleBindings: [], totalCount: "0" }),
      json({ groupInvites: [], totalCount: "0" }),
      json({ advisories: [], totalCount: "0" }),
    );
    const client = standIn.client();
    const untyped = { name: "x", childrenOf: ROOT } as Record<string, string>;
    await client.iam.roleBindings.list(untyped);
    await client.iam.groupInvites.list(untyped);
    await client.vulnerabilities.advisories.list(untyped);
    expect(standIn.seen.map((r) => r.query)).toEqual([
      { "uidp.children_of": ROOT },
      { "uidp.children_of": ROOT },
      { "uidp.children_of": ROOT },
    ]);
  });

  it("the uidp filter: ancestors_of, in_root and ids (a repeated key)", async () => {
    const child = `${ROOT}/1111111111111111`;
    standIn.answer(json({ groups: [], totalCount: "0" }));
    await standIn.client().iam.groups.list({
      ancestorsOf: `${child}/2222222222222222`,
      inRoot: true,
      ids: [ROOT, child],
    });
    expect(standIn.seen[0].rawQuery).toBe(
      `uidp.ancestors_of=${child.replace("/", "%2F")}%2F2222222222222222&uidp.in_root=true` +
        `&uidp.ids=${ROOT}&uidp.ids=${child.replace("/", "%2F")}`,
    );
  });

  it.each([
    [{ ids: [ROOT] }, "is not one of the ids"],
    [{ inRoot: true }, "is not at the root"],
    [{ ancestorsOf: `${"c".repeat(40)}/1111111111111111` }, "is not above"],
  ])("the uidp filter: refuses a group outside %j", async (params, message) => {
    const group = {
      uid: `${ROOT}/4444444444444444`,
      name: "g",
      createTime: TIME,
      updateTime: TIME,
    };
    standIn.answer(json({ groups: [group], totalCount: "1" }));
    const error = await failure(
      standIn
        .client()
        .iam.groups.list(params)
        .then((p) => p),
    );
    expect(error).toBeInstanceOf(BadResponseError);
    expect((error as Error).message).toContain(message);
  });

  it("tags: digest and updated_since", async () => {
    const repo = `${ROOT}/5555555555555555`;
    const digest = `sha256:${"e".repeat(64)}`;
    standIn.answer(json({ tags: [], totalCount: "0" }));
    await standIn.client().registry.tags.list({ childrenOf: repo, digest, updatedSince: TIME });
    expect(standIn.seen[0].query).toEqual({
      "uidp.children_of": repo,
      digest,
      updated_since: TIME,
    });
    await expect(
      standIn
        .client()
        .registry.tags.list({ updatedSince: "yesterday" })
        .then((p) => p),
    ).rejects.toThrow(/updatedSince/);
    expect(standIn.seen).toHaveLength(1);
  });

  it("advisories: the official filters, camelCase here, proto names on the wire", async () => {
    standIn.answer(json({ advisories: [advisory("CGA-1")], totalCount: "1" }));
    await standIn.client().vulnerabilities.advisories.list({
      advisoryIds: ["CGA-1", "CGA-2"],
      artifactNames: ["zlib"],
      componentNames: ["zlib"],
      aliases: ["CVE-2026-0001"],
      eventReviewStates: ["REVIEW_STATE_PENDING"],
      latestEventType: "EVENT_TYPE_FILTER_FIXED",
      origin: "zlib",
      query: "overflow",
    });
    expect(standIn.seen[0].rawQuery.split("&").sort()).toEqual(
      [
        "advisory_ids=CGA-1",
        "advisory_ids=CGA-2",
        "artifact_names=zlib",
        "component_names=zlib",
        "aliases=CVE-2026-0001",
        "event_review_states=REVIEW_STATE_PENDING",
        "latest_event_type=EVENT_TYPE_FILTER_FIXED",
        "origin=zlib",
        "query=overflow",
      ].sort(),
    );
    standIn.answer(json({ advisories: [advisory("CGA-9")], totalCount: "1" }));
    const error = await failure(
      standIn
        .client()
        .vulnerabilities.advisories.list({ advisoryIds: ["CGA-1"] })
        .then((p) => p),
    );
    expect(error).toBeInstanceOf(BadResponseError);
    expect((error as Error).message).toContain("advisories[0].advisoryId: is not one of");
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
