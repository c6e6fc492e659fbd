/**
 * The v1 registry's tag calls (`/registry/v1/tags`): create, list, PUT the whole tag,
 * delete, on the records the v2beta1 TagsService reads, with the capabilities and the
 * checks of the v2beta1 writes.
 */
import { describe, expect, it } from "vitest";
import type { TestEmulator } from "../../harness/emulator";
import { enc } from "../support/emulator-http";
import { failure, type Json, type Org, useTestOrg } from "../support/emulator-org";

let emu: TestEmulator;
let o: Org;
useTestOrg((started) => {
  ({ emu, o } = started);
});

const V1 = "/registry/v1/tags";
const DIGEST_A = `sha256:${"a".repeat(64)}`;
const DIGEST_B = `sha256:${"b".repeat(64)}`;

async function newRepo(group: string): Promise<string> {
  const reply = await o.call<Json>("POST", `/registry/v2beta1/repos/${group}`, {
    body: { name: "web" },
  });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.uid as string;
}

describe("v1 registry tags", () => {
  it("create under repo_id, list by filters, PUT the whole tag, delete: the v2beta1 records", async () => {
    const repo = await newRepo(await o.group(emu.rootGroupUid));
    const made = await o.call<Json>("POST", `${V1}/${repo}`, {
      body: { name: "latest", digest: DIGEST_A },
    });
    expect(made.status, made.text).toBe(200);
    const id = made.body.id as string;
    expect(id).toMatch(new RegExp(`^${repo}/[0-9a-f]{16}$`));
    expect(made.body).toEqual({
      id,
      name: "latest",
      digest: DIGEST_A,
      deprecated: false,
      bundles: [],
      lastUpdated: expect.any(String),
    });
    const v2 = await o.call<Json>("GET", `/registry/v2beta1/tags/${id}`);
    expect(v2.body).toMatchObject({ name: "latest", digest: DIGEST_A });

    const children = `uidp.children_of=${enc(repo)}`;
    const byDigest = await o.call<{ items: Json[] }>("GET", `${V1}?${children}&digest=${DIGEST_A}`);
    expect(byDigest.body.items).toEqual([made.body]);
    const other = await o.call<{ items: Json[] }>("GET", `${V1}?${children}&digest=${DIGEST_B}`);
    expect(other.body.items).toEqual([]);

    const put = await o.call<Json>("PUT", `${V1}/${id}`, {
      body: { id, name: "stable", digest: DIGEST_B, deprecated: true },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ id, name: "stable", digest: DIGEST_B, deprecated: true });
    const byName = await o.call<{ items: Json[] }>("GET", `${V1}?${children}&name=stable`);
    expect(byName.body.items).toEqual([put.body]);

    expect((await o.call("DELETE", `${V1}/${id}`)).status).toBe(200);
    expect((await o.call("GET", `/registry/v2beta1/tags/${id}`)).status).toBe(404);
    expect((await o.call("DELETE", `${V1}/${id}`)).status).toBe(404);
  });

  it("refuses bad input naming the field, a taken name and a missing capability; changes nothing", async () => {
    const group = await o.group(emu.rootGroupUid);
    const repo = await newRepo(group);
    const first = await o.call<Json>("POST", `${V1}/${repo}`, {
      body: { name: "one", digest: DIGEST_A },
    });
    await o.call<Json>("POST", `${V1}/${repo}`, { body: { name: "two", digest: DIGEST_A } });
    const cases: Array<[Json, string]> = [
      [{ name: "bad tag!", digest: DIGEST_A }, "name"],
      [{ name: "ok", digest: "latest" }, "digest"],
      [{ name: "ok", digest: DIGEST_A, bundles: ["b"] }, "bundles"],
    ];
    for (const [body, field] of cases) {
      const reply = await o.call<Json>("POST", `${V1}/${repo}`, { body });
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(String(reply.body.message)).toContain(field);
    }
    const id = first.body.id as string;
    const taken = await o.call("PUT", `${V1}/${id}`, {
      body: { id, name: "two", digest: DIGEST_A },
    });
    expect(taken.status).toBe(409);
    const viewer = await o.actorWith(group, ["CAP_TAG_LIST"]);
    expect(
      failure(await viewer.call("PUT", `${V1}/${id}`, { body: { name: "one", digest: DIGEST_B } })),
    ).toEqual([403, `Permission denied: CAP_TAG_UPDATE on ${id}`]);
    expect(failure(await viewer.call("DELETE", `${V1}/${id}`))).toEqual([
      403,
      `Permission denied: CAP_TAG_DELETE on ${id}`,
    ]);
    // The viewer lists what it may read.
    const seen = await viewer.call<{ items: Json[] }>("GET", `${V1}?uidp.children_of=${enc(repo)}`);
    expect(seen.body.items.map((tag) => tag.name).sort()).toEqual(["one", "two"]);
    const after = await o.call<{ items: Json[] }>("GET", `${V1}?id=${enc(id)}`);
    expect(after.body.items).toEqual([first.body]);
  });
});
