import { describe, expect, it } from "vitest";
import {
  type IncidentInputs,
  type IncidentRecord,
  inWindow,
  latest,
  OUTCOME_WINDOW_MS,
  type Reply,
  type State,
  type Unanswered,
  windowEnd,
} from "../../src/incident";
import {
  context,
  drive,
  entriesInputs,
  FAILURES,
  failed,
  incident,
  iso,
  record,
  T0,
  update,
} from "./support/machine";

/*
 * Writes that got no answer, held back until a read shows them or their window ends: which one
 * holds, and what it holds back (src/incident/unanswered.ts and the machine's uses of it).
 */

const leased: Reply = { kind: "leased", releasedAt: undefined };
const removing = (changes: Partial<IncidentRecord>, inputs: IncidentInputs) =>
  ({ op: "remove", record: record(inputs, changes), context }) as const;

describe("writes held back for their window", () => {
  it("of two unanswered writes, keeps the one sent last, whichever is given first", () => {
    const older: Unanswered = { entry: 0, at: iso(T0 - 60_000) };
    const newer: Unanswered = { entry: 1, at: iso(T0) };
    expect(latest(older, newer)).toBe(newer);
    expect(latest(newer, older)).toBe(newer);
    expect(latest(undefined, older)).toBe(older);
    expect(latest(newer, undefined)).toBe(newer);
  });

  it("posts the resolving update of a removal when the write left unanswered under its lease was one of its entries", () => {
    const inputs = entriesInputs({ onRemove: "resolve" });
    const held: Reply = { ...leased, unanswered: { entry: 1, at: iso(T0) } };
    const shown = incident("inc-new", [update("u0", "We are looking into it. [e0]", T0)]);
    const step = drive(removing({ incidentId: "inc-new" }, inputs), [
      held,
      { kind: "incident", incident: shown },
    ]).step;
    expect(step).toMatchObject({
      kind: "post",
      incidentId: "inc-new",
      body: { status: "RESOLVED" },
    });
  });

  it("ends a window when both clocks say so: a wall clock moved forward on the same boot does not end it early", () => {
    const sent: Unanswered = { entry: 0, at: iso(T0), clock: { boot: "b1", ms: 1_000 } };
    const wallEnd = T0 + OUTCOME_WINDOW_MS;
    // The wall clock jumped an hour ahead while one minute passed on the machine's clock.
    const jumped = { at: T0 + 3_600_000, clock: { boot: "b1", ms: 61_000 } };
    expect(windowEnd(sent, jumped)).toBe(iso(jumped.at + OUTCOME_WINDOW_MS - 60_000));
    expect(inWindow(sent, jumped)).toBe(true);
    // Another boot, or no reading now: only the wall clock is there.
    expect(windowEnd(sent, { ...jumped, clock: { boot: "b2", ms: 61_000 } })).toBe(iso(wallEnd));
    expect(windowEnd(sent, { at: jumped.at })).toBe(iso(wallEnd));
    expect(windowEnd(sent)).toBe(iso(wallEnd));
    expect(inWindow(sent, { at: jumped.at })).toBe(false);
    expect(inWindow(undefined, { at: T0 })).toBe(false);
  });

  it("keeps a create that got no answer when the list that would show it fails, and says until when no create is sent", () => {
    const opening: State = { op: "apply", inputs: entriesInputs(), olds: undefined, context };
    const leasedNow: Reply = { kind: "leased", releasedAt: undefined };
    const nothing: Reply = {
      kind: "listed",
      incidents: { entries: [], skipped: [] },
      readAt: T0,
      inRun: new Set(),
    };
    const step = drive(
      opening,
      [leasedNow, nothing, failed(FAILURES.timeout()), failed(FAILURES["server-error"]())],
      T0,
      { boot: "b1", ms: 0 },
    ).step;
    expect(step).toMatchObject({
      kind: "refuse",
      message: expect.stringContaining(`until ${iso(T0 + 3_000 + OUTCOME_WINDOW_MS)}`),
      keep: {
        record: { unanswered: { entry: 0, at: iso(T0 + 3_000), clock: { boot: "b1", ms: 3_000 } } },
      },
    });
  });
});
