import type { Context } from "hono";
import { ROUTES, type Route } from "../../api/routes";
import { shapeService, shapeStatusPage } from "../answer-shape";
import type { AppContext } from "../app-context";
import { PUBLIC_BODY_LIMIT, pathParam, readJsonBody } from "../request-input";
import type { AccountEnv } from "./auth";

type Handler = (c: Context<AccountEnv>) => Response | Promise<Response>;
/** Registers a handler for a public route, with its auth and its behaviour checks. */
export type RegisterRoute = (route: Route, handler: Handler) => unknown;

/**
 * The writes of services and status pages, and a page's subscriptions (service-contract.md,
 * "Changing services and status pages"); where the reference is silent, the behaviour decides
 * (`duplicateAnswer`, `serviceNames`, `serviceInUse`).
 */
export function pageWriteRoutes(on: RegisterRoute, { stores, control, now }: AppContext): void {
  const behaviour = () => control.getBehaviour();
  const account = (c: Context<AccountEnv>) => c.get("accountId");
  const serviceId = (c: Context<AccountEnv>) => pathParam(c, "serviceId");
  const statusPageId = (c: Context<AccountEnv>) => pathParam(c, "statusPageId");
  const nowMs = () => now().getTime();

  on(ROUTES.createService, async (c) => {
    const body = await readJsonBody(c, ROUTES.createService.body.schema, PUBLIC_BODY_LIMIT);
    const created = stores.services.create(account(c), body.name, nowMs(), behaviour());
    return c.json(shapeService(created, behaviour()), 200);
  });

  on(ROUTES.renameService, async (c) => {
    const id = serviceId(c);
    const body = await readJsonBody(c, ROUTES.renameService.body.schema, PUBLIC_BODY_LIMIT);
    const renamed = stores.services.rename(account(c), id, body.name, nowMs(), behaviour());
    return c.json(shapeService(renamed, behaviour()));
  });

  on(ROUTES.deleteService, (c) => {
    stores.services.remove(account(c), serviceId(c), behaviour());
    return c.body(null, 204);
  });

  on(ROUTES.createStatusPage, async (c) => {
    const body = await readJsonBody(c, ROUTES.createStatusPage.body.schema, PUBLIC_BODY_LIMIT);
    const { duplicateAnswer } = behaviour();
    const created = stores.statusPages.create(account(c), body, nowMs(), duplicateAnswer);
    return c.json(shapeStatusPage(created, behaviour()), 201);
  });

  on(ROUTES.updateStatusPage, async (c) => {
    const id = statusPageId(c);
    const body = await readJsonBody(c, ROUTES.updateStatusPage.body.schema, PUBLIC_BODY_LIMIT);
    const changed = stores.statusPages.replace(
      account(c),
      id,
      body,
      nowMs(),
      behaviour().duplicateAnswer,
    );
    return c.json(shapeStatusPage(changed, behaviour()));
  });

  on(ROUTES.deleteStatusPage, (c) => {
    stores.statusPages.remove(account(c), statusPageId(c), behaviour().serviceInUse);
    return c.body(null, 204);
  });

  on(ROUTES.listStatusPageSubscriptions, (c) =>
    c.json(stores.statusPages.subscriptions(account(c), statusPageId(c))),
  );
}
