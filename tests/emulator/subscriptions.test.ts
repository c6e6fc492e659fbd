/**
 * Event subscriptions: HEAD's v2beta1 SubscriptionsService and the v1 calls the
 * platform's tools make, from the same records, with their capabilities and rules.
 */
import { describe, expect, it } from "vitest";
import type { TestEmulator } from "../../harness/emulator";
import { caller, enc } from "../support/emulator-http";
import { failure, type Json, type Org, useTestOrg } from "../support/emulator-org";

let emu: TestEmulator;
let o: Org;
useTestOrg((started) => {
  ({ emu, o } = started);
});

const V2 = "/events/v2beta1/subscriptions";
const V1 = "/events/v1/subscriptions";

describe("v2beta1 subscriptions", () => {
  it("create, get, list by scope, delete; the answer is the Subscription message", async () => {
    const group = await o.group(emu.rootGroupUid);
    const made = await o.call<Json>("POST", `${V2}/${group}`, {
      body: { sink: "https://hooks.example.com/irm" },
    });
    expect(made.status, made.text).toBe(200);
    expect(Object.keys(made.body).sort()).toEqual(["sink", "uid"]);
    expect(made.body.uid).toMatch(new RegExp(`^${group}/[0-9a-f]{16}$`));
    expect((await o.call("GET", `${V2}/${made.body.uid}`)).body).toEqual(made.body);
    const listed = await o.call<{ subscriptions: Json[] }>(
      "GET",
      `${V2}?uidp.children_of=${enc(group)}`,
    );
    expect(listed.body.subscriptions).toEqual([made.body]);
    expect((await o.call("DELETE", `/iam/v2beta1/groups/${group}`)).body.message).toContain(
      "1 event subscription",
    );
    expect((await o.call("DELETE", `${V2}/${made.body.uid}`)).status).toBe(200);
    expect((await o.call("GET", `${V2}/${made.body.uid}`)).status).toBe(404);
  });

  it("refuses a sink that is not an https URL, naming it, and creates nothing", async () => {
    const group = await o.group(emu.rootGroupUid);
    for (const sink of [undefined, "", "http://hooks.example.com", "hooks", 7]) {
      const reply = await o.call("POST", `${V2}/${group}`, { body: { sink } });
      expect(reply.status, String(sink)).toBe(400);
      expect(String(reply.body.message)).toContain("sink:");
    }
    const listed = await o.call<{ subscriptions: Json[] }>(
      "GET",
      `${V2}?uidp.children_of=${enc(group)}`,
    );
    expect(listed.body.subscriptions).toEqual([]);
  });

  it("needs the CAP_EVENTS_SUBSCRIPTION capabilities; there is no update", async () => {
    const group = await o.group(emu.rootGroupUid);
    const viewer = await o.actorWith(group, ["CAP_EVENTS_SUBSCRIPTION_LIST"]);
    expect(
      failure(await viewer.call("POST", `${V2}/${group}`, { body: { sink: "https://a.example" } })),
    ).toEqual([403, `Permission denied: CAP_EVENTS_SUBSCRIPTION_CREATE on ${group}`]);
    const made = await o.call<Json>("POST", `${V2}/${group}`, {
      body: { sink: "https://a.example" },
    });
    expect((await viewer.call("GET", `${V2}/${made.body.uid}`)).status).toBe(200);
    expect(failure(await viewer.call("DELETE", `${V2}/${made.body.uid}`))).toEqual([
      403,
      `Permission denied: CAP_EVENTS_SUBSCRIPTION_DELETE on ${made.body.uid}`,
    ]);
    expect((await caller(emu.url, null)("GET", V2)).status).toBe(401);
    expect(
      (await o.call("PATCH", `${V2}/${made.body.uid}`, { body: { sink: "https://b.example" } }))
        .status,
    ).toBe(501);
  });
});

describe("v1 subscriptions", () => {
  it("create under parent_id, list by id and scope, delete: the same records as v2beta1", async () => {
    const group = await o.group(emu.rootGroupUid);
    const made = await o.call<Json>("POST", `${V1}/${group}`, {
      body: { sink: "https://v1.example.com/hook" },
    });
    expect(made.status, made.text).toBe(200);
    expect(made.body).toEqual({
      id: expect.stringMatching(/\//),
      sink: "https://v1.example.com/hook",
    });
    const id = made.body.id as string;
    expect((await o.call("GET", `${V2}/${id}`)).body).toEqual({ uid: id, sink: made.body.sink });
    const byId = await o.call<{ items: Json[] }>("GET", `${V1}?id=${enc(id)}`);
    expect(byId.body.items).toEqual([made.body]);
    const scoped = await o.call<{ items: Json[] }>(
      "GET",
      `${V1}?uidp.descendants_of=${enc(group)}`,
    );
    expect(scoped.body.items).toEqual([made.body]);
    expect((await o.call("POST", `${V1}/${group}`, { body: { sink: "ftp://x" } })).status).toBe(
      400,
    );
    expect((await o.call("DELETE", `${V1}/${id}`)).status).toBe(200);
    expect((await o.call<{ items: Json[] }>("GET", `${V1}?id=${enc(id)}`)).body.items).toEqual([]);
  });
});
