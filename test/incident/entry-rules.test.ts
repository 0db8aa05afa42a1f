import { describe, expect, it } from "vitest";
import type { IncidentUpdate } from "../../src/api";
import {
  type DeclaredEntry,
  earliest,
  entryChanges,
  foundPosted,
  oldestFirst,
  planEntries,
  postedAt,
  preview,
} from "../../src/incident";

/*
 * The rules of `updates` (src/incident/entries.ts, entry-plan.ts) at their edges: what a
 * change of posted entries is, when an update was posted, which one is found posted, and what
 * the plan of an apply refuses.
 */

const open: DeclaredEntry = { status: "INVESTIGATING", message: "Payments fail.", notify: false };
const found: DeclaredEntry = { status: "IDENTIFIED", message: "A bad deploy.", notify: false };
const fixed: DeclaredEntry = { status: "RESOLVED", message: "Fixed.", notify: false };
const NOON = "2026-11-26T12:00:00.000Z";
const NOON_MS = Date.parse(NOON);
const iso = (ms: number) => new Date(ms).toISOString();
const posting = (id: string | undefined, entry: DeclaredEntry, at: string): IncidentUpdate => ({
  ...(id === undefined ? {} : { id }),
  description: entry.message,
  status: entry.status,
  notifySubscribers: entry.notify,
  created_at: at,
});

describe("a change of posted entries", () => {
  it("is one removal when a later posted entry takes the removed one's place, and what follows is added after it", () => {
    expect(entryChanges([open, found], [found, fixed])).toEqual({
      added: [1],
      edited: [],
      violations: [expect.objectContaining({ rule: "posted-update-removed", index: 0 })],
    });
    expect(entryChanges([open, found], [open])).toMatchObject({
      added: [],
      violations: [{ rule: "posted-update-removed", index: 1 }],
    });
    expect(entryChanges([open, found], [open]).violations[0]?.message).toMatchInlineSnapshot(
      `"updates[1] ("A bad deploy.") is posted, and is no longer declared: customers have read it, and it stays on the status page. Put the entry back (edit its message to correct it) and add a new entry to say more."`,
    );
  });

  it("refuses a posted entry's new status and a notify it was posted without, each in words that say what to do", () => {
    const changes = entryChanges([open], [{ ...open, status: "MONITORING", notify: true }]);
    expect(changes.violations.map((violation) => violation.message)).toMatchInlineSnapshot(`
      [
        "updates[0] was posted with status INVESTIGATING; a posted update keeps its status. Put INVESTIGATING back, and add a new entry with status MONITORING that tells customers why.",
        "updates[0] was posted without notifying, and subscribers are notified only when an update is posted: remove its "notify: true", and add a new entry with "notify: true" to tell them.",
      ]
    `);
    expect(changes.violations.map((violation) => violation.rule)).toEqual([
      "posted-update-status-changed",
      "posted-update-notify",
    ]);
    expect(entryChanges([open, found], [found, open]).violations.map((v) => v.rule)).toEqual([
      "posted-updates-reordered",
      "posted-updates-reordered",
    ]);
    expect(changes.edited).toEqual([]);
    // Posted notifying, declared without: nothing is sent again, so nothing to refuse.
    expect(entryChanges([{ ...open, notify: true }], [open])).toEqual({
      added: [],
      edited: [],
      violations: [],
    });
  });

  it("is an edit when only the date customers see changed", () => {
    const dated = { ...open, at: "2026-11-26T11:00:00.000Z" };
    expect(entryChanges([open], [dated])).toEqual({
      added: [],
      edited: [{ index: 0, before: open }],
      violations: [],
    });
    expect(entryChanges([dated], [dated, found])).toEqual({
      added: [1],
      edited: [],
      violations: [],
    });
  });
});

describe("when an update was posted", () => {
  it("is its creation, else its public date, else 0, and 0 for a date it cannot read", () => {
    expect(postedAt({ description: "x", notifySubscribers: false, created_at: NOON })).toBe(
      NOON_MS,
    );
    expect(
      postedAt({ description: "x", notifySubscribers: false, publicIncidentUpdateDate: NOON }),
    ).toBe(NOON_MS);
    expect(
      postedAt({
        description: "x",
        notifySubscribers: false,
        created_at: NOON,
        publicIncidentUpdateDate: iso(NOON_MS + 1),
      }),
    ).toBe(NOON_MS);
    expect(postedAt({ description: "x", notifySubscribers: false })).toBe(0);
    expect(postedAt({ description: "x", notifySubscribers: false, created_at: "yesterday" })).toBe(
      0,
    );
  });

  it("orders updates oldest first, keeping the service's order of ties, and knows every update of the oldest time", () => {
    const late = posting("u3", fixed, iso(NOON_MS + 60_000));
    const a = posting("u1", open, NOON);
    const b = posting("u2", found, NOON);
    expect(oldestFirst([late, a, b]).map((update) => update.id)).toEqual(["u1", "u2", "u3"]);
    expect(oldestFirst([late, b, a]).map((update) => update.id)).toEqual(["u2", "u1", "u3"]);
    expect(earliest([late, b, a]).map((update) => update.id)).toEqual(["u2", "u1"]);
    expect(earliest([late])).toEqual([late]);
  });
});

