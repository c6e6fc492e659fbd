/**
 * Overlay bindings (`OverlayBindingsService` at HEAD): an overlay bound to a repo under
 * exact tags, by the overlay's uid or its name in the repo's organisation; Get, List (by
 * repo and overlay), Delete, the capabilities, and a repo's delete taking its bindings.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { TestEmulator } from "../../harness/emulator";
import { failure, type Json, type Org, useTestOrg } from "../support/emulator-org";

let emu: TestEmulator;
let o: Org;
let group: string;
let overlay: Json;
let counter = 0;

useTestOrg((started) => {
  ({ emu, o } = started);
});
beforeAll(async () => {
  group = await o.group(emu.rootGroupUid);
  const reply = await o.call<Json>("POST", `/registry/v2beta1/overlays/${group}`, {
    body: { name: "tools", config: { contents: { packages: ["curl"] } } },
  });
  expect(reply.status, reply.text).toBe(200);
  overlay = reply.body;
});

const path = (suffix = "") => `/registry/v2beta1/overlayBindings${suffix}`;

async function repo(parent = group): Promise<string> {
  counter += 1;
  const [uid] = (await emu.seed({ repos: [{ parentUid: parent, name: `bound-${counter}` }] }))
    .repos;
  return uid;
}

describe("create, get, list", () => {
  it("answers the binding under its repo with the overlay inline", async () => {
    const target = await repo();
    const made = await o.call<Json>("POST", path(`/${target}`), {
      body: { overlay: overlay.uid, tags: ["latest", "1.2"] },
    });
    expect(made.status, made.text).toBe(200);
    expect(made.body).toEqual({
      uid: expect.stringMatching(new RegExp(`^${target}/[0-9a-f]{16}$`)),
      repo: target,
      overlay,
      tags: ["latest", "1.2"],
    });
    expect((await o.call<Json>("GET", path(`/${made.body.uid}`))).body).toEqual(made.body);
    const mine = await o.call<Json>("GET", path(`?uidp.children_of=${target}`));
    expect(mine.body.overlayBindings).toEqual([made.body]);
    const byOverlay = await o.call<Json>("GET", path(`?overlay=${overlay.uid}`));
    expect(byOverlay.body.overlayBindings).toContainEqual(made.body);
    const other = await o.call<Json>("GET", path(`?overlay=${group}/0123456789abcdef`));
    expect(other.body.overlayBindings).toEqual([]);
  });

  it("names the overlay by name within the repo's organisation", async () => {
    const target = await repo(emu.rootGroupUid);
    const made = await o.call<Json>("POST", path(`/${target}`), {
      body: { overlay: "tools", tags: ["latest"] },
    });
    expect(made.status, made.text).toBe(200);
    expect((made.body.overlay as Json).uid).toBe(overlay.uid);
    const missing = await o.call("POST", path(`/${target}`), {
      body: { overlay: "no-such-overlay", tags: ["latest"] },
    });
    expect(failure(missing)[0]).toBe(404);
  });

  it.each([
    [{ tags: ["latest"] }, "overlay"],
    [{ overlay: "tools" }, "tags"],
    [{ overlay: "tools", tags: [] }, "tags"],
    [{ overlay: "tools", tags: ["-bad"] }, "tags[0]"],
    [{ overlay: "tools", tags: ["a", "a"] }, "tags[1]"],
  ])("refuses %j naming %s", async (body, field) => {
    const target = await repo();
    const reply = await o.call("POST", path(`/${target}`), { body });
    expect(failure(reply)[0]).toBe(400);
    expect(failure(reply)[1].startsWith(`Invalid argument: ${field}:`), failure(reply)[1]).toBe(
      true,
    );
    const listed = await o.call<Json>("GET", path(`?uidp.children_of=${target}`));
    expect(listed.body.overlayBindings).toEqual([]);
  });

  it("one binding per overlay and repo; a missing repo is NOT_FOUND", async () => {
    const target = await repo();
    const body = { overlay: overlay.uid, tags: ["latest"] };
    expect((await o.call("POST", path(`/${target}`), { body })).status).toBe(200);
    expect(failure(await o.call("POST", path(`/${target}`), { body }))[0]).toBe(409);
    const missing = `${group}/0123456789abcdef`;
    expect(failure(await o.call("POST", path(`/${missing}`), { body }))[0]).toBe(404);
  });
});

describe("capabilities and delete", () => {
  it("a create needs CAP_REGISTRY_OVERLAYS_EDIT on the repo; reads the LIST one", async () => {
    const target = await repo();
    const reader = await o.actorWith(group, ["CAP_REGISTRY_OVERLAYS_LIST"]);
    const refused = await reader.call("POST", path(`/${target}`), {
      body: { overlay: overlay.uid, tags: ["latest"] },
    });
    expect(failure(refused)).toEqual([403, expect.stringContaining("CAP_REGISTRY_OVERLAYS_EDIT")]);
    const made = await o.call<Json>("POST", path(`/${target}`), {
      body: { overlay: overlay.uid, tags: ["latest"] },
    });
    expect((await reader.call("GET", path(`/${made.body.uid}`))).status).toBe(200);
    const gone = await reader.call("DELETE", path(`/${made.body.uid}`));
    expect(failure(gone)[0]).toBe(403);
    expect((await o.call<Json>("DELETE", path(`/${made.body.uid}`))).body).toEqual({});
    expect(failure(await o.call("GET", path(`/${made.body.uid}`)))[0]).toBe(404);
  });

  it("a repo's delete takes its bindings", async () => {
    const made = await o.call<Json>("POST", `/registry/v2beta1/repos/${group}`, {
      body: { name: `with-binding-${Date.now()}` },
    });
    expect(made.status, made.text).toBe(200);
    const binding = await o.call<Json>("POST", path(`/${made.body.uid}`), {
      body: { overlay: overlay.uid, tags: ["latest"] },
    });
    expect(binding.status, binding.text).toBe(200);
    expect((await o.call("DELETE", `/registry/v2beta1/repos/${made.body.uid}`)).status).toBe(200);
    expect(failure(await o.call("GET", path(`/${binding.body.uid}`)))[0]).toBe(404);
  });
});
