import { once } from "node:events";
import { OPTIONAL_PACKAGES, requirePackages } from "../../peer-packages";
import type { ReportSink } from "./output";

/**
 * OWASP's rule against CSV injection: a text cell a spreadsheet would read as a formula gets a
 * leading `'`; server text can be hostile.
 */
export function inertCell(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/**
 * Streams records as CSV (RFC 4180) with backpressure, cells made inert; csv-stringify is
 * optional, so it is loaded here, and its absence fails before anything is written.
 */
export async function writeCsv<T extends Record<string, unknown>>(
  sink: ReportSink,
  columns: readonly string[],
  records: AsyncIterable<T> | Iterable<T>,
): Promise<number> {
  requirePackages("CSV output", OPTIONAL_PACKAGES.csv);
  const { stringify } = await import("csv-stringify");
  const stringifier = stringify({
    header: true,
    columns: [...columns],
    cast: {
      boolean: (value) => (value ? "true" : "false"),
      object: (value) => JSON.stringify(value),
      string: inertCell,
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
