import { describe, expect, it } from "vitest";
import type { IncidentUpdate } from "../../src/api";
import {
  CLOCK_SKEW_MS,
  type DeclaredEntry,
  decideCreation,
  namesakes,
  openingLease,
  openingLeases,
  openingsAmong,
  openingsSought,
  RECENT_CREATION_MS,
  takenTwiceMessage,
  unreadableOpeningsMessage,
} from "../../src/incident";

/*
 * The rules of "the incident this definition opened" (src/incident/creation.ts), which the
 * step machine searches by before any create: what is sought, under which leases, among which
 * incidents, and what is decided on what is found.
 */

const first: DeclaredEntry = { status: "INVESTIGATING", message: "Payments fail.", notify: true };
const edited: DeclaredEntry = { ...first, message: "Card payments fail." };
const NOON_MS = Date.parse("2026-11-26T12:00:00.000Z");
const iso = (ms: number) => new Date(ms).toISOString();
const posting = (id: string, entry: DeclaredEntry, at: number): IncidentUpdate => ({
  id,
  description: entry.message,
  status: entry.status,
  notifySubscribers: entry.notify,
  created_at: iso(at),
});
const shown = (id: string, name: string, created: number, status = "INVESTIGATING") => ({
  id,
  name,
  created_at: iso(created),
  lastUpdateStatus: status,
  incidentUpdates: [posting(`${id}-u0`, first, created)],
});
const declaration = { name: "Payments", resource: "payments" };

describe("the openings a new incident seeks", () => {
  it("seeks its declared opening and the one its state recorded, once when they are the same message", () => {
    const now = { name: "Payments", updates: [first] };
    expect(openingsSought(now, undefined)).toEqual([{ name: "Payments", first }]);
    expect(
      openingsSought(now, {
        name: "Payments",
        updates: [{ ...first, message: " Payments fail.\r\n" }],
      }),
    ).toEqual([{ name: "Payments", first }]);
    expect(openingsSought(now, { name: "Old name", updates: [first] })).toEqual([
      { name: "Payments", first },
      { name: "Old name", first },
    ]);
    expect(openingsSought(now, { name: "Payments", updates: [edited] })).toEqual([
      { name: "Payments", first },
      { name: "Payments", first: edited },
    ]);
    expect(openingsSought({ name: "Payments" }, { name: "Payments" })).toEqual([]);
  });

  it("takes its leases in one sorted order, one per opening, and one lease even without updates", () => {
    const now = { name: "Payments", updates: [first] };
    expect(openingLeases(now, undefined)).toEqual(["opening:Payments\nPayments fail."]);
    expect(openingLeases(now, { name: "A renamed", updates: [first] })).toEqual([
      "opening:A renamed\nPayments fail.",
      "opening:Payments\nPayments fail.",
    ]);
    expect(
      openingLeases(now, { name: "Payments", updates: [{ ...first, message: "Payments fail. " }] }),
    ).toEqual(["opening:Payments\nPayments fail."]);
    expect(openingLease({ name: "Zebra", updates: [first] })).toBe("opening:Zebra\nPayments fail.");
    expect(openingLease({ name: "Payments" })).toBe("opening:");
  });
});

describe("the incidents that may be the opening", () => {
  const openings = [{ name: "Payments", first }];

  it("are those of its name no resource of the run took, and the unreadable entries that may be of its name", () => {
    const listed = {
      entries: [
        { id: "inc-1", name: "Payments" },
        { id: "inc-2", name: "Other" },
        { id: "inc-3", name: "Payments" },
      ],
      skipped: [
        { index: 3, id: "inc-4", problem: "no name" },
        { index: 4, name: "Payments", problem: "bad date" },
        { index: 5, id: "inc-6", name: "Other", problem: "bad date" },
        { index: 6, id: "inc-3", name: "Payments", problem: "bad status" },
      ],
    };
    expect(namesakes(listed, openings, new Set(["inc-3"]))).toEqual({
      named: [{ id: "inc-1", name: "Payments" }],
      unreadable: ["inc-4 (no name)", "entry 4 (bad date)"],
    });
    expect(namesakes(listed, openings, new Set())).toMatchObject({
      named: [{ id: "inc-1" }, { id: "inc-3" }],
    });
  });

  it("read whole, are those with a sought name and a sought first entry, in either combination", () => {
    const sought = [
      { name: "Payments", first },
      { name: "Old name", first: edited },
    ];
    const at = NOON_MS;
    const whole = (id: string, name: string, entry: DeclaredEntry) => ({
      id,
      name,
      created_at: iso(at),
      incidentUpdates: [posting(`${id}-u0`, entry, at)],
    });
    const found = openingsAmong(
      [
        whole("inc-1", "Payments", first),
        whole("inc-2", "Old name", first),
        whole("inc-3", "Payments", edited),
        whole("inc-4", "Other", first),
        whole("inc-5", "Payments", { ...first, message: "Something else." }),
        { id: "inc-6", name: "Payments", created_at: iso(at) },
      ],
      sought,
    );
    expect(found.map((candidate) => candidate.id)).toEqual(["inc-1", "inc-2", "inc-3"]);
    expect(found[0]?.incidentUpdates).toEqual([posting("inc-1-u0", first, at)]);
  });
});

