import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { ADMIN, demoEmulator } from "./helpers";

const emulator = demoEmulator();
afterAll(() => emulator.close());

const ROUTES: [method: string, template: string][] = [
  ["PUT", "/v1/status-pages/incidents/{id}"],
  ["GET", "/v1/status-pages/incidents/{id}/incident-updates"],
  ["GET", "/v1/checks/heartbeats/{id}/events"],
  ["GET", "/v1/error-groups/checks/{id}"],
  ["GET", "/v1/error-groups/{id}"],
  ["GET", "/_control/faults"],
  ["POST", "/_control/seed"],
  ["POST", "/_control/accounts/{id}/incidents/inc-api-errors/updates"],
  ["POST", "/_control/accounts/acct-demo/checks/{id}/results"],
  ["POST", "/_control/accounts/acct-demo/check-results"],
  ["POST", "/_control/accounts/acct-demo/heartbeats/{id}/pings"],
  ["PUT", "/_control/accounts/acct-demo/heartbeats/{id}"],
];

const knownIds = [
  "inc-api-errors",
  "hb-billing-sync",
  "chk-api",
  "acct-demo",
  "inc-login-failures",
];
const pathId = fc.oneof(fc.constantFrom(...knownIds), fc.string({ minLength: 1, maxLength: 40 }));
const queryValue = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.integer().map(String),
  fc.double().map(String),
  fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
  fc.constantFrom("", "2026-11-01", "now", "-1", "1e3", "0x10"),
);
const queryKey = fc.oneof(
  fc.constantFrom("limit", "page", "startTime", "endTime"),
  fc.string({ maxLength: 10 }),
);
const query = fc.array(fc.tuple(queryKey, queryValue), { maxLength: 4 });
const incidentLike = fc.record(
  {
    name: fc.oneof(fc.string({ maxLength: 300 }), fc.anything()),
    severity: fc.oneof(fc.constantFrom("CRITICAL", "MAJOR", "MEDIUM", "MINOR"), fc.anything()),
    services: fc.oneof(
      fc.array(
        fc.record(
          {
            id: fc.oneof(fc.constantFrom("svc-api", "svc-db"), fc.anything()),
            name: fc.oneof(fc.constantFrom("Public API", ""), fc.anything()),
            accountId: fc.oneof(fc.constantFrom("acct-demo", "acct-other"), fc.anything()),
          },
          { requiredKeys: ["id"] },
        ),
        { maxLength: 3 },
      ),
      fc.anything(),
    ),
    lastUpdateStatus: fc.oneof(fc.constantFrom("INVESTIGATING", "RESOLVED"), fc.anything()),
    duration: fc.oneof(fc.integer(), fc.constant(null), fc.double(), fc.anything()),
    created_at: fc.anything(),
  },
  { requiredKeys: [] },
);
const body = fc.oneof(
  fc.constant(undefined),
  fc.json().map((text) => ({ text, type: "application/json" })),
  fc
    .anything()
    .map((value) => ({ text: JSON.stringify(value) ?? "null", type: "application/json" })),
  incidentLike.map((value) => ({ text: JSON.stringify(value), type: "application/json" })),
  fc.string().map((text) => ({ text, type: "application/json" })),
  fc
    .tuple(fc.string(), fc.constantFrom("text/plain", "application/x-www-form-urlencoded", ""))
    .map(([text, type]) => ({ text, type })),
);
const authorization = fc.oneof(
  fc.constant("Bearer demo-key"),
  fc.constant(`Bearer ${ADMIN}`),
  fc.constant(undefined),
  fc.string({ maxLength: 30 }),
);
const serviceAccount = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom("acct-demo", "acct-other"),
  fc.string({ maxLength: 20 }),
);

describe("any request", () => {
  it("never gets a 5xx, and every error is { statusCode, error, message }", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ROUTES),
        fc.constantFrom("GET", "PUT", "POST", "DELETE", "PATCH"),
        fc.boolean(),
        pathId,
        query,
        body,
        authorization,
        serviceAccount,
        async (
          [method, template],
          otherMethod,
          useOtherMethod,
          id,
          pairs,
          payload,
          auth,
          account,
        ) => {
          const search = new URLSearchParams(pairs).toString();
          const path = `${template.replace("{id}", encodeURIComponent(id))}${search ? `?${search}` : ""}`;
          const headers: Record<string, string> = {};
          if (auth !== undefined) headers.authorization = auth;
          if (account !== undefined) headers["x-service-account"] = account;
          if (payload?.type) headers["content-type"] = payload.type;
          const response = await emulator.app.request(path, {
            method: useOtherMethod ? otherMethod : method,
            headers,
            body:
              payload === undefined || (useOtherMethod ? otherMethod : method) === "GET"
                ? undefined
                : payload.text,
          });
          expect(response.status).toBeLessThan(500);
          if (response.status >= 400) {
            const error = (await response.json()) as Record<string, unknown>;
            expect(Object.keys(error).sort()).toEqual(["error", "message", "statusCode"]);
            expect(error.statusCode).toBe(response.status);
          } else {
            await response.arrayBuffer();
          }
        },
      ),
      { numRuns: 1500 },
    );
  });
});
