import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import {
  BulkCheckResultsBody,
  CheckResultBody,
  type EmulatorControl,
  GenerateErrorGroupsBody,
  HeartbeatPingBody,
  HeartbeatSettingsBody,
  NewIncidentUpdateBody,
} from "../control";
import { Faults } from "../faults";
import { ApiError } from "../http-error";
import { CONTROL_BODY_LIMIT, pathParam, readJsonBody } from "../request-input";
import { SeedFile } from "../seed-schema";
import { adminTokenAuth } from "./auth";

export const CONTROL_PREFIX = "/_control";

const tooLarge = () => {
  throw new ApiError(413, `the control request body is larger than ${CONTROL_BODY_LIMIT} bytes`);
};

/**
 * The control API: everything tests and demos need that the public API does not offer.
 * Under `/_control`, behind the admin token, never subject to faults.
 */
export function controlApi(control: EmulatorControl, adminToken: string) {
  const app = new Hono().basePath(CONTROL_PREFIX);
  app.use("*", adminTokenAuth(adminToken));
  app.use("*", bodyLimit({ maxSize: CONTROL_BODY_LIMIT, onError: tooLarge }));

  app.get("/health", (c) => c.json({ ok: true }));

  app.get("/faults", (c) => c.json(control.getFaults()));
  app.put("/faults", async (c) => c.json(control.setFaults(await readJsonBody(c, Faults))));

  app.post("/seed", async (c) => {
    control.loadSeed(await readJsonBody(c, SeedFile));
    return c.json({ loaded: true }, 201);
  });

  app.post("/accounts/:accountId/incidents/:incidentId/updates", async (c) => {
    const body = await readJsonBody(c, NewIncidentUpdateBody);
    const update = control.appendIncidentUpdate(
      pathParam(c, "accountId"),
      pathParam(c, "incidentId"),
      body,
    );
    return c.json(update, 201);
  });

  app.post("/accounts/:accountId/checks/:checkId/results", async (c) => {
    const body = await readJsonBody(c, CheckResultBody);
    return c.json(
      control.recordCheckResult(pathParam(c, "accountId"), pathParam(c, "checkId"), body),
      201,
    );
  });

  app.post("/accounts/:accountId/check-results", async (c) => {
    const body = await readJsonBody(c, BulkCheckResultsBody);
    const recorded = control.recordCheckResults(pathParam(c, "accountId"), body.results);
    return c.json({ recorded: recorded.length, results: recorded }, 201);
  });

  app.post("/accounts/:accountId/checks/:checkId/error-groups", async (c) => {
    const body = await readJsonBody(c, GenerateErrorGroupsBody);
    const created = control.generateErrorGroups(
      pathParam(c, "accountId"),
      pathParam(c, "checkId"),
      body.count,
      body.at,
    );
    return c.json({ created }, 201);
  });

  app.post("/accounts/:accountId/error-groups/:id/archive", (c) =>
    c.json(control.archiveErrorGroup(pathParam(c, "accountId"), pathParam(c, "id"))),
  );

  app.put("/accounts/:accountId/heartbeats/:checkId", async (c) => {
    const body = await readJsonBody(c, HeartbeatSettingsBody);
    control.configureHeartbeat(pathParam(c, "accountId"), pathParam(c, "checkId"), body);
    return c.body(null, 204);
  });

  app.post("/accounts/:accountId/heartbeats/:checkId/pings", async (c) => {
    const body = await readJsonBody(c, HeartbeatPingBody);
    return c.json(
      control.recordHeartbeatPing(pathParam(c, "accountId"), pathParam(c, "checkId"), body),
      201,
    );
  });
  return app;
}
