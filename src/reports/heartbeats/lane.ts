import { formatDuration, type Lane, stateSegments } from "../html/chart-data";
import type { HeartbeatReportCheck } from "./report-schema";

/** `2026-11-01 10:12:31 UTC`, as the page's axes and tables show times. */
export function utcText(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/**
 * One heartbeat as a chart lane over `[from, to]`: bands by state (from the last event
 * before the window on, grey while unknown) and one mark per state change.
 */
export function heartbeatLane(check: HeartbeatReportCheck, from: number, to: number): Lane {
  const changes = check.events.map((e) => ({ at: Date.parse(e.timestamp), state: e.state }));
  const before = check.lastEventBefore?.state;
  return {
    label: check.checkId,
    segments: stateSegments(changes, from, to, before),
    marks: check.events.map((e) => ({
      at: Date.parse(e.timestamp),
      key: e.state,
      label: `${utcText(Date.parse(e.timestamp))}: ${e.state} (${e.source}, ${e.userAgent})`,
    })),
  };
}

/** Share of the window's time spent in each known state, e.g. `{ PASSING: 0.85 }`. */
export function timeInState(lane: Lane): Record<string, number> {
  const total = lane.segments.reduce((n, s) => n + (s.to - s.from), 0);
  const shares: Record<string, number> = {};
  if (total <= 0) return shares;
  for (const s of lane.segments) shares[s.state] = (shares[s.state] ?? 0) + (s.to - s.from) / total;
  return shares;
}

/** `PASSING 85.0 %, FAILING 15.0 %` over the window, or a note that nothing is known. */
export function timeInStateText(lane: Lane): string {
  const shares = Object.entries(timeInState(lane)).sort((a, b) => b[1] - a[1]);
  if (shares.length === 0) return "no time in the window";
  return shares.map(([state, share]) => `${state} ${(share * 100).toFixed(1)} %`).join(", ");
}

/** The state at `to` and since when (the event that set it, even before the window). */
export function currentState(check: HeartbeatReportCheck, to: number): string {
  const last = check.events.at(-1) ?? check.lastEventBefore;
  if (!last) return "state unknown";
  const since = Date.parse(last.timestamp);
  return `${last.state} since ${utcText(since)} (${formatDuration(to - since)})`;
}
