/**
 * `list()` results. `list(params)` returns a `PagePromise`: `await` it for one
 * `ListPage` (`items`, `hasNextPage()`, `getNextPage()`), `for await` over it for
 * every item across pages, or `.all()` for every item in one array.
 *
 * Every walk across pages goes through `ListPage.getNextPage`, the one place that
 * follows a cursor: `skip` positions the first page only, and a page token the
 * walk has already been given ends it with a `BadResponseError` instead of looping.
 */
import type { ListParams, Page } from "./common-types";
import { BadResponseError, GrpcCode } from "./errors";

/** Largest page the service returns; walking every page uses it to ask for as few pages as possible. */
export const MAX_PAGE_SIZE = 200;

export type PageFetcher<T, P extends ListParams> = (params: P) => Promise<Page<T>>;

/** The page tokens a walk has asked with, newest first (a list, so pages share what came before). */
interface TokenTrail {
  readonly token: string;
  readonly previous?: TokenTrail;
}

function trailHas(trail: TokenTrail | undefined, token: string): boolean {
  for (let at = trail; at !== undefined; at = at.previous) if (at.token === token) return true;
  return false;
}

/**
 * One page of a listing that knows how to fetch the next one. It is a `Page<T>`
 * (`items`, `nextPageToken?`, `totalCount`, `skipped`), and `for await` over it
 * yields its items and those of every following page.
 */
export class ListPage<T, P extends ListParams = ListParams> implements Page<T>, AsyncIterable<T> {
  readonly items: T[];
  /** Absent on the last page. */
  declare readonly nextPageToken?: string;
  readonly totalCount: number;
  readonly skipped: number;
  readonly #fetchPage: PageFetcher<T, P>;
  /** The parameters this page was asked with. */
  readonly #params: P;
  /** The tokens asked with to reach this page, this page's own first. */
  readonly #trail: TokenTrail | undefined;
  /** 1 for the page a walk started with. */
  readonly #number: number;

  constructor(
    page: Page<T>,
    fetchPage: PageFetcher<T, P>,
    params: P,
    trail: TokenTrail | undefined = params.pageToken ? { token: params.pageToken } : undefined,
    number = 1,
  ) {
    this.items = page.items;
    if (page.nextPageToken) this.nextPageToken = page.nextPageToken;
    this.totalCount = page.totalCount;
    this.skipped = page.skipped;
    this.#fetchPage = fetchPage;
    this.#params = params;
    this.#trail = trail;
    this.#number = number;
  }

  /** True unless this is the last page. */
  hasNextPage(): boolean {
    return this.nextPageToken !== undefined;
  }

  /**
   * Fetches the page after this one, with the same parameters but the cursor
   * (`skip` is dropped: it positioned the first page only). Fails on the last page,
   * and with a `BadResponseError` when the service hands out a token this walk has
   * already asked with: the listing would never end.
   */
  async getNextPage(): Promise<ListPage<T, P>> {
    const next = this.nextPageToken;
    if (next === undefined) {
      throw new RangeError("getNextPage: this is the last page (check hasNextPage() first)");
    }
    if (trailHas(this.#trail, next)) {
      throw new BadResponseError({
        code: GrpcCode.UNKNOWN,
        status: 200,
        message: `List answered a page token it had already given (after ${this.#number} pages): the listing would never end, so it stops here`,
      });
    }
    const params: P = { ...this.#params, pageToken: next, skip: undefined };
    const page = await this.#fetchPage(params);
    return new ListPage(
      page,
      this.#fetchPage,
      params,
      { token: next, previous: this.#trail },
      this.#number + 1,
    );
  }

  /** This page and every following one; the next is fetched only when the loop asks for it. */
  async *iterPages(): AsyncGenerator<ListPage<T, P>, void, undefined> {
    let page: ListPage<T, P> = this;
    yield page;
    while (page.hasNextPage()) {
      page = await page.getNextPage();
      yield page;
    }
  }

  /** The items of this page and of every following one. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.iterPages()) yield* page.items;
  }
}

/** Options of `PagePromise.all`. */
export interface AllOptions<T, P extends ListParams = ListParams> {
  /**
   * Called after each page arrives, with the number of items read so far: for
   * progress reports and request counts.
   */
  onPage?: (page: ListPage<T, P>, itemsRead: number) => void;
}

export class PagePromise<T, P extends ListParams = ListParams>
  implements PromiseLike<ListPage<T, P>>, AsyncIterable<T>
{
  /** Makes a PagePromise usable wherever a `Promise<Page<T>>` is expected. */
  readonly [Symbol.toStringTag] = "PagePromise";
  #firstPage?: Promise<ListPage<T, P>>;
  readonly #fetchPage: PageFetcher<T, P>;
  readonly #params: P;

  constructor(fetchPage: PageFetcher<T, P>, params: P) {
    this.#fetchPage = fetchPage;
    this.#params = params;
  }

  async #fetch(params: P): Promise<ListPage<T, P>> {
    return new ListPage(await this.#fetchPage(params), this.#fetchPage, params);
  }

  /** The single page the parameters describe, fetched once on first use. */
  #first(): Promise<ListPage<T, P>> {
    this.#firstPage ??= this.#fetch(this.#params);
    return this.#firstPage;
  }

  // biome-ignore lint/suspicious/noThenProperty: a PagePromise is awaitable by design.
  then<R1 = ListPage<T, P>, R2 = never>(
    onFulfilled?: ((page: ListPage<T, P>) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#first().then(onFulfilled, onRejected);
  }

  catch<R = never>(
    onRejected?: ((reason: unknown) => R | PromiseLike<R>) | null,
  ): Promise<ListPage<T, P> | R> {
    return this.#first().catch(onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<ListPage<T, P>> {
    return this.#first().finally(onFinally);
  }

  /**
   * Every page from the one the parameters describe to the last. Without a
   * caller's `pageSize`, pages of `MAX_PAGE_SIZE` are asked for. A page already
   * fetched by `await` is reused when it was asked for with the same size.
   */
  async *pages(): AsyncGenerator<ListPage<T, P>, void, undefined> {
    const first = await (this.#params.pageSize !== undefined
      ? this.#first()
      : this.#fetch({ ...this.#params, pageSize: MAX_PAGE_SIZE }));
    yield* first.iterPages();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.items;
  }

  /**
   * Every item across pages, in one array: the one way to collect a whole listing
   * (pages of `MAX_PAGE_SIZE` unless the parameters name a size).
   */
  async all(options: AllOptions<T, P> = {}): Promise<T[]> {
    const items: T[] = [];
    for await (const page of this.pages()) {
      items.push(...page.items);
      options.onPage?.(page, items.length);
    }
    return items;
  }
}
