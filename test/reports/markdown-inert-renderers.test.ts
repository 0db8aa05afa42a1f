import { describe, expect, it } from "vitest";
import { renderMarkdown as renderRunMarkdown } from "../../src/engine/run-report";
import {
  DRIFT_REPORT_KIND,
  type DriftReport,
  evidenceMarkdown,
  HEARTBEAT_REPORT_KIND,
  type HeartbeatReport,
  INCIDENT_REPORT_KIND,
  type IncidentReport,
  type ReportSink,
  renderDrift,
  writeHeartbeatReport,
  writeIncidentReport,
} from "../../src/reports";
import { successRatiosOf } from "../../src/reports/heartbeats/stats";
import { expectInert } from "./support/markdown";

/**
 * Each Markdown renderer, fed text that a definition or the server could hold, writes
 * Markdown that GitHub shows as written and that stays inert (see `expectInert`).
 */
const LINK = "[x](https://evil.example)";
const IMAGE = "![i](https://evil.example/p.png)";
const MENTION = "@someone";
const URL = "https://evil.example";
const WWW = "www.evil.example";
const TAG = "<img src=x>";
const TICKS = "inc-a``b`";
const LONE_TICK = "`";
const PIPE = "a | b";
const HEADING = "line\n# heading";
const COMMAND = "::error::injected";

const HOSTILE_TEXT = [LINK, IMAGE, MENTION, URL, WWW, TAG, LONE_TICK, PIPE, COMMAND].join(" ");
const HOSTILE_LINES = `${HOSTILE_TEXT}\n${COMMAND}\n${HEADING}`;

/** The text a reader sees, with runs of blanks and line breaks as one space. */
const flat = (text: string) => text.replace(/\s+/g, " ").trim();

function memorySink(): ReportSink & { text: () => string } {
  let out = "";
  return {
    write: async (chunk) => {
      out += chunk;
    },
    commit: async () => {},
    abort: async () => {},
    text: () => out,
  };
}

