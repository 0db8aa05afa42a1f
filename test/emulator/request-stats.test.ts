import { afterEach, describe, expect, it } from "vitest";
import type { Emulator } from "../../src/emulator";
import { ADMIN, call, demoEmulator, incidentBody, NOW } from "./helpers";

let emulator: Emulator;
afterEach(() => emulator?.close());

describe("request counts", () => {
  it("counts /v1 requests by operation and status, injected faults and resets included", async () => {
    emulator = demoEmulator();
    await call(emulator.app, "GET", "/v1/error-groups/checks/chk-api");
    await call(emulator.app, "GET", "/v1/error-groups/checks/chk-api?limit=0");
    await call(emulator.app, "GET", "/v1/error-groups/eg_nope");
    await call(emulator.app, "PUT", "/v1/status-pages/incidents/inc-api-errors", {
      body: incidentBody,
    });
    await call(emulator.app, "PUT", "/v1/status-pages/incidents/inc-api-errors", {
      key: "wrong",
      body: incidentBody,
    });
    emulator.control.setFaults({ failRate: 1 });
    await call(emulator.app, "GET", "/v1/error-groups/checks/chk-api");
    emulator.control.setFaults({ resetRate: 1 });
    await expect(
      emulator.app.request("/v1/error-groups/checks/chk-api", {
        headers: { authorization: "Bearer demo-key" },
      }),
    ).rejects.toMatchObject({ code: "ECONNRESET" });
    emulator.control.setFaults({});
    // No operation: counted in the totals only.
    await call(emulator.app, "GET", "/v1/nothing-here");
    await call(emulator.app, "DELETE", "/v1/error-groups/eg_nope");
    // Not the public API: not counted.
    await call(emulator.app, "GET", "/openapi.json");
    await call(emulator.app, "GET", "/_control/faults", { key: ADMIN });

    expect(emulator.control.stats()).toEqual({
      since: NOW.toISOString(),
      total: 9,
      byStatus: { "200": 2, "400": 1, "401": 1, "404": 2, "405": 1, "503": 1, reset: 1 },
      byOperation: {
        getErrorGroup: { total: 1, byStatus: { "404": 1 } },
        listErrorGroupsForCheck: {
          total: 4,
          byStatus: { "200": 1, "400": 1, "503": 1, reset: 1 },
        },
        updateIncident: { total: 2, byStatus: { "200": 1, "401": 1 } },
      },
    });
  });

  it("serves the counts at GET /_control/stats and starts again from zero on DELETE", async () => {
    let now = NOW;
    emulator = demoEmulator({ now: () => now });
    await call(emulator.app, "GET", "/v1/status-pages/incidents/inc-api-errors/incident-updates");
    const read = await call(emulator.app, "GET", "/_control/stats", { key: ADMIN });
    expect(read.json).toEqual(emulator.control.stats());
    expect(read.json).toMatchObject({
      total: 1,
      byOperation: { listIncidentUpdates: { total: 1, byStatus: { "200": 1 } } },
    });

    now = new Date(NOW.getTime() + 60_000);
    const reset = await call(emulator.app, "DELETE", "/_control/stats", { key: ADMIN });
    expect(reset.status).toBe(204);
    expect(emulator.control.stats()).toEqual({
      since: now.toISOString(),
      total: 0,
      byStatus: {},
      byOperation: {},
    });
    expect((await call(emulator.app, "GET", "/_control/stats", { key: null })).status).toBe(401);
  });
});
