import { once } from "node:events";
import { stringify } from "csv-stringify";
import type { ReportSink } from "./output";

/**
 * Streams records as CSV (RFC 4180, header row first) into a sink with backpressure on
 * both sides, so a large export holds only a few rows at a time.
 */
export async function writeCsv<T extends Record<string, unknown>>(
  sink: ReportSink,
  columns: readonly string[],
  records: AsyncIterable<T> | Iterable<T>,
): Promise<number> {
  const stringifier = stringify({
    header: true,
    columns: [...columns],
    cast: {
      boolean: (value) => (value ? "true" : "false"),
      object: (value) => JSON.stringify(value),
    },
  });
  const drained = (async () => {
    for await (const chunk of stringifier) await sink.write(String(chunk));
  })();
  drained.catch(() => {});
  let count = 0;
  try {
    for await (const record of records) {
      count += 1;
      if (!stringifier.write(record)) await once(stringifier, "drain");
    }
  } catch (error) {
    stringifier.destroy();
    throw error;
  }
  stringifier.end();
  await drained;
  return count;
}
