import { relative } from "node:path";
import { stripVTControlCharacters } from "node:util";
import type { OpType } from "@pulumi/pulumi/automation";
import { formatProblem } from "../definitions";
import { incidentNamed, isPageChangeRefusal, type PageChanges, pageChangesText } from "../incident";
import { codeSpan, mdCell } from "../markdown";
import { formatSummary } from "../program/summary";
import { safeLine, safeStrings } from "../safe-text";
import type { IncidentStep } from "./engine-events";
import type { OperationOutcome } from "./run-operation";

/** Exit codes of `up`, `preview` and `refresh`, aligned with the rest of the CLI. */
export const RunExit = {
  /** Done; for `preview`, nothing would change. */
  ok: 0,
  /** Invalid definitions, an engine or API failure, a refused reopen. */
  failure: 1,
  /** `preview`: changes would be applied; `refresh`: the state changed (drift). */
  changes: 2,
  /** Refused by policy alone: each failed incident a change on the status page under `refuse`. */
  policy: 3,
} as const;

/** The exit code of an outcome. */
export function exitCodeOf(outcome: OperationOutcome): number {
  if (outcome.kind === "invalid-definitions") return RunExit.failure;
  const { result } = outcome;
  if (!result.ok) return refusedByPolicy(outcome) ? RunExit.policy : RunExit.failure;
  return result.operation !== "up" && result.changed ? RunExit.changes : RunExit.ok;
}

/**
 * Whether the run failed only because `onPageChange: refuse` kept changes made on the status
 * page: every failed incident failed with that refusal (not another the apply found first),
 * and no other error was reported.
 */
function refusedByPolicy(outcome: Extract<OperationOutcome, { kind: "ran" }>): boolean {
  const { result } = outcome;
  const failed = result.incidents.filter((step) => step.error !== undefined);
  return (
    outcome.onPageChange === "refuse" &&
    failed.length > 0 &&
    failed.every((step) => step.pageChanges !== undefined && isPageChangeRefusal(step.error)) &&
    !result.diagnostics.some((diagnostic) => diagnostic.severity === "error")
  );
}

/**
 * What a step puts back of a change made on the status page, for the line under its own:
 * `put back name "A" → "B" (changed on the status page at …)`; nothing for a failed step,
 * whose error says what was kept.
 */
function putBackText(pageChanges: PageChanges | undefined | null, preview: boolean): string {
  if (!pageChanges) return "";
  return `${preview ? "to put back" : "put back"} ${pageChangesText(pageChanges)}`;
}

/** What a failed step did not do, in the words of the status page. */
const NOT_DONE: Partial<Record<OpType, string>> = {
  create: "not adopted",
  update: "not updated",
  replace: "not replaced",
  "create-replacement": "not adopted (replacement)",
  "delete-replaced": "not released (replaced)",
  delete: "not released",
};

/**
 * What an engine step means for an incident, in the words of the status page; a step that
 * failed says what was not done (`not adopted`), never what it meant to do.
 */
export function stepLabel(step: IncidentStep, preview: boolean): string {
  // A step that failed did not do what its operation names: say what was not done.
  if (step.error !== undefined) {
    if (preview) return `cannot ${verbOf(step)}`;
    if (step.op === "delete" && step.onRemove === "resolve") return "not resolved";
    // Opened, whatever failed after: the state kept it, and customers may have read it.
    if (opensNow(step)) return step.keptIncidentId === undefined ? "not opened" : "opened";
    const notDone = NOT_DONE[step.op];
    if (notDone !== undefined) return notDone;
    return `not ${verbOf(step)}`;
  }
  const would = (done: string, planned: string) => (preview ? planned : done);
  const labels: Partial<Record<OpType, string>> = {
    create: opens(step) ? would("opened", "to open") : would("adopted", "to adopt"),
    update: opensNow(step) ? would("opened", "to open") : would("updated", "to update"),
    replace: would("replaced", "to replace"),
    "create-replacement": would("adopted (replacement)", "to adopt (replacement)"),
    "delete-replaced": would("released (replaced)", "to release (replaced)"),
    delete:
      step.onRemove === "resolve"
        ? would("resolved and released", "to resolve and release")
        : would("released", "to release"),
    same: "unchanged",
    read: "read",
    refresh: "refreshed",
  };
  return labels[step.op] ?? step.op;
}

/** Whether the step creates a new incident: its definition names a resource and no id. */
function opens(step: IncidentStep): boolean {
  return typeof step.inputs?.resource === "string" && step.inputs.incidentId === undefined;
}

