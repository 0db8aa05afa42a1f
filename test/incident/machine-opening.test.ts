import { describe, expect, it } from "vitest";
import {
  type DeclaredEntry,
  type IncidentInputs,
  type Monotonic,
  OUTCOME_WINDOW_MS,
  type Reply,
  type State,
  type Step,
} from "../../src/incident";
import {
  context,
  drive,
  entriesInputs,
  FAILURES,
  failed,
  incident,
  iso,
  T0,
  update,
} from "./support/machine";

/*
 * The step machine opening a new incident (src/incident/machine/opening.ts): the leases, the
 * list read after the last holder let go, the create and every answer it can get, and what is
 * said and kept when its outcome is unknown. Answers come one a second from T0 (`drive`).
 */

const fresh = entriesInputs();
const [first, second] = fresh.updates as [DeclaredEntry, DeclaredEntry];
const opening = (inputs: IncidentInputs = fresh): State => ({
  op: "apply",
  inputs,
  olds: undefined,
  context,
});
const leased: Reply = { kind: "leased", releasedAt: undefined };
const took: Reply = { kind: "took" };
const listed = (entries: ReturnType<typeof incident>[] = [], readAt = T0): Reply => ({
  kind: "listed",
  incidents: { entries, skipped: [] },
  readAt,
  inRun: new Set(),
});
const answered = (shown: ReturnType<typeof incident>): Reply => ({
  kind: "incident",
  incident: shown,
});
const u0 = update("u0", first.message, T0, "INVESTIGATING");
const u1 = update("u1", second.message, T0 + 9_000, "IDENTIFIED");
const made = incident("inc-new", [u0]);
const timeout = () => failed(FAILURES.timeout());
const throttled = () => failed(FAILURES["rate-limited"]());
const posted: Reply = { kind: "update", update: u1 };
const notesOf = (step: Step) =>
  step.kind === "done" || step.kind === "refuse" ? step.notes : step;

