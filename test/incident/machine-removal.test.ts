import { describe, expect, it } from "vitest";
import {
  type IncidentInputs,
  type IncidentRecord,
  RESOLVING_ENTRY,
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
  statusInputs,
  T0,
  update,
} from "./support/machine";

/*
 * The step machine deleting a resource (src/incident/machine/removal.ts): let go, resolve by
 * PUT (falling back to an update when the PUT did not take RESOLVED), or post a last update,
 * never twice; and what each failure of those steps says.
 */

const leased: Reply = { kind: "leased", releasedAt: undefined };
const removing = (
  changes: Partial<IncidentRecord>,
  inputs: IncidentInputs = statusInputs(),
  run = context,
): State => ({ op: "remove", record: record(inputs, changes), context: run });
const open = incident("inc-1", [
  update("u0", "We are looking into it.", T0 - 60_000, "MONITORING"),
]);
const resolved = (shown = open) => ({ ...shown, lastUpdateStatus: "RESOLVED" });
const read = (shown = open): Reply => ({ kind: "incident", incident: shown });
const withUpdates = entriesInputs({ onRemove: "resolve" });
const lastUpdate = removing({ incidentId: "inc-new" }, withUpdates);
const shownNew = incident("inc-new", [
  update("u0", "We are looking into it. [e0]", T0 - 60_000, "INVESTIGATING"),
]);
/** Resolved by an update, as the service's own tools resolve it. */
const resolvedNew = incident("inc-new", [
  ...shownNew.incidentUpdates,
  update("u8", "Resolved elsewhere.", T0 - 1_000, "RESOLVED"),
]);

describe("the step machine resolving a removed incident by PUT", () => {
  it("sends RESOLVED with the account's services, and ends once the answer shows it", () => {
    const put = drive(removing({}), []).step;
    expect(put).toEqual({
      kind: "put",
      incidentId: "inc-1",
      body: {
        name: "Checkout fails",
        severity: "MAJOR",
        services: [{ id: "svc-api", name: "Public API", accountId: "acct-1" }],
        lastUpdateStatus: "RESOLVED",
      },
    });
    expect(drive(removing({}), [read(resolved())]).step).toEqual({
      kind: "done",
      result: { op: "remove", outcome: "resolved" },
      notes: [],
    });
  });

  it("resolves with an update, under the incident's lease, when the PUT did not take RESOLVED", () => {
    expect(drive(removing({}), [read()]).step).toEqual({ kind: "lease", key: "incident:inc-1" });
  });

  it("says how to let go of an incident the PUT finds missing, naming the account only when there is one", () => {
    const gone = drive(removing({}), [failed(FAILURES["not-found"]())]).step;
    expect(gone.kind === "refuse" && gone.message).toMatchInlineSnapshot(
      `"Incident "inc-1" does not exist in account "acct-1", so its onRemove: resolve cannot resolve it. If the incident is gone for good, remove the resource from the state with \`pulumi state delete <urn>\` (\`pulumi stack --show-urns\` lists them); if the account or key is wrong, fix the stack config and run again."`,
    );
    const noAccount = { ...context, accountId: "" };
    const goneHere = drive(removing({}, statusInputs(), noAccount), [
      failed(FAILURES["not-found"]()),
    ]).step;
    expect(goneHere).toMatchObject({
      kind: "refuse",
      message: expect.stringMatching(/^Incident "inc-1" does not exist, so its onRemove/),
    });
    expect(drive(removing({}), [failed(FAILURES["server-error"]())]).step).toEqual({
      kind: "refuse",
      message: "503 Service Unavailable",
      notes: [],
    });
  });

  it("refuses a PUT whose answer shows the service did not take the fields sent", () => {
    const step = drive(removing({}), [read({ ...resolved(), name: "Renamed on the page" })]).step;
    expect(step).toMatchObject({
      kind: "refuse",
      message: expect.stringMatching(
        /^incident inc-1: the service answered the PUT with name "Renamed on the page"/,
      ),
    });
  });

  it("names the services of old state from the catalog first, and refuses when the catalog cannot", () => {
    const unnamed = removing({ services: [{ id: "svc-api" }] } as Partial<IncidentRecord>);
    expect(drive(unnamed, []).step).toEqual({
      kind: "catalog",
      incidentId: "inc-1",
      services: [{ id: "svc-api" }],
    });
    const named: Reply = { kind: "named", services: [{ id: "svc-api", name: "Public API" }] };
    expect(drive(unnamed, [named]).step).toMatchObject({
      kind: "put",
      body: { services: [{ id: "svc-api", name: "Public API", accountId: "acct-1" }] },
    });
    expect(drive(unnamed, [failed(FAILURES.refused())]).step).toEqual({
      kind: "refuse",
      message: "400 Bad Request",
      notes: [],
    });
  });

  it("resolves a claimed incident only once it is shown to exist", () => {
    const claimed = removing({ claimed: true });
    expect(drive(claimed, []).step).toEqual({ kind: "list-updates", incidentId: "inc-1" });
    expect(drive(claimed, [failed(FAILURES["not-found"]())]).step).toEqual({
      kind: "done",
      result: { op: "remove", outcome: "released" },
      notes: [],
    });
    expect(drive(claimed, [failed(FAILURES["server-error"]())]).step).toMatchObject({
      kind: "refuse",
      message: "503 Service Unavailable",
    });
    expect(drive(claimed, [{ kind: "updates", updates: [] }]).step).toMatchObject({
      kind: "put",
      incidentId: "inc-1",
    });
  });

  it("lets go of an incident another resource of the run declares, saying so, and of one declared to be released", () => {
    const redeclared = { ...context, inRun: new Set(["inc-1"]) };
    const step = drive(removing({}, statusInputs(), redeclared), []).step;
    expect(step).toMatchObject({
      kind: "done",
      result: { op: "remove", outcome: "released-redeclared" },
      notes: [expect.stringMatching(/^incident inc-1 is released, not resolved/)],
    });
    expect(drive(removing({}, statusInputs({ onRemove: "release" })), []).step).toEqual({
      kind: "done",
      result: { op: "remove", outcome: "released" },
      notes: [],
    });
  });
});

