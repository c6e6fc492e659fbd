/**
 * What the v1 registry lists (`/registry/v1/repos`, `/registry/v1/tags`) share: the
 * filter (`id`, `name`, `uidp.children_of`, `uidp.descendants_of`, the `uidp` keys also
 * in camelCase), each uid checked and a bad one named; and the checks before a v1 write
 * on one object (a token, then the id in the path, then its uid, then the capability).
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

const DIGEST = `sha256:${"c".repeat(64)}`;

/** Group `top` holding repo `web` with tag `web`, and below it `inner` holding the same. */
async function twoLevels(): Promise<{ top: string; repos: string[]; tags: string[] }> {
  const top = await o.group(emu.rootGroupUid);
  const inner = await o.group(top);
  const repos: string[] = [];
  const tags: string[] = [];
  for (const group of [top, inner]) {
    const repo = await o.call<Json>("POST", `/registry/v1/repos/${group}`, {
      body: { name: "web" },
    });
    expect(repo.status, repo.text).toBe(200);
    repos.push(repo.body.id as string);
    const tag = await o.call<Json>("POST", `/registry/v1/tags/${repo.body.id}`, {
      body: { name: "web", digest: DIGEST },
    });
    expect(tag.status, tag.text).toBe(200);
    tags.push(tag.body.id as string);
  }
  return { top, repos, tags };
}

async function ids(path: string, query: string): Promise<string[]> {
  const reply = await o.call<{ items: Json[] }>("GET", `${path}?${query}`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.items.map((item) => item.id as string).sort();
}

describe.each(["repos", "tags"] as const)("v1 registry %s", (kind) => {
  const path = `/registry/v1/${kind}`;

  it("filters by id, name, children and descendants, in both spellings", async () => {
    const made = await twoLevels();
    const [outer, below] = kind === "repos" ? made.repos : made.tags;
    // A repo's parent is its group; a tag's is its repo.
    const [outerParent, belowParent] =
      kind === "repos" ? [made.top, made.repos[1].replace(/\/[0-9a-f]{16}$/, "")] : made.repos;
    const both = [outer, below].sort();
    expect(await ids(path, `id=${enc(below)}`)).toEqual([below]);
    expect(await ids(path, `uidp.descendants_of=${enc(made.top)}`)).toEqual(both);
    expect(await ids(path, `uidp.descendantsOf=${enc(made.top)}`)).toEqual(both);
    expect(await ids(path, `uidp.descendants_of=${enc(made.top)}&name=web`)).toEqual(both);
    expect(await ids(path, `uidp.descendants_of=${enc(made.top)}&name=other`)).toEqual([]);
    expect(await ids(path, `uidp.children_of=${enc(outerParent)}`)).toEqual([outer]);
    expect(await ids(path, `uidp.childrenOf=${enc(belowParent)}`)).toEqual([below]);
    expect(
      await ids(path, `uidp.descendants_of=${enc(made.top)}&id=${enc(outer)}&name=web`),
    ).toEqual([outer]);
  });

  it("refuses a bad uid in the filter, naming the field", async () => {
    for (const field of ["id", "uidp.descendants_of", "uidp.children_of"]) {
      expect(failure(await o.call("GET", `${path}?${field}=not-a-uid`))).toEqual([
        400,
        `Invalid argument: ${field}: must be a uid (hex segments separated by /)`,
      ]);
    }
  });

  it("checks a PUT or DELETE in order: token, id in the path, its uid, the capability", async () => {
    const made = await twoLevels();
    const target = kind === "repos" ? made.repos[0] : made.tags[0];
    const viewer = await o.actorWith(made.top, [
      kind === "repos" ? "CAP_REPO_LIST" : "CAP_TAG_LIST",
    ]);
    const body = kind === "repos" ? { name: "web" } : { name: "web", digest: DIGEST };
    for (const [method, capability] of [
      ["PUT", kind === "repos" ? "CAP_REPO_UPDATE" : "CAP_TAG_UPDATE"],
      ["DELETE", kind === "repos" ? "CAP_REPO_DELETE" : "CAP_TAG_DELETE"],
    ] as const) {
      const anonymous = caller(emu.url, null);
      expect((await anonymous(method, path, { body })).status).toBe(401);
      expect((await viewer.call(method, path, { body })).status).toBe(501);
      expect(failure(await viewer.call(method, `${path}/not-a-uid`, { body }))).toEqual([
        400,
        "Invalid argument: id: must be a uid (hex segments separated by /)",
      ]);
      expect(failure(await viewer.call(method, `${path}/${target}`, { body }))).toEqual([
        403,
        `Permission denied: ${capability} on ${target}`,
      ]);
    }
  });
});
