/**
 * Custom Assembly overlays (`OverlaysService` at HEAD): create under a group with
 * packages only, Get, List (by name, paged), Delete (refused while bound), the
 * capabilities each needs, and the saved state.
 */
import { describe, expect, it } from "vitest";
import type { TestEmulator } from "../../harness/emulator";
import { failure, type Json, type Org, useTestOrg } from "../support/emulator-org";
import { acrossRestart } from "../support/restart";

let emu: TestEmulator;
let o: Org;

useTestOrg((started) => {
  ({ emu, o } = started);
});

const path = (suffix = "") => `/registry/v2beta1/overlays${suffix}`;

function overlay(name: string, packages: unknown = ["curl", "jq=1.7-r0"]): Json {
  return { name, config: { contents: { packages } } };
}

async function create(parent: string, body: Json): Promise<Json> {
  const reply = await o.call<Json>("POST", path(`/${parent}`), { body });
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

describe("create, get, list", () => {
  it("answers the overlay under its group; Get and List answer the same", async () => {
    const group = await o.group(emu.rootGroupUid);
    const made = await create(group, overlay("tools"));
    expect(made).toEqual({
      uid: expect.stringMatching(new RegExp(`^${group}/[0-9a-f]{16}$`)),
      name: "tools",
      config: { contents: { packages: ["curl", "jq=1.7-r0"] } },
    });
    expect((await o.call<Json>("GET", path(`/${made.uid}`))).body).toEqual(made);
    const listed = await o.call<Json>("GET", path(`?uidp.children_of=${group}&name=tools`));
    expect(listed.body.overlays).toEqual([made]);
    expect(listed.body.totalCount).toBe("1");
    const none = await o.call<Json>("GET", path(`?uidp.children_of=${group}&name=other`));
    expect(none.body.overlays).toEqual([]);
  });

  it("pages with page_size and the next page token", async () => {
    const group = await o.group(emu.rootGroupUid);
    for (const name of ["a-one", "a-two", "a-three"]) await create(group, overlay(name));
    const first = await o.call<Json>("GET", path(`?uidp.children_of=${group}&page_size=2`));
    expect((first.body.overlays as Json[]).length).toBe(2);
    expect(first.body.nextPageToken).not.toBe("");
    const second = await o.call<Json>(
      "GET",
      path(`?uidp.children_of=${group}&page_size=2&page_token=${first.body.nextPageToken}`),
    );
    expect((second.body.overlays as Json[]).length).toBe(1);
    expect(second.body.nextPageToken).toBe("");
  });

  it.each([
    [{ config: { contents: { packages: ["curl"] } } }, "name"],
    [{ name: "x" }, "config"],
    [overlay("x", []), "config.contents.packages"],
    [overlay("x", ["bad name!"]), "config.contents.packages[0]"],
    [
      { name: "x", config: { contents: { packages: ["curl"] }, environment: { A: "b" } } },
      "config.environment",
    ],
    [
      {
        name: "x",
        config: { contents: { packages: ["curl"], runtimeRepositories: ["https://r"] } },
      },
      "config.contents.runtimeRepositories",
    ],
  ])("refuses %j naming %s, before anything is made", async (body, field) => {
    const group = await o.group(emu.rootGroupUid);
    const reply = await o.call<Json>("POST", path(`/${group}`), { body });
    expect(failure(reply)[0]).toBe(400);
    expect(failure(reply)[1].startsWith(`Invalid argument: ${field}:`), failure(reply)[1]).toBe(
      true,
    );
    const listed = await o.call<Json>("GET", path(`?uidp.children_of=${group}`));
    expect(listed.body.overlays).toEqual([]);
  });

  it("a name is unique among the group's overlays; a missing group is NOT_FOUND", async () => {
    const group = await o.group(emu.rootGroupUid);
    await create(group, overlay("dup"));
    expect(failure(await o.call("POST", path(`/${group}`), { body: overlay("dup") }))[0]).toBe(409);
    await create(await o.group(emu.rootGroupUid), overlay("dup"));
    const missing = `${emu.rootGroupUid}/0123456789abcdef`;
    expect(failure(await o.call("POST", path(`/${missing}`), { body: overlay("x") }))[0]).toBe(404);
  });
});

describe("capabilities", () => {
  it("reads need CAP_REGISTRY_OVERLAYS_LIST, writes CAP_REGISTRY_OVERLAYS_EDIT", async () => {
    const group = await o.group(emu.rootGroupUid);
    const made = await create(group, overlay("guarded"));
    const reader = await o.actorWith(group, ["CAP_REGISTRY_OVERLAYS_LIST"]);
    expect((await reader.call("GET", path(`/${made.uid}`))).status).toBe(200);
    const write = await reader.call("POST", path(`/${group}`), { body: overlay("mine") });
    expect(failure(write)).toEqual([403, expect.stringContaining("CAP_REGISTRY_OVERLAYS_EDIT")]);
    const del = await reader.call("DELETE", path(`/${made.uid}`));
    expect(failure(del)).toEqual([403, expect.stringContaining("CAP_REGISTRY_OVERLAYS_EDIT")]);
    const stranger = await o.actorWith(await o.group(emu.rootGroupUid), [
      "CAP_REGISTRY_OVERLAYS_LIST",
    ]);
    const get = await stranger.call("GET", path(`/${made.uid}`));
    expect(failure(get)).toEqual([403, expect.stringContaining("CAP_REGISTRY_OVERLAYS_LIST")]);
    const listed = await stranger.call<Json>("GET", path());
    expect(listed.body.overlays).toEqual([]);
    const editor = await o.actorWith(group, ["CAP_REGISTRY_OVERLAYS_EDIT"]);
    expect((await editor.call("POST", path(`/${group}`), { body: overlay("ok") })).status).toBe(
      200,
    );
  });
});

describe("delete", () => {
  it("deletes an unbound overlay; a bound one is FAILED_PRECONDITION", async () => {
    const group = await o.group(emu.rootGroupUid);
    const made = await create(group, overlay("gone"));
    expect((await o.call<Json>("DELETE", path(`/${made.uid}`))).body).toEqual({});
    expect(failure(await o.call("GET", path(`/${made.uid}`)))[0]).toBe(404);

    const bound = await create(emu.rootGroupUid, overlay(`bound-${Date.now()}`));
    const [repo] = (
      await emu.seed({ repos: [{ parentUid: emu.rootGroupUid, name: `r${Date.now()}` }] })
    ).repos;
    const binding = await o.call<Json>("POST", `/registry/v2beta1/overlayBindings/${repo}`, {
      body: { overlay: bound.uid, tags: ["latest"] },
    });
    expect(binding.status, binding.text).toBe(200);
    const refused = await o.call("DELETE", path(`/${bound.uid}`));
    expect(failure(refused)).toEqual([400, expect.stringContaining("bound by 1 overlay binding")]);
    await o.call("DELETE", `/registry/v2beta1/overlayBindings/${binding.body.uid}`);
    expect((await o.call("DELETE", path(`/${bound.uid}`))).status).toBe(200);
  });

  it("a group with an overlay is not deleted", async () => {
    const group = await o.group(emu.rootGroupUid);
    await create(group, overlay("kept"));
    const refused = await o.call("DELETE", `/iam/v2beta1/groups/${group}`);
    expect(failure(refused)[1]).toContain("1 overlay");
  });
});

describe("saved state", () => {
  it("an overlay survives a restart on the same data file", async () => {
    await acrossRestart(
      async (call, root) => {
        const reply = await call<Json>("POST", path(`/${root}`), { body: overlay("kept") });
        expect(reply.status, reply.text).toBe(200);
        return reply.body;
      },
      async (call, made) => {
        expect((await call<Json>("GET", path(`/${made.uid}`))).body).toEqual(made);
      },
    );
  });
});
