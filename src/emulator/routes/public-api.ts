import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ErrorGroupsQuery, HeartbeatEventsQuery, IncidentRequest } from "../../api/schemas";
import type { FaultInjector } from "../faults";
import { ApiError } from "../http-error";
import { PUBLIC_BODY_LIMIT, pathParam, readJsonBody, readQuery } from "../request-input";
import type { Stores } from "../store";
import { DAY_MS } from "../time";
import { type AccountEnv, apiKeyAuth } from "./auth";

export const PUBLIC_PATHS = {
  incident: "/v1/status-pages/incidents/:incidentId",
  incidentUpdates: "/v1/status-pages/incidents/:incidentId/incident-updates",
  heartbeatEvents: "/v1/checks/heartbeats/:checkId/events",
  errorGroupsOfCheck: "/v1/error-groups/checks/:checkId",
  errorGroup: "/v1/error-groups/:id",
} as const;

const tooLarge = () => {
  throw new ApiError(
    413,
    `the request body is larger than ${PUBLIC_BODY_LIMIT} bytes (1 MiB): send a smaller incident`,
  );
};

/** The schemas accept RFC 3339 date-times and plain dates (UTC midnight). */
function parseTime(text: string): number {
  return Date.parse(text);
}

/** The five operations of the spec (section 4), with auth and fault injection. */
export function publicApi(stores: Stores, faults: FaultInjector, now: () => Date) {
  const app = new Hono<AccountEnv>();
  const auth = apiKeyAuth(stores.accounts);
  app.use("/v1/*", faults.middleware());

  app.put(
    PUBLIC_PATHS.incident,
    bodyLimit({ maxSize: PUBLIC_BODY_LIMIT, onError: tooLarge }),
    auth,
    async (c) => {
      const incidentId = pathParam(c, "incidentId");
      const body = await readJsonBody(c, IncidentRequest);
      const incident = stores.incidents.update(
        c.get("accountId"),
        incidentId,
        body,
        now().getTime(),
      );
      return c.json(incident);
    },
  );

  app.get(PUBLIC_PATHS.incidentUpdates, auth, (c) =>
    c.json(stores.incidents.listUpdates(c.get("accountId"), pathParam(c, "incidentId"))),
  );

  app.get(PUBLIC_PATHS.heartbeatEvents, auth, (c) => {
    const checkId = pathParam(c, "checkId");
    const query = readQuery(c, HeartbeatEventsQuery, ["limit"]);
    const nowMs = now().getTime();
    const endMs = query.endTime === undefined ? nowMs : parseTime(query.endTime);
    const startMs = query.startTime === undefined ? endMs - DAY_MS : parseTime(query.startTime);
    return c.json(
      stores.heartbeats.events(
        c.get("accountId"),
        checkId,
        { startMs, endMs, limit: query.limit ?? 10 },
        nowMs,
      ),
    );
  });

  app.get(PUBLIC_PATHS.errorGroupsOfCheck, auth, (c) => {
    const checkId = pathParam(c, "checkId");
    const query = readQuery(c, ErrorGroupsQuery, ["limit", "page"]);
    return c.json(
      stores.errorGroups.list(c.get("accountId"), checkId, query.limit ?? 10, query.page ?? 1),
    );
  });

  app.get(PUBLIC_PATHS.errorGroup, auth, (c) =>
    c.json(stores.errorGroups.get(c.get("accountId"), pathParam(c, "id"))),
  );

  const allowed: Record<string, string> = {
    [PUBLIC_PATHS.incident]: "PUT",
    [PUBLIC_PATHS.incidentUpdates]: "GET",
    [PUBLIC_PATHS.heartbeatEvents]: "GET",
    [PUBLIC_PATHS.errorGroupsOfCheck]: "GET",
    [PUBLIC_PATHS.errorGroup]: "GET",
  };
  for (const [path, method] of Object.entries(allowed)) {
    app.all(path, (c) => {
      throw new ApiError(405, `${c.req.method} is not allowed on ${c.req.path}; use ${method}`, {
        Allow: method,
      });
    });
  }
  return app;
}