describe("an entry found posted without its id recorded", () => {
  it("is an update with an id, created no earlier than the given time (a date alone stands for its whole day)", () => {
    const declared = [open];
    const since = NOON_MS;
    const at = (id: string | undefined, when: string) =>
      foundPosted(declared, [0], [posting(id, open, when)], { known: new Set(), since });
    expect([...at("u1", NOON)]).toEqual([[0, "u1"]]);
    expect([...at("u1", iso(NOON_MS - 1))]).toEqual([]);
    expect([...at(undefined, NOON)]).toEqual([]);
    expect([...at("u1", "2026-11-26")]).toEqual([[0, "u1"]]);
    expect([...at("u1", "2026-11-25")]).toEqual([]);
    // A date alone ends at its last millisecond: the day before a midnight is all before it.
    const midnight = Date.parse("2026-11-26T00:00:00.000Z");
    const dated = posting("u1", open, "2026-11-25");
    expect([...foundPosted([open], [0], [dated], { known: new Set(), since: midnight })]).toEqual(
      [],
    );
    expect([
      ...foundPosted([open], [0], [dated], { known: new Set(), since: midnight - 1 }),
    ]).toEqual([[0, "u1"]]);
    // No date the rule can read: not ruled out by it.
    expect([...at("u1", "soon")]).toEqual([[0, "u1"]]);
  });
});

describe("a message quoted in a sentence", () => {
  it("is its first line, cut to 60 characters with an ellipsis", () => {
    const sixty = "x".repeat(60);
    expect(preview(sixty)).toBe(sixty);
    expect(preview(`${sixty}y`)).toBe(`${"x".repeat(59)}…`);
    expect(preview("  First line.\r\nSecond line.")).toBe("First line.");
  });
});

describe("the plan of an apply's entries, at its edges", () => {
  const live = (status: DeclaredEntry["status"] | null, updates: IncidentUpdate[]) => ({
    status,
    updates,
  });

  it("learns the id of a posted entry recorded without one, by its text as recorded or as declared since", () => {
    const shown = [posting("u1", open, NOON)];
    expect(
      planEntries([open, found], {
        recorded: { entries: [open], ids: [""] },
        live: live("INVESTIGATING", shown),
        reopen: undefined,
      }).actions,
    ).toEqual([
      { kind: "found", index: 0, updateId: "u1" },
      { kind: "post", index: 1 },
    ]);
    // Edited in place by a run that stopped before it recorded the id: found by the new text.
    const edited = { ...open, message: "Card payments fail." };
    expect(
      planEntries([edited], {
        recorded: { entries: [open], ids: [""] },
        live: live("INVESTIGATING", [posting("u1", edited, NOON)]),
        reopen: undefined,
      }).actions,
    ).toEqual([
      { kind: "found", index: 0, updateId: "u1" },
      { kind: "edit", index: 0, updateId: "u1" },
    ]);
  });

  it("refuses to edit a posted entry the service shows no update of, saying what to do", () => {
    const plan = planEntries([{ ...open, message: "Card payments fail." }], {
      recorded: { entries: [open], ids: [""] },
      live: live("INVESTIGATING", []),
      reopen: undefined,
    });
    expect(plan.actions).toEqual([]);
    expect(plan.refusal).toMatchInlineSnapshot(
      `"updates[0] was posted, and the service shows no update with its text to change: edit it on the status page, or put its message back as posted."`,
    );
  });

  it("refuses every violation at once, in one text", () => {
    const plan = planEntries([{ ...open, status: "MONITORING", notify: true }], {
      recorded: { entries: [open], ids: ["u1"] },
      live: live("INVESTIGATING", [posting("u1", open, NOON)]),
      reopen: undefined,
    });
    expect(plan.actions).toEqual([]);
    expect(plan.refusal).toMatch(
      /^updates\[0\] was posted with status INVESTIGATING.* updates\[0\] was posted without notifying/,
    );
  });

  it("refuses an added entry that reopens what an earlier entry of the same apply resolves", () => {
    const reopening = planEntries([open, fixed, found], {
      recorded: { entries: [open], ids: ["u1"] },
      live: live("INVESTIGATING", [posting("u1", open, NOON)]),
      reopen: undefined,
    });
    expect(reopening).toEqual({
      actions: [],
      refusal:
        'updates[2]: the incident is RESOLVED on the status page and this entry status goes from RESOLVED back to IDENTIFIED; add "reopen: true" to reopen a resolved incident on purpose.',
    });
  });

  it("edits the newest entry of a resolved incident when its updates tie with one that carries no status", () => {
    // The newest update with a status is the resolving one, not the edited entry: no reopen.
    const updates = [
      posting("u1", open, NOON),
      posting("u2", fixed, iso(NOON_MS + 60_000)),
      {
        id: "u3",
        description: "A note.",
        notifySubscribers: false,
        created_at: iso(NOON_MS + 120_000),
      },
    ];
    const plan = planEntries([{ ...open, message: "Card payments fail." }, fixed], {
      recorded: { entries: [open, fixed], ids: ["u1", "u2"] },
      live: live("RESOLVED", updates),
      reopen: undefined,
    });
    expect(plan).toEqual({ actions: [{ kind: "edit", index: 0, updateId: "u1" }] });
  });
});
