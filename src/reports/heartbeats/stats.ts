import {
  type HeartbeatStateClass,
  heartbeatStateClass,
  type SuccessRatioPeriod,
} from "../../api/schemas";
import type { HeartbeatReportCheck } from "./report-schema";
import { MEANING_TEXT, stateName } from "./state";

/** The API's success ratios are percentages (0 to 100), shown as they come; missing is n/a. */
function percent(ratio: number | undefined): string {
  return ratio === undefined ? "n/a" : `${ratio.toFixed(2)} %`;
}

/** The change from the previous period to the current one, or n/a when either is missing. */
function trend(period: SuccessRatioPeriod | null | undefined): string {
  const current = period?.successRatio?.currentPeriod;
  const previous = period?.successRatio?.previousPeriod;
  if (current === undefined || previous === undefined) return "n/a";
  const delta = current - previous;
  const points = delta.toFixed(2);
  return delta === 0 ? "±0.00 pt" : `${delta > 0 ? "+" : ""}${points} pt`;
}

/** One row per period; the stats and every member in them may be missing (shown as n/a). */
export function statsRows(check: HeartbeatReportCheck): (string | number)[][] {
  const periods: [string, SuccessRatioPeriod | null | undefined][] = [
    ["24 h", check.stats?.last24Hours],
    ["7 d", check.stats?.last7Days],
  ];
  return periods.map(([label, p]) => [
    label,
    percent(p?.successRatio?.currentPeriod),
    percent(p?.successRatio?.previousPeriod),
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

/**
 * Events per state as sent, then per meaning, e.g. `23 RECEIVED, 22 FAILING (23 healthy,
 * 22 missed or failing)`; a state this version does not know is counted as unknown.
 */
export function stateCounts(check: HeartbeatReportCheck): string {
  const byState = new Map<string, number>();
  const byMeaning = new Map<HeartbeatStateClass, number>();
  for (const e of check.events) {
    const name = stateName(e.state);
    byState.set(name, (byState.get(name) ?? 0) + 1);
    const meaning = heartbeatStateClass(e.state);
    byMeaning.set(meaning, (byMeaning.get(meaning) ?? 0) + 1);
  }
  if (byState.size === 0) return "none";
  const states = [...byState].map(([s, n]) => `${n} ${s}`).join(", ");
  const meanings = [...byMeaning].map(([m, n]) => `${n} ${MEANING_TEXT[m]}`).join(", ");
  return `${states} (${meanings})`;
}
