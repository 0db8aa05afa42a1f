import { publishedAt } from "../../incident";
import { eventOrigin, placedEvents, stateName, stateWithMeaning } from "../heartbeats/state";
import type { IncidentReportIncident, TimelineEntry } from "./report-schema";

/**
 * Lines the incident's story up on one time axis, oldest first: every update, every
 * heartbeat state change in the window that has a readable timestamp, and when each error
 * group of the window was first and last seen (each only if it falls in the window).
 */
export function buildTimeline(incident: Omit<IncidentReportIncident, "timeline">): TimelineEntry[] {
  const from = Date.parse(incident.window.from);
  const to = Date.parse(incident.window.to);
  const inWindow = (ms: number) => ms >= from && ms <= to;
  const entries: (TimelineEntry & { ms: number })[] = [];
  for (const update of incident.updates) {
    const ms = publishedAt(update);
    entries.push({
      ms,
      at: new Date(ms).toISOString(),
      kind: "update",
      source: incident.id,
      state: update.status ?? null,
      ref: update.id ?? null,
      text: update.description,
      notified: update.notifySubscribers === true,
    });
  }
  // An event without a readable timestamp has no place on the axis: it is left out here,
  // and the heartbeat's warnings count it.
  for (const heartbeat of incident.heartbeats) {
    for (const { at: ms, event } of placedEvents(heartbeat.events)) {
      entries.push({
        ms,
        at: new Date(ms).toISOString(),
        kind: "heartbeat",
        source: heartbeat.checkId,
        state: stateName(event.state),
        ref: event.id,
        text: `${stateWithMeaning(event.state)}${eventOrigin(event)}`,
      });
    }
  }
  for (const check of incident.checks) {
    for (const group of check.groups) {
      const state = group.newDuringIncident ? "new" : "earlier";
      const first = Date.parse(group.firstSeen);
      const last = Date.parse(group.lastSeen);
      if (inWindow(first)) {
        entries.push({
          ms: first,
          at: new Date(first).toISOString(),
          kind: "error-group-first-seen",
          source: check.checkId,
          state,
          ref: group.id,
          text: group.cleanedErrorMessage,
        });
      }
      if (last !== first && inWindow(last)) {
        entries.push({
          ms: last,
          at: new Date(last).toISOString(),
          kind: "error-group-last-seen",
          source: check.checkId,
          state,
          ref: group.id,
          text: group.cleanedErrorMessage,
        });
      }
    }
  }
  // Stable for equal times: updates, then heartbeats, then groups, as pushed.
  return entries
    .map((entry, order) => ({ entry, order }))
    .sort((a, b) => a.entry.ms - b.entry.ms || a.order - b.order)
    .map(({ entry: { ms: _ms, ...entry } }) => entry);
}