describe("deciding to open, adopt or refuse", () => {
  const decide = (matches: ReturnType<typeof shown>[], intentAt?: string) =>
    decideCreation(declaration, first, matches, { intentAt, now: NOON_MS });

  it("opens when nothing matches", () => {
    expect(decide([])).toEqual({ kind: "create" });
  });

  it("takes a match created since the intent, allowing the clocks' skew, and the newest of several", () => {
    const intent = NOON_MS - 60_000;
    const atSkew = shown("inc-edge", "Payments", intent - CLOCK_SKEW_MS);
    expect(decide([atSkew], iso(intent))).toMatchObject({ kind: "adopt", incidentId: "inc-edge" });
    const before = shown("inc-before", "Payments", intent - CLOCK_SKEW_MS - 1);
    expect(decide([before], iso(intent))).toMatchObject({ kind: "refuse" });
    const newer = shown("inc-newer", "Payments", intent);
    expect(decide([atSkew, newer], iso(intent))).toMatchObject({ incidentId: "inc-newer" });
    expect(decide([newer, atSkew], iso(intent))).toMatchObject({ incidentId: "inc-newer" });
  });

  it("without an intent, takes a match of the last day, and with an intent it cannot read, measures from now", () => {
    const dayOld = shown("inc-day", "Payments", NOON_MS - RECENT_CREATION_MS);
    expect(decide([dayOld])).toMatchObject({ kind: "adopt", incidentId: "inc-day" });
    const older = shown("inc-older", "Payments", NOON_MS - RECENT_CREATION_MS - 1);
    expect(decide([older])).toMatchObject({ kind: "refuse" });
    const recent = shown("inc-recent", "Payments", NOON_MS - CLOCK_SKEW_MS);
    expect(decide([recent], "not a date")).toMatchObject({ kind: "adopt" });
    expect(decide([dayOld], "not a date")).toMatchObject({ kind: "refuse" });
  });

  it("refuses by the newest match still open, past resolved ones, and names it in words a person acts on", () => {
    const resolved = shown(
      "inc-resolved",
      "Payments",
      NOON_MS - 3 * RECENT_CREATION_MS,
      "RESOLVED",
    );
    const open = shown("inc-open", "Payments", NOON_MS - 5 * RECENT_CREATION_MS);
    const older = shown("inc-oldest", "Payments", NOON_MS - 9 * RECENT_CREATION_MS);
    const decision = decide([older, resolved, open]);
    expect(decision).toEqual({
      kind: "refuse",
      message: expect.stringContaining("incident inc-open, opened at"),
    });
    expect(decision.kind === "refuse" && decision.message).toMatchInlineSnapshot(
      `"incident "Payments" (resource payments) is not opened: incident inc-open, opened at 2026-11-21T12:00:00.000Z and not resolved, has the same name and the same first message ("Payments fail."), and opening another would put the same text on the status page twice. If inc-open is this one, add "id: inc-open" to the definition; if this is a new incident, make its first message say so (a date, what is affected)."`,
    );
    expect(decide([resolved])).toEqual({ kind: "create" });
  });

  it("says what it takes, and what it cannot read, in full", () => {
    const decision = decide([shown("inc-new", "Payments", NOON_MS)]);
    expect(decision.kind === "adopt" && decision.note).toMatchInlineSnapshot(
      `"incident "Payments" (resource payments) is on the status page already as inc-new, opened at 2026-11-26T12:00:00.000Z with its name and first message, and this stack's state does not record it; it is taken, not opened again (another stack of this definition may have opened it)."`,
    );
    expect(
      decideCreation({ name: "Payments" }, first, [shown("inc-new", "Payments", NOON_MS)], {
        now: NOON_MS,
      }),
    ).toMatchObject({ note: expect.stringContaining("(resource ?)") });
    expect(
      unreadableOpeningsMessage({ resource: "payments" }, [
        "inc-1 (bad date)",
        "entry 4 (no name)",
      ]),
    ).toMatchInlineSnapshot(
      `"(new: payments): not opened: the service lists incidents of its name that this stack's state does not record, which may be this one and cannot be read: inc-1 (bad date), entry 4 (no name). Nothing is sent until they can be read; if one of them is this incident, add its id to the definition."`,
    );
    expect(takenTwiceMessage("payments", "inc-1")).toMatchInlineSnapshot(
      `"payments: incident inc-1, on the status page with this name and first message and not recorded in this stack's state, is taken by another definition of this stack with the same name and first message. Give one of them another first message."`,
    );
  });
});
