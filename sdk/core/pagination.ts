/**
 * `list()` results: awaitable as one page, iterable with `for await` over every
 * item across pages.
 */
import type { ListParams, Page } from "../types";
import { BadResponseError, GrpcCode } from "./errors";

/** Largest page the service returns; iterating everything uses it to ask for as few pages as possible. */
export const MAX_PAGE_SIZE = 200;

export type PageFetcher<T, P extends ListParams> = (params: P) => Promise<Page<T>>;

export class PagePromise<T, P extends ListParams = ListParams>
  implements PromiseLike<Page<T>>, AsyncIterable<T>
{
  /** Makes a PagePromise usable wherever a `Promise<Page<T>>` is expected. */
  readonly [Symbol.toStringTag] = "PagePromise";
  #firstPage?: Promise<Page<T>>;
  readonly #fetchPage: PageFetcher<T, P>;
  readonly #params: P;

  constructor(fetchPage: PageFetcher<T, P>, params: P) {
    this.#fetchPage = fetchPage;
    this.#params = params;
  }

  /** The single page the parameters describe, fetched once on first use. */
  #first(): Promise<Page<T>> {
    this.#firstPage ??= this.#fetchPage(this.#params);
    return this.#firstPage;
  }

  // biome-ignore lint/suspicious/noThenProperty: a PagePromise is awaitable by design.
  then<R1 = Page<T>, R2 = never>(
    onFulfilled?: ((page: Page<T>) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#first().then(onFulfilled, onRejected);
  }

  catch<R = never>(
    onRejected?: ((reason: unknown) => R | PromiseLike<R>) | null,
  ): Promise<Page<T> | R> {
    return this.#first().catch(onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<Page<T>> {
    return this.#first().finally(onFinally);
  }

  /**
   * Every page from the one the parameters describe to the last. Without a
   * caller's `pageSize`, pages of `MAX_PAGE_SIZE` are asked for. A page already
   * fetched by `await` is reused when it was asked for with the same size.
   */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    const callerChoseSize = this.#params.pageSize !== undefined;
    const params: P = { ...this.#params, pageSize: this.#params.pageSize ?? MAX_PAGE_SIZE };
    let page = await (callerChoseSize ? this.#first() : this.#fetchPage(params));
    // Every token asked for so far: a server whose tokens come round again would
    // otherwise make this loop (and `.all()`) run forever.
    const seen = new Set<string>(params.pageToken ? [params.pageToken] : []);
    for (let pagesRead = 1; ; pagesRead++) {
      yield page;
      const next = page.nextPageToken;
      if (!next) return;
      if (seen.has(next)) {
        throw new BadResponseError({
          code: GrpcCode.UNKNOWN,
          status: 200,
          message: `List answered a page token it had already given (after ${pagesRead} pages): the listing would never end, so it stops here`,
        });
      }
      seen.add(next);
      // `skip` positions the first page only; the cursor carries the position on.
      page = await this.#fetchPage({ ...params, pageToken: next, skip: undefined });
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.items;
  }

  /** Collects every item across pages into an array. */
  async all(): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) items.push(item);
    return items;
  }
}
