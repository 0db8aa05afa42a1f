import { describe, expect, it } from "vitest";
import { BadRequestError } from "../../src/api";
import type { DeclaredEntry, IncidentRecord, Reply, State } from "../../src/incident";
import {
  context,
  drive,
  entriesInputs,
  FAILURES,
  failed,
  incident,
  record,
  T0,
  update,
} from "./support/machine";

/*
 * The search for the incident a new definition opened (src/incident/machine/search.ts), with
 * the incident a lease's last holder recorded opening; and how a failure is classified
 * (steps.ts): a 405 as an operation the service lacks, an error that is no API error as text.
 */

const fresh = entriesInputs();
const [first] = fresh.updates as [DeclaredEntry];
const opening: State = { op: "apply", inputs: fresh, olds: undefined, context };
const made = incident("inc-new", [update("u0", first.message, T0, "INVESTIGATING")]);
const bare = { ...made, incidentUpdates: undefined } as never;
const recorded: Reply = { kind: "leased", releasedAt: undefined, made: { incidentId: "inc-new" } };
const plain: Reply = { kind: "leased", releasedAt: undefined };
const listed = (entries: unknown[] = [], inRun: string[] = []): Reply => ({
  kind: "listed",
  incidents: { entries: entries as never, skipped: [] },
  readAt: T0,
  inRun: new Set(inRun),
});
const down = () => failed(FAILURES["server-error"]());

describe("the search for a new incident's opening", () => {
  it("reads the incident a lease's holder recorded once, whether the list shows it whole, bare or not at all", () => {
    expect(drive(opening, [recorded, listed([made])]).step).toEqual({
      kind: "take",
      incidentId: "inc-new",
    });
    expect(drive(opening, [recorded, listed([bare])]).step).toEqual({
      kind: "get",
      incidentId: "inc-new",
    });
    expect(
      drive(opening, [recorded, listed([bare]), { kind: "incident", incident: made }]).step,
    ).toEqual({
      kind: "take",
      incidentId: "inc-new",
    });
    expect(drive(opening, [recorded, listed([])]).step).toEqual({
      kind: "get",
      incidentId: "inc-new",
    });
  });

  it("leaves the recorded incident be when another resource of the run took it", () => {
    expect(drive(opening, [recorded, listed([], ["inc-new"])]).step).toMatchObject({
      kind: "open",
    });
  });

  it("opens nothing while the recorded incident cannot be read, and while a namesake the list gave is not found", () => {
    expect(drive(opening, [recorded, listed([]), down()]).step).toMatchObject({
      kind: "refuse",
      message: expect.stringContaining("cannot be read: inc-new (503 Service Unavailable)"),
    });
    expect(
      drive(opening, [plain, listed([bare]), failed(FAILURES["not-found"]())]).step,
    ).toMatchObject({
      kind: "refuse",
      message: expect.stringContaining("cannot be read: inc-new (404 Not Found)"),
    });
  });
});

describe("a failure as the machine classifies it", () => {
  const known = entriesInputs({ incidentId: undefined });
  const olds = record(known, {
    incidentId: "inc-new",
    updates: [first],
    updateIds: ["u0"],
  } as Partial<IncidentRecord>);
  const applying: State = { op: "apply", inputs: known, olds, context };
  const begun: Reply[] = [plain, { kind: "took" }, { kind: "incident", incident: made }];

  it("takes a 405 to a post as an operation the service lacks, once its own read shows the incident", () => {
    const notAllowed = new BadRequestError("405 Method Not Allowed", {
      operation: "incidentUpdates.create",
      method: "POST",
      path: "/v1/status-pages/incidents/inc-new/incident-updates",
      attempts: 1,
      status: 405,
    });
    const probing = [...begun, failed(notAllowed)];
    expect(drive(applying, probing).step).toEqual({ kind: "list-updates", incidentId: "inc-new" });
    expect(
      drive(applying, [...probing, { kind: "updates", updates: made.incidentUpdates }]).step,
    ).toMatchObject({
      kind: "refuse",
      message: expect.stringMatching(
        /^incident inc-new: updates\[1\] was not posted: The service answered POST \/v1\/status-pages\/incidents\/inc-new\/incident-updates with 405/,
      ),
    });
  });

  it("says an error that is no API error in its own words, sending nothing again", () => {
    const broken: Reply = {
      kind: "failed",
      error: new Error("socket hang up"),
      text: "socket hang up",
    };
    expect(drive(applying, [...begun, broken]).step).toEqual({
      kind: "refuse",
      message: "incident inc-new: updates[1] was not posted: socket hang up",
      notes: [],
    });
  });
});
