import { type Context, Hono } from "hono";
import type { z } from "zod";
import { honoPath, type Route } from "../../api/routes";
import type { EmulatorControl } from "../control";
import { CONTROL_BODY_LIMIT, pathParam, readJsonBody } from "../request-input";
import { adminTokenAuth } from "./auth";
import { CONTROL_ROUTES } from "./control-routes";
import { allowOnlyRouteMethods } from "./method-not-allowed";

export const CONTROL_PREFIX = "/_control";

type Handler = (c: Context) => Response | Promise<Response>;

/** The body of a control route, validated with the route's schema. */
const body = <S extends z.ZodType>(c: Context, route: { body: { schema: S } }) =>
  readJsonBody(c, route.body.schema, CONTROL_BODY_LIMIT);

/**
 * The control API: everything tests and demos need that the public API does not offer.
 * Under `/_control`, behind the admin token, never subject to faults; its routes are
 * `CONTROL_ROUTES`.
 */
export function controlApi(control: EmulatorControl, adminToken: string) {
  const app = new Hono();
  app.use(`${CONTROL_PREFIX}/*`, adminTokenAuth(adminToken));
  const on = (route: Route, handler: Handler) =>
    app.on(route.method, honoPath(route.path), handler);
  const routes = CONTROL_ROUTES;
  const account = (c: Context) => pathParam(c, "accountId");

  on(routes.controlHealth, (c) => c.json({ ok: true }));

  on(routes.getFaults, (c) => c.json(control.getFaults()));
  on(routes.setFaults, async (c) => c.json(control.setFaults(await body(c, routes.setFaults))));

  on(routes.getBehaviour, (c) => c.json(control.getBehaviour()));
  on(routes.setBehaviour, async (c) =>
    c.json(control.setBehaviour(await body(c, routes.setBehaviour))),
  );

  on(routes.getRequestStats, (c) => c.json(control.stats()));
  on(routes.resetRequestStats, (c) => {
    control.resetStats();
    return c.body(null, 204);
  });

  on(routes.loadSeed, async (c) => {
    control.loadSeed(await body(c, routes.loadSeed));
    return c.json({ loaded: true }, 201);
  });

  on(routes.editIncident, async (c) => {
    const edit = await body(c, routes.editIncident);
    return c.json(control.editIncident(account(c), pathParam(c, "incidentId"), edit));
  });

  on(routes.appendIncidentUpdate, async (c) => {
    const update = await body(c, routes.appendIncidentUpdate);
    return c.json(
      control.appendIncidentUpdate(account(c), pathParam(c, "incidentId"), update),
      201,
    );
  });

  on(routes.listNotifications, (c) => c.json(control.notifications(account(c))));
  on(routes.listMaintenanceNotifications, (c) =>
    c.json(control.maintenanceNotifications(account(c))),
  );

  on(routes.getClock, (c) => c.json(control.readClock()));
  on(routes.moveClock, async (c) => c.json(control.moveClock(await body(c, routes.moveClock))));

  on(routes.recordCheckResult, async (c) => {
    const result = await body(c, routes.recordCheckResult);
    return c.json(control.recordCheckResult(account(c), pathParam(c, "checkId"), result), 201);
  });

  on(routes.recordCheckResults, async (c) => {
    const { results } = await body(c, routes.recordCheckResults);
    const recorded = control.recordCheckResults(account(c), results);
    return c.json({ recorded: recorded.length, results: recorded }, 201);
  });

  on(routes.generateErrorGroups, async (c) => {
    const { count, at } = await body(c, routes.generateErrorGroups);
    return c.json(
      { created: control.generateErrorGroups(account(c), pathParam(c, "checkId"), count, at) },
      201,
    );
  });

  on(routes.archiveErrorGroup, (c) =>
    c.json(control.archiveErrorGroup(account(c), pathParam(c, "id"))),
  );

  on(routes.configureHeartbeat, async (c) => {
    const settings = await body(c, routes.configureHeartbeat);
    control.configureHeartbeat(account(c), pathParam(c, "checkId"), settings);
    return c.body(null, 204);
  });

  on(routes.recordHeartbeatPing, async (c) => {
    const ping = await body(c, routes.recordHeartbeatPing);
    return c.json(control.recordHeartbeatPing(account(c), pathParam(c, "checkId"), ping), 201);
  });

  allowOnlyRouteMethods(app, Object.values(routes));
  return app;
}
