/**
 * The page object against the emulator: `hasNextPage` / `getNextPage` walk a listing
 * with the caller's parameters, `for await` over a page continues from it, and
 * `all({ onPage })` collects with one request per page (read from the request log).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { ListPage } from "../../sdk";
import { clientFor, closeClients, requestLines } from "../support/sdk-helpers";

let emu: TestEmulator;
let parentUid: string;
/** Uids of the parent's children, in name order. */
let byName: string[];
const COUNT = 7;

beforeAll(async () => {
  emu = await startTestEmulator();
  const { client } = clientFor(emu);
  parentUid = (await client.iam.groups.create(emu.rootGroupUid, { name: "pages" })).uid;
  const created: Array<{ uid: string; name: string }> = [];
  // Names in another order than creation, so the walk must follow the ordering asked for.
  for (let index = 0; index < COUNT; index++) {
    const name = `page ${(index * 3) % COUNT}`;
    created.push(await client.iam.groups.create(parentUid, { name }));
  }
  byName = created.sort((a, b) => (a.name < b.name ? -1 : 1)).map((group) => group.uid);
});
afterAll(async () => {
  await closeClients();
  await emu.close();
});
beforeEach(async () => {
  await emu.clearRequests();
});

describe("ListPage against the emulator", () => {
  it("walks page by page with hasNextPage and getNextPage, keeping the parameters", async () => {
    const { client } = clientFor(emu);
    let page = await client.iam.groups.list({
      childrenOf: parentUid,
      orderBy: "name",
      pageSize: 3,
    });
    expect(page).toBeInstanceOf(ListPage);
    const walked = [page.items.map((g) => g.uid)];
    while (page.hasNextPage()) {
      page = await page.getNextPage();
      walked.push(page.items.map((g) => g.uid));
    }
    expect(walked).toEqual([byName.slice(0, 3), byName.slice(3, 6), byName.slice(6)]);
    expect(page.totalCount).toBe(COUNT);
    await expect(page.getNextPage()).rejects.toThrow(/last page/);

    const lines = await requestLines(emu);
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      expect(line).toMatch(/uidp\.children_of=.*page_size=3.*order_by=name/);
    }
    expect(lines.slice(1).every((line) => line.includes("page_token="))).toBe(true);
  });

  it("iterates from an awaited page on, and skip positions only that first page", async () => {
    const { client } = clientFor(emu);
    const first = await client.iam.groups.list({
      childrenOf: parentUid,
      orderBy: "name",
      pageSize: 2,
      skip: 1,
    });
    const uids: string[] = [];
    for await (const group of first) uids.push(group.uid);
    expect(uids).toEqual(byName.slice(1));
  });

  it("all({ onPage }) asks one page of 200 and reports it", async () => {
    const { client } = clientFor(emu);
    const reports: Array<[number, number]> = [];
    const all = await client.iam.groups
      .list({ childrenOf: parentUid, orderBy: "name" })
      .all({ onPage: (page, read) => reports.push([read, page.totalCount]) });
    expect(all.map((g) => g.uid)).toEqual(byName);
    expect(reports).toEqual([[COUNT, COUNT]]);
    const lines = await requestLines(emu);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("page_size=200");
  });
});
