import { formatLocation } from "../definitions/problem";
import {
  countsSentence,
  definitionRows,
  entryHeading,
  findingsSentence,
  removeOutcome,
  updateRows,
} from "./describe";
import type { EntryChange, Plan } from "./types";

/** The plan for a terminal: one block per change, `+` add, `~` update, `-` remove. */
export function renderPlanText(plan: Plan): string {
  const lines = [
    `Plan for ${plan.dir}/${plan.stack === undefined ? "" : ` (stack ${plan.stack})`} against ${plan.base.ref} (${plan.base.commit.slice(0, 12)}): ${countsSentence(plan)}, ${plan.summary.unchanged} unchanged.`,
  ];
  for (const change of plan.changes) {
    const where = `(resource ${change.resource}, ${change.file})`;
    lines.push("");
    if (change.kind === "add") {
      lines.push(`+ ${change.incidentId} ${where}`);
      for (const row of definitionRows(change.after))
        lines.push(`    ${row.field}: ${row.after ?? ""}`);
      lines.push(...entryLines(change.entries));
    } else if (change.kind === "remove") {
      lines.push(`- ${change.incidentId} ${where}`, `    ${removeOutcome(change)}`);
    } else {
      lines.push(`~ ${change.incidentId} ${where}${change.replace ? " [replace]" : ""}`);
      for (const row of updateRows(change)) {
        if (row.before !== undefined && row.after !== undefined) {
          lines.push(`    ${row.field}: ${row.before} → ${row.after}`);
        } else if (row.after !== undefined) {
          lines.push(`    ${row.field}: + ${row.after}`);
        } else {
          lines.push(`    ${row.field}: - ${row.before ?? ""}`);
        }
      }
      lines.push(...entryLines(change.entries));
    }
  }
  lines.push("");
  const verdict = plan.verdict === "policy-violated" ? "violated" : "passed";
  lines.push(`Policy ${verdict}: ${findingsSentence(plan)}.`);
  for (const finding of plan.findings) {
    lines.push(
      `  ${finding.level.padEnd(7)} ${finding.incidentId} [${finding.rule}] ${finding.message}`,
    );
  }
  if (plan.baseProblems.length > 0) {
    lines.push(
      "",
      `${plan.baseProblems.length} problem(s) at ${plan.base.ref}; those definitions were left out:`,
    );
    for (const problem of plan.baseProblems)
      lines.push(`  ${formatLocation(problem)} ${problem.message}`);
  }
  return `${lines.join("\n")}\n`;
}

/**
 * The entries posted or changed, each message as customers will read it, line by line behind
 * a bar (so no line of it starts a line of the plan, nor a CI log's command).
 */
function entryLines(entries: readonly EntryChange[]): string[] {
  const quoted = (text: string) => text.split("\n").map((line) => `      | ${line}`);
  return entries.flatMap((entry) => [
    `    ${entryHeading(entry)}`,
    ...(entry.before === undefined ? [] : ["      was:", ...quoted(entry.before), "      now:"]),
    ...quoted(entry.message),
  ]);
}
