/**
 * Interleaves several async iterables, yielding items as soon as any source has one.
 * Each source is pulled one item at a time, so memory stays bounded by the number of
 * sources. The first error from any source ends the merge and is rethrown.
 */
export async function* mergeAsync<T>(sources: readonly AsyncIterable<T>[]): AsyncGenerator<T> {
  // One source needs no race: this spares a race and its promises for every item.
  if (sources.length === 1) return yield* sources[0] as AsyncIterable<T>;
  const iterators = sources.map((s) => s[Symbol.asyncIterator]());
  const pending = new Map<number, Promise<{ index: number; result: IteratorResult<T> }>>();
  const pull = (index: number) => {
    const next = iterators[index]!.next().then((result) => ({ index, result }));
    // Marked handled now: it may reject before the loop races it again.
    next.catch(() => {});
    pending.set(index, next);
  };
  for (let index = 0; index < iterators.length; index += 1) pull(index);
  try {
    while (pending.size > 0) {
      const { index, result } = await Promise.race(pending.values());
      if (result.done) {
        pending.delete(index);
      } else {
        pull(index);
        yield result.value;
      }
    }
  } finally {
    for (const index of pending.keys()) await iterators[index]!.return?.();
  }
}

/**
 * Maps an async iterable through an async function with at most `limit` calls in
 * flight, yielding results in completion order. The source is only read when a slot is
 * free, so a fast source cannot flood memory.
 */
export async function* mapConcurrent<T, R>(
  source: AsyncIterable<T>,
  limit: number,
  fn: (item: T) => Promise<R>,
): AsyncGenerator<R> {
  const iterator = source[Symbol.asyncIterator]();
  const inFlight = new Map<number, Promise<{ id: number; value: R }>>();
  let nextId = 0;
  let exhausted = false;
  while (true) {
    while (!exhausted && inFlight.size < limit) {
      const step = await iterator.next();
      if (step.done) {
        exhausted = true;
        break;
      }
      const id = nextId++;
      const call = fn(step.value).then((value) => ({ id, value }));
      // Marked handled now: it may reject while the loop awaits the source.
      call.catch(() => {});
      inFlight.set(id, call);
    }
    if (inFlight.size === 0) return;
    const { id, value } = await Promise.race(inFlight.values());
    inFlight.delete(id);
    yield value;
  }
}
