import { type Context, Hono, type MiddlewareHandler } from "hono";
import { honoPath, PUBLIC_ROUTES, ROUTES, type Route } from "../../api/routes";
import {
  shapeCreated,
  shapeErrorGroup,
  shapeEvents,
  shapeIncident,
  shapeIncidentList,
  shapeService,
  shapeServiceList,
  shapeStatusPage,
  shapeStatusPageList,
  shapeUpdate,
  shapeUpdates,
} from "../answer-shape";
import type { AppContext } from "../app-context";
import { ErrorResponse } from "../http-error";
import { rateWindowMiddleware } from "../rate-window";
import { PUBLIC_BODY_LIMIT, pathParam, readJsonBody, readQuery } from "../request-input";
import {
  CHECKS_PAGE_DEFAULT,
  INCIDENTS_PAGE_DEFAULT,
  MAINTENANCE_WINDOWS_PAGE_DEFAULT,
  MAINTENANCES_PAGE_DEFAULT,
  SERVICES_PAGE_DEFAULT,
  STATUS_PAGES_PAGE_DEFAULT,
} from "../store";
import { DAY_MS } from "../time";
import { type AccountEnv, apiKeyAuth } from "./auth";
import { allowOnlyRouteMethods, refuseOtherMethodsOnFixedPaths } from "./method-not-allowed";
import { pageWriteRoutes } from "./page-writes";

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
 * The public operations (the spec's five and the public reference's incident, check, service
 * and status-page operations), with auth, request counts, the rate window and fault injection;
 * every answer is shaped by the behaviour (`answer-shape.ts`).
 */
