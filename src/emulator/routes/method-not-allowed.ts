import type { Env, Hono, MiddlewareHandler } from "hono";
import { honoPath, type Route } from "../../api/routes";
import { ErrorResponse } from "../http-error";

/**
 * Answers 405 with `Allow` for any other method on a path of `routes`. Registered after the
 * routes themselves, so only requests none of them took get here.
 */
export function allowOnlyRouteMethods<E extends Env>(app: Hono<E>, routes: readonly Route[]): void {
  const methods = new Map<string, string[]>();
  for (const route of routes) {
    const path = honoPath(route.path);
    methods.set(path, [...(methods.get(path) ?? []), route.method]);
  }
  for (const [path, allowed] of methods) {
    const allow = allowed.join(", ");
    app.all(path, (c) => {
      throw new ErrorResponse(
        405,
        `${c.req.method} is not allowed on ${c.req.path}; use ${allow}`,
        {
          Allow: allow,
        },
      );
    });
  }
}

/**
 * Answers 405 for another method on a path of `routes` with no parameter (`/v1/status-pages`),
 * which a parameter route beside it (`PUT /v1/status-pages/{statusPageId}`) would take first.
 */
export function refuseOtherMethodsOnFixedPaths(routes: readonly Route[]): MiddlewareHandler {
  const methods = new Map<string, string[]>();
  for (const route of routes) {
    if (route.path.includes("{")) continue;
    methods.set(route.path, [...(methods.get(route.path) ?? []), route.method]);
  }
  return async (c, next) => {
    const allowed = methods.get(c.req.path);
    // Hono answers a HEAD as the path's GET, without the body.
    const method = c.req.method === "HEAD" ? "GET" : c.req.method;
    if (allowed === undefined || allowed.includes(method)) return next();
    const allow = allowed.join(", ");
    throw new ErrorResponse(405, `${c.req.method} is not allowed on ${c.req.path}; use ${allow}`, {
      Allow: allow,
    });
  };
}
