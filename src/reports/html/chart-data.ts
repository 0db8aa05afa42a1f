/*
 * What the page's charts draw, computed when the report is made (and tested here) so the
 * inlined page script only lays it out. Times are epoch milliseconds.
 */

const HOUR = 3_600_000;
const BUCKET_SIZES_MS = [
  5 * 60_000,
  15 * 60_000,
  HOUR,
  6 * HOUR,
  24 * HOUR,
  7 * 24 * HOUR,
  30 * 24 * HOUR,
];
const MAX_BUCKETS = 60;

/** A bar chart of counts per time bucket, one or two series side by side. */
export interface HistogramSpec {
  type: "histogram";
  bucketMs: number;
  /** Start of every bucket from the first to the last non-empty one, empty ones included. */
  starts: number[];
  series: { key: string; label: string; counts: number[] }[];
  yLabel: string;
}

/**
 * Counts each series' times into the smallest bucket (5 min, 15 min, 1 h, 6 h, 1 d, 7 d,
 * 30 d, then multiples of 30 d) that keeps the chart at 60 buckets or fewer. Times that
 * are not finite are left out. Returns undefined when there is nothing to count.
 */
export function histogram(
  series: readonly { key: string; label: string; times: readonly number[] }[],
  yLabel: string,
): HistogramSpec | undefined {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const s of series) {
    for (const t of s.times) {
      if (!Number.isFinite(t)) continue;
      if (t < min) min = t;
      if (t > max) max = t;
    }
  }
  if (min > max) return undefined;
  const fits = (size: number) => Math.floor(max / size) - Math.floor(min / size) < MAX_BUCKETS;
  let bucketMs = BUCKET_SIZES_MS.find(fits);
  if (bucketMs === undefined) {
    const month = BUCKET_SIZES_MS.at(-1)!;
    let months = Math.ceil((max - min) / month / (MAX_BUCKETS - 1));
    while (!fits(months * month)) months += 1;
    bucketMs = months * month;
  }
  const first = Math.floor(min / bucketMs) * bucketMs;
  const count = Math.floor(max / bucketMs) - Math.floor(min / bucketMs) + 1;
  const starts = Array.from({ length: count }, (_, i) => first + i * bucketMs!);
  return {
    type: "histogram",
    bucketMs,
    starts,
    yLabel,
    series: series.map((s) => {
      const counts = new Array<number>(count).fill(0);
      for (const t of s.times) {
        if (!Number.isFinite(t)) continue;
        const i = Math.floor(t / bucketMs!) - Math.floor(min / bucketMs!);
        counts[i] = counts[i]! + 1;
      }
      return { key: s.key, label: s.label, counts };
    }),
  };
}

/** A stretch of one lane in one state. */
export interface LaneSegment {
  from: number;
  to: number;
  state: string;
  /** Colour key when it is not the state itself (a heartbeat state's meaning). */
  key?: string;
  /** Tooltip text. */
  label: string;
}

/** A point (or a span from `at` to `to`) on a lane. */
export interface LaneMark {
  at: number;
  to?: number;
  /** Colour key: a state or its meaning, `update`, `group-new`, `group-earlier`. */
  key: string;
  label: string;
}

export interface Lane {
  label: string;
  segments: LaneSegment[];
  marks: LaneMark[];
}

/** Lanes on one time axis, with an optional highlighted stretch (the incident). */
export interface LanesSpec {
  type: "lanes";
  from: number;
  to: number;
  highlight?: { from: number; to: number; label: string };
  lanes: Lane[];
  legend: { key: string; label: string; shape?: "mark" }[];
}

/** A state change: the state holds from `at` until the next change. */
export interface StateChange {
  at: number;
  state: string;
}

const DURATION_UNITS: [number, string][] = [
  [24 * HOUR, "d"],
  [HOUR, "h"],
  [60_000, "min"],
];

/** `2 d 3 h`, `45 min`, `under a minute`: the two largest units. */
export function readableDuration(ms: number): string {
  const parts: string[] = [];
  let rest = Math.max(0, ms);
  for (const [size, unit] of DURATION_UNITS) {
    const amount = Math.floor(rest / size);
    if (amount > 0 && parts.length < 2) {
      parts.push(`${amount} ${unit}`);
      rest -= amount * size;
    } else if (parts.length > 0) break;
  }
  return parts.length ? parts.join(" ") : "under a minute";
}

/**
 * The bands of a lane from its state changes over `[from, to]`: the state in force at
 * `from` (`before`, else UNKNOWN) until the first change, each change until the next.
 * `describe` words a state for the tooltip (`RECEIVED (healthy)`); the state by default.
 */
export function stateSegments(
  changes: readonly StateChange[],
  from: number,
  to: number,
  before: string | undefined,
  describe: (state: string) => string = (state) => state,
): LaneSegment[] {
  const sorted = changes
    .filter((c) => Number.isFinite(c.at) && c.at <= to)
    .sort((a, b) => a.at - b.at);
  const segments: LaneSegment[] = [];
  let cursor = from;
  let state = before ?? "UNKNOWN";
  const close = (end: number) => {
    if (end > cursor) {
      const known = state === "UNKNOWN" ? "state unknown (no earlier event)" : describe(state);
      segments.push({
        from: cursor,
        to: end,
        state,
        label: `${known} for ${readableDuration(end - cursor)}`,
      });
    }
  };
  for (const change of sorted) {
    if (change.at <= from) {
      state = change.state;
      continue;
    }
    close(change.at);
    cursor = change.at;
    state = change.state;
  }
  close(to);
  return segments;
}
