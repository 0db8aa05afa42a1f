import { type HeartbeatEvent, heartbeatEventTime, heartbeatStateClass } from "../../api/schemas";
import { plural } from "../../plural";
import { NO_STATE } from "./state";

/** Unknown states named in a warning; the rest are counted. */
const NAMES_SHOWN = 5;

/**
 * What a reader should know about odd values among a heartbeat's events. Each degrades one
 * event (left off the time axis, or counted as unknown) and never the report.
 */
export function eventWarnings(events: readonly HeartbeatEvent[]): string[] {
  const warnings: string[] = [];
  const unplaced = events.filter((e) => heartbeatEventTime(e) === undefined).length;
  if (unplaced > 0) {
    warnings.push(
      `${plural(unplaced, "event has", "events have")} no readable timestamp: listed, but left off the chart and the timeline`,
    );
  }
  const unknown = events.filter((e) => heartbeatStateClass(e.state) === "unknown");
  if (unknown.length > 0) {
    const names = [
      ...new Set(unknown.map((e) => (e.state == null ? NO_STATE : JSON.stringify(e.state)))),
    ];
    const more = names.length > NAMES_SHOWN ? `, and ${names.length - NAMES_SHOWN} more` : "";
    warnings.push(
      `${plural(unknown.length, "event has", "events have")} no state this version knows (${names.slice(0, NAMES_SHOWN).join(", ")}${more}): shown as sent and counted as unknown`,
    );
  }
  return warnings;
}