describe("Markdown renderers keep text from definitions and the server inert", () => {
  it("drift keeps a hostile id, file and update description inert in the drift issue", () => {
    const report: DriftReport = {
      kind: DRIFT_REPORT_KIND,
      version: 1,
      generatedAt: "2026-11-24T12:00:00Z",
      drift: true,
      summary: {
        definitions: 1,
        inSync: 0,
        drifted: 1,
        missing: 0,
        unknown: 0,
        fieldsDrifted: 0,
        unchecked: 0,
        expectedUpdates: 0,
        driftUpdates: 1,
      },
      definitions: [
        {
          id: `${TICKS} ${MENTION}`,
          name: HOSTILE_TEXT,
          file: `incidents/${LINK}.yaml`,
          line: 1,
          declaredStatus: "IDENTIFIED",
          liveStatus: "RESOLVED",
          state: "drifted",
          baseline: { source: "since", at: `2026-11-01 ${MENTION}` },
          updatesOutsideGit: [
            {
              id: "u1",
              status: "RESOLVED",
              description: HOSTILE_LINES,
              at: "2026-11-23T10:00:00Z",
              class: "drift",
            },
          ],
        },
      ],
    };
    const markdown = renderDrift(report, "markdown");
    const { text } = expectInert(markdown);
    const shown = flat(text);
    expect(shown).toContain(`(${TICKS} ${MENTION}): updates outside git`);
    expect(shown).toContain(`incidents/${LINK}.yaml:1`);
    expect(shown).toContain(`since 2026-11-01 ${MENTION}, newest first.`);
    expect(shown).toContain(flat(HOSTILE_LINES));
  });

  it("the heartbeats report keeps a hostile check id, source, user agent and warning inert", async () => {
    const report: HeartbeatReport = {
      kind: HEARTBEAT_REPORT_KIND,
      version: 1,
      generatedAt: "2026-11-24T12:00:00Z",
      window: { from: "2026-11-24T00:00:00Z", to: "2026-11-24T12:00:00Z" },
      checks: [
        {
          checkId: `hb-${LINK} ${MENTION}`,
          lastEventBefore: null,
          events: [
            {
              id: "e1",
              state: "FAILING",
              timestamp: "2026-11-24T06:00:00Z",
              source: HOSTILE_LINES,
              userAgent: `${TAG} ${URL}`,
            },
          ],
          stats: null,
          successRatios: successRatiosOf(null),
          stateAtEnd: { state: "FAILING", meaning: "missed", since: "2026-11-24T06:00:00Z" },
          warnings: [HOSTILE_LINES],
        },
      ],
    };
    const sink = memorySink();
    await writeHeartbeatReport(report, "md", sink);
    const { text } = expectInert(sink.text());
    const shown = flat(text);
    expect(shown).toContain(`hb-${LINK} ${MENTION} Now:`);
    expect(shown).toContain(`Warning: ${flat(HOSTILE_LINES)}`);
    expect(shown).toContain(`${flat(HOSTILE_LINES)} ${TAG} ${URL}`);
  });

  it("the incident report keeps a hostile id, name and update text inert", async () => {
    const id = `inc-${TICKS}${MENTION}`;
    const report: IncidentReport = {
      kind: INCIDENT_REPORT_KIND,
      version: 1,
      generatedAt: "2026-11-24T12:00:00Z",
      incidents: [
        {
          id,
          definition: {
            file: `incidents/${WWW}.yaml`,
            line: 3,
            name: HOSTILE_LINES,
            severity: "MAJOR",
            status: "IDENTIFIED",
            services: [`svc-${MENTION}`],
          },
          liveStatus: "IDENTIFIED",
          startedAt: "2026-11-24T01:00:00Z",
          resolvedAt: null,
          window: {
            from: "2026-11-24T00:00:00Z",
            to: "2026-11-24T12:00:00Z",
            marginMs: 3_600_000,
          },
          evidence: { heartbeats: [], checks: [] },
          updates: [],
          heartbeats: [],
          checks: [],
          timeline: [
            {
              at: "2026-11-24T01:00:00Z",
              kind: "update",
              source: `status page ${MENTION}`,
              state: "IDENTIFIED",
              ref: null,
              text: HOSTILE_LINES,
            },
          ],
        },
      ],
    };
    const sink = memorySink();
    await writeIncidentReport(report, "md", sink);
    const { text } = expectInert(sink.text());
    const shown = flat(text);
    // The incident by its name, its id after it; an update's row names it the same way.
    const title = `${flat(HOSTILE_LINES)} (${id})`;
    expect(shown).toContain(`for ${title}. Times in UTC.`);
    expect(shown).toContain(`services svc-${MENTION} · incidents/${WWW}.yaml:3`);
    expect(shown).toContain(`${title} status IDENTIFIED ${flat(HOSTILE_LINES)}`);
  });

  it("the run report of up --format markdown keeps hostile problems inert", () => {
    const message = `unknown key ${HOSTILE_LINES}`;
    const markdown = renderRunMarkdown(
      {
        kind: "invalid-definitions",
        operation: "up",
        dir: "/project/incidents",
        problems: [
          {
            file: `/project/incidents/${TICKS}.yaml`,
            line: 2,
            column: 1,
            code: "unknown-key",
            message: `unknown key ${LONE_TICK}`,
          },
          { file: "/project/incidents/a.yaml", line: 2, column: 1, code: "unknown-key", message },
        ],
      },
      "/project",
    );
    const { text } = expectInert(markdown);
    // A problem is one line, as `validate` prints it: its line breaks are shown as `\n`.
    expect(flat(text)).toContain(message.replace(/\n/g, "\\n"));
    expect(flat(text)).toContain(`incidents/${TICKS}.yaml`);
  });

  it("the plan's evidence section keeps a hostile incident id and evidence line inert", () => {
    const markdown = evidenceMarkdown(
      [
        { incidentId: TICKS, line: HOSTILE_LINES },
        { incidentId: TICKS, name: HOSTILE_LINES, line: "no evidence" },
      ],
      new Date("2026-11-24T12:00:00Z"),
    );
    const { text } = expectInert(markdown);
    expect(flat(text)).toContain(`${TICKS}: ${flat(HOSTILE_LINES)}`);
    expect(flat(text)).toContain(`${flat(HOSTILE_LINES)} (${TICKS}): no evidence`);
  });
});
