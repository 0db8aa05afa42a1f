import { describe, expect, it } from "vitest";
import type { IncidentUpdate } from "../../src/api";
import {
  CLOCK_SKEW_MS,
  type DeclaredEntry,
  decideCreation,
  entryChanges,
  foundPosted,
  isOpeningOf,
  opensSameIncident,
  planEntries,
  shownStatus,
  takenTwiceMessage,
  unreadableOpeningsMessage,
} from "../../src/incident";

const investigating: DeclaredEntry = {
  status: "INVESTIGATING",
  message: "We are looking into failed payments.",
  notify: true,
};
const identified: DeclaredEntry = {
  status: "IDENTIFIED",
  message: "A bad deploy; we are rolling it back.",
  notify: false,
};
const monitoring: DeclaredEntry = {
  status: "MONITORING",
  message: "The rollback is out; we are watching.",
  notify: false,
};

/** An update as the service lists it; `at` is its creation time. */
function update(
  id: string,
  entry: DeclaredEntry,
  at: string,
  more: Partial<IncidentUpdate> = {},
): IncidentUpdate {
  return {
    id,
    description: entry.message,
    status: entry.status,
    notifySubscribers: entry.notify,
    created_at: at,
    ...more,
  };
}

const NOON = "2026-11-26T12:00:00.000Z";
const NOON_MS = Date.parse(NOON);

describe("entries already posted by a run that stopped before recording them", () => {
  const declared = [investigating, identified, monitoring];

  it("are found whatever order the service lists them in, ties included", () => {
    // Two updates of the same second, listed newest first and oldest first.
    const live = [update("u2", identified, NOON), update("u1", investigating, NOON)];
    for (const listed of [live, [...live].reverse()]) {
      const found = foundPosted(declared, [0, 1, 2], listed, { known: new Set() });
      expect([...found]).toEqual([
        [0, "u1"],
        [1, "u2"],
      ]);
    }
  });

  it("match on the message when the service leaves the status out or sends one unknown", () => {
    const live = [
      update("u1", investigating, NOON, { status: undefined }),
      update("u2", identified, NOON, { status: "DEGRADED_SOMEWHAT" }),
    ];
    expect([...foundPosted(declared, [0, 1], live, { known: new Set() })]).toEqual([
      [0, "u1"],
      [1, "u2"],
    ]);
  });

  it("do not match an update with another known status, nor one the record knows", () => {
    const live = [
      update("u1", { ...investigating, status: "RESOLVED" }, NOON),
      update("u2", identified, NOON),
    ];
    expect(foundPosted(declared, [0], live, { known: new Set() }).size).toBe(0);
    expect(foundPosted(declared, [1], live, { known: new Set(["u2"]) }).size).toBe(0);
  });

  it("stop at the first entry not found: entries are posted in order", () => {
    // A person posted the third entry's text; the second was never posted, so neither was it.
    const live = [update("u1", investigating, NOON), update("u9", monitoring, NOON)];
    expect([...foundPosted(declared, [0, 1, 2], live, { known: new Set() })]).toEqual([[0, "u1"]]);
  });

  it("use each update once when two entries say the same", () => {
    const twice = [investigating, { ...investigating, notify: false }];
    const live = [update("u1", investigating, NOON)];
    expect([...foundPosted(twice, [0, 1], live, { known: new Set() })]).toEqual([[0, "u1"]]);
  });

  it("are not taken from updates created before the last apply (a person's post of the same text)", () => {
    const before = new Date(NOON_MS - CLOCK_SKEW_MS - 1000).toISOString();
    const live = [update("u7", identified, before)];
    const recorded = { entries: [investigating], ids: ["u1"] };
    const plan = planEntries([investigating, identified], {
      recorded,
      live: { status: "INVESTIGATING", updates: live },
      reopen: undefined,
      appliedAt: NOON_MS,
    });
    expect(plan.actions).toEqual([{ kind: "post", index: 1 }]);
    const after = [update("u8", identified, NOON)];
    const taken = planEntries([investigating, identified], {
      recorded,
      live: { status: "IDENTIFIED", updates: after },
      reopen: undefined,
      appliedAt: NOON_MS,
    });
    expect(taken.actions).toEqual([{ kind: "found", index: 1, updateId: "u8" }]);
    // A service that dates updates by the day alone: one of the apply's day may be after it.
    const dated = [update("u9", identified, "2026-11-26")];
    expect(
      planEntries([investigating, identified], {
        recorded,
        live: { status: "IDENTIFIED", updates: dated },
        reopen: undefined,
        appliedAt: NOON_MS,
      }).actions,
    ).toEqual([{ kind: "found", index: 1, updateId: "u9" }]);
  });
});