describe("the step machine opening a new incident", () => {
  it("sends the create with the account's services, its first entry and its intent, under the opening's lease", () => {
    const step = drive(opening(), [leased, listed()]).step;
    expect(step).toMatchObject({
      kind: "open",
      body: {
        name: "Checkout fails",
        services: [{ id: "svc-api", name: "Public API", accountId: "acct-1" }],
      },
      intent: {
        lease: expect.stringMatching(/^opening:Checkout fails\n/),
        entry: 0,
        resource: "checkout-down",
      },
    });
    expect(
      drive(opening({ ...fresh, resource: undefined }), [leased, listed()]).step,
    ).toMatchObject({
      kind: "open",
      intent: { entry: 0, resource: "" },
    });
  });

  it("records the create's answer as the first entry posted, says nothing of it, and posts the next", () => {
    const step = drive(opening(), [leased, listed(), answered(made), took, posted]).step;
    expect(step).toMatchObject({
      kind: "done",
      result: { record: { updateIds: ["u0", "u1"], appliedUpdates: [{ id: "u0" }, { id: "u1" }] } },
    });
    expect(notesOf(step)).toEqual([]);
  });

  it("reads the list again, afresh, when another holder let go of the lease after the list was read", () => {
    const released = (at: number): Reply => ({ kind: "leased", releasedAt: at });
    expect(drive(opening(), [released(T0 + 500), listed([], T0)]).step).toEqual({
      kind: "list",
      fresh: true,
    });
    expect(drive(opening(), [released(T0), listed([], T0)]).step).toEqual({
      kind: "list",
      fresh: true,
    });
    expect(drive(opening(), [released(T0 - 1), listed([], T0)]).step).toMatchObject({
      kind: "open",
    });
  });

  it("says a create the service refused in its words, and one it lacks the operation for as such", () => {
    expect(drive(opening(), [leased, listed(), failed(FAILURES.refused())]).step).toEqual({
      kind: "refuse",
      message: "400 Bad Request",
      notes: [],
    });
  });

  it("sends a create answered 429 again once a list shows it was not made, ten times at most", () => {
    const once = drive(opening(), [leased, listed(), throttled()]).step;
    expect(once).toEqual({ kind: "list", fresh: true });
    expect(drive(opening(), [leased, listed(), throttled(), listed()]).step).toMatchObject({
      kind: "open",
    });
    const tenTimes = Array.from({ length: 10 }, () => [throttled(), listed()]).flat();
    expect(drive(opening(), [leased, listed(), ...tenTimes]).step).toMatchObject({ kind: "open" });
    expect(drive(opening(), [leased, listed(), ...tenTimes, throttled()]).step).toMatchObject({
      kind: "refuse",
      message: "429 Too Many Requests",
    });
  });

  it("takes the incident a create answered 429 made, saying so", () => {
    const shown = incident("inc-new", [update("u0", first.message, T0 + 3_000, "INVESTIGATING")]);
    const step = drive(opening(), [
      leased,
      listed(),
      throttled(),
      listed([shown]),
      took,
      leased,
      took,
      answered(shown),
      posted,
    ]).step;
    expect(notesOf(step)).toContain(
      "(new: checkout-down): the request that opens it was answered 429, and the service shows it opened as inc-new: it is taken, not opened again.",
    );
  });

  it("takes the incident a create with no answer made, saying so, and takes one already there with the search's own words", () => {
    const shown = incident("inc-new", [update("u0", first.message, T0 + 3_000, "INVESTIGATING")]);
    const lost = drive(opening(), [
      leased,
      listed(),
      timeout(),
      listed([shown]),
      took,
      leased,
      took,
      answered(shown),
      posted,
    ]).step;
    expect(notesOf(lost)).toContain(
      "(new: checkout-down): the request that opens it got no answer, and the service shows it opened as inc-new: it is taken, not opened again.",
    );
    const there = drive(opening(), [
      leased,
      listed([shown]),
      took,
      leased,
      took,
      answered(shown),
      posted,
    ]).step;
    expect(notesOf(there)).toEqual([
      expect.stringMatching(
        /^incident "Checkout fails" \(resource checkout-down\) is on the status page already as inc-new/,
      ),
      expect.stringMatching(
        /^incident inc-new: updates\[0\] of the definition is on the status page already/,
      ),
    ]);
  });

  it("after a create with no answer or answered 429, takes no namesake opened before it was sent", () => {
    const older = incident(
      "inc-old",
      [update("u7", first.message, T0 - 7_200_000, "INVESTIGATING")],
      {
        created_at: iso(T0 - 7_200_000),
      },
    );
    for (const lost of [timeout(), throttled()]) {
      expect(drive(opening(), [leased, listed(), lost, listed([older])]).step).toMatchObject({
        kind: "refuse",
        message: expect.stringContaining("is not opened: incident inc-old"),
      });
    }
  });

  it("keeps a create with no answer that no list shows, saying until when none is sent again", () => {
    const step = drive(opening(), [leased, listed(), timeout(), listed()]).step;
    expect(step).toMatchObject({
      keep: { record: { unanswered: { entry: 0, at: iso(T0 + 3_000) } } },
    });
    expect(step.kind === "refuse" && step.message).toMatchInlineSnapshot(
      `"(new: checkout-down): the service did not answer the request that opens it, sent at 2026-11-27T12:00:03.000Z, and does not show it opened. No create is sent again until the service shows it or until 2026-11-27T12:10:03.000Z: a run before then reads again, and takes the incident if it shows."`,
    );
    const unread = drive(opening(), [
      leased,
      listed(),
      timeout(),
      failed(FAILURES["server-error"]()),
    ]).step;
    expect(unread.kind === "refuse" && unread.message).toMatchInlineSnapshot(
      `"503 Service Unavailable The request that opens it, sent at 2026-11-27T12:00:03.000Z, got no answer: No create is sent again until the service shows it or until 2026-11-27T12:10:03.000Z: a run before then reads again, and takes the incident if it shows."`,
    );
  });

  it("keeps a create answered 429 with the clock it was sent by, when the list that would show it fails", () => {
    const clock: Monotonic = { boot: "b1", ms: 0 };
    const step = drive(
      opening(),
      [leased, listed(), throttled(), failed(FAILURES["server-error"]())],
      T0,
      clock,
    ).step;
    expect(step).toMatchObject({
      kind: "refuse",
      keep: {
        record: { unanswered: { entry: 0, at: iso(T0 + 3_000), clock: { boot: "b1", ms: 3_000 } } },
      },
    });
  });

  it("keeps the time the create was sent, not of its read back, when a create answered without updates is not read back", () => {
    const bare = answered({ ...made, incidentUpdates: [] });
    const step = drive(opening(), [leased, listed(), bare, timeout(), listed()]).step;
    expect(step).toMatchObject({
      keep: { record: { unanswered: { entry: 0, at: iso(T0 + 3_000) } } },
    });
  });

  it("does not take a create's answer, nor its read back, that is not the incident sent", () => {
    const other = incident("inc-new", [
      update("u0", "Another first message.", T0, "INVESTIGATING"),
    ]);
    expect(drive(opening(), [leased, listed(), answered(other)]).step).toEqual({
      kind: "list",
      fresh: true,
    });
    const renamedBare = { ...made, name: "Another name", incidentUpdates: [] };
    expect(drive(opening(), [leased, listed(), answered(renamedBare)]).step).toEqual({
      kind: "list",
      fresh: true,
    });
    const bare = answered({ ...made, incidentUpdates: [] });
    const confirm = drive(opening(), [leased, listed(), bare, answered(other)]);
    expect(confirm.step).toEqual({ kind: "list", fresh: true });
    expect(drive(opening(), [leased, listed(), bare, answered(made)]).step).toEqual({
      kind: "take",
      incidentId: "inc-new",
    });
  });

  it("holds back only a create, not a post, that a killed holder of the opening's lease sent", () => {
    const heldPost: Reply = { ...leased, unanswered: { entry: 1, at: iso(T0) } };
    expect(drive(opening(), [heldPost, listed()]).step).toMatchObject({ kind: "open" });
    const heldCreate: Reply = { ...leased, unanswered: { entry: 0, at: iso(T0) } };
    expect(drive(opening(), [heldCreate, listed()]).step).toMatchObject({
      kind: "refuse",
      message: expect.stringMatching(
        /^\(new: checkout-down\): not opened: the request that opens it, sent at /,
      ),
    });
  });

  it("holds back a create while the machine's clock says its window is open, though the wall clock jumped past it", () => {
    // Sent 11 minutes before by the wall clock, 5 minutes before by the machine's clock.
    const sent = { entry: 0, at: iso(T0 - 660_000), clock: { boot: "b1", ms: 0 } };
    const held: Reply = { ...leased, unanswered: sent };
    const clock: Monotonic = { boot: "b1", ms: 300_000 - 2_000 };
    expect(drive(opening(), [held, listed([], T0)], T0, clock).step).toMatchObject({
      kind: "refuse",
      message: expect.stringContaining(`until ${iso(T0 + 2_000 + OUTCOME_WINDOW_MS - 300_000)}`),
    });
    expect(drive(opening(), [held, listed([], T0)], T0).step).toMatchObject({ kind: "open" });
  });

  it("names the opening another resource of the run took when it refuses", () => {
    const step = drive(opening(), [leased, listed([made]), { kind: "taken" }]).step;
    expect(step.kind === "refuse" && step.message).toMatchInlineSnapshot(
      `"(new: checkout-down): incident inc-new, on the status page with this name and first message and not recorded in this stack's state, is taken by another definition of this stack with the same name and first message. Give one of them another first message."`,
    );
  });
});
