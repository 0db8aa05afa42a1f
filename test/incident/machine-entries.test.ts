import { describe, expect, it } from "vitest";
import {
  type DeclaredEntry,
  type IncidentInputs,
  type IncidentRecord,
  observe,
  type Reply,
  type State,
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
 * The step machine once an incident with `updates` is known (src/incident/machine/entries.ts):
 * what each answer to its reads, PUT, posts and edits leads to, and what the record then holds.
 */

const leased: Reply = { kind: "leased", releasedAt: undefined };
const took: Reply = { kind: "took" };
const third: DeclaredEntry = { status: "MONITORING", message: "A fix is out. [e2]", notify: true };
const known = entriesInputs({ incidentId: undefined });
const [first, second] = known.updates as [DeclaredEntry, DeclaredEntry];
const u0 = update("u0", first.message, T0, "INVESTIGATING");
const u1 = update("u1", second.message, T0 + 5_000, "IDENTIFIED");
const shownFirst = incident("inc-new", [u0]);
const read = (shown = shownFirst): Reply => ({ kind: "incident", incident: shown });
const posted = (answer = u1): Reply => ({ kind: "update", update: answer });
const knownRecord = record(known, { incidentId: "inc-new", updates: [first], updateIds: ["u0"] });
const applying = (inputs: IncidentInputs = known, olds: IncidentRecord = knownRecord): State => ({
  op: "apply",
  inputs,
  olds,
  context,
});
const listed = (entries: ReturnType<typeof incident>[], readAt = T0): Reply => ({
  kind: "listed",
  incidents: { entries, skipped: [] },
  readAt,
  inRun: new Set(),
});
/** An incident an earlier run opened, recorded with its first entry in its old words. */
const editing = applying(known, {
  ...knownRecord,
  updates: [{ ...first, message: "Old words. [e0]" }],
});
const shownOld = incident("inc-new", [
  update("u0", "Old words. [e0]", T0 - 60_000, "INVESTIGATING"),
]);

describe("the step machine posting on a known incident", () => {
  it("posts the next entry under the incident's lease, naming the resource, and records the update the service answered", () => {
    const post = drive(applying(), [leased, took, read()]).step;
    expect(post).toEqual({
      kind: "post",
      incidentId: "inc-new",
      body: expect.objectContaining({ description: second.message, notifySubscribers: true }),
      intent: { lease: "incident:inc-new", entry: 1, resource: "checkout-down" },
    });
    const done = drive(applying(), [leased, took, read(), posted()]).step;
    expect(done).toMatchObject({
      kind: "done",
      result: {
        op: "apply",
        id: "inc-new",
        record: {
          updateIds: ["u0", "u1"],
          appliedAt: iso(T0 + 5_000),
          appliedUpdates: [{ id: "u1" }],
        },
      },
    });
    const unnamed = { ...known, resource: undefined };
    expect(drive(applying(unnamed), [leased, took, read()]).step).toMatchObject({
      kind: "post",
      intent: { lease: "incident:inc-new", entry: 1, resource: "" },
    });
  });

  it("refuses a post the service refused, saying which entry was not posted, and keeps nothing when nothing was written", () => {
    const step = drive(applying(), [leased, took, read(), failed(FAILURES.refused())]).step;
    expect(step).toEqual({
      kind: "refuse",
      message: "incident inc-new: updates[1] was not posted: 400 Bad Request",
      notes: [],
    });
  });

  it("asks the service's own read of the updates when a post is answered 404, and says the incident is missing when that fails too", () => {
    const notFound = failed(FAILURES["not-found"]());
    expect(drive(applying(), [leased, took, read(), notFound]).step).toEqual({
      kind: "list-updates",
      incidentId: "inc-new",
    });
    expect(drive(applying(), [leased, took, read(), notFound, notFound]).step).toMatchObject({
      kind: "refuse",
      message: expect.stringMatching(/^incident inc-new: updates\[1\] was not posted: /),
    });
  });

  it("keeps the entries posted so far when a later post is refused", () => {
    const three = { ...known, updates: [first, second, third] };
    const step = drive(applying(three), [
      leased,
      took,
      read(),
      posted(),
      failed(FAILURES.refused()),
    ]).step;
    expect(step).toMatchObject({
      kind: "refuse",
      message: "incident inc-new: updates[2] was not posted: 400 Bad Request",
      keep: { id: "inc-new", record: { incidentId: "inc-new", updateIds: ["u0", "u1"] } },
    });
    // A 404 probed first keeps them too, once the probe says the incident is missing.
    const notFound = () => failed(FAILURES["not-found"]());
    const probed = drive(applying(three), [
      leased,
      took,
      read(),
      posted(),
      notFound(),
      notFound(),
    ]).step;
    expect(probed).toMatchObject({
      kind: "refuse",
      keep: { id: "inc-new", record: { updateIds: ["u0", "u1"] } },
    });
  });

  it("takes a post read back after it got no answer by the id of its own update, whatever the service lists first", () => {
    const timeout = failed(FAILURES.timeout());
    const shown = incident("inc-new", [u0, u1]);
    const step = drive(applying(), [leased, took, read(), timeout, read(shown)]).step;
    expect(step).toMatchObject({
      kind: "done",
      result: { record: { updateIds: ["u0", "u1"], appliedAt: iso(T0 + 5_000) } },
    });
  });

  it("does not take an update without an id for a post that got no answer", () => {
    const timeout = failed(FAILURES.timeout());
    const note = update(undefined, "A note from a person.", T0 + 5_000);
    const step = drive(applying(), [
      leased,
      took,
      read(),
      timeout,
      read(incident("inc-new", [u0, note])),
    ]).step;
    expect(step).toMatchObject({
      kind: "refuse",
      message: expect.stringContaining("updates[1] may not have been posted"),
      keep: { record: { unanswered: { entry: 1 } } },
    });
  });
});

describe("the step machine editing a posted entry", () => {
  it("edits the entry in place with the status and date of its own update", () => {
    const shown = incident("inc-new", [
      update("u0", first.message, T0 - 60_000, "INVESTIGATING"),
      update("u1", "Old words. [e1]", T0 - 30_000, "IDENTIFIED"),
    ]);
    const olds = {
      ...knownRecord,
      updates: [first, { ...second, message: "Old words. [e1]" }],
      updateIds: ["u0", "u1"],
    };
    const step = drive(applying(known, olds), [leased, took, read(shown)]).step;
    expect(step).toEqual({
      kind: "edit",
      incidentId: "inc-new",
      updateId: "u1",
      body: {
        description: second.message,
        status: "IDENTIFIED",
        notifySubscribers: false,
        publicIncidentUpdateDate: iso(T0 - 30_000),
      },
    });
  });

  it("refuses an edit the service refused with its words alone, keeping nothing: an edit notifies nobody and opens nothing", () => {
    const step = drive(editing, [leased, took, read(shownOld), failed(FAILURES.refused())]).step;
    expect(step).toEqual({ kind: "refuse", message: "400 Bad Request", notes: [] });
  });

  it("asks the service's own read of the updates when an edit is answered 404", () => {
    const notFound = failed(FAILURES["not-found"]());
    expect(drive(editing, [leased, took, read(shownOld), notFound]).step).toEqual({
      kind: "list-updates",
      incidentId: "inc-new",
    });
    expect(drive(editing, [leased, took, read(shownOld), notFound, notFound]).step).toMatchObject({
      kind: "refuse",
      message: expect.stringMatching(/^Incident "inc-new" does not exist in account "acct-1"\./),
    });
  });

  it("keeps the edited entry's id when the edit is answered without one, and keeps nothing when the post after it is refused", () => {
    const edited = posted(update(undefined, first.message, T0 - 60_000, "INVESTIGATING"));
    expect(drive(editing, [leased, took, read(shownOld), edited, posted()]).step).toMatchObject({
      kind: "done",
      result: { record: { updateIds: ["u0", "u1"] } },
    });
    const refused = drive(editing, [
      leased,
      took,
      read(shownOld),
      edited,
      failed(FAILURES.refused()),
    ]);
    expect(refused.step).toEqual({
      kind: "refuse",
      message: "incident inc-new: updates[1] was not posted: 400 Bad Request",
      notes: [],
    });
  });
});

describe("the step machine reading a known incident", () => {
  it("refuses with the service's words when the read fails, and says the incident is missing when a PUT finds it gone", () => {
    const down = failed(FAILURES["server-error"]());
    expect(drive(applying(), [leased, took, down]).step).toEqual({
      kind: "refuse",
      message: "503 Service Unavailable",
      notes: [],
    });
    const renamed = { ...known, name: "Checkout is down" };
    const put = drive(applying(renamed), [leased, took, read()]).step;
    expect(put).toMatchObject({
      kind: "put",
      incidentId: "inc-new",
      body: { name: "Checkout is down" },
    });
    expect(put.kind === "put" && put.body).toMatchInlineSnapshot(`
      {
        "name": "Checkout is down",
        "services": [
          {
            "accountId": "acct-1",
            "id": "svc-api",
            "name": "Public API",
          },
        ],
        "severity": "MAJOR",
      }
    `);
    const gone = drive(applying(renamed), [
      leased,
      took,
      read(),
      failed(FAILURES["not-found"]()),
    ]).step;
    expect(gone.kind === "refuse" && gone.message).toMatchInlineSnapshot(
      `"Incident "inc-new" does not exist in account "acct-1". Fix the id in its definition, or leave "id" out (with "resource" and "updates") to open a new incident."`,
    );
    const noAccount = { ...applying(renamed), context: { ...context, accountId: "" } } as State;
    const goneAgain = drive(noAccount, [
      leased,
      took,
      read(),
      failed(FAILURES["not-found"]()),
    ]).step;
    expect(goneAgain.kind === "refuse" && goneAgain.message).not.toContain("acct-1");
  });

  it("says the incident is missing, with no prefix, when a read and the service's own read of its updates both find nothing", () => {
    const notFound = failed(FAILURES["not-found"]());
    const step = drive(applying(), [leased, took, notFound, notFound]).step;
    expect(step.kind === "refuse" && step.message).toMatchInlineSnapshot(
      `"Incident "inc-new" does not exist in account "acct-1". Fix the id in its definition, or leave "id" out (with "resource" and "updates") to open a new incident."`,
    );
  });

  it("refuses a PUT whose answer shows the service did not take it", () => {
    const renamed = { ...known, name: "Checkout is down" };
    const step = drive(applying(renamed), [leased, took, read(), read()]).step;
    expect(step).toMatchObject({
      kind: "refuse",
      message: expect.stringMatching(
        /^incident inc-new: the service answered the PUT with name "Checkout fails", not what was sent/,
      ),
    });
  });

  it("says an answer of the wrong kind to a read, a list or a PUT is a bug of the provider", () => {
    const renamed = { ...known, name: "Checkout is down" };
    expect(drive(applying(), [leased, took, took]).step).toEqual({
      kind: "refuse",
      message:
        "incident-sync: the provider answered took to a step of known-get (a bug; please report it).",
      notes: [],
    });
    expect(drive(applying(renamed), [leased, took, read(), took]).step).toMatchObject({
      message: expect.stringContaining("answered took to a step of known-put"),
    });
    expect(drive(editing, [leased, took, read(shownOld), took]).step).toMatchObject({
      message: expect.stringContaining("answered took to a step of send"),
    });
    expect(drive(applying(), [leased, took, read(), took]).step).toMatchObject({
      message: expect.stringContaining("answered took to a step of send"),
    });
  });
});

describe("the step machine adopting from the run's list", () => {
  const shown = incident("inc-new", [
    update("u0", first.message, T0 - 60_000, "INVESTIGATING"),
    update("u1", second.message, T0 - 30_000, "IDENTIFIED"),
  ]);
  const adopting = (shownNow = shown): State => ({
    op: "apply",
    inputs: entriesInputs({
      incidentId: "inc-new",
      observed: observe(shownNow.incidentUpdates, shownNow),
    }),
    olds: undefined,
    context,
  });
  const other = incident("inc-other", [update("u7", "Elsewhere.", T0 - 10_000, "INVESTIGATING")]);

  it("takes the list only when it was read after any other holder let go of the lease", () => {
    const released = (at: number): Reply => ({ kind: "leased", releasedAt: at });
    expect(drive(adopting(), [released(T0 + 500), took, listed([shown], T0)]).step).toEqual({
      kind: "get",
      incidentId: "inc-new",
    });
    expect(drive(adopting(), [released(T0), took, listed([shown], T0)]).step).toEqual({
      kind: "get",
      incidentId: "inc-new",
    });
    expect(drive(adopting(), [released(T0 - 1), took, listed([shown], T0)]).step).toMatchObject({
      kind: "done",
    });
  });

  it("finds its incident among others in the list, and reads it when the list shows an entry still to post", () => {
    expect(drive(adopting(), [leased, took, listed([other, shown])]).step).toMatchObject({
      kind: "done",
      result: { record: { updateIds: ["u0", "u1"] } },
    });
    const half = incident("inc-new", [update("u0", first.message, T0 - 60_000, "INVESTIGATING")]);
    expect(drive(adopting(half), [leased, took, listed([half])]).step).toEqual({
      kind: "get",
      incidentId: "inc-new",
    });
  });

  it("reads, and does not take the list, when a write under the lease got no answer", () => {
    const held: Reply = { ...leased, unanswered: { entry: 1, at: iso(T0 - 1_000) } };
    expect(drive(adopting(), [held, took]).step).toEqual({ kind: "get", incidentId: "inc-new" });
  });

  it("says it adopts only the entries it found, not those it posts", () => {
    const half = incident("inc-new", [update("u0", first.message, T0 - 60_000, "INVESTIGATING")]);
    const step = drive(adopting(half), [leased, took, listed([half]), read(half), posted()]).step;
    expect(step.kind === "done" && step.notes).toEqual([
      "incident inc-new: updates[0] of the definition is on the status page already, as declared: it is taken as posted, not posted again.",
    ]);
  });
});

describe("the step machine taking the incident it opened", () => {
  it("records the opening's update once a read gives its id, whatever else the service lists first", () => {
    const opening: State = { op: "apply", inputs: entriesInputs(), olds: undefined, context };
    const withoutIds = incident("inc-new", [update(undefined, first.message, T0, "INVESTIGATING")]);
    const note = update("u9", "A note from a person.", T0 + 2_000);
    const shown = incident("inc-new", [note, u0]);
    const step = drive(opening, [
      leased,
      listed([]),
      read(withoutIds),
      took,
      read(shown),
      posted(),
    ]).step;
    expect(step).toMatchObject({
      kind: "done",
      result: { record: { updateIds: ["u0", "u1"], appliedUpdates: [{ id: "u0" }, { id: "u1" }] } },
    });
    // Its own first entry, not one found on the status page: nothing to say.
    expect(step.kind === "done" && step.notes).toEqual([]);
  });

  it("reads the incident it opened under its lease, never taking the run's list, read before it existed", () => {
    const made = incident("inc-new", [u0]);
    const inputs = entriesInputs({ observed: observe(made.incidentUpdates, made) });
    const opening: State = { op: "apply", inputs, olds: undefined, context };
    const withoutIds = incident("inc-new", [update(undefined, first.message, T0, "INVESTIGATING")]);
    expect(drive(opening, [leased, listed([]), read(withoutIds), took]).step).toEqual({
      kind: "get",
      incidentId: "inc-new",
    });
  });
});
