import { esc } from "../shared/html";

/** The minimal event shape the timeline draws. */
export interface TimelineEvent {
  state: string;
  timestamp: string;
  source?: string;
}

const COLORS: Record<string, string> = { PASSING: "var(--ok)", FAILING: "var(--bad)" };

function colorOf(state: string): string {
  return COLORS[state] ?? "var(--other)";
}

/**
 * Inline SVG timeline of one heartbeat over a window: a band coloured by the state in
 * force (grey before the first event, whose prior state is unknown), and one
 * `circle.event` mark per state change.
 */
export function heartbeatTimeline(
  events: readonly TimelineEvent[],
  from: Date,
  to: Date,
  checkId: string,
): string {
  const width = 1000;
  const height = 90;
  const left = 16;
  const right = 16;
  const bandY = 28;
  const bandH = 22;
  const plotW = width - left - right;
  const start = from.getTime();
  const span = Math.max(1, to.getTime() - start);
  const xOf = (t: number) =>
    left + ((Math.min(Math.max(t, start), start + span) - start) / span) * plotW;
  const sorted = events
    .map((e) => ({ ...e, t: Date.parse(e.timestamp) }))
    .filter((e) => Number.isFinite(e.t))
    .sort((a, b) => a.t - b.t);
  const segments: string[] = [];
  let cursor = start;
  let state: string | undefined;
  for (const e of sorted) {
    segments.push(segment(cursor, e.t, state));
    cursor = e.t;
    state = e.state;
  }
  segments.push(segment(cursor, start + span, state));
  function segment(a: number, b: number, s: string | undefined): string {
    const x1 = xOf(a);
    const x2 = xOf(b);
    if (x2 - x1 <= 0) return "";
    const fill = s === undefined ? "var(--line)" : colorOf(s);
    return `<rect class="segment" data-state="${esc(s ?? "UNKNOWN")}" x="${x1.toFixed(2)}" y="${bandY}" width="${(x2 - x1).toFixed(2)}" height="${bandH}" fill="${fill}" opacity="0.35"/>`;
  }
  const marks = sorted
    .map(
      (e) =>
        `<circle class="event" data-state="${esc(e.state)}" cx="${xOf(e.t).toFixed(2)}" cy="${bandY + bandH / 2}" r="4" fill="${colorOf(e.state)}"><title>${esc(e.timestamp)} ${esc(e.state)}${e.source ? ` (${esc(e.source)})` : ""}</title></circle>`,
    )
    .join("");
  const labels = `<text x="${left}" y="${height - 12}">${esc(from.toISOString())}</text><text x="${width - right}" y="${height - 12}" text-anchor="end">${esc(to.toISOString())}</text><text x="${left}" y="18">${esc(checkId)}</text>`;
  return `<svg class="chart timeline" data-check="${esc(checkId)}" role="img" aria-label="Heartbeat state timeline of ${esc(checkId)}" viewBox="0 0 ${width} ${height}" xmlns="http://www.w3.org/2000/svg">${segments.join("")}${marks}${labels}</svg>`;
}