/**
 * Whether the step opens a new incident: a create of one, or the apply of one that
 * `incident-sync up`'s claim recorded before it was opened (an update of a record with no id).
 */
function opensNow(step: IncidentStep): boolean {
  if (!opens(step)) return false;
  if (step.op === "create") return true;
  return step.op === "update" && step.previous?.incidentId === "";
}

/** What a step sets out to do, as a verb: `adopt`, `open`, `update`, `resolve and release`. */
function verbOf(step: IncidentStep): string {
  const verbs: Partial<Record<OpType, string>> = {
    create: opens(step) ? "open" : "adopt",
    update: opensNow(step) ? "open" : "update",
    replace: "replace",
    "create-replacement": "adopt (replacement)",
    "delete-replaced": "release (replaced)",
    delete: step.onRemove === "resolve" ? "resolve and release" : "release",
    read: "read",
    refresh: "refresh",
  };
  return verbs[step.op] ?? "apply";
}

const SYMBOLS: Partial<Record<OpType, string>> = {
  create: "+",
  update: "~",
  replace: "+-",
  "create-replacement": "+",
  "delete-replaced": "-",
  delete: "-",
};

/** Inputs that follow the status page or the release, not what git declares. */
const NOT_FROM_GIT = new Set(["observed", "candidates", "providerVersion"]);

/**
 * The engine's input keys that changed, in a person's words, each once. The observation also
 * differs after this tool's own last apply, so it is named as the cause only when nothing
 * that git declares changed.
 */
function changeWords(keys: readonly string[]): string[] {
  const fromGit = keys.some((key) => !NOT_FROM_GIT.has(key));
  const words = keys.flatMap((key) =>
    key === "observed" || key === "candidates"
      ? fromGit
        ? []
        : ["changed on the status page"]
      : key === "providerVersion"
        ? ["new incident-sync release"]
        : key === "updates"
          ? ["updates to post or change"]
          : [key],
  );
  return [...new Set(words)];
}

/** `[name, changed on the status page]` after a step's line. */
function diffText(step: IncidentStep): string {
  if (step.diffs.length === 0) return "";
  return ` [${changeWords(step.diffs).join(", ")}]`;
}

function counts(steps: readonly IncidentStep[], preview: boolean): string {
  const byLabel = new Map<string, number>();
  for (const step of steps)
    byLabel.set(stepLabel(step, preview), (byLabel.get(stepLabel(step, preview)) ?? 0) + 1);
  // In the order of the labels, not of the engine's steps, which differs from run to run.
  return (
    [...byLabel]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([label, count]) => `${count} ${label}`)
      .join(", ") || "no incidents"
  );
}

/**
 * The incident's name as git declares it, else as the last apply recorded it (a removal), else
 * as its definition names it (a step that failed before the engine reported its inputs).
 */
function declaredName(step: IncidentStep): string | undefined {
  const name = step.inputs?.name ?? step.previous?.name ?? step.definedName;
  return typeof name === "string" && name !== "" ? name : undefined;
}

/** `Elevated error rate (api-errors, inc-api-errors)`: as every line names an incident. */
function name(step: IncidentStep): string {
  return safeLine(
    incidentNamed({
      name: declaredName(step),
      resource: step.resource,
      incidentId: step.incidentId,
    }),
  );
}

/**
 * The result of a run for a person, the same with or without a terminal: the causes first,
 * one line per failed incident, then what changed, the summary, and the causes again last,
 * where a CI log is read.
 */
