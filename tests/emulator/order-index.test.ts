/**
 * Lists ordered by name or update time read a sorted index kept current by every
 * change. The expected order is computed here from a plain listing by uid (which
 * does not use that index), after renames, updates, deletes and creates.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { type Caller, caller, enc } from "../support/emulator-http";

interface Group {
  uid: string;
  name: string;
  updateTime: string;
}
interface GroupPage {
  groups: Group[];
  nextPageToken?: string;
  totalCount: string;
}

let emu: TestEmulator;
let owner: Caller;
let org: string;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: false });
  owner = caller(emu.url, emu.token);
  org = (await emu.seed({ groups: [{ parentUid: emu.rootGroupUid, name: "ordered-org" }] }))
    .groups[0];
  // Enough groups that a page of 20 is a small part of the organisation.
  await emu.seed({ generate: { kind: "groups", count: 400, parentUid: org, namePrefix: "g" } });
});
afterAll(() => emu.close());

/** Every page of a query, following cursors. */
async function walk(query: string): Promise<{ uids: string[]; totals: string[] }> {
  const uids: string[] = [];
  const totals: string[] = [];
  let token: string | undefined;
  do {
    const page = await owner<GroupPage>(
      "GET",
      `/iam/v2beta1/groups?${query}${token ? `&page_token=${enc(token)}` : ""}`,
    );
    expect(page.status).toBe(200);
    uids.push(...page.body.groups.map((g) => g.uid));
    totals.push(page.body.totalCount);
    token = page.body.nextPageToken || undefined;
  } while (token);
  return { uids, totals };
}

/** The organisation's groups by uid (no order index involved), sorted here by `key`. */
async function expected(key: (group: Group) => string, descending = false): Promise<string[]> {
  const groups: Group[] = [];
  let token: string | undefined;
  do {
    const page = await owner<GroupPage>(
      "GET",
      `/iam/v2beta1/groups?uidp.descendants_of=${enc(org)}&page_size=200${token ? `&page_token=${enc(token)}` : ""}`,
    );
    groups.push(...page.body.groups);
    token = page.body.nextPageToken || undefined;
  } while (token);
  const sorted = groups.sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    if (ka !== kb) return ka < kb ? -1 : 1;
    return a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0;
  });
  if (descending) sorted.reverse();
  return sorted.map((g) => g.uid);
}

describe("name and update-time order index", () => {
  it("pages in name order, both directions, match a sort of the whole organisation", async () => {
    const ascending = await walk(`uidp.descendants_of=${enc(org)}&page_size=20&order_by=name`);
    expect(ascending.uids).toEqual(await expected((g) => g.name));
    expect(new Set(ascending.totals)).toEqual(new Set(["400"]));
    const descending = await walk(
      `uidp.descendants_of=${enc(org)}&page_size=20&order_by=name%20desc`,
    );
    expect(descending.uids).toEqual(await expected((g) => g.name, true));
  });

  it("follows renames, updates, deletes and creates made after the index was built", async () => {
    const query = `uidp.descendants_of=${enc(org)}&page_size=25&order_by=name`;
    const before = await walk(query);
    const [first, second, third] = before.uids;
    // Rename the first to sort last, delete the second, create one that sorts first.
    expect(
      (
        await owner("PATCH", `/iam/v2beta1/groups/${first}?updateMask=name`, {
          body: { name: "zz-renamed" },
        })
      ).status,
    ).toBe(200);
    expect((await owner("DELETE", `/iam/v2beta1/groups/${second}`)).status).toBe(200);
    const created = await owner<Group>("POST", `/iam/v2beta1/groups/${org}`, {
      body: { name: "aa-new" },
    });
    expect(created.status).toBe(200);

    const after = await walk(query);
    expect(after.uids).toEqual(await expected((g) => g.name));
    expect(after.uids[0]).toBe(created.body.uid);
    expect(after.uids[after.uids.length - 1]).toBe(first);
    expect(after.uids).not.toContain(second);
    expect(after.uids).toContain(third);
  });

  it("update_time order moves an updated group to the end", async () => {
    const query = `uidp.descendants_of=${enc(org)}&page_size=50&order_by=update_time`;
    const before = await walk(query);
    await emu.advanceClock(5);
    const touched = before.uids[0];
    expect(
      (
        await owner("PATCH", `/iam/v2beta1/groups/${touched}?updateMask=description`, {
          body: { description: "touched" },
        })
      ).status,
    ).toBe(200);
    const after = await walk(query);
    expect(after.uids).toEqual(await expected((g) => g.updateTime));
    expect(after.uids[after.uids.length - 1]).toBe(touched);
  });

  it("a small scope ordered by name is answered exactly", async () => {
    const team = (await emu.seed({ groups: [{ parentUid: org, name: "small-team" }] })).groups[0];
    const members = await emu.seed({
      groups: ["c", "a", "b"].map((name) => ({ parentUid: team, name })),
    });
    const page = await owner<GroupPage>(
      "GET",
      `/iam/v2beta1/groups?uidp.children_of=${enc(team)}&order_by=name%20desc&page_size=2`,
    );
    expect(page.body.groups.map((g) => g.name)).toEqual(["c", "b"]);
    expect(page.body.totalCount).toBe("3");
    const rest = await owner<GroupPage>(
      "GET",
      `/iam/v2beta1/groups?uidp.children_of=${enc(team)}&order_by=name%20desc&page_size=2&page_token=${enc(page.body.nextPageToken ?? "")}`,
    );
    expect(rest.body.groups.map((g) => g.name)).toEqual(["a"]);
    expect(rest.body.nextPageToken ?? "").toBe("");
    expect(members.groups).toHaveLength(3);
  });
});
