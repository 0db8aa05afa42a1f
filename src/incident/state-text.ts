import type { IncidentUpdate } from "../api/schemas";

/**
 * The longest server text the stack keeps, in characters: state and outputs are rewritten and
 * printed every run, so a huge description is cut (saying how much); the page keeps it whole.
 */
export const STATE_TEXT_LIMIT = 2_000;

/** An update as the stack keeps it: its description cut to `STATE_TEXT_LIMIT`. */
export function updateForState(update: IncidentUpdate): IncidentUpdate {
  const { description } = update;
  if (description.length <= STATE_TEXT_LIMIT) return update;
  return {
    ...update,
    description: `${description.slice(0, STATE_TEXT_LIMIT)}… [${description.length - STATE_TEXT_LIMIT} more characters on the status page]`,
  };
}

/** The updates whose description the stack cannot keep whole. */
export function updatesCutForState(updates: readonly IncidentUpdate[]): IncidentUpdate[] {
  return updates.filter((update) => update.description.length > STATE_TEXT_LIMIT);
}
