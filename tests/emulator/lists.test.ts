/** List rules shared by every collection: scope filters, name, order, skip, page sizes, page tokens. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { type Caller, caller, enc, reasonOf } from "../support/emulator-http";

interface GroupList {
  groups: Array<{ uid: string; name: string; createTime: string }>;
  nextPageToken?: string;
  totalCount: string;
  skipped: number;
}

let emu: TestEmulator;
let call: Caller;
/** A group with 14 children named n00..n13 (seeded in shuffled order). */
let fourteen: string;
let fourteenChildren: string[];

beforeAll(async () => {
  emu = await startTestEmulator();
  call = caller(emu.url, emu.token);
  [fourteen] = (
    await emu.seed({ groups: [{ parentUid: emu.rootGroupUid, name: "fourteen" }] })
  ).groups;
  const names = Array.from({ length: 14 }, (_, i) => `n${String(i).padStart(2, "0")}`);
  const shuffled = [...names].sort(
    (a, b) => ((a.charCodeAt(2) * 7) % 13) - ((b.charCodeAt(2) * 7) % 13),
  );
  fourteenChildren = (
    await emu.seed({ groups: shuffled.map((name) => ({ parentUid: fourteen, name })) })
  ).groups;
});
afterAll(() => emu.close());

const list = (query: string) => call<GroupList>("GET", `/iam/v2beta1/groups?${query}`);

describe("pagination", () => {
  it("14 matches with skip=10 and page_size=5 return 4, no next page, totalCount 14 as a string", async () => {
    const reply = await list(`uidp.children_of=${enc(fourteen)}&skip=10&page_size=5`);
    expect(reply.status).toBe(200);
    expect(reply.body.groups).toHaveLength(4);
    expect(reply.body.totalCount).toBe("14");
    expect(reply.body.skipped).toBe(10);
    expect(reply.body.nextPageToken ?? "").toBe("");
    const all = [...fourteenChildren].sort();
    expect(reply.body.groups.map((g) => g.uid)).toEqual(all.slice(10, 14));
  });

  it("skip past the end gives an empty page and no token", async () => {
    const reply = await list(`uidp.children_of=${enc(fourteen)}&skip=20`);
    expect(reply.body.groups).toEqual([]);
    expect(reply.body.totalCount).toBe("14");
    expect(reply.body.nextPageToken ?? "").toBe("");
  });

  it("default order is uid ascending", async () => {
    const reply = await list(`uidp.children_of=${enc(fourteen)}`);
    expect(reply.body.groups.map((g) => g.uid)).toEqual([...fourteenChildren].sort());
  });

  it("default page size is 50 and the maximum is 200", async () => {
    const [parent] = (await emu.seed({ groups: [{ parentUid: emu.rootGroupUid, name: "big" }] }))
      .groups;
    await emu.seed({ generate: { kind: "groups", count: 250, parentUid: parent } });
    const byDefault = await list(`uidp.children_of=${enc(parent)}`);
    expect(byDefault.body.groups).toHaveLength(50);
    expect(byDefault.body.totalCount).toBe("250");
    expect(byDefault.body.nextPageToken).toBeTruthy();
    const zero = await list(`uidp.children_of=${enc(parent)}&page_size=0`);
    expect(zero.body.groups).toHaveLength(50);
    const tooMany = await list(`uidp.children_of=${enc(parent)}&page_size=1000`);
    expect(tooMany.body.groups).toHaveLength(200);
    const exact = await list(`uidp.children_of=${enc(parent)}&page_size=200&skip=200`);
    expect(exact.body.groups).toHaveLength(50);
  });

  it.each([
    ["page_size=-1", "page_size"],
    ["page_size=ten", "page_size"],
    ["skip=-3", "skip"],
    ["skip=1.5", "skip"],
    ["order_by=color", "order_by"],
    ["order_by=name%20sideways", "order_by"],
    ["uidp.children_of=..%2Fetc", "uidp.children_of"],
  ])("%s is INVALID_ARGUMENT on %s", async (query, field) => {
    const reply = await list(query);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 3 });
    expect(String((reply.body as unknown as { message: string }).message)).toMatch(
      new RegExp(`^Invalid argument: ${field.replace(".", "\\.")}: `),
    );
    expect(reasonOf(reply.body)).toBe("INVALID_ARGUMENT");
  });
});

