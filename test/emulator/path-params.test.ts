import { afterEach, describe, expect, it } from "vitest";
import { ROUTES } from "../../src/api/routes";
import { PathId } from "../../src/api/schemas";
import type { Emulator } from "../../src/emulator";
import { call, demoEmulator, incidentBody } from "./helpers";

/** Every path parameter of every public route, with the route's method and operation. */
const WITH_PATH_PARAMETER = Object.values(ROUTES).flatMap((route) =>
  Object.keys(route.pathParams).map((name) => ({
    method: route.method,
    path: route.path,
    name,
    operationId: route.operationId,
  })),
);

/** A valid body for each route that takes one, so only the path is refused. */
const BODIES: Record<string, object> = {
  updateIncident: incidentBody,
  postIncidentUpdate: { description: "We are looking into it.", status: "INVESTIGATING" },
  updateIncidentUpdate: { description: "We are looking into it.", status: "INVESTIGATING" },
  renameService: { name: "Public API" },
  updateStatusPage: { name: "Acme status", url: "acme-status", cards: [] },
  changeMaintenanceWindow: { name: "Database upgrade" },
  moveMaintenance: { startsAt: "2026-12-04T02:00:00Z" },
  postMaintenanceUpdate: { status: "SCHEDULED", description: "We will upgrade the database." },
  changeMaintenanceUpdate: { description: "We will upgrade the database." },
};

/** Ids the client refuses to send, as they arrive percent-encoded in a path. */
const REFUSED = [
  "a%2Fb",
  "a%5Cb",
  "a%3Fb",
  "a%23b",
  "a%25b",
  "a%20b",
  "%20%20",
  "inc%00",
  "inc%07",
  "inc%E2%80%AEabc",
  "inc%E2%80%8Bx",
  "x".repeat(256),
];

let emulator: Emulator | undefined;
afterEach(() => {
  emulator?.close();
  emulator = undefined;
});

describe("path parameters of the public API", () => {
  it("are refused with 400 on every route, in the words the client uses", async () => {
    emulator = demoEmulator();
    expect(WITH_PATH_PARAMETER).toHaveLength(40);
    for (const route of WITH_PATH_PARAMETER) {
      for (const encoded of REFUSED) {
        const path = route.path.replace(`{${route.name}}`, encoded).replace(/\{[^}]+\}/g, "x-1");
        const body = BODIES[route.operationId];
        const response = await call(emulator.app, route.method, path, { body });
        const expected = PathId.safeParse(decodeURIComponent(encoded)).error?.issues[0]?.message;
        expect(expected).toBeDefined();
        expect(response.status, `${route.method} ${path}`).toBe(400);
        expect(response.json).toEqual({
          statusCode: 400,
          error: "Bad Request",
          message: `path parameter ${route.name} ${expected}`,
        });
      }
    }
  });

  it("names the character that is refused and where it is", async () => {
    emulator = demoEmulator();
    const bidi = await call(emulator.app, "PUT", "/v1/status-pages/incidents/inc%E2%80%AEabc", {
      body: incidentBody,
    });
    expect(bidi.json).toMatchInlineSnapshot(`
      {
        "error": "Bad Request",
        "message": "path parameter incidentId must not contain U+202E RIGHT-TO-LEFT OVERRIDE (character 4); an id is one URL path segment of visible characters, without whitespace, /, \\, ?, # or %",
        "statusCode": 400,
      }
    `);
    const slash = await call(emulator.app, "GET", "/v1/error-groups/eg%2F1");
    expect(slash.json).toMatchInlineSnapshot(`
      {
        "error": "Bad Request",
        "message": "path parameter id must not contain "/" (character 3); an id is one URL path segment of visible characters, without whitespace, /, \\, ?, # or %",
        "statusCode": 400,
      }
    `);
  });

  it("never see a dot segment: URL parsing resolves it before routing, so it reaches no route", async () => {
    emulator = demoEmulator();
    const response = await call(emulator.app, "PUT", "/v1/status-pages/incidents/%2E%2E", {
      body: incidentBody,
    });
    expect(response.status).toBe(404);
  });

  it("pass ids in any script with colons and at signs on to the store, decoded", async () => {
    emulator = demoEmulator();
    const response = await call(
      emulator.app,
      "GET",
      "/v1/status-pages/incidents/inc%3A%C3%BC%401/incident-updates",
    );
    expect(response.json).toMatchInlineSnapshot(`
      {
        "error": "Not Found",
        "message": "incident inc:ü@1 not found",
        "statusCode": 404,
      }
    `);
  });
});