describe("the plan of an apply's entries", () => {
  it("posts what is new, edits what changed, and refuses a posted entry removed", () => {
    const recorded = { entries: [investigating], ids: ["u1"] };
    const edited = { ...investigating, message: "We are looking into failed card payments." };
    const plan = planEntries([edited, identified], {
      recorded,
      live: { status: "INVESTIGATING", updates: [update("u1", investigating, NOON)] },
      reopen: undefined,
    });
    expect(plan.actions).toEqual([
      { kind: "edit", index: 0, updateId: "u1" },
      { kind: "post", index: 1 },
    ]);
    const removed = planEntries([], {
      recorded,
      live: { status: "INVESTIGATING", updates: [] },
      reopen: undefined,
    });
    expect(removed.refusal).toMatch(/updates\[0\] .* is posted, and is no longer declared/);
    expect(entryChanges(recorded.entries, []).violations.map((v) => v.rule)).toEqual([
      "posted-update-removed",
    ]);
  });

  it("edits the first of two posted entries with the same message in place, and still refuses a true reorder", () => {
    const again = { ...investigating, status: "MONITORING" as const, notify: false };
    const posted = [investigating, identified, again];
    const edited = { ...investigating, message: "We are looking into failed card payments." };
    expect(entryChanges(posted, [edited, identified, again])).toEqual({
      added: [],
      edited: [{ index: 0, before: investigating }],
      violations: [],
    });
    expect(entryChanges([investigating, investigating], [edited, investigating])).toEqual({
      added: [],
      edited: [{ index: 0, before: investigating }],
      violations: [],
    });
    expect(
      entryChanges([investigating, identified], [identified, investigating]).violations[0]?.message,
    ).toMatchInlineSnapshot(
      `"updates[0] ("We are looking into failed payments.") is posted, and is now updates[1]: posted updates keep their order. Put the entries back in the order they were posted, and add new ones after them."`,
    );
  });

  it("refuses to reopen an incident resolved on the status page, by a new entry or by an edit of its newest status", () => {
    const recorded = { entries: [investigating], ids: ["u1"] };
    // Resolved through a PUT that only set the field: the updates still show INVESTIGATING.
    const incident = {
      lastUpdateStatus: "RESOLVED",
      incidentUpdates: [update("u1", investigating, NOON)],
    };
    expect(shownStatus(incident)).toBe("RESOLVED");
    const live = { status: shownStatus(incident), updates: incident.incidentUpdates };
    const posting = planEntries([investigating, identified], {
      recorded,
      live,
      reopen: undefined,
    });
    expect(posting.refusal).toMatch(/^updates\[1\]: the incident is RESOLVED/);
    const editing = planEntries([{ ...investigating, message: "Fixed a typo." }], {
      recorded,
      live,
      reopen: undefined,
    });
    expect(editing.refusal).toMatch(/^updates\[0\]: the incident is RESOLVED .* could set/);
    expect(editing.actions).toEqual([]);
    // With reopen: true, both go ahead.
    expect(
      planEntries([investigating, identified], { recorded, live, reopen: true }).refusal,
    ).toBeUndefined();
  });

  it("edits an older entry of a resolved incident: its status is not the incident's", () => {
    const recorded = { entries: [investigating, { ...identified, status: "RESOLVED" as const }] };
    const updates = [
      update("u1", investigating, NOON),
      update("u2", recorded.entries[1] as DeclaredEntry, "2026-11-26T13:00:00.000Z"),
    ];
    const plan = planEntries(
      [{ ...investigating, message: "Fixed a typo." }, recorded.entries[1] as DeclaredEntry],
      {
        recorded: { ...recorded, ids: ["u1", "u2"] },
        live: { status: "RESOLVED", updates },
        reopen: undefined,
      },
    );
    expect(plan).toEqual({ actions: [{ kind: "edit", index: 0, updateId: "u1" }] });
  });
});