describe("ordering and cursors", () => {
  async function walk(query: string, pageSize: number): Promise<string[]> {
    const names: string[] = [];
    let token = "";
    for (let pages = 0; pages < 20; pages++) {
      const reply = await list(
        `${query}&page_size=${pageSize}${token ? `&page_token=${enc(token)}` : ""}`,
      );
      expect(reply.status).toBe(200);
      expect(reply.body.totalCount).toBe("14");
      names.push(...reply.body.groups.map((g) => g.name));
      token = reply.body.nextPageToken ?? "";
      if (!token) return names;
    }
    throw new Error("too many pages");
  }

  it("name desc holds across cursor pages, with no repeats", async () => {
    const names = await walk(`uidp.children_of=${enc(fourteen)}&order_by=${enc("name desc")}`, 4);
    const expected = Array.from({ length: 14 }, (_, i) => `n${String(13 - i).padStart(2, "0")}`);
    expect(names).toEqual(expected);
  });

  it("name asc holds across pages and accepts the created_at alias", async () => {
    expect(await walk(`uidp.children_of=${enc(fourteen)}&order_by=name`, 5)).toEqual([
      ...(await walk(`uidp.children_of=${enc(fourteen)}&order_by=name%20asc`, 3)),
    ]);
    const created = await list(
      `uidp.children_of=${enc(fourteen)}&order_by=${enc("created_at desc")}`,
    );
    expect(created.status).toBe(200);
    expect(created.body.groups).toHaveLength(14);
  });

  it("a keyset cursor neither repeats nor skips when a group is inserted before it", async () => {
    const [parent] = (await emu.seed({ groups: [{ parentUid: emu.rootGroupUid, name: "moving" }] }))
      .groups;
    await emu.seed({ groups: ["b", "c", "d", "e"].map((name) => ({ parentUid: parent, name })) });
    const first = await list(`uidp.children_of=${enc(parent)}&order_by=name&page_size=2`);
    expect(first.body.groups.map((g) => g.name)).toEqual(["b", "c"]);
    await emu.seed({ groups: [{ parentUid: parent, name: "a" }] });
    const second = await list(
      `uidp.children_of=${enc(parent)}&order_by=name&page_size=2&page_token=${enc(first.body.nextPageToken ?? "")}`,
    );
    expect(second.body.groups.map((g) => g.name)).toEqual(["d", "e"]);
    expect(second.body.totalCount).toBe("5");
  });

  it("a page token used with another query is INVALID_ARGUMENT on page_token", async () => {
    const first = await list(`uidp.children_of=${enc(fourteen)}&order_by=name&page_size=2`);
    const reused = await list(
      `uidp.children_of=${enc(fourteen)}&order_by=${enc("name desc")}&page_size=2&page_token=${enc(first.body.nextPageToken ?? "")}`,
    );
    expect(reused.status).toBe(400);
    expect((reused.body as unknown as { message: string }).message).toMatch(
      /^Invalid argument: page_token: /,
    );
    const garbage = await list(`page_token=not-a-token`);
    expect(garbage.status).toBe(400);
    expect((garbage.body as unknown as { message: string }).message).toMatch(
      /^Invalid argument: page_token: /,
    );
  });

  it("a page token older than 3 days restarts the query from the first page", async () => {
    const query = `uidp.children_of=${enc(fourteen)}&order_by=name&page_size=3`;
    const first = await list(query);
    const fresh = await list(`${query}&page_token=${enc(first.body.nextPageToken ?? "")}`);
    expect(fresh.body.groups.map((g) => g.name)).toEqual(["n03", "n04", "n05"]);
    await emu.advanceClock(3 * 24 * 3600 + 60);
    const expired = await list(`${query}&page_token=${enc(first.body.nextPageToken ?? "")}`);
    expect(expired.status).toBe(200);
    expect(expired.body.groups.map((g) => g.name)).toEqual(["n00", "n01", "n02"]);
  });
});

describe("scope and name filters", () => {
  let teamA: string;
  let teamB: string;
  let nested: string;

  beforeAll(async () => {
    [teamA, teamB] = (
      await emu.seed({
        groups: [
          { parentUid: emu.rootGroupUid, name: "scope-a" },
          { parentUid: emu.rootGroupUid, name: "scope-b" },
        ],
      })
    ).groups;
    [nested] = (await emu.seed({ groups: [{ parentUid: teamA, name: "shared" }] })).groups;
    await emu.seed({
      groups: [
        { parentUid: nested, name: "shared" },
        { parentUid: teamB, name: "shared" },
      ],
    });
  });

  it("children_of matches direct children only; descendants_of the whole subtree without itself", async () => {
    const children = await list(`uidp.children_of=${enc(teamA)}`);
    expect(children.body.groups.map((g) => g.uid)).toEqual([nested]);
    const descendants = await list(`uidp.descendants_of=${enc(teamA)}`);
    expect(descendants.body.totalCount).toBe("2");
    expect(descendants.body.groups.every((g) => g.uid.startsWith(`${teamA}/`))).toBe(true);
  });

  it("name combines with children_of and with descendants_of", async () => {
    const all = await list(`name=shared`);
    expect(all.body.totalCount).toBe("3");
    const underA = await list(`name=shared&uidp.descendants_of=${enc(teamA)}`);
    expect(underA.body.totalCount).toBe("2");
    const childOfA = await list(`name=shared&uidp.children_of=${enc(teamA)}`);
    expect(childOfA.body.groups.map((g) => g.uid)).toEqual([nested]);
    const underB = await list(`name=shared&uidp.children_of=${enc(teamB)}`);
    expect(underB.body.totalCount).toBe("1");
    const none = await list(`name=scope-a&uidp.children_of=${enc(teamB)}`);
    expect(none.body.groups).toEqual([]);
    expect(none.body.totalCount).toBe("0");
  });
});

