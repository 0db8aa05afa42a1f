import { describe, expect, it } from "vitest";
import { errorDocument } from "../src/cli/error-document";
import { describeFailure } from "../src/cli/failure";
import { failureText } from "../src/cli/run-command";
import { UsageError } from "../src/cli/usage-error";
import type { OperationOutcome } from "../src/engine";
import { renderMarkdown, renderText } from "../src/engine/run-report";
import { githubAnnotation } from "../src/github-annotation";
import { codeSpan, mdCell, mdText } from "../src/markdown";
import { buildPlan, renderPlanText } from "../src/plan";
import { renderDrift } from "../src/reports/drift/render";
import { DRIFT_REPORT_KIND, type DriftReport } from "../src/reports/drift/report-schema";
import { safeLine, safeText } from "../src/safe-text";
import { definitionYaml, load } from "./definitions/helpers";
import { expectInert } from "./reports/support/markdown";
import { expectSafeForLogs, HOSTILE_CASES, HOSTILE_TEXT } from "./support/hostile-text";

/**
 * Issue 36: the one sanitiser (`src/safe-text.ts`) on every output path. For each payload and
 * each format: nothing hidden reaches the reader raw, and no line a runner reads as a command
 * is there but those incident-sync writes.
 */
describe.each(HOSTILE_CASES)("%s", (_name, hostile) => {
  it("is one safe line, or safe lines, for a terminal", () => {
    expectSafeForLogs(safeLine(hostile));
    expect(safeLine(hostile)).not.toContain("\n");
    expectSafeForLogs(safeText(hostile));
  });

  it("is safe on stderr as a failure's message and a problem's", () => {
    const failure = {
      ...describeFailure(new UsageError(hostile)),
      problems: [
        {
          file: `incidents/${hostile}.yaml`,
          line: 1,
          column: 1,
          code: "invalid-value" as const,
          message: hostile,
        },
      ],
    };
    expectSafeForLogs(failureText(failure, "plan", false));
  });

  it("is one annotation of GitHub's, and nothing else", () => {
    const line = githubAnnotation({
      level: "error",
      file: hostile,
      line: 2,
      title: hostile,
      message: hostile,
    });
    expectSafeForLogs(line, 1);
    expect(line).toMatch(/^::error file=[^:,]*,line=2,title=[^:,]*::/);
  });

  it("is inert Markdown, as text, in a cell and as code", () => {
    for (const markdown of [mdText(hostile), mdCell(hostile), codeSpan(hostile)]) {
      expectInert(markdown);
      expectSafeForLogs(markdown);
    }
  });

  it("is inert in every error document a command writes", () => {
    const failure = {
      ...describeFailure(new UsageError(`${hostile}\nsecond line ${hostile}`)),
      problems: [
        {
          file: "incidents/a.yaml",
          line: 1,
          column: 1,
          code: "invalid-value" as const,
          message: hostile,
        },
      ],
    };
    const markdown = errorDocument("markdown", failure, { command: "plan" }) ?? "";
    expectInert(markdown);
    expectSafeForLogs(markdown);
    // One annotation per problem and one for the failure.
    expectSafeForLogs(errorDocument("github", failure, { command: "plan" }) ?? "", 2);
  });

  it("is safe in drift's text, GitHub and Markdown reports", () => {
    const report = driftReport(hostile);
    expectSafeForLogs(renderDrift(report, "text"));
    expectSafeForLogs(renderDrift(report, "github"), 1);
    const markdown = renderDrift(report, "markdown");
    expectInert(markdown);
    expectSafeForLogs(markdown);
  });

  it("is safe in up's text and Markdown reports, outputs and failures alike", () => {
    for (const outcome of [upOutcome(hostile, true), upOutcome(hostile, false)]) {
      expectSafeForLogs(renderText(outcome, "/project"));
      const markdown = renderMarkdown(outcome, "/project");
      expectInert(markdown.replace(/^<!--.*-->\n/, ""));
      expectSafeForLogs(markdown);
    }
  });
});

