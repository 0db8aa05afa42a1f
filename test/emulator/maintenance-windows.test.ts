import { afterEach, describe, expect, it } from "vitest";
import type { Maintenance, MaintenanceWindow } from "../../src/api/schemas";
import type { Emulator, MaintenanceNotice } from "../../src/emulator";
import { ADMIN, call, DEMO_ACCOUNT, demoEmulator, NOW } from "./helpers";

let emulator: Emulator | undefined;
afterEach(() => {
  emulator?.close();
  emulator = undefined;
});

/** The demo emulator, its clock at `NOW` (2026-11-03T12:00Z) until a test moves it. */
function started(behaviour: { maintenanceOccurrences?: "next" | "all" } = {}) {
  emulator = demoEmulator({ behaviour });
  return emulator;
}

const WINDOWS = "/v1/maintenance-windows";
const hoursFromNow = (hours: number) => new Date(NOW.getTime() + hours * 3_600_000).toISOString();

/** A one-off window on the demo page, an hour long, starting `startHours` from the start. */
const oneOff = (startHours: number, visibility: Record<string, unknown> = {}) => ({
  name: "Database upgrade",
  description: "The primary database is upgraded.",
  startsAt: hoursFromNow(startHours),
  endsAt: hoursFromNow(startHours + 1),
  repeatUnit: null,
  statusPageVisibility: {
    enabled: true,
    statusPageIds: ["sp-acme"],
    serviceIds: ["svc-db"],
    notifyOnStart: true,
    notifyOnEnd: true,
    reminderMinutesBefore: [1440, 60],
    ...visibility,
  },
});

async function create(app: Emulator["app"], body: object) {
  const answer = await call(app, "POST", WINDOWS, { body });
  expect(answer.status, JSON.stringify(answer.json)).toBe(201);
  return answer.json as MaintenanceWindow;
}

async function maintenances(app: Emulator["app"], id: number, query = "") {
  const answer = await call(app, "GET", `${WINDOWS}/${id}/maintenances${query}`);
  expect(answer.status).toBe(200);
  return answer.json as Maintenance[];
}

async function moveClock(app: Emulator["app"], body: object) {
  const answer = await call(app, "POST", "/_control/clock", { key: ADMIN, body });
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  return answer.json as { now: string; offsetMs: number };
}

async function inbox(app: Emulator["app"]) {
  const path = `/_control/accounts/${DEMO_ACCOUNT}/maintenance-notifications`;
  const answer = await call(app, "GET", path, { key: ADMIN });
  expect(answer.status).toBe(200);
  return (answer.json as MaintenanceNotice[]).filter((notice) => notice.maintenanceWindowId !== 1);
}

