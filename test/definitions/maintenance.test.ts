import { describe, expect, it } from "vitest";
import { occurrenceOn, occurrencesOf } from "../../src/api/maintenance-recurrence";
import { load, problemLines } from "./helpers";

/** A valid weekly window as YAML lines; `change` replaces or adds top-level lines by key. */
function windowYaml(change: Record<string, string | undefined> = {}): string {
  const lines: Record<string, string | undefined> = {
    kind: "kind: maintenance",
    resource: "resource: db-upgrade",
    name: "name: Database upgrade",
    description: "description: The database moves to new hardware.",
    startsAt: "startsAt: 2026-12-04T02:00:00+01:00",
    endsAt: "endsAt: 2026-12-04T04:00:00+01:00",
    timezone: "timezone: Europe/Berlin",
    repeat: "repeat: { unit: WEEK, every: 2, until: 2027-04-30 }",
    statusPages: "statusPages: [page-main]",
    services: "services: [svc-db]",
    notify: "notify: { onStart: true, remindBefore: [1440, 60] }",
    updates: [
      "updates:",
      "  - status: SCHEDULED",
      "    message: We upgrade the database.",
      "    notify: true",
      "    occurrence: 2026-12-18",
    ].join("\n"),
    ...change,
  };
  return `${Object.values(lines)
    .filter((line) => line !== undefined)
    .join("\n")}\n`;
}