describe("opening an incident once", () => {
  const declaration = { name: "Card payments fail", resource: "card-payments" };
  const candidate = (id: string, created: string, status: string, updates: IncidentUpdate[]) => ({
    id,
    name: declaration.name,
    created_at: created,
    lastUpdateStatus: status,
    incidentUpdates: updates,
  });

  it("knows its opening among updates of the same time, listed in any order", () => {
    const updates = [update("u2", identified, NOON), update("u1", investigating, NOON)];
    const opened = candidate("inc-1", NOON, "IDENTIFIED", updates);
    const opening = { name: declaration.name, first: investigating };
    expect(isOpeningOf(opened, opening)).toBe(true);
    expect(isOpeningOf({ ...opened, incidentUpdates: [...updates].reverse() }, opening)).toBe(true);
    // A later update with the first entry's text is no opening.
    const later = [
      update("u1", identified, NOON),
      update("u2", investigating, "2026-11-26T13:00:00Z"),
    ];
    expect(isOpeningOf(candidate("inc-2", NOON, "IDENTIFIED", later), opening)).toBe(false);
  });

  it("takes what a stopped run opened since its intent, refuses an old one still open, and opens past a resolved one", () => {
    const first = [update("u1", investigating, NOON)];
    const recent = candidate("inc-new", NOON, "INVESTIGATING", first);
    const intentAt = new Date(NOON_MS - 60_000).toISOString();
    expect(
      decideCreation(declaration, investigating, [recent], { intentAt, now: NOON_MS }),
    ).toMatchObject({
      kind: "adopt",
      incidentId: "inc-new",
    });
    const old = candidate("inc-old", "2026-11-20T12:00:00Z", "MONITORING", first);
    expect(
      decideCreation(declaration, investigating, [old], { intentAt, now: NOON_MS }),
    ).toMatchObject({
      kind: "refuse",
      message: expect.stringContaining('add "id: inc-old"'),
    });
    const past = candidate("inc-past", "2026-11-20T12:00:00Z", "RESOLVED", first);
    expect(decideCreation(declaration, investigating, [past], { intentAt, now: NOON_MS })).toEqual({
      kind: "create",
    });
  });

  it("says an incident it takes is on the status page unrecorded, and never that a run stopped, which it cannot know", () => {
    // Also what a definition that left the stack (a typo in stacks) and came back finds.
    const opened = candidate("inc-new", NOON, "INVESTIGATING", [update("u1", investigating, NOON)]);
    const decision = decideCreation(declaration, investigating, [opened], { now: NOON_MS });
    expect(decision.kind).toBe("adopt");
    if (decision.kind !== "adopt") return;
    expect(decision.note).toMatch(/on the status page already as inc-new/);
    expect(decision.note).toMatch(/state does not record it; it is taken, not opened again/);
    expect(decision.note).not.toMatch(/stopped|run that/);
    expect(takenTwiceMessage("checkout-down", "inc-new")).not.toMatch(/stopped/);
    expect(unreadableOpeningsMessage({ resource: "checkout-down" }, ["inc-odd"])).not.toMatch(
      /stopped/,
    );
  });

  it("shows a server's id and time in its note as inert text", () => {
    const recent = candidate("inc\u001b[31m", "\u202eNOON", "INVESTIGATING", [
      update("u1", investigating, NOON),
    ]);
    const decision = decideCreation(declaration, investigating, [recent], { now: NOON_MS });
    expect(decision.kind).toBe("refuse");
    if (decision.kind !== "refuse") return;
    expect(decision.message).toContain("inc\\u001B[31m");
    expect(decision.message).not.toContain("\u001b");
    expect(decision.message).not.toContain("\u202e");
  });

  it("knows two definitions without id that open the same incident", () => {
    const a = { name: "Card payments fail", updates: [investigating] };
    expect(opensSameIncident(a, { name: a.name, updates: [investigating, identified] })).toBe(true);
    expect(opensSameIncident(a, { name: "Other", updates: [investigating] })).toBe(false);
    expect(opensSameIncident(a, { id: "inc-1", name: a.name, updates: [investigating] })).toBe(
      false,
    );
  });
});
