import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { buildOpenApiDocument } from "../api/openapi";
import type { AppContext } from "./app-context";
import { settleRequestBody } from "./connection";
import { ConnectionResetFault } from "./faults";
import { ErrorResponse, reasonPhrase } from "./http-error";
import { controlApi } from "./routes/control-api";
import { CONTROL_OPENAPI } from "./routes/control-routes";
import { publicApi } from "./routes/public-api";
import { SeedError } from "./seed";

function errorResponse(status: number, message: string, headers: Record<string, string> = {}) {
  return Response.json(
    { statusCode: status, error: reasonPhrase(status), message },
    { status, headers },
  );
}

/** The whole emulator as one Hono app: public API, control API and `/openapi.json` of both. */
export function createApp(context: AppContext): Hono {
  const app = new Hono();
  app.use("*", settleRequestBody());
  let openApi: string | undefined;
  app.get("/openapi.json", (c) => {
    openApi ??= JSON.stringify(buildOpenApiDocument("/", CONTROL_OPENAPI));
    return c.body(openApi, 200, { "content-type": "application/json" });
  });
  app.route("/", publicApi(context));
  app.route("/", controlApi(context.control, context.adminToken));

  app.notFound((c) =>
    errorResponse(404, `no route for ${c.req.method} ${c.req.path}: see /openapi.json for the API`),
  );
  // The one place that shapes error responses: every 4xx/5xx is { statusCode, error, message }.
  app.onError((error) => {
    if (error instanceof ConnectionResetFault) throw error;
    if (error instanceof ErrorResponse)
      return errorResponse(error.status, error.message, error.headers);
    if (error instanceof SeedError) return errorResponse(400, error.message);
    if (error instanceof HTTPException)
      return errorResponse(error.status, error.message || reasonPhrase(error.status));
    context.onInternalError(error);
    return errorResponse(500, "internal error in the emulator; the details are in its log");
  });
  return app;
}