describe("maintenance windows in definitions (kind: maintenance, issue 50)", () => {
  it("loads a window beside an incident, with the defaults of what it leaves out", () => {
    const { definitions, maintenance, problems } = load({
      "incidents/db.yaml": windowYaml(),
      "incidents/api.yaml": [
        "kind: incident",
        "id: inc-api",
        "name: API errors",
        "severity: MAJOR",
        "status: IDENTIFIED",
        "services: [{ id: svc-api, name: Public API }]",
        "",
      ].join("\n"),
    });
    expect(problems).toEqual([]);
    expect(definitions.map((loaded) => loaded.definition.resource)).toEqual(["inc-api"]);
    expect(maintenance).toHaveLength(1);
    expect(maintenance[0]).toMatchObject({
      file: "incidents/db.yaml",
      document: 1,
      nameAt: { line: 3, column: 7 },
      resourceAt: { line: 2, column: 11 },
      definition: {
        resource: "db-upgrade",
        showServices: true,
        autoStart: true,
        autoEnd: true,
        repeat: { unit: "WEEK", every: 2, until: "2027-04-30" },
        notify: { onStart: true, onEnd: false, remindBefore: [1440, 60] },
        updates: [{ status: "SCHEDULED", notify: true, occurrence: "2026-12-18" }],
      },
    });
  });

  it("refuses at file:line:col what the service would refuse or customers would misread", () => {
    const { maintenance, problems } = load({
      "incidents/db.yaml": windowYaml({
        startsAt: "startsAt: 2026-12-04T02:00:00",
        endsAt: "endsAt: 2026-12-04T01:00:00Z",
        timezone: "timezone: +05:00",
        notify: "notify: { remindBefore: [30, 60, 120, 240] }",
        services: "services: [svc-db]\nallServices: true",
        updates: "updates:\n  - status: SCHEDULED\n    message: Soon.",
      }),
      "incidents/cache.yaml": windowYaml({
        resource: "resource: cache",
        timezone: "timezone: Europe/Berln",
        repeat: undefined,
        updates: "updates:\n  - status: DONE\n    message: Over.\n    occurrence: 2026-12-05",
        statusPages: undefined,
        notify: undefined,
        services: undefined,
      }),
    });
    expect(maintenance).toEqual([]);
    expect(problemLines(problems)).toMatchInlineSnapshot(`
      "incidents/cache.yaml:7:11 invalid-timezone: timezone "Europe/Berln" is not an IANA timezone (did you mean Europe/Berlin?)
      incidents/cache.yaml:9:13 invalid-value: updates[0].status "DONE" is not allowed; use one of SCHEDULED, IN_PROGRESS, VERIFYING, COMPLETED, CANCELLED
      incidents/db.yaml:5:11 invalid-time: startsAt "2026-12-04T02:00:00" has no offset, so it is not one moment: add "Z" for UTC or an offset such as +01:00 (the window's timezone says how recurrences repeat, not how this time is read)
      incidents/db.yaml:7:11 invalid-timezone: timezone "+05:00" is an offset, which the service refuses: use an IANA name such as Europe/Berlin or UTC, so a recurring window keeps its local time across daylight-saving changes
      incidents/db.yaml:12:25 too-long: notify.remindBefore has 4 entries; the limit is 3"
    `);
  });

  it("refuses a day or time that is no real one, as the service's schema does", () => {
    const { problems } = load({
      "incidents/db.yaml": windowYaml({
        startsAt: "startsAt: 2026-02-30T02:00:00Z",
        endsAt: "endsAt: 2026-12-04t04:00:00z",
        repeat: "repeat: { unit: WEEK, until: 2027-02-29 }",
      }),
    });
    expect(problemLines(problems)).toMatchInlineSnapshot(`
      "incidents/db.yaml:5:11 invalid-time: startsAt "2026-02-30T02:00:00Z" is not an ISO 8601 time with an offset, such as 2026-12-04T02:00:00Z
      incidents/db.yaml:6:9 invalid-time: endsAt "2026-12-04t04:00:00z" is not an ISO 8601 time with an offset, such as 2026-12-04T02:00:00Z
      incidents/db.yaml:8:30 invalid-time: "2027-02-29" is not a calendar day such as 2026-12-04"
    `);
  });

  it("holds the rules between fields once the fields are well formed", () => {
    const { problems } = load({
      "incidents/db.yaml": windowYaml({
        endsAt: "endsAt: 2026-12-04T01:00:00Z",
        services: "services: [svc-db]\nallServices: true",
        updates: [
          "updates:",
          "  - status: SCHEDULED",
          "    message: Soon.",
          "  - status: CANCELLED",
          "    message: Not this week.",
          "    occurrence: 2026-12-11",
        ].join("\n"),
      }),
      "incidents/quiet.yaml": windowYaml({
        resource: "resource: quiet",
        repeat: "repeat: { unit: DAY, until: 2026-12-01 }",
        statusPages: undefined,
        services: undefined,
        updates: undefined,
      }),
    });
    expect(problemLines(problems)).toMatchInlineSnapshot(`
      "incidents/db.yaml:6:9 end-before-start: endsAt 2026-12-04T01:00:00Z is not after startsAt 2026-12-04T02:00:00+01:00
      incidents/db.yaml:11:14 services-and-all: a window affects either the services listed or "allServices": remove one of them
      incidents/db.yaml:14:5 missing-occurrence: updates[0] needs "occurrence": a recurring window has one maintenance per run, so say which, by the day it starts (YYYY-MM-DD)
      incidents/db.yaml:18:17 unknown-occurrence: the window has no occurrence on 2026-12-11; its first are 2026-12-04, 2026-12-18, 2027-01-01
      incidents/quiet.yaml:8:29 until-before-start: repeat.until 2026-12-01 is before the first occurrence, on 2026-12-04
      incidents/quiet.yaml:9:9 needs-status-pages: notify is what a status page shows or tells, and the window is on none: add "statusPages", or remove "notify""
    `);
  });

  it("tells an unknown kind and an unknown key with a did-you-mean, and a resource taken twice", () => {
    const { problems } = load({
      "incidents/a.yaml": windowYaml({ kind: "kind: maintenace" }),
      "incidents/b.yaml": windowYaml({ name: "name: Upgrade\nremindBefore: [60]" }),
      "incidents/c.yaml": windowYaml({ notify: "notify: { onStrat: true }" }),
    });
    expect(problemLines(problems)).toMatchInlineSnapshot(`
      "incidents/a.yaml:1:7 unknown-kind: kind "maintenace" is not a kind of definition; use incident or maintenance (left out, incident): did you mean maintenance?
      incidents/b.yaml:2:11 duplicate-resource: resource name "db-upgrade" is also used at incidents/c.yaml:2:11; give each definition its own "resource"
      incidents/b.yaml:4:1 unknown-key: unknown field "remindBefore"; allowed fields are kind, resource, id, name, description, startsAt, endsAt, timezone, repeat, statusPages, services, allServices, showServices, severity, notify, autoStart, autoEnd, checks, updates, stacks, reason
      incidents/c.yaml:2:11 duplicate-resource: resource name "db-upgrade" is also used at incidents/b.yaml:2:11; give each definition its own "resource"
      incidents/c.yaml:11:11 unknown-key: unknown field "onStrat" in notify; did you mean "onStart"?"
    `);
  });
});

