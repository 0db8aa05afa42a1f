import { quoteText } from "../api/schemas";
import { closestMatch } from "../suggest";

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
