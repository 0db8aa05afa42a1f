import { quoteText } from "../api/schemas";
import { closestMatch } from "../suggest";
import type { Position } from "./position";
import type { DefinitionProblem } from "./problem";

/*
 * What a YAML document declares: its `kind`. A document without one is an incident, as every
 * definition was before maintenance windows, so no existing file changes meaning.
 */

/** The kinds a document may declare. */
export const KINDS = ["incident", "maintenance"] as const;
export type Kind = (typeof KINDS)[number];

/** A document's kind, or why its `kind` is none of them. */
export function definitionKind(value: unknown): Kind | { readonly problem: string } {
  if (typeof value !== "object" || value === null || !("kind" in value)) return "incident";
  const kind: unknown = (value as { kind: unknown }).kind;
  if (kind === "incident" || kind === "maintenance") return kind;
  const suggestion = typeof kind === "string" ? closestMatch(kind, KINDS) : undefined;
  const shown = typeof kind === "string" ? quoteText(kind) : (JSON.stringify(kind) ?? String(kind));
  return {
    problem: `kind ${shown} is not a kind of definition; use ${KINDS.join(" or ")} (left out, incident)${suggestion ? `: did you mean ${suggestion}?` : ""}`,
  };
}

/** Whether a document declares a maintenance window. */
export function isMaintenance(value: unknown): boolean {
  return definitionKind(value) === "maintenance";
}

/**
 * Maintenance windows are checked, but no run applies them yet (issue 50): a run that would
 * leave one out refuses to start, at each window's file and line, so that nothing a
 * definition declares is skipped unseen. `validate` and `plan` show the same sentence.
 */
export const MAINTENANCE_NOT_APPLIED =
  "maintenance windows (kind: maintenance) are checked by validate, but up, preview, refresh and plan do not take them yet: keep this file out of the definitions directory until they do";

/** One problem per maintenance window, for the runs that cannot apply them yet. */
export function unappliedMaintenance(
  maintenance: readonly { readonly file: string; readonly at: Position }[],
): DefinitionProblem[] {
  return maintenance.map((window) => ({
    file: window.file,
    line: window.at.line,
    column: window.at.column,
    code: "maintenance-not-applied",
    message: MAINTENANCE_NOT_APPLIED,
  }));
}
