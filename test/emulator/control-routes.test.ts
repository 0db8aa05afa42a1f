import { afterAll, describe, expect, it } from "vitest";
import { buildPath, type PathParams, pathParamNames } from "../../src/api/routes";
import { CONTROL_ROUTES } from "../../src/emulator/routes/control-routes";
import { ADMIN, call, demoEmulator } from "./helpers";

const emulator = demoEmulator();
afterAll(() => emulator.close());

const routes = Object.values(CONTROL_ROUTES);

describe("the control route table", () => {
  it("describes every parameter of each path template, and no other", () => {
    for (const route of routes) {
      expect(Object.keys(route.pathParams), route.operationId).toEqual(pathParamNames(route.path));
    }
  });

  it("is what the emulator serves: each route's method is handled, another method is 405 with Allow", async () => {
    for (const route of routes) {
      const params = Object.fromEntries(
        pathParamNames(route.path).map((name) => [
          name,
          (route.pathParams as Record<string, { example?: string }>)[name]?.example ?? "x-1",
        ]),
      );
      const path = buildPath(route, params as PathParams<string>);
      // An empty object is a valid body of some routes and a 400 of others; never "no route".
      const answer = await call(emulator.app, route.method, path, {
        key: ADMIN,
        ...("body" in route ? { body: {} } : {}),
      });
      expect([200, 201, 204, 400, 404], `${route.method} ${path}`).toContain(answer.status);
      expect(JSON.stringify(answer.json ?? {}), `${route.method} ${path}`).not.toContain(
        "no route",
      );
      const allowed = routes
        .filter((other) => other.path === route.path)
        .map((other) => other.method);
      const other = await call(emulator.app, "OPTIONS", path, { key: ADMIN });
      expect(other.status, `OPTIONS ${path}`).toBe(405);
      expect(other.headers.get("allow")).toBe(allowed.join(", "));
    }
  });
});
