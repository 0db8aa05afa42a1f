import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import {
  ApiError,
  createClient,
  knownMaintenanceStatus,
  type MonitoringClient,
  RequestValidationError,
} from "../../src/api";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import { API_KEY } from "../support/api-fixtures";
import { sendError, sendJson, startTestServer, type TestServer } from "../support/http-server";

const NOW = new Date("2026-11-03T12:00:00.000Z");
const hoursFromNow = (hours: number) => new Date(NOW.getTime() + hours * 3_600_000).toISOString();

let running: RunningEmulator;
let client: MonitoringClient;
let server: TestServer | undefined;

beforeAll(async () => {
  running = await startEmulator({ port: 0, seed: "demo", now: () => NOW });
  client = createClient({
    baseUrl: running.url,
    apiKey: running.demo.apiKey,
    accountId: running.demo.accountId,
  });
});
afterAll(() => running?.close());
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const weekly = {
  name: "Weekly database maintenance",
  startsAt: hoursFromNow(24),
  endsAt: hoursFromNow(25),
  repeatUnit: "WEEK" as const,
  repeatEndsAt: "2026-11-25",
  statusPageVisibility: { enabled: true, statusPageIds: ["sp-acme"], affectAllServices: true },
};

describe("the maintenance-window client against the emulator", () => {
  test("creates a window, reads it back by its number, lists it and walks its maintenances", async () => {
    running.emulator.control.setBehaviour({ maintenanceOccurrences: "all" });
    const window = await client.maintenanceWindows.create(weekly);
    expect(typeof window.id).toBe("number");
    expect(await client.maintenanceWindows.get(window.id)).toEqual(window);
    expect(await client.maintenanceWindows.get(String(window.id))).toEqual(window);
    const listed: number[] = [];
    for await (const each of client.maintenanceWindows.all({ pageSize: 1 })) listed.push(each.id);
    expect(listed).toContain(window.id);

    const starts: string[] = [];
    for await (const maintenance of client.maintenanceWindows.allMaintenances(window.id, {
      pageSize: 2,
    })) {
      starts.push(maintenance.startsAt);
    }
    // Until 25 November, that day included.
    expect(starts).toEqual([1, 8, 15, 22].map((day) => hoursFromNow(24 * day)));
    const page = await client.maintenanceWindows.listMaintenances(window.id, { limit: 1, page: 3 });
    expect(page).toEqual({
      entries: [expect.objectContaining({ startsAt: starts[2] })],
      skipped: [],
    });
  });

  test("changes only what a PUT sends, posts an update once, edits it, moves and removes a maintenance", async () => {
    const window = await client.maintenanceWindows.create({ ...weekly, repeatUnit: null });
    const changed = await client.maintenanceWindows.change(window.id, { name: "Database upgrade" });
    expect(changed).toMatchObject({ name: "Database upgrade", startsAt: weekly.startsAt });
    const { entries } = await client.maintenanceWindows.listMaintenances(window.id);
    const maintenanceId = entries[0]?.id ?? "";
    const update = await client.maintenanceWindows.postUpdate(window.id, maintenanceId, {
      status: "SCHEDULED",
      description: "Planned for tomorrow.",
      notifySubscribers: true,
    });
    const edited = await client.maintenanceWindows.changeUpdate(
      window.id,
      maintenanceId,
      update.id ?? "",
      { description: "Planned for tomorrow, 12:00 UTC." },
    );
    expect(edited).toMatchObject({ id: update.id, status: "SCHEDULED" });
    const moved = await client.maintenanceWindows.moveMaintenance(window.id, maintenanceId, {
      endsAt: hoursFromNow(26),
    });
    expect(moved).toMatchObject({ endsAt: hoursFromNow(26), updates: [{ id: update.id }] });
    const sent = running.emulator.control
      .maintenanceNotifications(running.demo.accountId)
      .filter((notice) => notice.maintenanceWindowId === window.id);
    expect(sent).toEqual([expect.objectContaining({ kind: "update", updateId: update.id })]);

    await client.maintenanceWindows.removeUpdate(window.id, maintenanceId, update.id ?? "");
    await client.maintenanceWindows.removeMaintenance(window.id, maintenanceId);
    await client.maintenanceWindows.remove(window.id);
    await expect(client.maintenanceWindows.get(window.id)).rejects.toMatchObject({ status: 404 });
  });

  test("refuses before sending a request the contract does not allow", async () => {
    const refused = await client.maintenanceWindows
      .create({
        ...weekly,
        timezone: "+05:00",
        statusPageVisibility: { reminderMinutesBefore: [30, 60, 120, 240] },
      })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RequestValidationError);
    expect((refused as Error).message).toMatchInlineSnapshot(`
      "maintenanceWindows.create refused before sending (POST /v1/maintenance-windows):
      ✖ must be an IANA time zone name such as Europe/Paris, not an offset
        → at body.timezone
      ✖ at most 3 reminders
        → at body.statusPageVisibility.reminderMinutesBefore"
    `);
    await expect(client.maintenanceWindows.get("1/2")).rejects.toBeInstanceOf(
      RequestValidationError,
    );
  });
});

