import { describe, expect, it } from "vitest";
import { MAX_PAGE_SIZE, PagePromise } from "../../sdk/core/pagination";
import type { ListParams, Page } from "../../sdk/types";

/** A fake List over `count` numbers, honouring pageSize, pageToken (an offset) and skip. */
function fakeList(count: number) {
  const calls: ListParams[] = [];
  const fetch = async (params: ListParams): Promise<Page<number>> => {
    calls.push(params);
    const size = Math.min(params.pageSize || 50, MAX_PAGE_SIZE);
    const start = (params.pageToken ? Number(params.pageToken) : 0) + (params.skip ?? 0);
    const end = Math.min(start + size, count);
    const items = Array.from({ length: Math.max(0, end - start) }, (_, i) => start + i);
    const page: Page<number> = { items, totalCount: count, skipped: params.skip ?? 0 };
    if (end < count) page.nextPageToken = String(end);
    return page;
  };
  return { fetch, calls };
}

describe("PagePromise", () => {
  it("awaits as exactly one page with the caller's parameters", async () => {
    const list = fakeList(14);
    const page = await new PagePromise(list.fetch, { pageSize: 5, skip: 10 });
    expect(page.items).toEqual([10, 11, 12, 13]);
    expect(page.totalCount).toBe(14);
    expect(page.skipped).toBe(10);
    expect(list.calls).toHaveLength(1);
  });

  it("iterates every item with the largest page size when none is given", async () => {
    const list = fakeList(450);
    const items: number[] = [];
    for await (const item of new PagePromise(list.fetch, {})) items.push(item);
    expect(items).toEqual(Array.from({ length: 450 }, (_, i) => i));
    expect(list.calls.map((c) => c.pageSize)).toEqual([200, 200, 200]);
  });

  it("uses the caller's page size, applies skip to the first page only", async () => {
    const list = fakeList(12);
    const items = await new PagePromise(list.fetch, { pageSize: 4, skip: 3 }).all();
    expect(items).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(list.calls.map((c) => [c.pageSize, c.skip, c.pageToken])).toEqual([
      [4, 3, undefined],
      [4, undefined, "7"],
      [4, undefined, "11"],
    ]);
  });

  it("fetches the next page only when iteration needs it", async () => {
    const list = fakeList(1000);
    for await (const item of new PagePromise(list.fetch, { pageSize: 10 })) {
      if (item === 4) break;
    }
    expect(list.calls).toHaveLength(1);
  });

  it("reuses a page already awaited when iteration asks for the same one", async () => {
    const list = fakeList(15);
    const pages = new PagePromise(list.fetch, { pageSize: 10 });
    await pages;
    expect(await pages.all()).toHaveLength(15);
    expect(list.calls).toHaveLength(2);
  });

  it("refuses to loop on a page token that does not advance", async () => {
    const stuck = async (): Promise<Page<number>> => ({
      items: [1],
      nextPageToken: "same",
      totalCount: 2,
      skipped: 0,
    });
    await expect(new PagePromise(stuck, { pageToken: "same" }).all()).rejects.toThrow(/page token/);
  });

  it("surfaces a failed page to await and to iteration", async () => {
    const failing = async (): Promise<Page<number>> => {
      throw new Error("list failed");
    };
    await expect(new PagePromise(failing, {})).rejects.toThrow("list failed");
    await expect(new PagePromise(failing, {}).all()).rejects.toThrow("list failed");
  });
});