describe("the same parameters on every list", () => {
  it("roles, identities, role bindings, repos, tags and advisories accept page_size, order_by and skip", async () => {
    for (const [path, key] of [
      ["/iam/v2beta1/roles", "roles"],
      ["/iam/v2beta1/identities", "identities"],
      ["/iam/v2beta1/roleBindings", "roleBindings"],
      ["/registry/v2beta1/repos", "repos"],
      ["/registry/v2beta1/tags", "tags"],
      ["/vulnerabilities/v2beta1/advisories", "advisories"],
    ]) {
      const full = await call<Record<string, unknown>>(
        "GET",
        `${path}?order_by=${enc("uid desc")}`,
      );
      expect(full.status, path).toBe(200);
      const items = full.body[key] as Array<{ uid: string }>;
      expect(items.length, path).toBeGreaterThanOrEqual(2);
      expect(items.map((i) => i.uid)).toEqual(
        items
          .map((i) => i.uid)
          .sort()
          .reverse(),
      );
      const page = await call<Record<string, unknown>>(
        "GET",
        `${path}?order_by=${enc("uid desc")}&page_size=1&skip=1`,
      );
      expect((page.body[key] as Array<{ uid: string }>).map((i) => i.uid)).toEqual([items[1].uid]);
      expect(page.body.totalCount).toBe(String(items.length));
      expect(page.body.skipped).toBe(1);
      const bad = await call("GET", `${path}?page_size=-5`);
      expect(bad.status, path).toBe(400);
    }
  });
});

describe("the other uidp filters and the tag filters of the definitions", () => {
  it("uidp.ids, uidp.ancestors_of and uidp.in_root", async () => {
    const [top] = (await emu.seed({ groups: [{ parentUid: emu.rootGroupUid, name: "uidp-top" }] }))
      .groups;
    const [middle, other] = (
      await emu.seed({
        groups: [
          { parentUid: top, name: "uidp-middle" },
          { parentUid: top, name: "uidp-other" },
        ],
      })
    ).groups;
    const [leaf] = (await emu.seed({ groups: [{ parentUid: middle, name: "uidp-leaf" }] })).groups;
    const uids = async (query: string) =>
      (await call<GroupList>("GET", `/iam/v2beta1/groups?${query}`)).body.groups
        .map((group) => group.uid)
        .sort();
    expect(await uids(`uidp.ids=${enc(leaf)}`)).toEqual([leaf]);
    expect(await uids(`uidp.ids=${enc(leaf)}&uidp.ids=${enc(other)}`)).toEqual(
      [leaf, other].sort(),
    );
    expect(await uids(`uidp.ancestors_of=${enc(leaf)}`)).toEqual(
      [emu.rootGroupUid, top, middle].sort(),
    );
    expect(await uids("uidp.in_root=true")).toEqual([emu.rootGroupUid]);
    expect(await uids(`uidp.in_root=false&uidp.ids=${enc(leaf)}`)).toEqual([leaf]);
    const bad = await call("GET", "/iam/v2beta1/groups?uidp.in_root=maybe");
    expect(bad.status).toBe(400);
  });

  it("tags by digest and updated_since (RFC 3339, or seconds and nanos)", async () => {
    const [repo] = (
      await emu.seed({
        repos: [
          {
            parentUid: emu.rootGroupUid,
            name: "filtered",
            tags: [
              { name: "one", digest: `sha256:${"1".repeat(64)}` },
              { name: "two", digest: `sha256:${"2".repeat(64)}` },
            ],
          },
        ],
      })
    ).repos;
    const names = async (query: string) =>
      (
        (
          await call<{ tags: Array<{ name: string }> }>(
            "GET",
            `/registry/v2beta1/tags?uidp.children_of=${enc(repo)}&${query}`,
          )
        ).body.tags ?? []
      )
        .map((tag) => tag.name)
        .sort();
    expect(await names(`digest=${enc(`sha256:${"1".repeat(64)}`)}`)).toEqual(["one"]);
    const tomorrow = Date.parse(await emu.advanceClock(0)) + 86_400_000;
    expect(await names(`updated_since=${enc(new Date(tomorrow).toISOString())}`)).toEqual([]);
    expect(await names(`updated_since.seconds=${Math.floor(tomorrow / 1000)}`)).toEqual([]);
    expect(await names("updated_since=2000-01-01T00:00:00Z")).toEqual(["one", "two"]);
    expect(await names("updated_since.seconds=946684800&updated_since.nanos=5")).toEqual([
      "one",
      "two",
    ]);
  });
});
