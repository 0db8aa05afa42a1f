import { describe, expect, it } from "vitest";
import { type IncidentRecord, observe, type Reply, type State } from "../../src/incident";
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
 * Every read the machine makes may fail: each failure is said, worked around or kept, and none
 * is taken for an answer the provider should not have given ("a bug; please report it").
 */

const leased: Reply = { kind: "leased", releasedAt: undefined };
const took: Reply = { kind: "took" };
const down = () => failed(FAILURES["server-error"]());
const fresh = entriesInputs();
const [first] = fresh.updates ?? [];
const u0 = update("u0", first?.message ?? "", T0 - 60_000, "INVESTIGATING");
const shown = incident("inc-new", [u0]);
const listed = (entries: ReturnType<typeof incident>[] = []): Reply => ({
  kind: "listed",
  incidents: { entries, skipped: [] },
  readAt: T0,
  inRun: new Set(),
});
const notABug = { message: expect.not.stringContaining("a bug; please report it") };

describe("a failed read in each phase of the step machine", () => {
  it("takes no list for an adoption when the run's list failed: the incident is read alone", () => {
    const adopting: State = {
      op: "apply",
      inputs: entriesInputs({
        incidentId: "inc-new",
        observed: observe(shown.incidentUpdates, shown),
      }),
      olds: undefined,
      context,
    };
    expect(drive(adopting, [leased, took]).step).toEqual({ kind: "list", fresh: false });
    expect(drive(adopting, [leased, took, down()]).step).toEqual({
      kind: "get",
      incidentId: "inc-new",
    });
  });

  it("keeps a post with no answer when its read back fails too", () => {
    const known = entriesInputs({ incidentId: undefined });
    const olds = record(known, {
      incidentId: "inc-new",
      updates: known.updates?.slice(0, 1),
      updateIds: ["u0"],
    });
    const applying: State = { op: "apply", inputs: known, olds, context };
    const step = drive(applying, [
      leased,
      took,
      { kind: "incident", incident: shown },
      failed(FAILURES.timeout()),
      down(),
    ]).step;
    expect(step).toMatchObject({
      kind: "refuse",
      ...notABug,
      keep: { record: { unanswered: { entry: 1, at: iso(T0 + 4_000) } } },
    });
  });

  it("opens nothing while a namesake the list gave without updates cannot be read", () => {
    const opening: State = { op: "apply", inputs: fresh, olds: undefined, context };
    const bare = { ...shown, incidentUpdates: undefined } as never;
    expect(drive(opening, [leased, listed([bare])]).step).toEqual({
      kind: "get",
      incidentId: "inc-new",
    });
    expect(drive(opening, [leased, listed([bare]), down()]).step).toMatchObject({
      kind: "refuse",
      message: expect.stringContaining("cannot be read: inc-new (503 Service Unavailable)"),
    });
  });

  it("says why a create was answered 404 when the account's services cannot be read either", () => {
    const opening: State = { op: "apply", inputs: fresh, olds: undefined, context };
    const step = drive(opening, [leased, listed(), failed(FAILURES["not-found"]())]).step;
    expect(step).toEqual({ kind: "services" });
    const unread = drive(opening, [leased, listed(), failed(FAILURES["not-found"]()), down()]).step;
    expect(unread).toMatchObject({
      kind: "refuse",
      message: expect.stringMatching(
        /^\(new: checkout-down\): the service answered POST \/v1\/status-pages\/incidents with 404, so nothing was opened\./,
      ),
    });
    expect(unread).toMatchObject(notABug);
  });

  it("decides a diff from git alone when its read fails", () => {
    const olds = record(fresh, {
      incidentId: "inc-new",
      updateIds: ["u0"],
      updates: fresh.updates?.slice(0, 1),
    });
    const news = { ...fresh, incidentId: undefined };
    const diff: State = { op: "diff", olds, news, enforce: "observed", context };
    expect(drive(diff, []).step).toEqual({ kind: "get", incidentId: "inc-new" });
    expect(drive(diff, [down()]).step).toMatchObject({
      kind: "done",
      result: { op: "diff", changes: true },
    });
  });

  it("says a removal's search failed in the service's words, and lets go when it finds nothing", () => {
    const claimed = record(entriesInputs({ onRemove: "resolve" }), {
      claimed: true,
      intentAt: iso(T0),
    } as Partial<IncidentRecord>);
    const removing: State = { op: "remove", record: claimed, context };
    expect(drive(removing, []).step).toEqual({ kind: "list", fresh: false });
    expect(drive(removing, [down()]).step).toEqual({
      kind: "refuse",
      message: "503 Service Unavailable",
      notes: [],
    });
    expect(drive(removing, [listed()]).step).toMatchObject({
      kind: "done",
      result: { outcome: "released" },
    });
    const bare = { ...shown, incidentUpdates: undefined } as never;
    const opened = { ...shown, created_at: iso(T0) };
    expect(drive(removing, [listed([bare]), { kind: "incident", incident: opened }]).step).toEqual({
      kind: "lease",
      key: "incident:inc-new",
    });
    expect(drive(removing, [listed([bare]), down()]).step).toMatchObject({
      kind: "done",
      result: { outcome: "released" },
    });
  });
});
