import type { IncidentUpdate } from "../api/schemas";

/**
 * The longest text of the server's that the stack keeps, in characters: every checkpoint
 * rewrites the whole state, and stack outputs are printed after every run, so one update's
 * 50 MB description must not become a 50 MB state. Longer text is cut, marked with how much
 * was left out; the status page keeps the whole.
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
