import type { SuccessRatioPeriod } from "../../api/schemas";
import type { HeartbeatReportCheck } from "./report-schema";

/** The API's success ratios are percentages (0 to 100), shown as they come. */
function percent(ratio: number | undefined): string {
  return ratio === undefined ? "n/a" : `${ratio.toFixed(2)} %`;
}

function trend(period: SuccessRatioPeriod | undefined): string {
  if (!period) return "n/a";
  const delta = period.successRatio.currentPeriod - period.successRatio.previousPeriod;
  const points = delta.toFixed(2);
  return delta === 0 ? "±0.00 pt" : `${delta > 0 ? "+" : ""}${points} pt`;
}

export function statsRows(check: HeartbeatReportCheck): (string | number)[][] {
  const periods: [string, SuccessRatioPeriod | undefined][] = [
    ["24 h", check.stats?.last24Hours],
    ["7 d", check.stats?.last7Days],
  ];
  return periods.map(([label, p]) => [
    label,
    percent(p?.successRatio.currentPeriod),
    percent(p?.successRatio.previousPeriod),
    trend(p),
    p?.totalEntitiesCurrentPeriod ?? "n/a",
  ]);
}

export const STATS_HEADERS = [
  "Period",
  "Success (current)",
  "Success (previous)",
  "Change",
  "Entities",
];

export function stateCounts(check: HeartbeatReportCheck): string {
  const counts = new Map<string, number>();
  for (const e of check.events) counts.set(e.state, (counts.get(e.state) ?? 0) + 1);
  return [...counts.entries()].map(([s, n]) => `${n} ${s}`).join(", ") || "none";
}
