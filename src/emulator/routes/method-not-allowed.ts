import type { Env, Hono } from "hono";
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
