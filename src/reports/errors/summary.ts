import type { ErrorReportInput } from "./report-input";
import type { ErrorReport, ErrorReportGroup } from "./report-schema";

export function sum(counts: Record<string, number>): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

/** The report's summary: groups per check, and the comparison counts when compared. */
export function summaryOf(input: ErrorReportInput): ErrorReport["summary"] {
  const summary: ErrorReport["summary"] = {
    total: sum(input.stats.byCheck),
    byCheck: input.stats.byCheck,
    duplicatesSkipped: input.stats.duplicatesSkipped,
  };
  if (input.comparison) Object.assign(summary, input.comparison.compare.counts);
  return summary;
}

function byLastSeenDesc(a: ErrorReportGroup, b: ErrorReportGroup): number {
  return (Date.parse(b.lastSeen) || 0) - (Date.parse(a.lastSeen) || 0);
}

/**
 * The groups a Markdown or HTML report shows, most recently seen first: all of them, or
 * the `top` first. `left` says how many more there are.
 */
export function topGroups(
  groups: ErrorReportGroup[],
  top: number | undefined,
): { shown: ErrorReportGroup[]; left: number } {
  groups.sort(byLastSeenDesc);
  if (top === undefined || groups.length <= top) return { shown: groups, left: 0 };
  return { shown: groups.slice(0, top), left: groups.length - top };
}

/** The line under a cut list: how many more and how to see them. */
export function leftOutLine(shown: number, left: number): string {
  return `Showing the ${shown.toLocaleString("en-US")} most recently seen group(s); ${left.toLocaleString("en-US")} more are left out (--top). Use --top all, or --format csv or json for every group.`;
}
