interface PageStream<T> {
  readonly pageSize: number;
  /** Most pages requested at once (a sliding window ahead of the reader). */
  readonly pagesInFlight: number;
  readonly fetchPage: (page: number, signal: AbortSignal) => Promise<T[]>;
  readonly onPage?: ((page: number, count: number) => void) | undefined;
}

/**
 * Yields the items of pages 1, 2, 3… in order, and stops after the first page shorter than
 * `pageSize`. Page 1 is requested alone: most lists fit in one page, which then costs one
 * request. Once a full page shows there is more, up to `pagesInFlight` requests run ahead of
 * the reader.
 * Once any page comes back short no page after it is requested; pages already in flight
 * past the end, and pages prefetched for a reader that stops early, are aborted.
 */
export async function* streamPages<T>(stream: PageStream<T>): AsyncGenerator<T, void, undefined> {
  const controller = new AbortController();
  const requested = new Map<number, Promise<T[]>>();
  let lastPage = Number.POSITIVE_INFINITY;
  let next = 1;

  const requestUpTo = (upTo: number) => {
    for (; next <= upTo && next <= lastPage; next++) {
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

  try {
    for (let page = 1; ; page++) {
      requestUpTo(page === 1 ? 1 : page + stream.pagesInFlight - 1);
      const items = await (requested.get(page) as Promise<T[]>);
      requested.delete(page);
      stream.onPage?.(page, items.length);
      yield* items;
      if (items.length < stream.pageSize) return;
    }
  } finally {
    controller.abort();
  }
}