export function renderText(outcome: OperationOutcome, projectDir: string): string {
  if (outcome.kind === "invalid-definitions") {
    const dir = relative(projectDir, outcome.dir) || outcome.dir;
    const lines = outcome.problems.map(
      (problem) =>
        `  ${formatProblem({ ...problem, file: relative(projectDir, problem.file) || problem.file })}`,
    );
    const count =
      outcome.problems.length === 1 ? "a problem" : `${outcome.problems.length} problems`;
    // validate knows the stack files, not a backend's stacks, which only the engine lists.
    const found =
      outcome.against !== undefined
        ? `have ${count} against ${outcome.against}, so nothing was run`
        : outcome.problems.some((problem) => problem.code === "unknown-stack")
          ? `have ${count}, so nothing was run (nothing was released or resolved)`
          : `have ${count}, so nothing was run (incident-sync validate shows the same)`;
    return `The definitions in ${dir} ${found}:\n${lines.join("\n")}\n`;
  }
  const { result, stackName } = outcome;
  const preview = result.operation === "preview";
  const failures = failureLines(outcome);
  const seconds = (result.durationMs / 1000).toFixed(1);
  const verdict = !result.ok
    ? `${result.operation} failed`
    : preview
      ? result.changed
        ? "changes to apply"
        : "no changes"
      : result.changed
        ? "changes applied"
        : "no changes";
  const lines: string[] = [];
  if (failures.length > 0) lines.push(...failures, "");
  lines.push(
    `Stack ${safeLine(stackName)}: ${verdict} (${counts(result.incidents, preview)}; ${seconds} s)`,
  );
  for (const step of result.incidents) {
    if (step.op === "same" || step.op === "read") continue;
    const symbol = step.error ? "✗" : opensNow(step) ? "+" : (SYMBOLS[step.op] ?? " ");
    lines.push(`  ${symbol} ${name(step)} ${stepLabel(step, preview)}${diffText(step)}`);
    const putBack = step.error === undefined ? putBackText(step.pageChanges, preview) : "";
    if (putBack) lines.push(`      ${safeLine(putBack)}`);
  }
  for (const step of result.incidents) {
    for (const warning of step.warnings)
      lines.push(`  warning: ${name(step)}: ${oneLine(warning)}`);
  }
  for (const diagnostic of result.diagnostics) {
    if (diagnostic.severity === "warning") lines.push(`  warning: ${oneLine(diagnostic.message)}`);
  }
  // The outputs hold the server's text (update descriptions, error messages): every string
  // is made one safe line before the summary lays them out.
  if (outcome.outputs && result.ok) {
    const run = { stack: safeLine(stackName), sandbox: outcome.sandbox === true };
    lines.push("", formatSummary(safeStrings(outcome.outputs), 1, run));
  }
  if (failures.length > 0) {
    // The engine's own last lines only when no incident or diagnostic names the cause: after
    // a failed incident they are the outputs' diff, which says nothing about it.
    const detail = namedCauses(result) ? "" : engineDetail(result.stdout, result.stderr);
    if (detail) lines.push("", "Engine output (end):", detail);
    lines.push("", ...failures);
  }
  return `${lines.join("\n")}\n`;
}

/** One line per cause: each failed incident, then errors not tied to one. */
export function failureLines(outcome: OperationOutcome): string[] {
  if (outcome.kind !== "ran" || outcome.result.ok) return [];
  const { result } = outcome;
  const lines = result.incidents
    .filter((step) => step.error !== undefined)
    .map((step) => `✗ ${name(step)}: ${oneLine(step.error ?? "")}`);
  for (const diagnostic of result.diagnostics) {
    if (diagnostic.severity === "error") lines.push(`✗ ${oneLine(diagnostic.message)}`);
  }
  if (lines.length === 0) {
    lines.push(
      `✗ ${oneLine(result.stderr.trim() || `pulumi ${result.operation} exited ${result.exitCode}`)}`,
    );
  }
  return lines;
}

/** Whether the run's failure is named by a failed incident or an error diagnostic. */
function namedCauses(result: {
  incidents: readonly IncidentStep[];
  diagnostics: readonly { severity: string }[];
}): boolean {
  return (
    result.incidents.some((step) => step.error !== undefined) ||
    result.diagnostics.some((diagnostic) => diagnostic.severity === "error")
  );
}

/** A message as one line, its line breaks as ⏎, made safe for a terminal or a CI log. */
function oneLine(text: string): string {
  return safeLine(text.replace(/\s*\n\s*/g, " ⏎ ").trim());
}

function engineDetail(stdout: string, stderr: string): string {
  const tail = `${stdout}\n${stderr}`
    .split("\n")
    .filter((line) => line.trim() !== "")
    .slice(-30);
  // The engine's own colours go; anything else hidden in its lines shows as an escape.
  return tail.map((line) => `  ${safeLine(stripVTControlCharacters(line))}`).join("\n");
}

/** The machine form of a run (`--format json`): one document, complete or an error. */
export interface RunReport {
  kind: "incident-sync-run";
  version: 1;
  operation: "up" | "preview" | "refresh";
  stack: string | null;
  ok: boolean;
  changed: boolean;
  exitCode: number;
  durationMs: number | null;
  incidents: {
    resource: string;
    incidentId: string | null;
    /** The incident's name as git declares it (as the last apply recorded it, for a removal). */
    name: string | null;
    op: string;
    action: string;
    changes: string[];
    /** Fields changed on the status page that the step puts back (or was refused for). */
    pageChanges: PageChanges | null;
    error: string | null;
    warnings: string[];
  }[];
  /** Errors and warnings not tied to one incident; definition problems as `validate` prints them. */
  errors: string[];
  warnings: string[];
  /** After an `up`: the stack outputs (secret ones as "[secret]"). */
  outputs: Record<string, unknown> | null;
}