export function publicApi(context: AppContext) {
  const { stores, control, faults, requests, now } = context;
  const app = new Hono<AccountEnv>();
  const behaviour = () => control.getBehaviour();
  const auth = apiKeyAuth(stores.accounts, () => behaviour().accountHeader);
  app.use("/v1/*", requests.middleware(PUBLIC_ROUTES));
  app.use(
    "/v1/*",
    rateWindowMiddleware(() => behaviour().rateWindow),
  );
  app.use("/v1/*", faults.middleware());
  app.use("/v1/*", refuseOtherMethodsOnFixedPaths(PUBLIC_ROUTES));
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
    // Held, then made, whether the client still waits or not (`createDelayMs`).
    const { createDelayMs } = behaviour();
    if (createDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, createDelayMs));
    const created = stores.incidents.create(account(c), body, nowMs());
    const other = faults.get().answerWithIncident;
    if (other !== null) {
      return c.json(shapeIncident(stores.incidents.get(account(c), other), behaviour()), 201);
    }
    return c.json(shapeCreated(created, behaviour()), 201);
  });

  on(ROUTES.listIncidents, (c) => {
    const query = readQuery(c, ROUTES.listIncidents.query.schema);
    const list = stores.incidents.list(
      account(c),
      query.limit ?? INCIDENTS_PAGE_DEFAULT,
      query.nextId,
    );
    return c.json(shapeIncidentList(list, behaviour()));
  });

  on(ROUTES.getIncident, (c) =>
    c.json(shapeIncident(stores.incidents.get(account(c), incident(c)), behaviour())),
  );

  on(ROUTES.deleteIncident, (c) => {
    stores.incidents.remove(account(c), incident(c));
    return c.body(null, 204);
  });

  on(ROUTES.postIncidentUpdate, async (c) => {
    const body = await readJsonBody(c, ROUTES.postIncidentUpdate.body.schema, PUBLIC_BODY_LIMIT);
    const posted = stores.updates.post(account(c), incident(c), body, nowMs());
    const other = faults.get().answerWithIncident;
    const theirs = other === null ? [] : stores.updates.list(account(c), other);
    const answer = theirs[0] ?? posted;
    return c.json(shapeUpdate(answer, behaviour()));
  });

  on(ROUTES.getIncidentUpdate, (c) =>
    c.json(shapeUpdate(stores.updates.get(account(c), incident(c), update(c)), behaviour())),
  );

  on(ROUTES.updateIncidentUpdate, async (c) => {
    const body = await readJsonBody(c, ROUTES.updateIncidentUpdate.body.schema, PUBLIC_BODY_LIMIT);
    const changed = stores.updates.change(
      account(c),
      incident(c),
      update(c),
      body,
      nowMs(),
      behaviour().editDate,
    );
    return c.json(shapeUpdate(changed, behaviour()));
  });

  on(ROUTES.deleteIncidentUpdate, (c) => {
    stores.updates.remove(account(c), incident(c), update(c));
    return c.body(null, 204);
  });

  on(ROUTES.updateIncident, async (c) => {
    const incidentId = pathParam(c, "incidentId");
    const body = await readJsonBody(c, ROUTES.updateIncident.body.schema, PUBLIC_BODY_LIMIT);
    const shaping = behaviour();
    const answer = stores.incidents.update(
      account(c),
      incidentId,
      body,
      nowMs(),
      shaping.putStatus,
    );
    return c.json(shapeIncident(answer, shaping));
  });

  on(ROUTES.listIncidentUpdates, (c) =>
    c.json(shapeUpdates(stores.updates.list(account(c), incident(c)), behaviour())),
  );

  // A service may answer `[]` for a check it does not know rather than 404 (`unknownCheck`).
  const unknownCheck = (error: unknown) => {
    if (error instanceof ErrorResponse && error.status === 404) {
      if (behaviour().unknownCheck === "empty") return [];
    }
    throw error;
  };

  on(ROUTES.listHeartbeatEvents, (c) => {
    const checkId = pathParam(c, "checkId");
    const query = readQuery(c, ROUTES.listHeartbeatEvents.query.schema);
    const shaping = behaviour();
    const endMs = query.endTime === undefined ? nowMs() : parseTime(query.endTime);
    const startMs = query.startTime === undefined ? endMs - DAY_MS : parseTime(query.startTime);
    try {
      const window = { startMs, endMs, limit: query.limit ?? 10, order: shaping.listOrder };
      const answer = stores.heartbeats.events(account(c), checkId, window, nowMs());
      return c.json(shapeEvents(answer, shaping));
    } catch (error) {
      return c.json(unknownCheck(error));
    }
  });

  on(ROUTES.listErrorGroupsForCheck, (c) => {
    const checkId = pathParam(c, "checkId");
    const query = readQuery(c, ROUTES.listErrorGroupsForCheck.query.schema);
    try {
      const groups = stores.errorGroups.list(
        account(c),
        checkId,
        query.limit ?? 10,
        query.page ?? 1,
      );
      return c.json(groups.map((group) => shapeErrorGroup(group, behaviour())));
    } catch (error) {
      return c.json(unknownCheck(error));
    }
  });

  on(ROUTES.getErrorGroup, (c) =>
    c.json(shapeErrorGroup(stores.errorGroups.get(account(c), pathParam(c, "id")), behaviour())),
  );

  on(ROUTES.listChecks, (c) => {
    const { limit, page, ...filter } = readQuery(c, ROUTES.listChecks.query.schema);
    return c.json(stores.checks.list(account(c), limit ?? CHECKS_PAGE_DEFAULT, page ?? 1, filter));
  });

  on(ROUTES.getCheck, (c) => c.json(stores.checks.get(account(c), pathParam(c, "id"))));

  on(ROUTES.listServices, (c) => {
    const query = readQuery(c, ROUTES.listServices.query.schema);
    const list = stores.services.list(
      account(c),
      query.limit ?? SERVICES_PAGE_DEFAULT,
      query.nextId,
    );
    return c.json(shapeServiceList(list, behaviour()));
  });

  on(ROUTES.getService, (c) =>
    c.json(shapeService(stores.services.get(account(c), pathParam(c, "serviceId")), behaviour())),
  );

  on(ROUTES.listStatusPages, (c) => {
    const query = readQuery(c, ROUTES.listStatusPages.query.schema);
    const list = stores.statusPages.list(
      account(c),
      query.limit ?? STATUS_PAGES_PAGE_DEFAULT,
      query.nextId,
    );
    return c.json(shapeStatusPageList(list, behaviour()));
  });

  on(ROUTES.getStatusPage, (c) =>
    c.json(
      shapeStatusPage(
        stores.statusPages.get(account(c), pathParam(c, "statusPageId")),
        behaviour(),
      ),
    ),
  );

  // After the reads: `/v1/status-pages/{statusPageId}/…` would take theirs too.
  pageWriteRoutes(on, context);
  // The service's scheduler runs on its own; here it catches up before each maintenance call.
  const catchUp: MiddlewareHandler = async (_c, next) => {
    stores.maintenanceWindows.advance(nowMs(), behaviour().maintenanceOccurrences);
    await next();
  };
  app.use("/v1/maintenance-windows", catchUp);
  app.use("/v1/maintenance-windows/*", catchUp);
  const windows = stores.maintenanceWindows;
  // Every path parameter is checked (400) before a window id that is no number is missing (404).
  const windowId = (c: Context<AccountEnv>, ...others: string[]) => {
    const text = pathParam(c, "maintenanceWindowId");
    const checked = others.map((name) => pathParam(c, name));
    if (!/^\d{1,15}$/.test(text)) {
      throw new ErrorResponse(404, `maintenance window ${text} not found`);
    }
    return [Number(text), ...checked] as const;
  };
  const maintenancePath = (c: Context<AccountEnv>) => {
    const [id, maintenanceId = ""] = windowId(c, "maintenanceId");
    return { id, maintenanceId };
  };
  const updatePath = (c: Context<AccountEnv>) => {
    const [id, maintenanceId = "", updateId = ""] = windowId(c, "maintenanceId", "updateId");
    return { id, maintenanceId, updateId };
  };

  on(ROUTES.listMaintenanceWindows, (c) => {
    const query = readQuery(c, ROUTES.listMaintenanceWindows.query.schema);
    const limit = query.limit ?? MAINTENANCE_WINDOWS_PAGE_DEFAULT;
    return c.json(windows.list(account(c), limit, query.page ?? 1));
  });

  on(ROUTES.createMaintenanceWindow, async (c) => {
    const route = ROUTES.createMaintenanceWindow;
    const body = await readJsonBody(c, route.body.schema, PUBLIC_BODY_LIMIT);
    const { maintenanceOccurrences } = behaviour();
    return c.json(windows.create(account(c), body, nowMs(), maintenanceOccurrences), 201);
  });

  on(ROUTES.getMaintenanceWindow, (c) => c.json(windows.get(account(c), windowId(c)[0])));

  on(ROUTES.changeMaintenanceWindow, async (c) => {
    const [id] = windowId(c);
    const route = ROUTES.changeMaintenanceWindow;
    const body = await readJsonBody(c, route.body.schema, PUBLIC_BODY_LIMIT);
    const { maintenanceOccurrences } = behaviour();
    return c.json(windows.change(account(c), id, body, nowMs(), maintenanceOccurrences));
  });

  on(ROUTES.deleteMaintenanceWindow, (c) => {
    windows.remove(account(c), windowId(c)[0]);
    return c.body(null, 204);
  });

  on(ROUTES.listMaintenances, (c) => {
    const [id] = windowId(c);
    const query = readQuery(c, ROUTES.listMaintenances.query.schema);
    const limit = query.limit ?? MAINTENANCES_PAGE_DEFAULT;
    const order = behaviour().listOrder;
    return c.json(windows.listMaintenances(account(c), id, limit, query.page ?? 1, order));
  });

  on(ROUTES.getMaintenance, (c) => {
    const { id, maintenanceId } = maintenancePath(c);
    return c.json(windows.getMaintenance(account(c), id, maintenanceId, behaviour().listOrder));
  });

  on(ROUTES.moveMaintenance, async (c) => {
    const { id, maintenanceId } = maintenancePath(c);
    const body = await readJsonBody(c, ROUTES.moveMaintenance.body.schema, PUBLIC_BODY_LIMIT);
    const order = behaviour().listOrder;
    return c.json(windows.move(account(c), id, maintenanceId, body, nowMs(), order));
  });

  on(ROUTES.deleteMaintenance, (c) => {
    const { id, maintenanceId } = maintenancePath(c);
    windows.removeMaintenance(account(c), id, maintenanceId);
    return c.body(null, 204);
  });

  on(ROUTES.postMaintenanceUpdate, async (c) => {
    const { id, maintenanceId } = maintenancePath(c);
    const route = ROUTES.postMaintenanceUpdate;
    const body = await readJsonBody(c, route.body.schema, PUBLIC_BODY_LIMIT);
    return c.json(windows.postUpdate(account(c), id, maintenanceId, body, nowMs()), 201);
  });

  on(ROUTES.changeMaintenanceUpdate, async (c) => {
    const { id, maintenanceId, updateId } = updatePath(c);
    const route = ROUTES.changeMaintenanceUpdate;
    const body = await readJsonBody(c, route.body.schema, PUBLIC_BODY_LIMIT);
    return c.json(windows.changeUpdate(account(c), id, maintenanceId, updateId, body, nowMs()));
  });

  on(ROUTES.deleteMaintenanceUpdate, (c) => {
    const { id, maintenanceId, updateId } = updatePath(c);
    windows.removeUpdate(account(c), id, maintenanceId, updateId);
    return c.body(null, 204);
  });

  allowOnlyRouteMethods(app, PUBLIC_ROUTES);
  return app;
}
