import { type Context, Hono } from "hono";
import { honoPath, PUBLIC_ROUTES, ROUTES, type Route } from "../../api/routes";
import type { AppContext } from "../app-context";
import { PUBLIC_BODY_LIMIT, pathParam, readJsonBody, readQuery } from "../request-input";
import { DAY_MS } from "../time";
import { type AccountEnv, apiKeyAuth } from "./auth";
import { allowOnlyRouteMethods } from "./method-not-allowed";

/** The schemas accept RFC 3339 date-times and plain dates (UTC midnight). */
function parseTime(text: string): number {
  return Date.parse(text);
}

type Handler = (c: Context<AccountEnv>) => Response | Promise<Response>;

/** The five operations of the spec (section 4), with auth, request counts and fault injection. */
export function publicApi({ stores, control, faults, requests, now }: AppContext) {
  const app = new Hono<AccountEnv>();
  const auth = apiKeyAuth(stores.accounts);
  app.use("/v1/*", requests.middleware(PUBLIC_ROUTES));
  app.use("/v1/*", faults.middleware());
  const on = (route: Route, handler: Handler) =>
    app.on(route.method, honoPath(route.path), auth, handler);

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