describe("plan's text", () => {
  it("shows a multi-line reason on one line, its commands inert", () => {
    const reason =
      "lowered\n::error file=incidents/a.yaml,line=1::forged\n::add-mask::x\n \u00a0::stop-commands::t ##[error]y";
    const before = load({ "incidents/a.yaml": definitionYaml({ severity: "CRITICAL" }) });
    const after = load({
      "incidents/a.yaml": definitionYaml({ severity: "MINOR", reason: JSON.stringify(reason) }),
    });
    expect(after.problems).toEqual([]);
    const plan = buildPlan({
      dir: "incidents",
      head: after.definitions,
      base: { ref: "main", commit: "0123456789abcdef", ...before },
    });
    const text = renderPlanText(plan);
    expectSafeForLogs(text);
    expect(text).toContain(
      "    reason: + lowered\\n::error file=incidents/a.yaml,line=1::forged\\n::add-mask::x\\n \u00a0::stop-commands::t ##\\[error]y",
    );
  });
});

describe("the escapes", () => {
  it("are visible, and name each character", () => {
    expect(safeLine(HOSTILE_TEXT["an escape sequence that clears the screen and colours"])).toBe(
      "\\u001B[2J\\u001B[31mred",
    );
    expect(safeLine(HOSTILE_TEXT["a carriage return"])).toBe("innocent\\rOVERWRITTEN");
    expect(safeLine(HOSTILE_TEXT["a right-to-left override"])).toBe("report\\u202Efdp.exe");
    expect(safeText("done\n::error::x\r\nnext")).toBe("done\n\\::error::x\nnext");
    expect(safeLine("\u{E0001}tag")).toBe("\\u{E0001}tag");
  });
});

function driftReport(hostile: string): DriftReport {
  return {
    kind: DRIFT_REPORT_KIND,
    version: 1,
    generatedAt: "2026-05-01T00:00:00.000Z",
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
        id: "inc-a",
        name: "A",
        file: "incidents/a.yaml",
        line: 1,
        state: "drifted",
        declaredStatus: "RESOLVED",
        liveStatus: "INVESTIGATING",
        baseline: { source: "none", at: null },
        updatesOutsideGit: [
          {
            id: "upd_1",
            at: "2026-05-01T00:00:00.000Z",
            status: "INVESTIGATING",
            class: "drift",
            description: hostile,
          },
        ],
      },
    ],
  };
}

function upOutcome(hostile: string, ok: boolean): OperationOutcome {
  return {
    kind: "ran",
    stackName: "dev",
    definitions: [],
    result: {
      operation: "up",
      ok,
      exitCode: ok ? 0 : 1,
      changed: true,
      durationMs: 1_000,
      stdout: `engine says ${hostile}`,
      stderr: "",
      durationSeconds: 1,
      changes: { update: 1 },
      incidents: [
        {
          resource: "inc-a",
          incidentId: "inc-a",
          op: "update",
          diffs: ["name"],
          warnings: [hostile],
          ...(ok ? {} : { error: hostile }),
        },
      ],
      diagnostics: [{ severity: "warning", message: hostile }],
    },
    outputs: {
      incidents: {
        secret: false,
        value: {
          "inc-a": {
            file: "incidents/a.yaml",
            declared: {
              name: hostile,
              severity: "MAJOR",
              status: "INVESTIGATING",
              services: [{ id: "svc", name: hostile }],
            },
            applied: { status: "INVESTIGATING", at: "2026-05-01T00:00:00.000Z" },
            live: { status: "INVESTIGATING", source: "update", since: "2026-05-01T00:00:00.000Z" },
          },
        },
      },
      incidentUpdates: {
        secret: false,
        value: {
          "inc-a": [
            {
              id: "upd_1",
              description: hostile,
              status: "INVESTIGATING",
              publicIncidentUpdateDate: "2026-05-01T00:00:00.000Z",
              notifySubscribers: false,
            },
          ],
        },
      },
      drift: {
        secret: false,
        value: [
          {
            incidentId: "inc-a",
            file: "incidents/a.yaml",
            declaredStatus: "RESOLVED",
            liveStatus: "unknown",
            appliedAt: "2026-05-01T00:00:00.000Z",
            updatesOutsideGit: [],
            reason: hostile,
          },
        ],
      },
    },
  };
}
