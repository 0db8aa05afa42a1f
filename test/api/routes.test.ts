import { afterAll, describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../../src/api/openapi";
import {
  buildPath,
  type PathParams,
  PUBLIC_ROUTES,
  pathParamNames,
  ROUTES,
  type Route,
} from "../../src/api/routes";
import { createEmulator } from "../../src/emulator";

const emulator = createEmulator({ seed: "demo" });
afterAll(() => emulator.close());

/** Path values for any route: the route's examples, else a placeholder. */
function exampleParams(route: Route): Record<string, string> {
  return Object.fromEntries(
    pathParamNames(route.path).map((name) => [name, route.pathParams[name]?.example ?? "x-1"]),
  );
}

describe("the route table", () => {
  it("describes every parameter of each path template, and no other", () => {
    for (const route of PUBLIC_ROUTES) {
      expect(Object.keys(route.pathParams), route.operationId).toEqual(pathParamNames(route.path));
    }
  });

  it("builds paths with each parameter encoded as one path segment", () => {
    expect(buildPath(ROUTES.getErrorGroup, { id: "eg 1/../x?y#z" })).toBe(
      "/v1/error-groups/eg%201%2F..%2Fx%3Fy%23z",
    );
    const params: PathParams<typeof ROUTES.listIncidentUpdates.path> = { incidentId: "inc-1" };
    expect(buildPath(ROUTES.listIncidentUpdates, params)).toBe(
      "/v1/status-pages/incidents/inc-1/incident-updates",
    );
  });

  it("gives the OpenAPI document one operation per route, at the route's path and method", () => {
    const document = buildOpenApiDocument();
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({
        path,
        method: method.toUpperCase(),
        operationId: (operation as { operationId: string }).operationId,
      })),
    );
    // The document groups operations by path, so a path's later routes join its first.
    const byId = (x: { operationId: string }, y: { operationId: string }) =>
      x.operationId.localeCompare(y.operationId);
    expect(operations.sort(byId)).toEqual(
      PUBLIC_ROUTES.map(({ path, method, operationId }) => ({ path, method, operationId })).sort(
        byId,
      ),
    );
  });

  it("is what the emulator serves: each route's method is handled, another method is 405 with every method of the path", async () => {
    const service = { id: "svc-api", name: "Public API", accountId: "acct-demo" };
    const update = { description: "We are looking into it.", status: "INVESTIGATING" };
    const bodies: Record<string, object> = {
      createIncident: {
        name: "n",
        severity: "MINOR",
        services: [service],
        incidentUpdates: [update],
      },
      updateIncident: { name: "n", severity: "MINOR", services: [service] },
      postIncidentUpdate: update,
      updateIncidentUpdate: update,
      createService: { name: "Status API" },
      renameService: { name: "Public API v2" },
      // A url of its own per route: a page made by the create would take a shared one.
      createStatusPage: { name: "Ops", url: "ops-status", cards: [] },
      updateStatusPage: {
        name: "Acme status",
        url: "acme-status",
        // svc-db stays on the page: the demo's maintenance window, changed later, names it.
        cards: [{ name: "Shop", services: [{ id: "svc-web" }, { id: "svc-db" }] }],
      },
      createMaintenanceWindow: {
        name: "Database upgrade",
        startsAt: "2026-12-04T02:00:00Z",
        endsAt: "2026-12-04T03:00:00Z",
        repeatUnit: null,
      },
      changeMaintenanceWindow: { name: "Database upgrade" },
      moveMaintenance: { startsAt: "2026-12-04T02:00:00Z" },
      postMaintenanceUpdate: { status: "SCHEDULED", description: "We will upgrade the database." },
      changeMaintenanceUpdate: { description: "We will upgrade the database." },
    };
    const methodsOf = (path: string) =>
      PUBLIC_ROUTES.filter((other) => other.path === path).map((other) => other.method);
    // Removals last, so that what one removes (a page) is not what a later route's body names.
    const removalsLast = [...PUBLIC_ROUTES].sort(
      (a, b) => Number(a.method === "DELETE") - Number(b.method === "DELETE"),
    );
    for (const route of removalsLast) {
      const path = buildPath(route, exampleParams(route) as PathParams<string>);
      const body = bodies[route.operationId];
      expect(route.body === undefined, route.operationId).toBe(body === undefined);
      const init = {
        method: route.method,
        headers: { authorization: "Bearer demo-key", "content-type": "application/json" },
        ...(body ? { body: JSON.stringify(body) } : {}),
      };
      const response = await emulator.app.request(path, init);
      expect([route.success.status, 404], `${route.method} ${path}`).toContain(response.status);
      if (response.status === 404) {
        expect(await response.json()).not.toMatchObject({
          message: expect.stringMatching(/^no route/),
        });
      }
      // A method the path does not have: PATCH, or POST on the one path that has PATCH.
      const method = methodsOf(route.path).includes("PATCH") ? "POST" : "PATCH";
      const other = await emulator.app.request(path, { method });
      expect(other.status, `${method} ${path}`).toBe(405);
      expect(other.headers.get("allow")).toBe(methodsOf(route.path).join(", "));
    }
  });

  it("answers 405 for another method on a path without parameters, though a parameter route beside it has that method", async () => {
    const fixed = [...new Set(PUBLIC_ROUTES.map((route) => route.path))].filter(
      (path) => !path.includes("{"),
    );
    for (const path of fixed) {
      const allowed: string[] = PUBLIC_ROUTES.filter((route) => route.path === path).map(
        (route) => route.method,
      );
      for (const method of ["GET", "PUT", "POST", "DELETE"].filter((m) => !allowed.includes(m))) {
        const response = await emulator.app.request(path, {
          method,
          headers: { authorization: "Bearer demo-key", "content-type": "application/json" },
          body: method === "GET" ? undefined : "{}",
        });
        expect(response.status, `${method} ${path}`).toBe(405);
        expect(response.headers.get("allow"), `${method} ${path}`).toBe(allowed.join(", "));
      }
    }
    const head = await emulator.app.request("/v1/status-pages", {
      method: "HEAD",
      headers: { authorization: "Bearer demo-key" },
    });
    expect(head.status).toBe(200);
  });
});
