import { describe, expect, it } from "vitest";
import {
  type IncidentInputs,
  type IncidentRecord,
  latest,
  type Reply,
  type Unanswered,
} from "../../src/incident";
import {
  context,
  drive,
  entriesInputs,
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
});