/** The run as one JSON document. */
export function renderJson(outcome: OperationOutcome, projectDir: string): string {
  return `${JSON.stringify(reportOf(outcome, projectDir), null, 2)}\n`;
}

export function reportOf(outcome: OperationOutcome, projectDir: string): RunReport {
  if (outcome.kind === "invalid-definitions") {
    return {
      kind: "incident-sync-run",
      version: 1,
      operation: outcome.operation,
      stack: null,
      ok: false,
      changed: false,
      exitCode: RunExit.failure,
      durationMs: null,
      incidents: [],
      errors: outcome.problems.map((problem) =>
        formatProblem({ ...problem, file: relative(projectDir, problem.file) || problem.file }),
      ),
      warnings: [],
      outputs: null,
    };
  }
  const { result } = outcome;
  const preview = result.operation === "preview";
  return {
    kind: "incident-sync-run",
    version: 1,
    operation: result.operation === "destroy" ? "up" : result.operation,
    stack: outcome.stackName,
    ok: result.ok,
    changed: result.changed,
    exitCode: exitCodeOf(outcome),
    durationMs: result.durationMs,
    incidents: result.incidents.map((step) => ({
      resource: step.resource,
      incidentId: step.incidentId ?? null,
      name: declaredName(step) ?? null,
      op: step.op,
      action: stepLabel(step, preview),
      changes: step.diffs,
      pageChanges: step.pageChanges ?? null,
      error: step.error ?? null,
      warnings: step.warnings,
    })),
    errors: failureLines(outcome)
      .filter((line) => !result.incidents.some((step) => step.error && line.includes(step.error)))
      .map((line) => line.replace(/^✗ /, "")),
    warnings: result.diagnostics.filter((d) => d.severity === "warning").map((d) => d.message),
    outputs: outcome.outputs
      ? Object.fromEntries(
          Object.entries(outcome.outputs).map(([key, output]) => [key, output.value]),
        )
      : null,
  };
}

/** The Markdown table's "Changed": the changes' words, then what the step puts back. */
function changedCell(incident: RunReport["incidents"][number], preview: boolean): string {
  const words = changeWords(incident.changes).join(", ");
  const putBack = incident.error === null ? putBackText(incident.pageChanges, preview) : "";
  return [words, putBack].filter((text) => text !== "").join("; ");
}

/** The run as a pull-request comment. */
export function renderMarkdown(outcome: OperationOutcome, projectDir: string): string {
  const report = reportOf(outcome, projectDir);
  const title =
    outcome.kind === "invalid-definitions"
      ? "the definitions are not valid; nothing was run"
      : !report.ok
        ? `${report.operation} failed`
        : report.changed
          ? report.operation === "preview"
            ? "changes to apply"
            : "changes applied"
          : "no changes";
  const cell = mdCell;
  const lines = [
    "<!-- incident-sync-run -->",
    `### incident-sync ${report.operation}${report.stack ? ` on stack ${codeSpan(report.stack)}` : ""}: ${title}`,
    "",
  ];
  const failed = report.incidents.filter((incident) => incident.error);
  if (failed.length + report.errors.length > 0) {
    lines.push("**Failures**", "");
    for (const incident of failed)
      lines.push(`- ❌ ${cell(incidentNamed(incident))}: ${cell(incident.error ?? "")}`);
    for (const error of report.errors) lines.push(`- ❌ ${cell(error)}`);
    lines.push("");
  }
  const changed = report.incidents.filter(
    (incident) => incident.op !== "same" && incident.op !== "read",
  );
  if (changed.length > 0) {
    lines.push("| Incident | Action | Changed |", "| --- | --- | --- |");
    for (const incident of changed) {
      lines.push(
        `| ${mdCell(incidentNamed(incident))} | ${incident.action} | ${cell(changedCell(incident, report.operation === "preview"))} |`,
      );
    }
    lines.push("");
  }
  const unchanged = report.incidents.length - changed.length;
  if (unchanged > 0) lines.push(`${unchanged} incident(s) unchanged.`, "");
  for (const warning of report.warnings) lines.push(`> ⚠️ ${cell(warning)}`, "");
  return `${lines.join("\n")}\n`;
}
