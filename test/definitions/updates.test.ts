import { describe, expect, it } from "vitest";
import { load, problemLines } from "./helpers";

describe("definitions that open an incident and declare its updates", () => {
  it("loads a new incident: no id, its resource, and its status from the last entry", () => {
    const { definitions, problems } = load({
      "incidents/a.yaml": [
        "resource: checkout-down",
        "name: Checkout fails",
        "severity: MAJOR",
        "services: [{ id: svc-checkout, name: Checkout }]",
        "updates:",
        "  - status: INVESTIGATING",
        "    message: We are looking into it.",
        "    notify: true",
        "  - status: IDENTIFIED",
        "    message: |",
        "      A bad deploy.",
        "      Rolling back.",
        "",
      ].join("\n"),
    });
    expect(problems).toEqual([]);
    expect(definitions[0]?.definition).toMatchObject({
      resource: "checkout-down",
      status: "IDENTIFIED",
      updates: [
        { status: "INVESTIGATING", message: "We are looking into it.", notify: true },
        { status: "IDENTIFIED", message: "A bad deploy.\nRolling back.\n", notify: false },
      ],
    });
    expect(definitions[0]?.definition.id).toBeUndefined();
  });

  it("tells every problem of updates at its file, line and column", () => {
    const { problems } = load({
      "incidents/a.yaml": [
        "resource: checkout-down",
        "name: Checkout fails",
        "severity: MAJOR",
        "status: RESOLVED",
        "services: [svc-checkout]",
        "updates:",
        "  - status: INVESTIGATING",
        "    message: We are looking into it.",
        "  - status: IDENTIFIED",
        "    message: Found it.",
        "    at: 2026-11-20T10:00:00Z",
        "    notify: true",
        "  - status: MONITORNG",
        "    mesage: Watching.",
        "",
      ].join("\n"),
      "incidents/b.yaml": [
        "name: No way to know it",
        "severity: MINOR",
        "services: [svc-api]",
        "---",
        "resource: no-updates",
        "name: Nothing to say",
        "severity: MINOR",
        "services: [svc-api]",
        "---",
        "id: inc-api",
        "name: Back again",
        "severity: MINOR",
        "status: RESOLVED",
        "services: [svc-api]",
        "updates:",
        "  - { status: RESOLVED, message: Fixed. }",
        "  - { status: INVESTIGATING, message: It is back., at: '2026-01-01T00:00:00Z' }",
        "",
      ].join("\n"),
    });
    expect(problemLines(problems)).toMatchInlineSnapshot(`
      "incidents/a.yaml:12:13 notify-refused: a backfilled entry (with "at") tells of the past, so it notifies nobody: remove "notify: true", or remove "at" to post it as news
      incidents/a.yaml:13:5 missing-key: missing required field "message" in updates[2]
      incidents/a.yaml:13:13 invalid-value: updates[2].status "MONITORNG" is not allowed; use one of INVESTIGATING, IDENTIFIED, MONITORING, RESOLVED (did you mean MONITORING?)
      incidents/a.yaml:14:5 unknown-key: unknown field "mesage" in updates[2]; did you mean "message"?
      incidents/b.yaml:1:1 missing-key: missing required field "id" (the incident id on the status page), or "resource" and "updates" to open a new incident
      incidents/b.yaml:1:1 missing-key: missing required field "status" (one of INVESTIGATING, IDENTIFIED, MONITORING, RESOLVED), or "updates" whose last entry gives it
      incidents/b.yaml:5:1 missing-key: a definition without "id" declares a new incident and needs "updates": its first entry is the message customers read when it opens
      incidents/b.yaml:5:1 missing-key: missing required field "status" (one of INVESTIGATING, IDENTIFIED, MONITORING, RESOLVED), or "updates" whose last entry gives it
      incidents/b.yaml:13:9 status-mismatch: status is RESOLVED, but the last entry of updates says INVESTIGATING: the incident's status is its last update's. Remove "status", or add an entry with status RESOLVED that tells customers why
      incidents/b.yaml:17:15 reopen-without-flag: updates[1] moves the incident from RESOLVED back to INVESTIGATING, which tells customers the problem is back: add "reopen: true" to the definition to mean it
      incidents/b.yaml:17:56 out-of-order: a backfilled entry cannot follow updates[0], which is dated when it is posted: move it before, or remove its "at""
    `);
  });
});

describe("closing, the last word of onRemove: resolve", () => {
  const opening = (extra: string) =>
    [
      "resource: checkout-down",
      "name: Checkout fails",
      "severity: MAJOR",
      "services: [{ id: svc-checkout, name: Checkout }]",
      "updates:",
      "  - status: INVESTIGATING",
      "    message: Card payments fail.",
      extra,
    ].join("\n");
  const closing = "closing:\n  message: Card payments work again.\n  notify: true";

  it("loads a closing with onRemove: resolve and updates, notify false unless it says", () => {
    const { definitions, problems } = load({
      "incidents/a.yaml": opening(`onRemove: resolve\n${closing}`),
      "incidents/b.yaml": opening("onRemove: resolve\nclosing: { message: Fixed. }")
        .replace("checkout-down", "checkout-slow")
        .replace("Checkout fails", "Checkout is slow"),
    });
    expect(problems).toEqual([]);
    expect(definitions.map((loaded) => loaded.definition.closing)).toEqual([
      { message: "Card payments work again.", notify: true },
      { message: "Fixed.", notify: false },
    ]);
  });

  it("refuses a closing without onRemove: resolve, or without updates, at its line", () => {
    const { problems } = load({
      "incidents/a.yaml": opening(closing),
      "incidents/b.yaml": [
        "id: inc-db",
        "name: Database slow",
        "severity: MINOR",
        "status: IDENTIFIED",
        "services: [{ id: svc-db, name: Database }]",
        "onRemove: resolve",
        closing,
      ].join("\n"),
    });
    expect(problems.map((problem) => [problem.file, problem.line, problem.code])).toEqual([
      // At the closing's value, the lines that say what to fix.
      ["incidents/a.yaml", 9, "closing-without-resolve"],
      ["incidents/b.yaml", 8, "closing-without-updates"],
    ]);
  });
});
