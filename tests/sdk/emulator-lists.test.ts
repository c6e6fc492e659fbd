/**
 * Pagination against the emulator: every ordering across several pages, `skip`,
 * and the number of pages asked for, read from the emulator's request log.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import type { Group } from "../../sdk";
import { clientFor, closeClients } from "../support/sdk-helpers";

let emu: TestEmulator;
let parentUid: string;
let fourteenUid: string;
const COUNT = 23;

beforeAll(async () => {
  emu = await startTestEmulator();
  const { client } = clientFor(emu);
  parentUid = (await client.iam.groups.create(emu.rootGroupUid, { name: "paging" })).uid;
  // Uids are random, names are a permutation, creation and update happen in two other
  // orders one emulator-second apart: each ordering differs from the others.
  const created: Group[] = [];
  for (let index = 0; index < COUNT; index++) {
    await emu.advanceClock(1);
    const name = `pg ${String((index * 7) % COUNT).padStart(2, "0")}`;
    created.push(await client.iam.groups.create(parentUid, { name }));
  }
  for (let index = 0; index < COUNT; index++) {
    await emu.advanceClock(1);
    await client.iam.groups.update(created[(index * 5) % COUNT].uid, { description: `u${index}` });
  }
  fourteenUid = (await client.iam.groups.create(emu.rootGroupUid, { name: "fourteen" })).uid;
  await emu.seed({ generate: { kind: "groups", count: 14, parentUid: fourteenUid } });
});
afterAll(async () => {
  await closeClients();
  await emu.close();
});
beforeEach(async () => {
  await emu.clearRequests();
});

type OrderField = "uid" | "name" | "createTime" | "updateTime";
const ORDERINGS: Array<[string, OrderField, boolean]> = [
  ["uid", "uid", false],
  ["uid desc", "uid", true],
  ["name", "name", false],
  ["name desc", "name", true],
  ["create_time", "createTime", false],
  ["create_time desc", "createTime", true],
  ["update_time asc", "updateTime", false],
  ["update_time desc", "updateTime", true],
];

/** The decisions' rule: by the field, ties broken by uid (in the same direction). */
function sorted(groups: Group[], field: OrderField, descending: boolean): string[] {
  const direction = descending ? -1 : 1;
  return [...groups]
    .sort((a, b) => {
      if (a[field] !== b[field]) return a[field] < b[field] ? -direction : direction;
      return a.uid < b.uid ? -direction : direction;
    })
    .map((g) => g.uid);
}

describe("pagination", () => {
  it.each(ORDERINGS)(
    "iterates every item in order %j across pages",
    async (orderBy, field, desc) => {
      const { client } = clientFor(emu);
      const seen: Group[] = [];
      for await (const group of client.iam.groups.list({
        childrenOf: parentUid,
        orderBy,
        pageSize: 10,
      })) {
        seen.push(group);
      }
      expect(seen).toHaveLength(COUNT);
      expect(seen.map((g) => g.uid)).toEqual(sorted(seen, field, desc));
      if (field !== "uid") expect(sorted(seen, field, desc)).not.toEqual(sorted(seen, "uid", desc));
      const log = await emu.requests();
      expect(log).toHaveLength(3);
      expect(
        log.map((entry) => new URLSearchParams(entry.query).get("page_token") !== null),
      ).toEqual([false, true, true]);
      expect(
        log.every((entry) => new URLSearchParams(entry.query).get("order_by") === orderBy),
      ).toBe(true);
    },
  );

  it("awaits one page with a cursor and a numeric total", async () => {
    const { client } = clientFor(emu);
    const first = await client.iam.groups.list({
      childrenOf: parentUid,
      pageSize: 10,
      orderBy: "name",
    });
    expect(first.items).toHaveLength(10);
    expect(first.totalCount).toBe(COUNT);
    expect(typeof first.totalCount).toBe("number");
    expect(first.nextPageToken).toBeTruthy();
    const second = await client.iam.groups.list({
      childrenOf: parentUid,
      pageSize: 10,
      orderBy: "name",
      pageToken: first.nextPageToken,
    });
    expect(second.items[0].name > first.items[9].name).toBe(true);
    expect(await emu.requests()).toHaveLength(2);
  });

  it("iterating without a page size asks for the largest pages: one request here", async () => {
    const { client } = clientFor(emu);
    const all = await client.iam.groups.list({ childrenOf: parentUid }).all();
    expect(all).toHaveLength(COUNT);
    const log = await emu.requests();
    expect(log).toHaveLength(1);
    expect(new URLSearchParams(log[0].query).get("page_size")).toBe("200");
  });

  it("stops fetching when iteration stops", async () => {
    const { client } = clientFor(emu);
    for await (const group of client.iam.groups.list({ childrenOf: parentUid, pageSize: 5 })) {
      if (group) break;
    }
    expect(await emu.requests()).toHaveLength(1);
  });
});

describe("skip", () => {
  it("gives a short page: 14 matches, skip 10, page size 5 -> 4 results", async () => {
    const { client } = clientFor(emu);
    const page = await client.iam.groups.list({ childrenOf: fourteenUid, skip: 10, pageSize: 5 });
    expect(page.items).toHaveLength(4);
    expect(page.skipped).toBe(10);
    expect(page.totalCount).toBe(14);
    expect(page.nextPageToken).toBeUndefined();
  });

  it("applies only to the first page when iterating", async () => {
    const { client } = clientFor(emu);
    const everything = await client.iam.groups.list({ childrenOf: fourteenUid }).all();
    const rest = await client.iam.groups
      .list({ childrenOf: fourteenUid, skip: 3, pageSize: 5 })
      .all();
    expect(rest.map((g) => g.uid)).toEqual(everything.slice(3).map((g) => g.uid));
    const log = await emu.requests();
    expect(log.map((entry) => new URLSearchParams(entry.query).get("skip"))).toEqual([
      null,
      "3",
      null,
      null,
    ]);
  });

  it("past the end gives an empty page and no cursor", async () => {
    const { client } = clientFor(emu);
    const page = await client.iam.groups.list({ childrenOf: fourteenUid, skip: 100 });
    expect(page).toEqual({ items: [], totalCount: 14, skipped: 100 });
  });
});
