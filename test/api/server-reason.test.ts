import { afterEach, describe, expect, it } from "vitest";
import { ApiError, createClient } from "../../src/api";
import { sendJson, startTestServer, type TestServer } from "../support/http-server";

const KEY = "reason-test-key";
let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The client's error for one PUT that a server answers with `status` and `body`. */
async function refusal(status: number, body: unknown): Promise<ApiError> {
  server = await startTestServer((_request, response) => sendJson(response, status, body));
  const client = createClient({
    baseUrl: server.url,
    apiKey: KEY,
    accountId: "acct_1",
    retry: { limit: 0 },
  });
  const error = await client.incidents
    .update("inc_1", {
      name: "API down",
      severity: "MAJOR",
      services: [{ id: "svc_api", name: "Public API", accountId: "acct_1" }],
    })
    .catch((caught: unknown) => caught);
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

describe("a refusal says the server's own reason", () => {
  it("shows the message of the error body", async () => {
    const error = await refusal(422, {
      statusCode: 422,
      error: "Unprocessable Entity",
      message: "services[0].accountId is required",
    });
    expect(error.message).toBe(
      "PUT /v1/status-pages/incidents/inc_1 failed: 422 Unprocessable Entity: services[0].accountId is required",
    );
  });

  it("shows the validation detail when the body has no message, as the service may send", async () => {
    const error = await refusal(422, {
      statusCode: 422,
      error: "Unprocessable Entity",
      details: [{ path: "services.0.name", message: "Required" }],
    });
    expect(error.message).toBe(
      'PUT /v1/status-pages/incidents/inc_1 failed: 422 Unprocessable Entity: [{"path":"services.0.name","message":"Required"}]',
    );
  });

  it("shows `error` when it says more than the status text, and nothing twice when it does not", async () => {
    const named = await refusal(403, { statusCode: 403, error: "Account suspended" });
    expect(named.serverMessage).toBe("Account suspended");
    const plain = await refusal(404, { statusCode: 404, error: "Not Found" });
    expect(plain.serverMessage).toBeUndefined();
    expect(plain.message).toBe("PUT /v1/status-pages/incidents/inc_1 failed: 404 Not Found");
  });

  it("removes the key from a reason that echoes it", async () => {
    const error = await refusal(400, {
      statusCode: 400,
      error: "Bad Request",
      errors: [`key ${KEY} may not write`],
    });
    expect(error.message).not.toContain(KEY);
    expect(error.serverMessage).toBe('["key [redacted] may not write"]');
  });
});
