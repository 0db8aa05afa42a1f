import { formatLocation } from "../definitions/problem";
import { safeLine } from "../safe-text";
import {
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
import type { EntryChange, Plan } from "./types";

/**
 * The plan for a terminal: one block per change, `+` add, `~` update, `-` remove. Every text
 * from a definition (a name, a multi-line reason, a file name) is one line made safe for a
 * terminal or a CI log (`safeLine`): its line breaks and escape sequences show as escapes.
 */
export function renderPlanText(plan: Plan): string {
  const lines = [
    `Plan for ${safeLine(plan.dir)}/${plan.stack === undefined ? "" : ` (stack ${safeLine(plan.stack)})`} against ${safeLine(plan.base.ref)} (${plan.base.commit.slice(0, 12)}): ${countsSentence(plan)}, ${plan.summary.unchanged} unchanged.`,
  ];
  for (const change of plan.changes) {
    const where = `in ${safeLine(change.file)}`;
    const id = safeLine(changeNamed(change));
    lines.push("");
    if (change.kind === "add") {
      lines.push(`+ ${id} ${where}`);
      for (const row of definitionRows(change.after))
        lines.push(`    ${safeLine(row.field)}: ${safeLine(row.after ?? "")}`);
      lines.push(...entryLines(change.entries));
    } else if (change.kind === "remove") {
      lines.push(`- ${id} ${where}`, `    ${safeLine(removeOutcome(change))}`);
    } else {
      lines.push(`~ ${id} ${where}${change.replace ? " [replace]" : ""}`);
      for (const row of updateRows(change)) {
        const field = safeLine(row.field);
        if (row.before !== undefined && row.after !== undefined) {
          lines.push(`    ${field}: ${safeLine(row.before)} → ${safeLine(row.after)}`);
        } else if (row.after !== undefined) {
          lines.push(`    ${field}: + ${safeLine(row.after)}`);
        } else {
          lines.push(`    ${field}: - ${safeLine(row.before ?? "")}`);
        }
      }
      for (const effect of change.stacks ?? []) {
        lines.push(`    on ${safeLine(stackEffectLine(effect))}`);
      }
      lines.push(...entryLines(change.entries));
    }
  }
  lines.push("");
  const verdict = plan.verdict === "policy-violated" ? "violated" : "passed";
  lines.push(`Policy ${verdict}: ${findingsSentence(plan)}.`);
  for (const finding of plan.findings) {
    const at = finding.line === undefined ? "" : `${formatLocation(finding)}: `;
    lines.push(
      `  ${finding.level.padEnd(7)} ${safeLine(findingNamed(finding))} [${finding.rule}] ${safeLine(at + finding.message)}`,
    );
  }
  if (plan.baseProblems.length > 0) {
    lines.push(
      "",
      `${plan.baseProblems.length} problem(s) at ${safeLine(plan.base.ref)}; those definitions were left out:`,
    );
    for (const problem of plan.baseProblems)
      lines.push(`  ${safeLine(`${formatLocation(problem)} ${problem.message}`)}`);
  }
  return `${lines.join("\n")}\n`;
}

/**
 * The entries posted or changed, each message as customers will read it, line by line behind
 * a bar (so no line of it starts a line of the plan, nor a CI log's command).
 */
function entryLines(entries: readonly EntryChange[]): string[] {
  const quoted = (text: string) => shownLines(text).map((line) => `      | ${safeLine(line)}`);
  return entries.flatMap((entry) => [
    `    ${safeLine(entryHeading(entry))}`,
    ...(entry.before === undefined ? [] : ["      was:", ...quoted(entry.before), "      now:"]),
    ...quoted(entry.message),
  ]);
}
