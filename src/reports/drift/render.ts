import { githubAnnotation } from "../../github-annotation";
import { mdCell, mdTable, mdText } from "../../markdown";
import { safeLine } from "../../safe-text";
import type { DefinitionDrift, DriftReport, DriftUpdate } from "./report-schema";

export const DRIFT_FORMATS = ["text", "json", "markdown", "github"] as const;
export type DriftFormat = (typeof DRIFT_FORMATS)[number];

const STATE_LABEL: Record<DefinitionDrift["state"], string> = {
  "in-sync": "in sync",
  drifted: "DRIFTED",
  missing: "MISSING",
  unknown: "unknown",
};

function liveText(d: DefinitionDrift): string {
  if (d.state === "missing") return "(no such incident)";
  return d.liveStatus ?? "(no update with a status)";
}

function baselineText(d: DefinitionDrift): string {
  switch (d.baseline.source) {
    case "since":
      return `since ${d.baseline.at}`;
    case "git":
      return `since last commit ${d.baseline.at}`;
    case "none":
      return "file not committed: all returned updates";
  }
}

/** One update in the text report; the server's text made safe for a terminal or a CI log. */
function updateLine(u: DriftUpdate): string {
  return `${safeLine(u.at ?? "(no date)")}  ${safeLine(u.status ?? "(comment)")}  ${u.class === "drift" ? "drift   " : "expected"}  ${safeLine(u.description)}`;
}

/** Renders a drift report in the chosen format; the result ends with a newline. */
export function renderDrift(report: DriftReport, format: DriftFormat): string {
  switch (format) {
    case "json":
      return `${JSON.stringify(report, null, 2)}\n`;
    case "text":
      return renderText(report);
    case "markdown":
      return renderMarkdown(report);
    case "github":
      return renderGithub(report);
  }
}

function headline(report: DriftReport): string {
  const s = report.summary;
  return report.drift
    ? `Drift: ${s.drifted} drifted, ${s.missing} missing, ${s.inSync} in sync, ${s.unknown} unknown of ${s.definitions} definition(s).`
    : `No drift: ${s.inSync} in sync, ${s.unknown} unknown of ${s.definitions} definition(s).`;
}

function renderText(report: DriftReport): string {
  const lines: string[] = [];
  for (const d of report.definitions) {
    lines.push(
      `${STATE_LABEL[d.state].padEnd(8)} ${safeLine(d.id)}  declared ${d.declaredStatus}, live ${safeLine(liveText(d))}  (${safeLine(d.file)}:${d.line})`,
    );
    if (d.updatesOutsideGit.length) {
      lines.push(`         updates outside git (${baselineText(d)}), newest first:`);
      for (const u of d.updatesOutsideGit) lines.push(`           ${updateLine(u)}`);
    }
  }
  lines.push("", headline(report));
  return `${lines.join("\n")}\n`;
}

function renderMarkdown(report: DriftReport): string {
  const parts = [
    "## Incident drift",
    "",
    headline(report),
    "",
    mdTable(
      ["Incident", "State", "Declared", "Live", "Definition", "Updates outside git"],
      report.definitions.map((d) => [
        d.id,
        STATE_LABEL[d.state],
        d.declaredStatus,
        liveText(d),
        `${d.file}:${d.line}`,
        `${d.updatesOutsideGit.filter((u) => u.class === "drift").length} drift, ${d.updatesOutsideGit.filter((u) => u.class === "expected").length} expected`,
      ]),
    ),
  ];
  for (const d of report.definitions.filter((x) => x.updatesOutsideGit.length)) {
    parts.push(
      `### ${mdCell(d.id)}: updates outside git`,
      "",
      `${mdText(baselineText(d))}, newest first.`,
      "",
      mdTable(
        ["Posted", "Status", "Class", "Description"],
        d.updatesOutsideGit.map((u) => [
          u.at ?? "",
          u.status ?? "(comment)",
          u.class,
          u.description,
        ]),
      ),
    );
  }
  parts.push(
    `<sub>Generated ${report.generatedAt} by \`incident-sync drift\`. Fix drift by changing the definition in git, or by applying it again.</sub>`,
    "",
  );
  return parts.join("\n");
}

/**
 * GitHub Actions workflow commands: an error annotation on the definition of each
 * drifted or missing incident, a notice for expected activity, then the headline.
 */
function renderGithub(report: DriftReport): string {
  const lines: string[] = [];
  for (const d of report.definitions) {
    const where = { file: d.file, line: d.line };
    if (d.state === "drifted" || d.state === "missing") {
      const drifts = d.updatesOutsideGit.filter((u) => u.class === "drift");
      const latest = drifts[0];
      const detail = latest
        ? ` Latest out-of-band update: ${latest.at ?? ""} ${latest.status}: ${latest.description}`
        : "";
      lines.push(
        githubAnnotation({
          level: "error",
          ...where,
          title: `Drift: ${d.id}`,
          message: `declared ${d.declaredStatus}, live ${liveText(d)}.${detail}`,
        }),
      );
    } else if (d.state === "unknown") {
      lines.push(
        githubAnnotation({
          level: "warning",
          ...where,
          title: `Unknown live status: ${d.id}`,
          message: "No incident update carries a status, so the live status cannot be compared.",
        }),
      );
    }
    const expected = d.updatesOutsideGit.filter((u) => u.class === "expected").length;
    if (expected > 0) {
      lines.push(
        githubAnnotation({
          level: "notice",
          ...where,
          title: `Activity: ${d.id}`,
          message: `${expected} update(s) outside git match the declared status ${d.declaredStatus}.`,
        }),
      );
    }
  }
  lines.push(headline(report));
  return `${lines.join("\n")}\n`;
}