describe("maintenance windows in the emulator", () => {
  it("creates a one-off window, answered 201 with a number id, with its one maintenance scheduled", async () => {
    const { app } = started();
    const window = await create(app, oneOff(48));
    expect(window).toMatchObject({
      id: 2,
      name: "Database upgrade",
      repeatUnit: null,
      repeatInterval: null,
      statusPageVisibility: { enabled: true, autoStart: true, autoEnd: true, severity: null },
    });
    expect((await call(app, "GET", `${WINDOWS}/2`)).json).toEqual(window);
    const listed = (await call(app, "GET", `${WINDOWS}?limit=1&page=2`)).json as { id: number }[];
    expect(listed.map((entry) => entry.id)).toEqual([2]);
    const [only, ...more] = await maintenances(app, 2);
    expect(more).toEqual([]);
    expect(only).toMatchObject({
      maintenanceWindowId: 2,
      startsAt: hoursFromNow(48),
      endsAt: hoursFromNow(49),
      status: "SCHEDULED",
      updates: [],
    });
  });

  it("makes a recurring window's maintenances in its time zone: 02:00 in Paris stays 02:00 across the change of offset", async () => {
    const { app } = started({ maintenanceOccurrences: "all" });
    const weekly = await create(app, {
      name: "Weekly backup check",
      startsAt: "2026-11-21T02:00:00+01:00",
      endsAt: "2026-11-21T03:00:00+01:00",
      repeatUnit: "WEEK",
      repeatInterval: 2,
      repeatEndsAt: "2027-01-02",
      timezone: "Europe/Paris",
    });
    expect((await maintenances(app, weekly.id)).map((m) => m.startsAt)).toEqual([
      "2026-11-21T01:00:00.000Z",
      "2026-12-05T01:00:00.000Z",
      "2026-12-19T01:00:00.000Z",
      "2027-01-02T01:00:00.000Z",
    ]);
    const spring = await create(app, {
      name: "Spring change",
      startsAt: "2027-03-21T02:30:00+01:00",
      endsAt: "2027-03-21T03:00:00+01:00",
      repeatUnit: "WEEK",
      repeatEndsAt: "2027-04-04",
      timezone: "Europe/Paris",
    });
    expect((await maintenances(app, spring.id)).map((m) => m.startsAt)).toEqual([
      "2027-03-21T01:30:00.000Z",
      // 28 March 02:30 does not exist in Paris: the clock jumps from 02:00 to 03:00.
      "2027-03-28T01:30:00.000Z",
      "2027-04-04T00:30:00.000Z",
    ]);
    const monthly = await create(app, {
      name: "Month end",
      startsAt: "2027-01-31T22:00:00Z",
      endsAt: "2027-01-31T23:00:00Z",
      repeatUnit: "MONTH",
      repeatEndsAt: "2027-04-30",
    });
    expect((await maintenances(app, monthly.id, "?limit=2&page=2")).map((m) => m.startsAt)).toEqual(
      ["2027-03-31T22:00:00.000Z", "2027-04-30T22:00:00.000Z"],
    );
  });

  it("has, by default, the maintenances begun and the next one: the clock passing a start makes the following one", async () => {
    const { app } = started();
    const daily = await create(app, {
      name: "Nightly reindex",
      startsAt: hoursFromNow(2),
      endsAt: hoursFromNow(3),
      repeatUnit: "DAY",
    });
    expect(await maintenances(app, daily.id)).toHaveLength(1);
    await moveClock(app, { advanceMinutes: 150 });
    const [first, second, ...rest] = await maintenances(app, daily.id);
    expect(rest).toEqual([]);
    expect(first?.status).toBe("IN_PROGRESS");
    expect(second).toMatchObject({ startsAt: hoursFromNow(26), status: "SCHEDULED" });
  });

  it("plans from now: a window begun 300 days ago gets its next maintenance, and a daily one keeps making them past its hundredth day", async () => {
    const daily = (startHours: number) => ({
      name: "Nightly reindex",
      startsAt: hoursFromNow(startHours),
      endsAt: hoursFromNow(startHours + 1),
      repeatUnit: "DAY",
    });
    const { app, control } = started();
    const old = await create(app, daily(2 - 300 * 24));
    expect((await maintenances(app, old.id)).map((m) => m.startsAt)).toEqual([hoursFromNow(2)]);
    const fresh = await create(app, daily(2));
    for (let day = 0; day < 102; day++) control.moveClock({ advanceMinutes: 1440 });
    const made = await maintenances(app, fresh.id, "?limit=1&page=103");
    expect(made.map((m) => [m.startsAt, m.status])).toEqual([
      [hoursFromNow(2 + 102 * 24), "SCHEDULED"],
    ]);

    emulator?.close();
    const all = started({ maintenanceOccurrences: "all" });
    const planned = await create(all.app, daily(2 - 300 * 24));
    const starts = [
      ...(await maintenances(all.app, planned.id, "?limit=50&page=1")),
      ...(await maintenances(all.app, planned.id, "?limit=50&page=3")),
    ].map((m) => m.startsAt);
    // 100 made, the first the next to start: page 3 is empty.
    expect([starts.length, starts[0], starts[49]]).toEqual([
      50,
      hoursFromNow(2),
      hoursFromNow(2 + 49 * 24),
    ]);
    const last = await maintenances(all.app, planned.id, "?limit=50&page=2");
    expect(last.at(-1)?.startsAt).toBe(hoursFromNow(2 + 99 * 24));
  });

  it("makes the next maintenance when the start of one cancelled or completed beforehand passes", async () => {
    const { app } = started();
    const daily = await create(app, {
      name: "Nightly reindex",
      startsAt: hoursFromNow(2),
      endsAt: hoursFromNow(3),
      repeatUnit: "DAY",
    });
    const cancel = async (status: "CANCELLED" | "COMPLETED") => {
      const waiting = (await maintenances(app, daily.id)).at(-1);
      const path = `${WINDOWS}/${daily.id}/maintenances/${waiting?.id}/updates`;
      const posted = await call(app, "POST", path, {
        body: { status, description: "Not needed." },
      });
      expect(posted.status).toBe(201);
    };
    await cancel("CANCELLED");
    await moveClock(app, { advanceMinutes: 150 });
    await cancel("COMPLETED");
    await moveClock(app, { advanceMinutes: 24 * 60 });
    expect((await maintenances(app, daily.id)).map((m) => [m.startsAt, m.status])).toEqual([
      [hoursFromNow(2), "CANCELLED"],
      [hoursFromNow(26), "COMPLETED"],
      [hoursFromNow(50), "SCHEDULED"],
    ]);
  });

  it("moves a window through its reminders, start and end as the clock moves, each notified once", async () => {
    const { app } = started();
    const window = await create(app, oneOff(48));
    const [maintenance] = await maintenances(app, window.id);
    const status = async () => (await maintenances(app, window.id))[0]?.status;
    const kinds = async () => (await inbox(app)).map((notice) => notice.kind);

    await moveClock(app, { at: hoursFromNow(23) });
    expect(await kinds()).toEqual([]);
    await moveClock(app, { advanceMinutes: 60 });
    expect(await kinds()).toEqual(["reminder"]);
    await moveClock(app, { at: hoursFromNow(47.5) });
    expect(await status()).toBe("SCHEDULED");
    await moveClock(app, { advanceMinutes: 60 });
    expect(await status()).toBe("IN_PROGRESS");
    expect(await kinds()).toEqual(["reminder", "reminder", "start"]);
    await moveClock(app, { advanceMinutes: 60 });
    expect(await status()).toBe("COMPLETED");
    await moveClock(app, { advanceMinutes: 60 * 24 * 30 });

    const sent = await inbox(app);
    expect(sent).toEqual([
      expect.objectContaining({
        kind: "reminder",
        minutesBefore: 1440,
        message: null,
        sentAt: hoursFromNow(24),
      }),
      expect.objectContaining({ kind: "reminder", minutesBefore: 60, sentAt: hoursFromNow(47) }),
      expect.objectContaining({
        kind: "start",
        status: "IN_PROGRESS",
        message: "The scheduled maintenance has started.",
        sentAt: hoursFromNow(48),
      }),
      expect.objectContaining({ kind: "end", status: "COMPLETED", sentAt: hoursFromNow(49) }),
    ]);
    for (const notice of sent) {
      expect(notice).toMatchObject({
        maintenanceWindowId: window.id,
        maintenanceWindowName: "Database upgrade",
        maintenanceId: maintenance?.id,
      });
    }
    const updates = (await maintenances(app, window.id))[0]?.updates ?? [];
    expect(updates.map((update) => [update.status, update.previousStatus])).toEqual([
      ["COMPLETED", "IN_PROGRESS"],
      ["IN_PROGRESS", "SCHEDULED"],
    ]);
  });

  it("sends no reminder whose time had passed when the window was made, and nothing for a window not shown", async () => {
    const { app } = started();
    const soon = await create(app, oneOff(2));
    await create(app, oneOff(30, { enabled: false }));
    await moveClock(app, { advanceMinutes: 60 * 40 });
    expect((await inbox(app)).map((notice) => [notice.maintenanceWindowId, notice.kind])).toEqual([
      [soon.id, "reminder"],
      [soon.id, "start"],
      [soon.id, "end"],
    ]);
  });

  it("leaves a maintenance without autoStart or autoEnd to its updates, and notifies an update once, its edit never", async () => {
    const { app } = started();
    const window = await create(
      app,
      oneOff(1, { autoStart: false, autoEnd: false, reminderMinutesBefore: [] }),
    );
    const [maintenance] = await maintenances(app, window.id);
    const path = `${WINDOWS}/${window.id}/maintenances/${maintenance?.id}`;
    await moveClock(app, { advanceMinutes: 90 });
    expect((await maintenances(app, window.id))[0]?.status).toBe("SCHEDULED");

    const posted = await call(app, "POST", `${path}/updates`, {
      body: { status: "IN_PROGRESS", description: "We have begun.", notifySubscribers: true },
    });
    expect(posted.status).toBe(201);
    expect(posted.json).toMatchObject({
      maintenanceWindowId: window.id,
      maintenanceId: maintenance?.id,
      status: "IN_PROGRESS",
      previousStatus: "SCHEDULED",
      notifySubscribers: true,
    });
    const updateId = (posted.json as { id: string }).id;
    const edited = await call(app, "PUT", `${path}/updates/${updateId}`, {
      body: { description: "We have begun the upgrade." },
    });
    expect(edited.json).toMatchObject({
      status: "IN_PROGRESS",
      description: "We have begun the upgrade.",
    });
    await moveClock(app, { advanceMinutes: 600 });
    expect((await maintenances(app, window.id))[0]?.status).toBe("IN_PROGRESS");
    expect(await inbox(app)).toEqual([
      expect.objectContaining({
        kind: "update",
        updateId,
        message: "We have begun.",
        status: "IN_PROGRESS",
      }),
    ]);

    expect((await call(app, "DELETE", `${path}/updates/${updateId}`)).status).toBe(204);
    expect((await call(app, "GET", path)).json).toMatchObject({ updates: [] });
    expect((await call(app, "DELETE", path)).status).toBe(204);
    expect((await call(app, "GET", path)).status).toBe(404);
  });

  it("changes only the fields a PUT sends; a new time moves the maintenance not yet begun, keeping its id and updates", async () => {
    const { app } = started();
    const window = await create(app, oneOff(48));
    const [maintenance] = await maintenances(app, window.id);
    const path = `${WINDOWS}/${window.id}/maintenances/${maintenance?.id}`;
    await call(app, "POST", `${path}/updates`, {
      body: { status: "SCHEDULED", description: "Planned for Thursday." },
    });
    const changed = await call(app, "PUT", `${WINDOWS}/${window.id}`, {
      body: { startsAt: hoursFromNow(72), endsAt: hoursFromNow(74) },
    });
    expect(changed.json).toMatchObject({
      name: "Database upgrade",
      description: "The primary database is upgraded.",
      startsAt: hoursFromNow(72),
      statusPageVisibility: { reminderMinutesBefore: [1440, 60] },
    });
    const [moved, ...more] = await maintenances(app, window.id);
    expect(more).toEqual([]);
    expect(moved).toMatchObject({ id: maintenance?.id, startsAt: hoursFromNow(72) });
    expect(moved?.updates?.map((update) => update.description)).toEqual(["Planned for Thursday."]);

    const patched = await call(app, "PATCH", path, { body: { endsAt: hoursFromNow(73) } });
    expect(patched.json).toMatchObject({ startsAt: hoursFromNow(72), endsAt: hoursFromNow(73) });
    expect((await call(app, "DELETE", `${WINDOWS}/${window.id}`)).status).toBe(204);
    expect((await call(app, "GET", path)).status).toBe(404);
  });

  it("refuses an end before its start, an offset for a time zone, and a service that is not on the window's pages", async () => {
    const { app } = started();
    const refused = async (body: object) => {
      const answer = await call(app, "POST", WINDOWS, { body });
      expect(answer.status).toBe(400);
      return (answer.json as { message: string }).message;
    };
    expect(await refused({ ...oneOff(2), endsAt: hoursFromNow(1) })).toMatchInlineSnapshot(
      `"invalid body: endsAt: must be after startsAt"`,
    );
    expect(await refused({ ...oneOff(2), timezone: "+05:00" })).toMatchInlineSnapshot(
      `"invalid body: timezone: must be an IANA time zone name such as Europe/Paris, not an offset"`,
    );
    expect(await refused(oneOff(2, { serviceIds: ["svc-db", "svc-nope"] }))).toMatchInlineSnapshot(
      `"statusPageVisibility.serviceIds: svc-nope is not on the window's status pages (their services: svc-web, svc-checkout, svc-auth, svc-api, svc-db)"`,
    );
    expect((await call(app, "GET", `${WINDOWS}/not-a-number`)).status).toBe(404);
  });

  it("reads and sets the clock through the control API, and refuses a body that is neither form", async () => {
    const { app } = started();
    expect((await call(app, "GET", "/_control/clock", { key: ADMIN })).json).toEqual({
      now: NOW.toISOString(),
      offsetMs: 0,
    });
    expect(await moveClock(app, { at: "+2h" })).toEqual({
      now: hoursFromNow(2),
      offsetMs: 7_200_000,
    });
    expect(await moveClock(app, { at: NOW.toISOString() })).toMatchObject({ offsetMs: 0 });
    const both = await call(app, "POST", "/_control/clock", {
      key: ADMIN,
      body: { at: "now", advanceMinutes: 5 },
    });
    expect(both.status).toBe(400);
  });

  it("seeds the demo's weekly window with its first maintenance announced", async () => {
    const { app } = started();
    expect((await call(app, "GET", `${WINDOWS}/1`)).json).toMatchObject({
      name: "Weekly database maintenance",
      repeatUnit: "WEEK",
      startsAt: hoursFromNow(48),
    });
    const [first, ...rest] = await maintenances(app, 1);
    expect(rest).toEqual([]);
    expect(first?.updates).toEqual([
      expect.objectContaining({ status: "SCHEDULED", notifySubscribers: false }),
    ]);
    // As docs/emulator.md shows it.
    const { control } = emulator as Emulator;
    control.moveClock({ at: "+2d" });
    control.moveClock({ advanceMinutes: 120 });
    expect(control.maintenanceNotifications("acct-demo").map((n) => n.kind)).toEqual([
      "reminder",
      "reminder",
      "start",
      "end",
    ]);
  });
});
