import { afterEach, describe, expect, it } from "vitest";
import type { Emulator } from "../../src/emulator";
import { ADMIN, call, demoEmulator, incidentBody, OTHER_KEY, service } from "./helpers";

let emulator: Emulator;
afterEach(() => emulator?.close());

const READS = [
  "/v1/status-pages/incidents/inc-api-errors/incident-updates",
  "/v1/checks/heartbeats/hb-billing-sync/events",
  "/v1/error-groups/checks/chk-api",
];

describe("authentication", () => {
  it("answers 401 with a Bearer challenge when the key is missing, malformed or unknown", async () => {
    emulator = demoEmulator();
    const missing = await call(emulator.app, "GET", READS[0]!, { key: null });
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(missing.json).toMatchInlineSnapshot(`
      {
        "error": "Unauthorized",
        "message": "missing Authorization header: send Authorization: Bearer <API key>",
        "statusCode": 401,
      }
    `);
    const basic = await call(emulator.app, "GET", READS[0]!, {
      key: null,
      headers: { authorization: "Basic eDp5" },
    });
    expect(basic.status).toBe(401);
    const unknown = await call(emulator.app, "GET", READS[0]!, { key: "secret-guess-123" });
    expect(unknown.status).toBe(401);
    expect(JSON.stringify(unknown.json)).not.toContain("secret-guess-123");
    expect(unknown.json).toMatchInlineSnapshot(`
      {
        "error": "Unauthorized",
        "message": "the API key is not valid",
        "statusCode": 401,
      }
    `);
  });

  it("checks authentication before the body", async () => {
    emulator = demoEmulator();
    const { status } = await call(
      emulator.app,
      "PUT",
      "/v1/status-pages/incidents/inc-api-errors",
      {
        key: null,
        rawBody: "{",
        headers: { "content-type": "application/json" },
      },
    );
    expect(status).toBe(401);
  });

  it("accepts a matching x-service-account and answers 403 for another account", async () => {
    emulator = demoEmulator();
    const ok = await call(emulator.app, "GET", READS[0]!, {
      headers: { "x-service-account": "acct-demo" },
    });
    expect(ok.status).toBe(200);
    const other = await call(emulator.app, "GET", READS[0]!, {
      headers: { "x-service-account": "acct-other" },
    });
    expect(other.status).toBe(403);
    expect(other.json).toMatchInlineSnapshot(`
      {
        "error": "Forbidden",
        "message": "x-service-account acct-other does not match the account of this API key",
        "statusCode": 403,
      }
    `);
  });
});

describe("account isolation", () => {
  it("hides acct-other's incident, heartbeat, check and error group from acct-demo", async () => {
    emulator = demoEmulator();
    const [group] = (
      await call(emulator.app, "GET", "/v1/error-groups/checks/chk-other", { key: OTHER_KEY })
    ).json as { id: string }[];
    for (const [method, path] of [
      ["PUT", "/v1/status-pages/incidents/inc-other-outage"],
      ["GET", "/v1/status-pages/incidents/inc-other-outage/incident-updates"],
      ["GET", "/v1/checks/heartbeats/hb-other-cron/events"],
      ["GET", "/v1/error-groups/checks/chk-other"],
      ["GET", `/v1/error-groups/${group!.id}`],
    ] as const) {
      const body = method === "PUT" ? incidentBody : undefined;
      expect((await call(emulator.app, method, path, { body })).status, path).toBe(404);
    }
  });

  it("hides acct-demo's resources from acct-other, even with the same service and incident names", async () => {
    emulator = demoEmulator();
    const [group] = (await call(emulator.app, "GET", "/v1/error-groups/checks/chk-api")).json as {
      id: string;
    }[];
    for (const path of [...READS, `/v1/error-groups/${group!.id}`]) {
      expect((await call(emulator.app, "GET", path, { key: OTHER_KEY })).status, path).toBe(404);
    }
    const otherBody = { ...incidentBody, services: [service("svc-api", "acct-other")] };
    const put = await call(emulator.app, "PUT", "/v1/status-pages/incidents/inc-api-errors", {
      key: OTHER_KEY,
      body: otherBody,
    });
    expect(put.status).toBe(404);
    const own = await call(emulator.app, "PUT", "/v1/status-pages/incidents/inc-other-outage", {
      key: OTHER_KEY,
      body: otherBody,
    });
    expect(own.json).toMatchObject({
      services: [{ id: "svc-api", name: "Other company API", accountId: "acct-other" }],
    });
  });
});

