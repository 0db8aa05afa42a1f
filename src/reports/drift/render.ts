import { githubAnnotation } from "../../github-annotation";
import { incidentNamed } from "../../incident";
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

/** The incident as every line names it: `Name (resource, id)`. */
function driftNamed(d: DefinitionDrift): string {
  return incidentNamed({ name: d.name, resource: d.resource, incidentId: d.id });
}

function liveText(d: DefinitionDrift): string {
  if (d.state === "missing") return "(no such incident)";
  if (d.checked === false) return "(not checked)";
  return d.liveStatus ?? "(no update with a status)";
}

/** The state as a person reads it: an incident that could not be checked says so. */
function stateLabel(d: DefinitionDrift): string {
  if (d.checked === false) return "UNCHECKED";
  return d.state === "in-sync" && (d.fields?.length ?? 0) > 0 ? "DRIFTED" : STATE_LABEL[d.state];
}

/** A declared field the status page shows otherwise, on one line. */
function fieldText(field: NonNullable<DefinitionDrift["fields"]>[number]): string {
  return `${field.field}: declared ${JSON.stringify(field.declared)}, live ${JSON.stringify(field.live)}`;
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
  const unknown = s.unknown - s.unchecked;
  const notChecked =
    s.unchecked > 0
      ? ` ${s.unchecked} incident(s) could not be checked (see each one's reason).`
      : "";
  if (report.drift) {
    const fields = s.fieldsDrifted > 0 ? `, ${s.fieldsDrifted} with a field changed` : "";
    return `Drift: ${s.drifted} drifted, ${s.missing} missing${fields}, ${s.inSync} in sync, ${unknown} unknown of ${s.definitions} definition(s).${notChecked}`;
  }
  const stack = report.stack?.read === false ? report.stack : undefined;
  if (stack !== undefined) {
    return `Not all checked: the state of stack ${stack.name} could not be read (${safeLine(stack.reason ?? "unknown")}); ${s.unchecked} of ${s.definitions} definition(s) could not be checked, the others by their updates alone: ${s.inSync} in sync, ${unknown} unknown.`;
  }
  if (s.unchecked > 0) {
    return `Not all checked: ${s.unchecked} of ${s.definitions} definition(s) could not be checked; ${s.inSync} in sync, ${unknown} unknown.`;
  }
  return `No drift: ${s.inSync} in sync, ${unknown} unknown of ${s.definitions} definition(s).`;
}

function renderText(report: DriftReport): string {
  const lines: string[] = [];
  for (const d of report.definitions) {
    lines.push(
      `${stateLabel(d).padEnd(8)} ${safeLine(driftNamed(d))}  declared ${d.declaredStatus}, live ${safeLine(liveText(d))}  (${safeLine(d.file)}:${d.line})`,
    );
    for (const field of d.fields ?? []) lines.push(`         ${safeLine(fieldText(field))}`);
    if (d.checked === false && d.reason) lines.push(`         ${safeLine(d.reason)}`);
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
        driftNamed(d),
        stateLabel(d),
        d.declaredStatus,
        liveText(d),
        `${d.file}:${d.line}`,
        `${d.updatesOutsideGit.filter((u) => u.class === "drift").length} drift, ${d.updatesOutsideGit.filter((u) => u.class === "expected").length} expected`,
      ]),
    ),
  ];
  const noted = report.definitions.filter(
    (d) => (d.fields?.length ?? 0) > 0 || d.checked === false,
  );
  if (noted.length > 0) {
    parts.push(
      "",
      ...noted.map(
        (d) =>
          `- ${mdCell(driftNamed(d))}: ${mdText([...(d.fields ?? []).map(fieldText), ...(d.checked === false && d.reason ? [d.reason] : [])].join("; "))}`,
      ),
    );
  }
  for (const d of report.definitions.filter((x) => x.updatesOutsideGit.length)) {
    parts.push(
      `### ${mdCell(driftNamed(d))}: updates outside git`,
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
    if (d.checked === false) {
      lines.push(
        githubAnnotation({
          level: "error",
          ...where,
          title: `Not checked: ${driftNamed(d)}`,
          message: d.reason ?? "The incident could not be checked.",
        }),
      );
    } else if ((d.fields?.length ?? 0) > 0 && d.state === "in-sync") {
      lines.push(
        githubAnnotation({
          level: "error",
          ...where,
          title: `Drift: ${driftNamed(d)}`,
          message: `${(d.fields ?? []).map(fieldText).join("; ")}.`,
        }),
      );
    } else if (d.state === "drifted" || d.state === "missing") {
      const drifts = d.updatesOutsideGit.filter((u) => u.class === "drift");
      const latest = drifts[0];
      const detail = latest
        ? ` Latest out-of-band update: ${latest.at ?? ""} ${latest.status}: ${latest.description}`
        : "";
      lines.push(
        githubAnnotation({
          level: "error",
          ...where,
          title: `Drift: ${driftNamed(d)}`,
          message: `declared ${d.declaredStatus}, live ${liveText(d)}.${(d.fields ?? []).map((f) => ` ${fieldText(f)}.`).join("")}${detail}`,
        }),
      );
    } else if (d.state === "unknown") {
      lines.push(
        githubAnnotation({
          level: "warning",
          ...where,
          title: `Unknown live status: ${driftNamed(d)}`,
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
          title: `Activity: ${driftNamed(d)}`,
          message: `${expected} update(s) outside git match the declared status ${d.declaredStatus}.`,
        }),
      );
    }
  }
  lines.push(headline(report));
  return `${lines.join("\n")}\n`;
}
