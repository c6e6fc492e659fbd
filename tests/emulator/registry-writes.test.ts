/**
 * The registry's writes as HEAD publishes them: CreateRepo, UpdateRepo, DeleteRepo,
 * GetRepoReadme, UpdateRepoReadme, CreateTag, DeleteTag, with their capabilities, the
 * write checks in order and nothing half-made by a refused write.
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

const DIGEST_A = `sha256:${"a".repeat(64)}`;
const DIGEST_B = `sha256:${"b".repeat(64)}`;

async function reposOf(group: string): Promise<Json[]> {
  const reply = await o.call<{ repos: Json[] }>(
    "GET",
    `/registry/v2beta1/repos?uidp.children_of=${enc(group)}`,
  );
  expect(reply.status).toBe(200);
  return reply.body.repos;
}

async function newRepo(group: string, body: Json = { name: "web" }): Promise<Json> {
  const reply = await o.call<Json>("POST", `/registry/v2beta1/repos/${group}`, { body });
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

describe("CreateRepo", () => {
  it("creates a repo under a group, answered in the Repo shape and listed", async () => {
    const group = await o.group(emu.rootGroupUid);
    const repo = await newRepo(group, {
      name: "shop",
      description: "the shop",
      catalogTier: "CATALOG_TIER_APPLICATION",
      aliases: ["store"],
    });
    expect(repo.uid).toMatch(new RegExp(`^${group}/[0-9a-f]{16}$`));
    expect(repo).toMatchObject({
      name: "shop",
      description: "the shop",
      catalogTier: "CATALOG_TIER_APPLICATION",
      aliases: ["store"],
    });
    expect(repo.createTime).toBe(repo.updateTime);
    expect(await reposOf(group)).toEqual([repo]);
    expect((await o.call("GET", `/registry/v2beta1/repos/${repo.uid}`)).body).toEqual(repo);
  });

  it("refuses bad input naming the field, and creates nothing", async () => {
    const group = await o.group(emu.rootGroupUid);
    const cases: Array<[Json, string]> = [
      [{}, "name"],
      [{ name: "Bad Name!" }, "name"],
      [{ name: "ok", catalogTier: "CATALOG_TIER_GOLD" }, "catalogTier"],
      [{ name: "ok", aliases: ["fine", "NOT OK"] }, "aliases[1]"],
      [{ name: "ok", sync_config: { source: "chainguard/nginx" } }, "sync_config"],
      [{ name: "ok", customOverlay: { environment: { A: "b" } } }, "customOverlay"],
    ];
    for (const [body, field] of cases) {
      const reply = await o.call("POST", `/registry/v2beta1/repos/${group}`, { body });
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(String(reply.body.message)).toContain(`${field}:`);
    }
    expect(await reposOf(group)).toEqual([]);
  });

  it("needs CAP_REPO_CREATE on the group, a token, and an existing group", async () => {
    const group = await o.group(emu.rootGroupUid);
    const viewer = await o.actorWith(group, ["CAP_REPO_LIST"]);
    expect(
      failure(
        await viewer.call("POST", `/registry/v2beta1/repos/${group}`, { body: { name: "x" } }),
      ),
    ).toEqual([403, `Permission denied: CAP_REPO_CREATE on ${group}`]);
    const anonymous = caller(emu.url, null);
    expect(
      (await anonymous("POST", `/registry/v2beta1/repos/${group}`, { body: { name: "x" } })).status,
    ).toBe(401);
    const missing = `${group}/0123456789abcdef`;
    expect(
      (await o.call("POST", `/registry/v2beta1/repos/${missing}`, { body: { name: "x" } })).status,
    ).toBe(404);
    const creator = await o.actorWith(group, ["CAP_REPO_CREATE"]);
    expect(
      (await creator.call("POST", `/registry/v2beta1/repos/${group}`, { body: { name: "x" } }))
        .status,
    ).toBe(200);
  });

  it("takes every catalog tier HEAD defines", async () => {
    const group = await o.group(emu.rootGroupUid);
    const repo = await newRepo(group, { name: "fips", catalogTier: "CATALOG_TIER_FIPS" });
    expect(repo.catalogTier).toBe("CATALOG_TIER_FIPS");
  });

  it("refuses a second repo of the same name in a group, not in another group", async () => {
    const [first, second] = [await o.group(emu.rootGroupUid), await o.group(emu.rootGroupUid)];
    await newRepo(first, { name: "twin" });
    const again = await o.call("POST", `/registry/v2beta1/repos/${first}`, {
      body: { name: "twin" },
    });
    expect(again.status).toBe(409);
    expect((await reposOf(first)).length).toBe(1);
    await newRepo(second, { name: "twin" });
  });
});

describe("UpdateRepo", () => {
  it("changes exactly the masked fields; a no-op keeps updateTime", async () => {
    const group = await o.group(emu.rootGroupUid);
    const repo = await newRepo(group, { name: "app", description: "one" });
    await emu.advanceClock(5);
    const patched = await o.call<Json>(
      "PATCH",
      `/registry/v2beta1/repos/${repo.uid}?update_mask=description,catalog_tier`,
      { body: { name: "ignored", description: "two", catalogTier: "CATALOG_TIER_BASE" } },
    );
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({
      name: "app",
      description: "two",
      catalogTier: "CATALOG_TIER_BASE",
    });
    expect(patched.body.updateTime).not.toBe(repo.updateTime);
    await emu.advanceClock(5);
    const same = await o.call<Json>(
      "PATCH",
      `/registry/v2beta1/repos/${repo.uid}?update_mask=description`,
      { body: { description: "two" } },
    );
    expect(same.body.updateTime).toBe(patched.body.updateTime);
  });

  it("refuses a mask naming no writable field, a taken name, and needs CAP_REPO_UPDATE", async () => {
    const group = await o.group(emu.rootGroupUid);
    const repo = await newRepo(group, { name: "one" });
    await newRepo(group, { name: "two" });
    const badMask = await o.call("PATCH", `/registry/v2beta1/repos/${repo.uid}?update_mask=uid`, {
      body: {},
    });
    expect(badMask.status).toBe(400);
    expect(String(badMask.body.message)).toContain("update_mask");
    const taken = await o.call("PATCH", `/registry/v2beta1/repos/${repo.uid}?update_mask=name`, {
      body: { name: "two" },
    });
    expect(taken.status).toBe(409);
    const viewer = await o.actorWith(group, ["CAP_REPO_LIST"]);
    expect(
      failure(
        await viewer.call("PATCH", `/registry/v2beta1/repos/${repo.uid}?update_mask=description`, {
          body: { description: "x" },
        }),
      ),
    ).toEqual([403, `Permission denied: CAP_REPO_UPDATE on ${repo.uid}`]);
  });
});

describe("repo README", () => {
  it("reads empty, is set by UpdateRepoReadme, and is read back", async () => {
    const group = await o.group(emu.rootGroupUid);
    const repo = await newRepo(group);
    const path = `/registry/v2beta1/repos/${repo.uid}/readme`;
    expect((await o.call("GET", path)).body).toEqual({ uid: repo.uid, content: "" });
    const set = await o.call("PATCH", `${path}?update_mask=content`, {
      body: { content: "# Web\n\nThe web image." },
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toEqual({ uid: repo.uid, content: "# Web\n\nThe web image." });
    expect((await o.call("GET", path)).body).toEqual(set.body);
    // A sub-resource of its own: the repo's updateTime stays.
    const after = await o.call("GET", `/registry/v2beta1/repos/${repo.uid}`);
    expect(after.body.updateTime).toBe(repo.updateTime);
    // The README is not part of the Repo message at HEAD.
    expect((await o.call("GET", `/registry/v2beta1/repos/${repo.uid}`)).body).not.toHaveProperty(
      "readme",
    );
  });

  it("is read as the repo is, and written with CAP_REPO_UPDATE", async () => {
    const group = await o.group(emu.rootGroupUid);
    const repo = await newRepo(group);
    const path = `/registry/v2beta1/repos/${repo.uid}/readme`;
    expect((await caller(emu.url, null)("GET", path)).status).toBe(401);
    const viewer = await o.actorWith(group, ["CAP_REPO_LIST"]);
    expect((await viewer.call("GET", path)).status).toBe(200);
    expect(failure(await viewer.call("PATCH", path, { body: { content: "x" } }))).toEqual([
      403,
      `Permission denied: CAP_REPO_UPDATE on ${repo.uid}`,
    ]);
    expect((await o.call("PATCH", path, { body: { content: 7 } })).body.message).toContain(
      "content:",
    );
    const missing = `/registry/v2beta1/repos/${group}/0123456789abcdef/readme`;
    expect((await o.call("GET", missing)).status).toBe(404);
  });
});

describe("CreateTag and DeleteTag", () => {
  it("creates a tag under a repo, moves it by name, and deletes it", async () => {
    const group = await o.group(emu.rootGroupUid);
    const repo = await newRepo(group);
    const created = await o.call<Json>("POST", `/registry/v2beta1/tags/${repo.uid}`, {
      body: { name: "latest", digest: DIGEST_A },
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toMatchObject({ name: "latest", digest: DIGEST_A, deprecated: false });
    expect(created.body.uid).toMatch(new RegExp(`^${repo.uid}/[0-9a-f]{16}$`));
    const moved = await o.call<Json>("POST", `/registry/v2beta1/tags/${repo.uid}`, {
      body: { name: "latest", digest: DIGEST_B },
    });
    expect(moved.body).toMatchObject({ uid: created.body.uid, digest: DIGEST_B });
    const listed = await o.call<{ tags: Json[] }>(
      "GET",
      `/registry/v2beta1/tags?uidp.children_of=${enc(String(repo.uid))}`,
    );
    expect(listed.body.tags).toEqual([moved.body]);
    expect((await o.call("DELETE", `/registry/v2beta1/tags/${created.body.uid}`)).status).toBe(200);
    expect((await o.call("GET", `/registry/v2beta1/tags/${created.body.uid}`)).status).toBe(404);
    expect((await o.call("DELETE", `/registry/v2beta1/tags/${created.body.uid}`)).status).toBe(404);
  });

  it("refuses bad tags naming the field, a missing repo, and callers without the capability", async () => {
    const group = await o.group(emu.rootGroupUid);
    const repo = await newRepo(group);
    const cases: Array<[Json, string]> = [
      [{ digest: DIGEST_A }, "name"],
      [{ name: "-bad", digest: DIGEST_A }, "name"],
      [{ name: "v1" }, "digest"],
      [{ name: "v1", digest: "sha256:abc" }, "digest"],
      [{ name: "v1", digest: DIGEST_A, deprecated: "yes" }, "deprecated"],
    ];
    for (const [body, field] of cases) {
      const reply = await o.call("POST", `/registry/v2beta1/tags/${repo.uid}`, { body });
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(String(reply.body.message)).toContain(`${field}:`);
    }
    const missing = `${group}/0123456789abcdef`;
    expect(
      (
        await o.call("POST", `/registry/v2beta1/tags/${missing}`, {
          body: { name: "v1", digest: DIGEST_A },
        })
      ).status,
    ).toBe(404);
    const viewer = await o.actorWith(group, ["CAP_TAG_LIST"]);
    expect(
      failure(
        await viewer.call("POST", `/registry/v2beta1/tags/${repo.uid}`, {
          body: { name: "v1", digest: DIGEST_A },
        }),
      ),
    ).toEqual([403, `Permission denied: CAP_TAG_CREATE on ${repo.uid}`]);
    const listed = await o.call<{ tags: Json[] }>(
      "GET",
      `/registry/v2beta1/tags?uidp.children_of=${enc(String(repo.uid))}`,
    );
    expect(listed.body.tags).toEqual([]);
  });
});

describe("DeleteRepo", () => {
  it("deletes a repo with its tags, then its group can go", async () => {
    const group = await o.group(emu.rootGroupUid);
    const repo = await newRepo(group);
    const tag = await o.call<Json>("POST", `/registry/v2beta1/tags/${repo.uid}`, {
      body: { name: "v1", digest: DIGEST_A },
    });
    expect((await o.call("DELETE", `/iam/v2beta1/groups/${group}`)).status).toBe(400);
    const viewer = await o.actorWith(group, ["CAP_REPO_LIST"]);
    expect(failure(await viewer.call("DELETE", `/registry/v2beta1/repos/${repo.uid}`))).toEqual([
      403,
      `Permission denied: CAP_REPO_DELETE on ${repo.uid}`,
    ]);
    expect((await o.call("DELETE", `/registry/v2beta1/repos/${repo.uid}`)).status).toBe(200);
    expect((await o.call("GET", `/registry/v2beta1/repos/${repo.uid}`)).status).toBe(404);
    expect((await o.call("GET", `/registry/v2beta1/tags/${tag.body.uid}`)).status).toBe(404);
    expect((await o.call("DELETE", `/registry/v2beta1/repos/${repo.uid}`)).status).toBe(404);
  });
});

describe("v1 registry repos", () => {
  const V1 = "/registry/v1/repos";

  it("create under parent_id, list with READMEs, PUT the whole repo, delete: the v2beta1 records", async () => {
    const group = await o.group(emu.rootGroupUid);
    const made = await o.call<Json>("POST", `${V1}/${group}`, {
      body: { name: "tools", catalogTier: "BASE", aliases: ["kit"], readme: "# Tools" },
    });
    expect(made.status, made.text).toBe(200);
    expect(made.body).toMatchObject({
      name: "tools",
      catalogTier: "BASE",
      aliases: ["kit"],
      readme: "# Tools",
      description: "",
    });
    const id = made.body.id as string;
    expect(id).toMatch(new RegExp(`^${group}/[0-9a-f]{16}$`));
    const v2 = await o.call<Json>("GET", `/registry/v2beta1/repos/${id}`);
    expect(v2.body).toMatchObject({ name: "tools", catalogTier: "CATALOG_TIER_BASE" });
    expect((await o.call<Json>("GET", `/registry/v2beta1/repos/${id}/readme`)).body.content).toBe(
      "# Tools",
    );
    const listed = await o.call<{ items: Json[] }>(
      "GET",
      `${V1}?uidp.children_of=${enc(group)}&name=tools`,
    );
    expect(listed.body.items).toEqual([made.body]);

    const put = await o.call<Json>("PUT", `${V1}/${id}`, {
      body: {
        id,
        name: "tools",
        description: "build tools",
        catalogTier: "APPLICATION",
        readme: "",
      },
    });
    expect(put.status, put.text).toBe(200);
    // The whole repo: aliases left out are cleared, as the README is.
    expect(put.body).toMatchObject({
      description: "build tools",
      aliases: [],
      readme: "",
      catalogTier: "APPLICATION",
    });

    expect((await o.call("DELETE", `${V1}/${id}`)).status).toBe(200);
    expect((await o.call("GET", `/registry/v2beta1/repos/${id}`)).status).toBe(404);
  });

  it("a create of a name the group has updates that repo, unless prevent_existing", async () => {
    const group = await o.group(emu.rootGroupUid);
    const first = await o.call<Json>("POST", `${V1}/${group}`, { body: { name: "same" } });
    const again = await o.call<Json>("POST", `${V1}/${group}`, {
      body: { name: "same", description: "second" },
    });
    expect(again.body).toMatchObject({ id: first.body.id, description: "second" });
    const refused = await o.call("POST", `${V1}/${group}?prevent_existing=true`, {
      body: { name: "same" },
    });
    expect(refused.status).toBe(409);
    expect(
      (await o.call("POST", `${V1}/${group}`, { body: { name: "x", catalogTier: "GOLD" } })).status,
    ).toBe(400);
    const viewer = await o.actorWith(group, ["CAP_REPO_LIST"]);
    expect(failure(await viewer.call("POST", `${V1}/${group}`, { body: { name: "y" } }))).toEqual([
      403,
      `Permission denied: CAP_REPO_CREATE on ${group}`,
    ]);
  });
});
