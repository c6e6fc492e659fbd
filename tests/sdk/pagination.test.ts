import { describe, expect, it } from "vitest";
import type { ListParams, Page } from "../../sdk/core/common-types";
import { BadResponseError } from "../../sdk/core/errors";
import { ListPage, MAX_PAGE_SIZE, PagePromise } from "../../sdk/core/pagination";

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

  it("collects with onPage told of each page and the items read so far", async () => {
    const list = fakeList(450);
    const seen: Array<[number, number, number]> = [];
    const items = await new PagePromise(list.fetch, {}).all({
      onPage: (page, read) => seen.push([page.items.length, read, page.totalCount]),
    });
    expect(items).toHaveLength(450);
    expect(seen).toEqual([
      [200, 200, 450],
      [200, 400, 450],
      [50, 450, 450],
    ]);
  });
});

describe("ListPage", () => {
  it("is the awaited page: the page's fields, hasNextPage and getNextPage with the same parameters", async () => {
    const list = fakeList(12);
    const first = await new PagePromise(list.fetch, { pageSize: 5, skip: 1, orderBy: "uid" });
    expect(first).toBeInstanceOf(ListPage);
    expect(first).toEqual({
      items: [1, 2, 3, 4, 5],
      nextPageToken: "6",
      totalCount: 12,
      skipped: 1,
    });
    expect(first.hasNextPage()).toBe(true);

    const second = await first.getNextPage();
    expect(second.items).toEqual([6, 7, 8, 9, 10]);
    const last = await second.getNextPage();
    expect(last.items).toEqual([11]);
    expect(last.hasNextPage()).toBe(false);
    expect("nextPageToken" in last).toBe(false);
    await expect(last.getNextPage()).rejects.toThrow(RangeError);
    // `skip` positions the first page only; the cursor carries the rest.
    expect(list.calls).toEqual([
      { pageSize: 5, skip: 1, orderBy: "uid" },
      { pageSize: 5, skip: undefined, orderBy: "uid", pageToken: "6" },
      { pageSize: 5, skip: undefined, orderBy: "uid", pageToken: "11" },
    ]);
  });

  it("serializes as the page's data only", async () => {
    const page = await new PagePromise(fakeList(3).fetch, { pageSize: 2 });
    expect(JSON.parse(JSON.stringify(page))).toEqual({
      items: [0, 1],
      nextPageToken: "2",
      totalCount: 3,
      skipped: 0,
    });
  });

  it("iterates its own items and those of every following page, fetching lazily", async () => {
    const list = fakeList(25);
    const first = await new PagePromise(list.fetch, { pageSize: 10 });
    const items: number[] = [];
    for await (const item of first) items.push(item);
    expect(items).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(list.calls).toHaveLength(3);

    const pages: number[][] = [];
    for await (const page of first.iterPages()) {
      pages.push(page.items);
      break;
    }
    expect(pages).toEqual([first.items]);
    expect(list.calls).toHaveLength(3);
  });

  it("refuses a token that comes round again (A, B, A) page by page too", async () => {
    const next: Record<string, string> = { "": "A", A: "B", B: "A" };
    const cycling = async (params: ListParams): Promise<Page<number>> => ({
      items: [1],
      nextPageToken: next[params.pageToken ?? ""],
      totalCount: 9,
      skipped: 0,
    });
    const first = await new PagePromise(cycling, {});
    const b = await (await first.getNextPage()).getNextPage();
    expect(b.nextPageToken).toBe("A");
    const error = await b.getNextPage().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BadResponseError);
    expect((error as Error).message).toMatch(/page token it had already given \(after 3 pages\)/);
    // Asking twice for the page after the same page is no cycle.
    expect((await first.getNextPage()).items).toEqual([1]);
    expect((await first.getNextPage()).items).toEqual([1]);
  });
});
