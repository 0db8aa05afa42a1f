import { formatLocation } from "../definitions/problem";
import { codeSpan, htmlCode, mdCell, mdCode, mdText } from "../markdown";
import {
  type ChangeRow,
  changeNamed,
  countsSentence,
  definitionRows,
  entryHeading,
  findingNamed,
  findingsSentence,
  removeOutcome,
  shownLines,
  stackEffectLine,
  updateRows,
} from "./describe";
import type { EntryChange, IncidentChange, Plan } from "./types";

/** Marks the comment so sticky-comment actions find and replace it on the next push. */
export const PLAN_COMMENT_MARKER = "<!-- incident-sync-plan -->";

const KIND_LABEL: Record<IncidentChange["kind"], string> = {
  add: "➕ add",
  update: "✏️ update",
  remove: "➖ remove",
};

/**
 * The plan as a pull-request comment: a one-line verdict and counts first, then the
 * policy findings, an overview table and one table per changed incident.
 */
export function renderPlanMarkdown(plan: Plan): string {
  const lines: string[] = [
    PLAN_COMMENT_MARKER,
    `### incident-sync plan: ${countsSentence(plan)}`,
    "",
  ];
  lines.push(verdictLine(plan), "");
  lines.push(
    `Compared ${code(`${plan.dir}/`)}${plan.stack === undefined ? "" : ` for stack ${code(plan.stack)}`} at ${code(plan.base.ref)} (${code(plan.base.commit.slice(0, 12))}) with this branch; ${plan.summary.unchanged} unchanged.`,
  );

  if (plan.findings.length > 0) {
    lines.push("", "#### Policy", "", "| Level | Incident | Rule | Finding |", "|---|---|---|---|");
    for (const finding of plan.findings) {
      const at = finding.line === undefined ? "" : `${cellCode(formatLocation(finding))}: `;
      lines.push(
        `| ${finding.level === "error" ? "❌ error" : "⚠️ warning"} | ${cell(findingNamed(finding))} | ${cellCode(finding.rule)} | ${at}${cell(finding.message)} |`,
      );
    }
  }

  if (plan.changes.length > 0) {
    lines.push("", "#### Changes", "", "| Change | Incident | File |", "|---|---|---|");
    for (const change of plan.changes) {
      lines.push(
        `| ${KIND_LABEL[change.kind]}${change.kind === "update" && change.replace ? " (replace)" : ""} | ${cell(changeNamed(change))} | ${cellCode(change.file)} |`,
      );
    }
    for (const change of plan.changes) lines.push("", ...changeDetails(change));
  }

  if (plan.baseProblems.length > 0) {
    lines.push(
      "",
      // The summary is raw HTML, where Markdown escapes and code spans do not work.
      `<details><summary>${plan.baseProblems.length} problem(s) in the definitions at ${htmlCode(plan.base.ref)}; those definitions were left out of the comparison</summary>`,
      "",
      ...plan.baseProblems.map(
        (problem) => `- ${code(formatLocation(problem))} ${cell(problem.message)}`,
      ),
      "",
      "</details>",
    );
  }
  return `${lines.join("\n")}\n`;
}

function verdictLine(plan: Plan): string {
  switch (plan.verdict) {
    case "policy-violated":
      return `❌ **Policy violated**: ${findingsSentence(plan)}. Fix the errors below before merging.`;
    case "changes":
      return plan.summary.warnings > 0
        ? `✅ **Policy passed** with ${findingsSentence(plan)} for reviewers.`
        : "✅ **Policy passed.**";
    default:
      return "✅ **No changes** to incidents.";
  }
}

function changeDetails(change: IncidentChange): string[] {
  const title = `##### ${KIND_LABEL[change.kind]} ${mdText(changeNamed(change))}`;
  if (change.kind === "remove") {
    return [
      title,
      "",
      change.redeclaredBy === undefined
        ? `${cell(capitalize(removeOutcome(change)))} (\`onRemove: ${change.onRemove}\`).`
        : `${cell(capitalize(removeOutcome(change)))}.`,
    ];
  }
  if (change.kind === "add") {
    return [
      title,
      "",
      "| Field | Value |",
      "|---|---|",
      ...definitionRows(change.after).map((row) => `| ${row.field} | ${cell(row.after)} |`),
      ...entryBlocks(change.entries),
    ];
  }
  const rows = updateRows(change);
  return [
    title,
    ...(rows.length === 0
      ? []
      : [
          "",
          "| Field | Before | After |",
          "|---|---|---|",
          ...rows.map(
            (row: ChangeRow) =>
              `| ${row.field}${mark(row)} | ${cell(row.before)} | ${cell(row.after)} |`,
          ),
        ]),
    ...((change.stacks ?? []).length === 0
      ? []
      : [
          "",
          "Stack by stack:",
          "",
          ...(change.stacks ?? []).map((effect) => `- ${cell(stackEffectLine(effect))}`),
        ]),
    ...entryBlocks(change.entries),
  ];
}

/**
 * What customers will read: each entry posted or changed, its message quoted as written
 * (inert: nothing in it becomes a link, a mention or markup), an edit with its old text too.
 */
function entryBlocks(entries: readonly EntryChange[]): string[] {
  const quote = (text: string) => shownLines(text).map((line) => `> ${mdText(line)}`);
  return entries.flatMap((entry) => [
    "",
    `${entry.kind === "post" && entry.notify ? "🔔 " : ""}**${mdText(entryHeading(entry))}**`,
    "",
    ...(entry.before === undefined
      ? quote(entry.message)
      : ["Before:", "", ...quote(entry.before), "", "After:", "", ...quote(entry.message)]),
  ]);
}

/**
 * `+` for an item added or a field set, `−` for one removed or unset: an empty cell alone
 * reads as a list that became empty.
 */
function mark(row: ChangeRow): string {
  if (row.before === undefined && row.after !== undefined) return " (+)";
  if (row.after === undefined && row.before !== undefined) return " (−)";
  return "";
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Text from a definition in a table cell or a line: shown as written, nothing live. */
function cell(text: string | undefined): string {
  return text === undefined ? "" : mdCell(text);
}

/** An id, a file or a ref as code that nothing in it can break out of. */
function code(text: string): string {
  return codeSpan(text);
}

/** The same in a table cell. */
function cellCode(text: string): string {
  return mdCell(mdCode(text));
}
