import { OPTIONAL_PACKAGES, requirePackages } from "../../peer-packages";
import type { ReportSink } from "./output";

/**
 * OWASP's rule against CSV injection: a text cell a spreadsheet would read as a formula gets a
 * leading `'`; server text can be hostile.
 */
export function inertCell(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** Records stringified and written at a time: a page of the API's listings. */
const BATCH = 100;

/**
 * Streams records as CSV (RFC 4180) with backpressure, cells made inert, a batch of records
 * to each write: csv-stringify's sync API over a batch spares the per-row stream chunks, their
 * Buffer copies and promises. csv-stringify is optional, so it is loaded here, and its
 * absence fails before anything is written.
 */
export async function writeCsv<T extends Record<string, unknown>>(
  sink: ReportSink,
  columns: readonly string[],
  records: AsyncIterable<T> | Iterable<T>,
): Promise<number> {
  requirePackages("CSV output", OPTIONAL_PACKAGES.csv);
  const { stringify } = await import("csv-stringify/sync");
  const options = {
    columns: [...columns],
    cast: {
      boolean: (value: boolean) => (value ? "true" : "false"),
      object: (value: object) => JSON.stringify(value),
      string: inertCell,
    },
  };
  let count = 0;
  let batch: T[] = [];
  const flush = async () => {
    await sink.write(stringify(batch, { ...options, header: count === batch.length }));
    batch = [];
  };
  for await (const record of records) {
    count += 1;
    batch.push(record);
    if (batch.length === BATCH) await flush();
  }
  if (batch.length > 0 || count === 0) await flush();
  return count;
}