describe("the step machine resolving a removed incident with a last update", () => {
  const posting = [leased, read(shownNew)];

  it("ends at once when the incident is resolved already, and refuses or probes a read that fails", () => {
    expect(drive(lastUpdate, [leased, read(resolvedNew)]).step).toMatchObject({
      kind: "done",
      result: { outcome: "resolved" },
    });
    expect(drive(lastUpdate, [leased, failed(FAILURES["server-error"]())]).step).toEqual({
      kind: "refuse",
      message: "503 Service Unavailable",
      notes: [],
    });
    expect(drive(lastUpdate, [leased, failed(FAILURES["not-found"]())]).step).toEqual({
      kind: "list-updates",
      incidentId: "inc-new",
    });
  });

  it("ends once the post is answered, and refuses or probes a post that fails", () => {
    expect(
      drive(lastUpdate, [...posting, { kind: "update", update: update("u9", "Resolved.", T0) }])
        .step,
    ).toMatchObject({
      kind: "done",
      result: { outcome: "resolved" },
    });
    expect(drive(lastUpdate, [...posting, failed(FAILURES.refused())]).step).toEqual({
      kind: "refuse",
      message: "400 Bad Request",
      notes: [],
    });
    expect(drive(lastUpdate, [...posting, failed(FAILURES["not-found"]())]).step).toEqual({
      kind: "list-updates",
      incidentId: "inc-new",
    });
  });

  it("reads a post that got no answer back, and keeps it in the lease, with its window, when the service does not show it", () => {
    const lost = [...posting, failed(FAILURES.timeout())];
    expect(drive(lastUpdate, lost).step).toEqual({ kind: "get", incidentId: "inc-new" });
    expect(drive(lastUpdate, [...lost, read(resolvedNew)]).step).toMatchObject({
      kind: "done",
      result: { outcome: "resolved" },
    });
    const kept = drive(lastUpdate, [...lost, read(shownNew)]).step;
    expect(kept).toEqual({
      kind: "refuse",
      message: `incident inc-new: the update that resolves it got no answer, and the service does not show it resolved: the next run reads again before it posts. It is not posted again before ${iso(T0 + 3_000 + 600_000)}.`,
      notes: [],
      unanswered: { entry: RESOLVING_ENTRY, at: iso(T0 + 3_000) },
    });
    // Its read back failing too: said, and nothing posted.
    expect(drive(lastUpdate, [...lost, failed(FAILURES["server-error"]())]).step).toMatchObject({
      kind: "refuse",
      message: "503 Service Unavailable",
    });
  });

  it("reads a post answered 429 back and posts again only when the service does not show it resolved", () => {
    const throttled = [...posting, failed(FAILURES["rate-limited"]())];
    expect(drive(lastUpdate, throttled).step).toEqual({ kind: "get", incidentId: "inc-new" });
    expect(drive(lastUpdate, [...throttled, read(shownNew)]).step).toMatchObject({
      kind: "post",
      incidentId: "inc-new",
    });
    expect(drive(lastUpdate, [...throttled, read(resolvedNew)]).step).toMatchObject({
      kind: "done",
      result: { outcome: "resolved" },
    });
    // After ten 429s, the eleventh is said, not sent again.
    const tenTimes = Array.from({ length: 10 }, () => [
      failed(FAILURES["rate-limited"]()),
      read(shownNew),
    ]).flat();
    expect(
      drive(lastUpdate, [...posting, ...tenTimes, failed(FAILURES["rate-limited"]())]).step,
    ).toMatchObject({
      kind: "refuse",
      message: "429 Too Many Requests",
    });
  });

  it("refuses without a post while the update a killed holder was sending may still be made, until its window ends", () => {
    const heldNow: Reply = { ...leased, unanswered: { entry: RESOLVING_ENTRY, at: iso(T0) } };
    expect(drive(lastUpdate, [heldNow, read(shownNew)]).step).toEqual({
      kind: "refuse",
      message:
        "incident inc-new: the update that resolves it got no answer, and the service does not show it resolved: the next run reads again before it posts.",
      notes: [],
    });
    const heldLong: Reply = {
      ...leased,
      unanswered: { entry: RESOLVING_ENTRY, at: iso(T0 - 600_000) },
    };
    expect(drive(lastUpdate, [heldLong, read(shownNew)]).step).toMatchObject({ kind: "post" });
  });

  it("says the incident is missing, in the words of a read, when a read or the post and the service's own read both find nothing", () => {
    const notFound = () => failed(FAILURES["not-found"]());
    const missing =
      'Incident "inc-new" does not exist in account "acct-1". Fix the id in its definition, or leave "id" out (with "resource" and "updates") to open a new incident.';
    expect(drive(lastUpdate, [leased, notFound(), notFound()]).step).toEqual({
      kind: "refuse",
      message: missing,
      notes: [],
    });
    expect(drive(lastUpdate, [...posting, notFound(), notFound()]).step).toEqual({
      kind: "refuse",
      message: missing,
      notes: [],
    });
  });

  it("reads back every post answered 429, not only the first", () => {
    const again = [
      ...posting,
      failed(FAILURES["rate-limited"]()),
      read(shownNew),
      failed(FAILURES["rate-limited"]()),
    ];
    expect(drive(lastUpdate, again).step).toEqual({ kind: "get", incidentId: "inc-new" });
  });

  it("records the resolving update's intent with no resource when the state names none", () => {
    const unnamed = removing({ incidentId: "inc-new", resource: undefined }, withUpdates);
    expect(drive(unnamed, posting).step).toMatchObject({
      kind: "post",
      intent: { lease: "incident:inc-new", entry: RESOLVING_ENTRY, resource: "" },
    });
  });
});

describe("the step machine removing an incident claimed and never recorded", () => {
  const claimed = removing(
    { incidentId: "", claimed: true, intentAt: iso(T0 - 60_000) },
    withUpdates,
  );
  const list = (entries: ReturnType<typeof incident>[]): Reply => ({
    kind: "listed",
    incidents: { entries, skipped: [] },
    readAt: T0,
    inRun: new Set(),
  });

  it("resolves the incident its claim opened since the intent, and lets go of an older namesake", () => {
    const opened = { ...shownNew, created_at: iso(T0 - 30_000) };
    expect(drive(claimed, [list([opened])]).step).toEqual({
      kind: "lease",
      key: "incident:inc-new",
    });
    const older = { ...shownNew, id: "inc-old", created_at: iso(T0 - 86_400_000) };
    expect(drive(claimed, [list([older])]).step).toEqual({
      kind: "done",
      result: { op: "remove", outcome: "released" },
      notes: [],
    });
  });
});