describe("the maintenance-window client against an odd server", () => {
  test("reads odd values liberally: an unknown status or unit is kept, nulls are taken, an entry without an id is skipped alone", async () => {
    server = await startTestServer((_request, response) =>
      sendJson(response, 200, [
        {
          id: 7,
          name: "Database upgrade",
          startsAt: "2026-12-04 02:00:00",
          endsAt: "2026-12-04 03:00:00",
          repeatUnit: "FORTNIGHT",
          description: null,
          statusPageVisibility: { severity: "COSMIC", reminderMinutesBefore: null },
          somethingNew: { nested: true },
        },
        { name: "No id", startsAt: "2026-12-04T02:00:00Z", endsAt: "2026-12-04T03:00:00Z" },
      ]),
    );
    const odd = createClient({ baseUrl: server.url, apiKey: API_KEY });
    const page = await odd.maintenanceWindows.list();
    expect(page.entries).toEqual([
      expect.objectContaining({
        id: 7,
        repeatUnit: "FORTNIGHT",
        statusPageVisibility: { severity: "COSMIC", reminderMinutesBefore: null },
      }),
    ]);
    expect(page.skipped).toEqual([
      { index: 1, id: undefined, name: "No id", problem: expect.stringContaining("id") },
    ]);
    expect(knownMaintenanceStatus("PAUSED")).toBeUndefined();
    expect(knownMaintenanceStatus("VERIFYING")).toBe("VERIFYING");
  });

  test("reads a maintenance with an unknown status and an update with only its description", async () => {
    server = await startTestServer((_request, response) =>
      sendJson(response, 200, {
        id: "m-1",
        startsAt: "2026-12-04T02:00:00Z",
        endsAt: "2026-12-04T03:00:00Z",
        status: "PAUSED",
        updates: [{ description: "Paused for now." }],
      }),
    );
    const odd = createClient({ baseUrl: server.url, apiKey: API_KEY });
    const maintenance = await odd.maintenanceWindows.getMaintenance(7, "m-1");
    expect(maintenance.status).toBe("PAUSED");
    expect(maintenance.updates).toEqual([
      { description: "Paused for now.", notifySubscribers: false },
    ]);
  });

  test("sends a create and an update post once, whatever the answer: 503, 429 or a dropped connection", async () => {
    let n = 0;
    server = await startTestServer((request, response) => {
      n += 1;
      if (n % 3 === 1) sendError(response, 503, "try later");
      // Retry-After 0: the client holds its budget for the wait a 429 asks, none here.
      else if (n % 3 === 2) sendError(response, 429, "slow down", { "retry-after": "0" });
      else response.socket?.destroy();
      expect(request.method).toBe("POST");
    });
    const odd = createClient({ baseUrl: server.url, apiKey: API_KEY, retry: { delay: () => 1 } });
    for (let attempt = 0; attempt < 3; attempt++) {
      await expect(odd.maintenanceWindows.create(weekly)).rejects.toBeInstanceOf(ApiError);
    }
    for (let attempt = 0; attempt < 3; attempt++) {
      const post = odd.maintenanceWindows.postUpdate(7, "m-1", {
        status: "IN_PROGRESS",
        description: "We have begun.",
      });
      await expect(post).rejects.toBeInstanceOf(ApiError);
    }
    expect(server.requests).toHaveLength(6);
  });
});