describe("a window's occurrences", () => {
  const weekly = {
    startsAt: "2027-03-20T02:00:00+01:00",
    endsAt: "2027-03-20T04:00:00+01:00",
    timezone: "Europe/Berlin",
    repeat: { unit: "WEEK" as const, every: 1, until: "2027-04-10" },
  };

  it("repeat in the wall time of the window's timezone, across a daylight-saving change", () => {
    expect(occurrencesOf(weekly, { limit: 10 })).toEqual([
      { date: "2027-03-20", startsAt: "2027-03-20T01:00:00Z", endsAt: "2027-03-20T03:00:00Z" },
      { date: "2027-03-27", startsAt: "2027-03-27T01:00:00Z", endsAt: "2027-03-27T03:00:00Z" },
      { date: "2027-04-03", startsAt: "2027-04-03T00:00:00Z", endsAt: "2027-04-03T02:00:00Z" },
      { date: "2027-04-10", startsAt: "2027-04-10T00:00:00Z", endsAt: "2027-04-10T02:00:00Z" },
    ]);
    expect(occurrencesOf(weekly, { limit: 2, after: "2027-03-27T02:00:00Z" })).toEqual([
      { date: "2027-03-27", startsAt: "2027-03-27T01:00:00Z", endsAt: "2027-03-27T03:00:00Z" },
      { date: "2027-04-03", startsAt: "2027-04-03T00:00:00Z", endsAt: "2027-04-03T02:00:00Z" },
    ]);
  });

  it("are found by the day they start, and a one-off window has one", () => {
    expect(occurrenceOn(weekly, "2027-04-03")?.startsAt).toBe("2027-04-03T00:00:00Z");
    expect(occurrenceOn(weekly, "2027-04-04")).toBeUndefined();
    expect(occurrenceOn(weekly, "2027-04-17")).toBeUndefined();
    const once = { startsAt: "2026-12-04T23:30:00-05:00", endsAt: "2026-12-05T01:00:00-05:00" };
    expect(occurrencesOf(once, { limit: 5 })).toEqual([
      { date: "2026-12-05", startsAt: "2026-12-05T04:30:00Z", endsAt: "2026-12-05T06:00:00Z" },
    ]);
    expect(occurrenceOn({ ...once, timezone: "America/New_York" }, "2026-12-04")).toMatchObject({
      startsAt: "2026-12-05T04:30:00Z",
    });
  });

  it("end before the year 10000, which ISO 8601 cannot write in four digits", () => {
    const yearly = {
      startsAt: "9997-06-01T00:00:00Z",
      endsAt: "9997-06-01T01:00:00Z",
      repeat: { unit: "MONTH" as const, every: 12 },
    };
    expect(occurrencesOf(yearly, { limit: 10 }).map((occurrence) => occurrence.date)).toEqual([
      "9997-06-01",
      "9998-06-01",
      "9999-06-01",
    ]);
  });

  it("repeat monthly from the first day, never drifting after a short month", () => {
    const monthly = {
      startsAt: "2027-01-31T22:00:00Z",
      endsAt: "2027-01-31T23:00:00Z",
      repeat: { unit: "MONTH" as const, every: 1 },
    };
    expect(occurrencesOf(monthly, { limit: 3 }).map((occurrence) => occurrence.date)).toEqual([
      "2027-01-31",
      "2027-02-28",
      "2027-03-31",
    ]);
  });
});