describe("errors", () => {
  it("answers 404 in the error shape for an unknown route", async () => {
    emulator = demoEmulator();
    const { status, json } = await call(emulator.app, "GET", "/v2/nothing");
    expect(status).toBe(404);
    expect(json).toMatchInlineSnapshot(`
      {
        "error": "Not Found",
        "message": "no route for GET /v2/nothing: see /openapi.json for the API",
        "statusCode": 404,
      }
    `);
  });

  it("answers 405 with Allow for a known path and another method", async () => {
    emulator = demoEmulator();
    const { status, headers, json } = await call(
      emulator.app,
      "POST",
      "/v1/status-pages/incidents/inc-api-errors",
    );
    expect(status).toBe(405);
    expect(headers.get("allow")).toBe("GET, PUT, DELETE");
    expect(json).toMatchInlineSnapshot(`
      {
        "error": "Method Not Allowed",
        "message": "POST is not allowed on /v1/status-pages/incidents/inc-api-errors; use GET, PUT, DELETE",
        "statusCode": 405,
      }
    `);
  });

  it("serves an OpenAPI 3.1 document of the spec's five operations, the reference's incident, check, service, status-page and maintenance-window operations and the control API without a key", async () => {
    emulator = demoEmulator();
    const { status, json } = await call(emulator.app, "GET", "/openapi.json", { key: null });
    expect(status).toBe(200);
    const document = json as {
      openapi: string;
      paths: Record<
        string,
        Record<string, { operationId: string; security?: Record<string, string[]>[] }>
      >;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(document.openapi).toBe("3.1.0");
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.values(item).map((operation) => ({ path, ...operation })),
    );
    const publicOperations = operations.filter(({ path }) => path.startsWith("/v1/"));
    expect(publicOperations.map((operation) => operation.operationId)).toEqual([
      "createIncident",
      "listIncidents",
      "getIncident",
      "updateIncident",
      "deleteIncident",
      "postIncidentUpdate",
      "listIncidentUpdates",
      "getIncidentUpdate",
      "updateIncidentUpdate",
      "deleteIncidentUpdate",
      "listHeartbeatEvents",
      "listErrorGroupsForCheck",
      "getErrorGroup",
      "listChecks",
      "getCheck",
      "listServices",
      "createService",
      "getService",
      "renameService",
      "deleteService",
      "listStatusPages",
      "createStatusPage",
      "getStatusPage",
      "updateStatusPage",
      "deleteStatusPage",
      "listStatusPageSubscriptions",
      "listMaintenanceWindows",
      "createMaintenanceWindow",
      "getMaintenanceWindow",
      "changeMaintenanceWindow",
      "deleteMaintenanceWindow",
      "listMaintenances",
      "getMaintenance",
      "moveMaintenance",
      "deleteMaintenance",
      "postMaintenanceUpdate",
      "changeMaintenanceUpdate",
      "deleteMaintenanceUpdate",
    ]);
    expect(publicOperations.every((operation) => operation.security === undefined)).toBe(true);
    const controlOperations = operations.filter(({ path }) => !path.startsWith("/v1/"));
    const controlIds = controlOperations.map((operation) => operation.operationId);
    expect(controlIds).toContain("editIncident");
    expect(controlIds).toEqual(
      expect.arrayContaining(["getClock", "moveClock", "listMaintenanceNotifications"]),
    );
    for (const operation of controlOperations) {
      expect(operation.path, operation.operationId).toMatch(/^\/_control\//);
      expect(operation.security, operation.operationId).toEqual([{ adminToken: [] }]);
    }
    expect(document.components.securitySchemes).toEqual({
      bearerAuth: expect.objectContaining({ type: "http", scheme: "bearer" }),
      adminToken: expect.objectContaining({ type: "http", scheme: "bearer" }),
    });
  });
});

describe("control API", () => {
  it("needs the admin token, not an API key", async () => {
    emulator = demoEmulator();
    const withApiKey = await call(emulator.app, "GET", "/_control/faults");
    expect(withApiKey.status).toBe(401);
    expect(withApiKey.json).toMatchInlineSnapshot(`
      {
        "error": "Unauthorized",
        "message": "the control API needs the admin token: send Authorization: Bearer <admin token> (printed at start, or --admin-token)",
        "statusCode": 401,
      }
    `);
    expect((await call(emulator.app, "GET", "/_control/faults", { key: ADMIN })).status).toBe(200);
  });

  it("answers 404 for an unknown account and 400 for a bad body", async () => {
    emulator = demoEmulator();
    const unknown = await call(
      emulator.app,
      "POST",
      "/_control/accounts/acct-x/heartbeats/hb-1/pings",
      {
        key: ADMIN,
        body: { ok: true },
      },
    );
    expect(unknown.json).toEqual({
      statusCode: 404,
      error: "Not Found",
      message: "account acct-x not found",
    });
    const bad = await call(
      emulator.app,
      "POST",
      "/_control/accounts/acct-demo/heartbeats/hb-1/pings",
      {
        key: ADMIN,
        body: { ok: "yes", at: "last tuesday" },
      },
    );
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchInlineSnapshot(`
      {
        "error": "Bad Request",
        "message": "invalid body: at: must be an ISO 8601 date-time with an offset (2026-11-03T10:00:00Z), a date (2026-11-03), \`now\`, or a relative time such as -2h or -3d; ok: Invalid input: expected boolean, received string",
        "statusCode": 400,
      }
    `);
  });

  it("refuses times and durations no answer could write back, and answers for the largest it takes", async () => {
    emulator = demoEmulator();
    const ping = (at: string) =>
      call(emulator.app, "POST", "/_control/accounts/acct-demo/heartbeats/hb-billing-sync/pings", {
        key: ADMIN,
        body: { ok: true, at },
      });
    expect((await ping("-9999999999999999w")).status).toBe(400);
    expect((await ping("2026-02-30")).status).toBe(400);
    expect((await ping("2026-11-03T10:00:00")).status).toBe(400);
    const period = await call(
      emulator.app,
      "PUT",
      "/_control/accounts/acct-demo/heartbeats/hb-billing-sync",
      { key: ADMIN, body: { period: "99999999999999999999w" } },
    );
    expect((period.json as { message: string }).message).toMatchInlineSnapshot(
      `"invalid body: period: must be a duration such as 30s, 15m, 1h30m or 1d (at most four parts of four digits)"`,
    );

    expect(() =>
      emulator.control.recordHeartbeatPing("acct-demo", "hb-billing-sync", {
        ok: true,
        at: new Date(8.64e15),
      }),
    ).toThrow("at: must be a valid Date in the years 0000 to 9999");

    expect((await ping("-9999w9999w9999w9999w")).status).toBe(201);
    expect((await ping("+9999w9999w9999w9999w")).status).toBe(201);
    const settings = await call(
      emulator.app,
      "PUT",
      "/_control/accounts/acct-demo/heartbeats/hb-billing-sync",
      { key: ADMIN, body: { period: "9999w9999w9999w9999w", grace: "9999w9999w9999w9999w" } },
    );
    expect(settings.status).toBe(204);
    const events = await call(
      emulator.app,
      "GET",
      "/v1/checks/heartbeats/hb-billing-sync/events?startTime=0000-01-01&endTime=9999-12-31",
    );
    expect(events.status).toBe(200);
  });

  it("refuses pings on an API check", async () => {
    emulator = demoEmulator();
    const { status, json } = await call(
      emulator.app,
      "POST",
      "/_control/accounts/acct-demo/heartbeats/chk-api/pings",
      {
        key: ADMIN,
        body: { ok: true },
      },
    );
    expect(status).toBe(409);
    expect(json).toMatchInlineSnapshot(`
      {
        "error": "Conflict",
        "message": "check chk-api of account acct-demo is an API check, not a heartbeat: record pings on a heartbeat check",
        "statusCode": 409,
      }
    `);
  });

  it("loads a seed posted as JSON and reports its problems with their paths", async () => {
    emulator = demoEmulator();
    const seed = {
      accounts: [
        {
          id: "acct-new",
          apiKeys: ["new-key"],
          services: [{ id: "svc-1", name: "One" }],
          incidents: [{ id: "inc-1", name: "New", severity: "MINOR", services: ["svc-1"] }],
        },
      ],
    };
    expect(
      (await call(emulator.app, "POST", "/_control/seed", { key: ADMIN, body: seed })).status,
    ).toBe(201);
    const put = await call(emulator.app, "PUT", "/v1/status-pages/incidents/inc-1", {
      key: "new-key",
      body: { ...incidentBody, services: [{ id: "svc-1", name: "One", accountId: "acct-new" }] },
    });
    expect(put.status).toBe(200);
    const broken = await call(emulator.app, "POST", "/_control/seed", {
      key: ADMIN,
      body: {
        accounts: [
          {
            id: "acct-b",
            apiKeys: ["demo-key"],
            incidents: [{ id: "i", name: "n", severity: "MINOR", services: ["svc-9"] }],
          },
        ],
      },
    });
    expect(broken.status).toBe(400);
    expect((broken.json as { message: string }).message).toMatchInlineSnapshot(`
      "seed from the control API is not valid (1 problem):
        - accounts[0].incidents[0].services[0]: service svc-9 is not declared under services of account acct-b (declared: none)
      See examples/seed/demo.yaml for the format."
    `);
  });
});
