import { type Context, Hono } from "hono";
import { honoPath, PUBLIC_ROUTES, ROUTES, type Route } from "../../api/routes";
import type { AppContext } from "../app-context";
import { ErrorResponse } from "../http-error";
import { PUBLIC_BODY_LIMIT, pathParam, readJsonBody, readQuery } from "../request-input";
import { INCIDENTS_PAGE_DEFAULT } from "../store/incidents";
import { DAY_MS } from "../time";
import { type AccountEnv, apiKeyAuth } from "./auth";
import { allowOnlyRouteMethods } from "./method-not-allowed";

/** The schemas accept RFC 3339 date-times and plain dates (UTC midnight). */
function parseTime(text: string): number {
  return Date.parse(text);
}

type Handler = (c: Context<AccountEnv>) => Response | Promise<Response>;

/** The spec's excerpt; the other incident operations are the public reference's. */
const EXCERPT: ReadonlySet<Route> = new Set<Route>([
  ROUTES.updateIncident,
  ROUTES.listIncidentUpdates,
  ROUTES.listHeartbeatEvents,
  ROUTES.listErrorGroupsForCheck,
  ROUTES.getErrorGroup,
]);

/**
 * The public operations (the spec's five and the public reference's incident operations), with
 * auth, request counts and fault injection.
 */
export function publicApi({ stores, control, faults, requests, now }: AppContext) {
  const app = new Hono<AccountEnv>();
  const auth = apiKeyAuth(stores.accounts);
  app.use("/v1/*", requests.middleware(PUBLIC_ROUTES));
  app.use("/v1/*", faults.middleware());
  // A service with only the excerpt's operations (behaviour `referenceOperations`) answers
  // the others as it would answer a route it does not have.
  const on = (route: Route, handler: Handler) =>
    app.on(route.method, honoPath(route.path), auth, (c) => {
      const { referenceOperations } = control.getBehaviour();
      if (!EXCERPT.has(route) && referenceOperations !== "available") {
        throw referenceOperations === "not-found"
          ? new ErrorResponse(404, `Route ${c.req.method}:${c.req.path} not found`)
          : new ErrorResponse(405, `${c.req.method} is not allowed on ${c.req.path}`);
      }
      return handler(c);
    });
  const account = (c: Context<AccountEnv>) => c.get("accountId");
  const incident = (c: Context<AccountEnv>) => pathParam(c, "incidentId");
  const update = (c: Context<AccountEnv>) => pathParam(c, "incidentUpdateId");
  const nowMs = () => now().getTime();

  on(ROUTES.createIncident, async (c) => {
    const body = await readJsonBody(c, ROUTES.createIncident.body.schema, PUBLIC_BODY_LIMIT);
    return c.json(stores.incidents.create(account(c), body, nowMs()), 201);
  });

  on(ROUTES.listIncidents, (c) => {
    const query = readQuery(c, ROUTES.listIncidents.query.schema);
    return c.json(
      stores.incidents.list(account(c), query.limit ?? INCIDENTS_PAGE_DEFAULT, query.nextId),
    );
  });

  on(ROUTES.getIncident, (c) => c.json(stores.incidents.get(account(c), incident(c))));

  on(ROUTES.deleteIncident, (c) => {
    stores.incidents.remove(account(c), incident(c));
    return c.body(null, 204);
  });

  on(ROUTES.postIncidentUpdate, async (c) => {
    const body = await readJsonBody(c, ROUTES.postIncidentUpdate.body.schema, PUBLIC_BODY_LIMIT);
    return c.json(stores.incidents.postUpdate(account(c), incident(c), body, nowMs()));
  });

  on(ROUTES.getIncidentUpdate, (c) =>
    c.json(stores.incidents.getUpdate(account(c), incident(c), update(c))),
  );

  on(ROUTES.updateIncidentUpdate, async (c) => {
    const body = await readJsonBody(c, ROUTES.updateIncidentUpdate.body.schema, PUBLIC_BODY_LIMIT);
    return c.json(stores.incidents.changeUpdate(account(c), incident(c), update(c), body, nowMs()));
  });

  on(ROUTES.deleteIncidentUpdate, (c) => {
    stores.incidents.removeUpdate(account(c), incident(c), update(c));
    return c.body(null, 204);
  });

  on(ROUTES.updateIncident, async (c) => {
    const incidentId = pathParam(c, "incidentId");
    const body = await readJsonBody(c, ROUTES.updateIncident.body.schema, PUBLIC_BODY_LIMIT);
    const { putStatus } = control.getBehaviour();
    return c.json(
      stores.incidents.update(c.get("accountId"), incidentId, body, now().getTime(), putStatus),
    );
  });

  on(ROUTES.listIncidentUpdates, (c) =>
    c.json(stores.incidents.listUpdates(c.get("accountId"), pathParam(c, "incidentId"))),
  );

  on(ROUTES.listHeartbeatEvents, (c) => {
    const checkId = pathParam(c, "checkId");
    const query = readQuery(c, ROUTES.listHeartbeatEvents.query.schema);
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

  on(ROUTES.listErrorGroupsForCheck, (c) => {
    const checkId = pathParam(c, "checkId");
    const query = readQuery(c, ROUTES.listErrorGroupsForCheck.query.schema);
    return c.json(
      stores.errorGroups.list(c.get("accountId"), checkId, query.limit ?? 10, query.page ?? 1),
    );
  });

  on(ROUTES.getErrorGroup, (c) =>
    c.json(stores.errorGroups.get(c.get("accountId"), pathParam(c, "id"))),
  );

  allowOnlyRouteMethods(app, PUBLIC_ROUTES);
  return app;
}
