import {
  type HeartbeatStateClass,
  type HeartbeatStats,
  heartbeatStateClass,
  type SuccessRatioPeriod,
} from "../../api/schemas";
import type {
  HeartbeatReportCheck,
  PeriodSide,
  PeriodSuccess,
  SuccessRatios,
} from "./report-schema";
import { MEANING_TEXT, stateName } from "./state";

/**
 * The stats as a person may read them. The API counts the pings of a current period alone
 * and gives a period with none 0 %: a count of 0 is "no pings"; the 24 h before the last 24 h
 * have none when the last 7 days hold no more pings than the last 24 h; another 0 % may be
 * either. No change is drawn from or to a period that has (or may have) no pings.
 */
export function successRatiosOf(stats: HeartbeatStats | null | undefined): SuccessRatios {
  const day = stats?.last24Hours;
  const week = stats?.last7Days;
  const dayPings = day?.totalEntitiesCurrentPeriod;
  const weekPings = week?.totalEntitiesCurrentPeriod;
  const dayBefore = dayPings !== undefined && dayPings === weekPings ? 0 : undefined;
  return { last24Hours: periodOf(day, dayBefore), last7Days: periodOf(week, undefined) };
}

function periodOf(
  period: SuccessRatioPeriod | null | undefined,
  previousPings: number | undefined,
): PeriodSuccess {
  const current = sideOf(period?.successRatio?.currentPeriod, period?.totalEntitiesCurrentPeriod);
  const previous = sideOf(period?.successRatio?.previousPeriod, previousPings);
  const change =
    current.ratio === null || previous.ratio === null || current.note || previous.note
      ? null
      : Math.round((current.ratio - previous.ratio) * 100) / 100;
  return { current, previous, change };
}

function sideOf(ratio: number | undefined, pings: number | undefined): PeriodSide {
  if (pings === 0) return { ratio: null, pings: 0, note: "no pings" };
  const note = ratio === 0 && pings === undefined ? "maybe no pings" : null;
  return { ratio: ratio ?? null, pings: pings ?? null, note };
}

/** A side as a cell: the API's percentage, `no pings`, or n/a where the API left it out. */
function sideText(side: PeriodSide): string {
  if (side.note === "no pings") return "no pings";
  if (side.ratio === null) return "n/a";
  const shown = `${side.ratio.toFixed(2)} %`;
  return side.note === "maybe no pings" ? `${shown} or no pings` : shown;
}

/** The change in points, or why none is drawn. */
function changeText(period: PeriodSuccess): string {
  const { change, current, previous } = period;
  if (change !== null) {
    return change === 0 ? "±0.00 pt" : `${change > 0 ? "+" : ""}${change.toFixed(2)} pt`;
  }
  if (current.note === "no pings" || previous.note === "no pings") return "n/a (no pings)";
  if (current.note || previous.note) return "n/a (maybe no pings)";
  return "n/a";
}

/** One row per period; the stats and every member in them may be missing (shown as n/a). */
export function statsRows(check: HeartbeatReportCheck): (string | number)[][] {
  const ratios = successRatiosOf(check.stats);
  const periods: [string, PeriodSuccess, SuccessRatioPeriod | null | undefined][] = [
    ["24 h", ratios.last24Hours, check.stats?.last24Hours],
    ["7 d", ratios.last7Days, check.stats?.last7Days],
  ];
  return periods.map(([label, period, p]) => [
    label,
    sideText(period.current),
    sideText(period.previous),
    changeText(period),
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
