import { mdCode, mdTable } from "../../markdown";
import { checkNamed } from "../shared/check-names";
import type { ErrorReportInput } from "./report-input";
import type { ErrorReportGroup } from "./report-schema";
import { leftOutLine, summaryOf, topGroups } from "./summary";

function shorten(text: string | null, max = 160): string {
  if (text === null) return "";
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A Markdown report: counts per check, then the groups, newest last-seen first. */
export function renderErrorMarkdown(input: ErrorReportInput, groups: ErrorReportGroup[]): string {
  const summary = summaryOf(input);
  const names = input.checkNames ?? {};
  const { shown, left } = topGroups(groups, input.top);
  const lines = [
    "# Error groups",
    "",
    `Generated ${(input.now ?? new Date()).toISOString()} for ${input.checks.length} check(s): ${summary.total} group(s).`,
    "",
    mdTable(
      ["Check", "Groups"],
      Object.entries(summary.byCheck).map(([check, count]) => [checkNamed(check, names), count]),
    ),
  ];
  if (input.comparison) {
    lines.push(
      `Compared with the report of ${input.comparison.previous.generatedAt}: ${summary.new} new, ${summary.present} still present, ${summary.gone} gone.`,
      "",
    );
  }
  const headers = [
    "Check",
    "Group",
    "Message",
    "Raw message",
    "First seen",
    "Last seen",
    "Archived",
  ];
  if (input.comparison) headers.push("Change");
  if (input.details) headers.push("Root-cause analyses");
  const rows = shown.map((g) => {
    const row: unknown[] = [
      checkNamed(g.checkId, names),
      g.id,
      mdCode(shorten(g.cleanedErrorMessage)),
      mdCode(shorten(g.rawErrorMessage)),
      g.firstSeen,
      g.lastSeen,
      g.archivedUntilNextEvent ? "yes" : "no",
    ];
    if (input.comparison) row.push(g.change ?? "");
    if (input.details) row.push(g.rootCauseAnalyses?.length ?? 0);
    return row;
  });
  lines.push(groups.length ? mdTable(headers, rows) : "No error groups.\n");
  if (left > 0) lines.push(`${leftOutLine(shown.length, left)}\n`);
  return lines.join("\n");
}
