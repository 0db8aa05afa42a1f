import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HeartbeatEventsResponse, HeartbeatState, heartbeatStateClass } from "../../src/api";
import { ROUTES } from "../../src/api/routes";
import {
  collectHeartbeats,
  collectIncidents,
  evidenceLine,
  HEARTBEAT_REPORT_FORMATS,
  HeartbeatReport,
  INCIDENT_REPORT_FORMATS,
  IncidentReport,
  type ReportSink,
  readEvidence,
  writeHeartbeatReport,
  writeIncidentReport,
} from "../../src/reports";
import { answering, nullish, optional, present } from "../support/contract-answers";

/*
 * The service's reference lets a heartbeat events answer leave out almost everything: an
 * event needs only its id; its state, timestamp, source and user agent may be missing, source
 * and user agent may be null; stats and both periods may be missing or null, and every member
 * inside a period may be missing. And the service may add states. Every such answer is read,
 * and every heartbeat report (and the incident report's heartbeat lanes and timeline, and the
 * plan's evidence line) is written in every format without throwing.
 */

const RUNS = 1_000;
const STATES: readonly string[] = HeartbeatState.options;

/** Server text; never "NaN", which the reports are checked never to compute. */
const text = (maxLength: number) =>
  fc.string({ maxLength }).filter((value) => !value.includes("NaN"));

const TO = Date.parse("2026-11-03T12:00:00.000Z");
const FROM = TO - 86_400_000;

/** Mostly inside the window, some before it, some after, some unreadable. */
const timestamp = fc
  .oneof(
    { weight: 6, arbitrary: fc.integer({ min: FROM, max: TO }) },
    { weight: 1, arbitrary: fc.integer({ min: FROM - 40 * 86_400_000, max: TO + 3_600_000 }) },
  )
  .map((ms) => new Date(ms).toISOString());
const oddTimestamp = fc.constantFrom("", "yesterday", "2026-13-45", "2026-11-03 10:00:00");

/** A state: one of the five, a new one the service added, or any string. */
const state = fc.oneof(
  fc.constantFrom(...STATES),
  fc.constantFrom("PASSING", "PAUSED", "received", "UNKNOWN", " LATE", "constructor", "__proto__"),
  text(12),
);

const event = fc
  .record({
    id: fc.oneof(fc.uuid(), text(10)),
    state: optional(state),
    timestamp: optional(fc.oneof({ weight: 5, arbitrary: timestamp }, oddTimestamp)),
    source: nullish(text(20)),
    userAgent: nullish(text(20)),
  })
  .map(present);

const ratio = fc.double({ min: 0, max: 100, noNaN: true });
const period = fc
  .record({
    successRatio: optional(
      fc.record({ previousPeriod: optional(ratio), currentPeriod: optional(ratio) }).map(present),
    ),
    totalEntitiesCurrentPeriod: optional(fc.nat(10_000)),
  })
  .map(present);

const stats = fc.record({ last24Hours: nullish(period), last7Days: nullish(period) }).map(present);

const result = fc
  .record({
    // Ids are unique within an answer: the reference makes them UUIDs.
    events: optional(fc.uniqueArray(event, { maxLength: 14, selector: (e) => e.id })),
    stats: optional(stats),
  })
  .map(present);

/** An answer: usually one result, sometimes none. */
const answer: fc.Arbitrary<unknown[]> = fc.oneof(
  { weight: 9, arbitrary: result.map((r): unknown[] => [r]) },
  { weight: 1, arbitrary: fc.constant<unknown[]>([]) },
);

/** What a report says: the page's inlined library and script are left out (uPlot has NaN). */
const said = (text: string) =>
  text.replace(/<script>[\s\S]*?<\/script>|<style>[\s\S]*?<\/style>/g, "");

function memorySink(): ReportSink & { text(): string } {
  let text = "";
  return {
    write: async (chunk) => {
      text += chunk;
    },
    commit: async () => {},
    abort: async () => {},
    text: () => text,
  };
}

const noGroups = { allForCheck: async function* () {} };

describe("heartbeat events the service's reference allows (generated, 1,000 cases)", () => {
  it("are read by the client's schema, and every report over them is written in every format", async () => {
    let current: unknown[] = [];
    const client = answering(() => current);
    const from = new Date(FROM);
    const to = new Date(TO);

    await fc.assert(
      fc.asyncProperty(answer, async (generated) => {
        current = generated;
        expect(ROUTES.listHeartbeatEvents.success.body.schema.safeParse(generated).success).toBe(
          true,
        );
        const sent = HeartbeatEventsResponse.parse(generated)[0]?.events ?? [];

        const report = await collectHeartbeats(client.heartbeats, ["hb-1"], from, to, to);
        expect(HeartbeatReport.safeParse(report).error).toBeUndefined();
        const [check] = report.checks;
        // Every event is kept once, whatever it lacks; an unknown state stays as sent.
        for (const e of check!.events) {
          expect(e.state).toBe(sent.find((s) => s.id === e.id)?.state);
        }
        expect(check!.stateAtEnd.meaning).toBe(heartbeatStateClass(check!.stateAtEnd.state));
        for (const format of HEARTBEAT_REPORT_FORMATS) {
          const sink = memorySink();
          await writeHeartbeatReport(report, format, sink);
          expect(said(sink.text())).not.toContain("NaN");
        }

        const incidents = await collectIncidents(
          {
            incidents: { listUpdates: async () => [] },
            heartbeats: client.heartbeats,
            errorGroups: noGroups,
          },
          [{ id: "inc-1", extra: { heartbeats: ["hb-1"], checks: [] } }],
          { from, to, marginMs: 3_600_000, now: to },
        );
        expect(IncidentReport.safeParse(incidents).error).toBeUndefined();
        for (const format of INCIDENT_REPORT_FORMATS) {
          const sink = memorySink();
          await writeIncidentReport(incidents, format, sink);
          expect(said(sink.text())).not.toContain("NaN");
        }

        const evidence = await readEvidence(
          { heartbeats: client.heartbeats, errorGroups: noGroups },
          { heartbeats: ["hb-1"] },
          to,
        );
        expect(evidenceLine(evidence, to)).toMatch(/^hb-1[ :]/);
      }),
      { numRuns: RUNS },
    );
  }, 120_000);

  it("counts an unknown or missing state as unknown, never as one of the five meanings", () => {
    fc.assert(
      fc.property(fc.option(fc.string(), { nil: undefined }), (value) => {
        const meaning = heartbeatStateClass(value);
        expect(meaning === "unknown").toBe(value === undefined || !STATES.includes(value));
      }),
      { numRuns: RUNS },
    );
  });
});
