interface PageStream<T> {
  readonly pageSize: number;
  /** Most pages requested at once (a sliding window ahead of the reader). */
  readonly pagesInFlight: number;
  readonly fetchPage: (page: number, signal: AbortSignal) => Promise<T[]>;
  readonly onPage?: ((page: number, count: number) => void) | undefined;
  /** Most pages requested; a listing that needs more fails. */
  readonly maxPages: number;
  /** What names an item, to see a page that holds nothing new. */
  readonly keyOf: (item: T) => string;
  /** The error for a listing that would not end, naming the page that showed it. */
  readonly stuck: (page: number, why: string) => Error;
}

/**
 * Yields the items of pages 1, 2, 3… in order, and stops after the first page shorter than
 * `pageSize`. Page 1 is requested alone: most lists fit in one page, which then costs one
 * request. Once a full page shows there is more, up to `pagesInFlight` requests run ahead of
 * the reader.
 * Once any page comes back short no page after it is requested; pages already in flight
 * past the end, and pages prefetched for a reader that stops early, are aborted.
 *
 * It always ends: a full page with no item that an earlier page did not have (a server that
 * ignores `page`, or goes round in circles) stops it with `stuck`, and so does a listing
 * that would need more than `maxPages` pages.
 */
export async function* streamPages<T>(stream: PageStream<T>): AsyncGenerator<T, void, undefined> {
  const controller = new AbortController();
  const requested = new Map<number, Promise<T[]>>();
  let lastPage = Number.POSITIVE_INFINITY;
  let next = 1;

  const requestUpTo = (upTo: number) => {
    for (; next <= upTo && next <= lastPage && next <= stream.maxPages; next++) {
      const page = next;
      const request = stream.fetchPage(page, controller.signal).then((items) => {
        if (items.length < stream.pageSize) lastPage = Math.min(lastPage, page);
        return items;
      });
      // Read (and rethrown) in page order below; this only stops a page never reached from
      // surfacing as an unhandled rejection.
      request.catch(() => undefined);
      requested.set(page, request);
    }
  };

  const seen = new Set<string>();
  try {
    for (let page = 1; ; page++) {
      requestUpTo(page === 1 ? 1 : page + stream.pagesInFlight - 1);
      const items = await (requested.get(page) as Promise<T[]>);
      requested.delete(page);
      const keys = items.map(stream.keyOf);
      if (page > 1 && items.length > 0 && keys.every((key) => seen.has(key))) {
        throw stream.stuck(
          page,
          `returned only items of earlier pages (page ${page}, ${stream.pageSize} a page): the server seems to ignore \`page\``,
        );
      }
      for (const key of keys) seen.add(key);
      stream.onPage?.(page, items.length);
      yield* items;
      if (items.length < stream.pageSize) return;
      if (page >= stream.maxPages) {
        throw stream.stuck(
          page,
          `returned a full page ${page}, and the listing may take at most ${stream.maxPages} pages (maxPages)`,
        );
      }
    }
  } finally {
    controller.abort();
  }
}
