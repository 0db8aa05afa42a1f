import { esc } from "../shared/html";

const HOUR = 3_600_000;
const BUCKETS_MS = [HOUR, 6 * HOUR, 24 * HOUR, 7 * 24 * HOUR, 30 * 24 * HOUR];
const MAX_BUCKETS = 60;

/** One bar of the last-seen histogram. */
export interface LastSeenBucket {
  start: number;
  count: number;
}

/**
 * Counts timestamps into the smallest bucket size (1 h, 6 h, 1 d, 7 d, 30 d, then
 * multiples of 30 d) that keeps the chart at 60 bars or fewer. Unparseable timestamps are counted apart by the caller.
 */
export function bucketLastSeen(times: readonly number[]): {
  sizeMs: number;
  buckets: LastSeenBucket[];
} {
  if (times.length === 0) return { sizeMs: HOUR, buckets: [] };
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const t of times) {
    if (t < min) min = t;
    if (t > max) max = t;
  }
  const fits = (size: number) => Math.floor(max / size) - Math.floor(min / size) < MAX_BUCKETS;
  let sizeMs = BUCKETS_MS.find(fits);
  if (sizeMs === undefined) {
    // Years of data: whole multiples of 30 days, the smallest that fits.
    const month = BUCKETS_MS[BUCKETS_MS.length - 1]!;
    let months = Math.ceil((max - min) / month / (MAX_BUCKETS - 1));
    while (!fits(months * month)) months += 1;
    sizeMs = months * month;
  }
  const counts = new Map<number, number>();
  for (const t of times) {
    const start = Math.floor(t / sizeMs) * sizeMs;
    counts.set(start, (counts.get(start) ?? 0) + 1);
  }
  const buckets = [...counts.entries()]
    .map(([start, count]) => ({ start, count }))
    .sort((a, b) => a.start - b.start);
  return { sizeMs, buckets };
}

function label(ms: number, sizeMs: number): string {
  const iso = new Date(ms).toISOString();
  return sizeMs < 24 * HOUR ? `${iso.slice(0, 13).replace("T", " ")}:00` : iso.slice(0, 10);
}

/**
 * Inline SVG histogram of error groups by last-seen time: one `rect.bar` per non-empty
 * bucket, carrying `data-count` so a test (or a reader's devtools) can check the sums.
 */
export function lastSeenChart(times: readonly number[]): string {
  const { sizeMs, buckets } = bucketLastSeen(times);
  const width = 1000;
  const height = 260;
  const left = 48;
  const bottom = 40;
  const top = 16;
  const plotW = width - left - 16;
  const plotH = height - top - bottom;
  if (buckets.length === 0) {
    return `<p class="meta">No error groups to chart.</p>`;
  }
  const first = buckets[0]!.start;
  const last = buckets[buckets.length - 1]!.start;
  const slots = Math.round((last - first) / sizeMs) + 1;
  const slotW = plotW / slots;
  const maxCount = Math.max(...buckets.map((b) => b.count));
  const bars = buckets
    .map((b) => {
      const slot = Math.round((b.start - first) / sizeMs);
      const h = Math.max(1, (b.count / maxCount) * plotH);
      const barW = Math.max(1, Math.min(slotW * 0.8, 48));
      const x = left + slot * slotW + (slotW - barW) / 2;
      const y = top + plotH - h;
      const when = label(b.start, sizeMs);
      return `<rect class="bar" data-bucket="${esc(new Date(b.start).toISOString())}" data-count="${b.count}" x="${x.toFixed(2)}" y="${y.toFixed(2)}" width="${barW.toFixed(2)}" height="${h.toFixed(2)}" fill="var(--bar)"><title>${esc(when)}: ${b.count} group${b.count === 1 ? "" : "s"}</title></rect>`;
    })
    .join("");
  const axis = `<line x1="${left}" y1="${top + plotH}" x2="${left + plotW}" y2="${top + plotH}" stroke="var(--line)"/>`;
  const yLabels = `<text x="${left - 6}" y="${top + 10}" text-anchor="end">${maxCount}</text><text x="${left - 6}" y="${top + plotH}" text-anchor="end">0</text>`;
  const xLabels = `<text x="${left}" y="${height - 12}">${esc(label(first, sizeMs))}</text><text x="${left + plotW}" y="${height - 12}" text-anchor="end">${esc(label(last, sizeMs))}</text>`;
  const bucketName = sizeMs < 24 * HOUR ? `${sizeMs / HOUR} h` : `${sizeMs / (24 * HOUR)} d`;
  return `<svg class="chart last-seen" role="img" aria-label="Error groups by last seen, ${esc(bucketName)} buckets" viewBox="0 0 ${width} ${height}" xmlns="http://www.w3.org/2000/svg">${axis}${yLabels}${xLabels}${bars}</svg>`;
}
