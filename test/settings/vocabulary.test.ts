import { describe, expect, test } from "vitest";
import { ForbiddenError, NotFoundError, RateLimitError, UnauthorizedError } from "../../src/api";
import { apiErrorMessage, settingName } from "../../src/settings";

const where = {
  operation: "incidents.update",
  method: "PUT",
  path: "/v1/status-pages/incidents/inc-api",
  serverMessage: "the API key is not valid",
  attempts: 1,
};

describe("settings named in the words of their context", () => {
  test("the command line names flags and environment variables, Pulumi its stack config keys", () => {
    expect(
      (["baseUrl", "accountId", "apiKey", "rateLimit", "concurrency"] as const).map((setting) => [
        settingName(setting),
        settingName(setting, "pulumi"),
      ]),
    ).toEqual([
      ["--api-url or MONITORING_API_URL", "incident-sync:baseUrl"],
      ["--account-id or MONITORING_ACCOUNT_ID", "incident-sync:accountId"],
      ["MONITORING_API_KEY or --api-key", "incident-sync:apiKey"],
      ["--rate-limit or MONITORING_RATE_LIMIT", "incident-sync:rateLimit"],
      ["--concurrency or MONITORING_CONCURRENCY", "incident-sync:concurrency"],
    ]);
  });

  test("a 401 points at the key as the reader sets it: a variable or flag, or the stack config", () => {
    const error = new UnauthorizedError("(the client's message)", { ...where, status: 401 });

    expect(apiErrorMessage(error)).toMatchInlineSnapshot(
      `"PUT /v1/status-pages/incidents/inc-api failed: 401 Unauthorized: the API key is not valid. The API key was refused: check MONITORING_API_KEY or --api-key."`,
    );
    expect(apiErrorMessage(error, "pulumi")).toMatchInlineSnapshot(
      `"PUT /v1/status-pages/incidents/inc-api failed: 401 Unauthorized: the API key is not valid. The API key was refused: check incident-sync:apiKey (pulumi config set --secret incident-sync:apiKey)."`,
    );
  });

  test("a 403 names the account and key settings, a 429 the rate limit", () => {
    const forbidden = new ForbiddenError("(the client's message)", {
      ...where,
      status: 403,
      serverMessage: "x-service-account acct-2 does not match the account of this API key",
    });
    expect(apiErrorMessage(forbidden, "pulumi")).toMatchInlineSnapshot(
      `"PUT /v1/status-pages/incidents/inc-api failed: 403 Forbidden: x-service-account acct-2 does not match the account of this API key. The API key may not act for this account: check incident-sync:accountId and incident-sync:apiKey."`,
    );
    const limited = new RateLimitError("(the client's message)", {
      ...where,
      status: 429,
      serverMessage: "rate limit exceeded",
      attempts: 4,
    });
    expect(apiErrorMessage(limited)).toMatchInlineSnapshot(
      `"PUT /v1/status-pages/incidents/inc-api failed: 429 Too Many Requests: rate limit exceeded. The service is rate limiting this key (gave up after 4 attempts); lower --rate-limit or MONITORING_RATE_LIMIT or try again later."`,
    );
  });

  test("errors whose message needs no setting keep the client's message", () => {
    const missing = new NotFoundError("PUT /v1/… failed: 404 Not Found: incident inc-x not found", {
      ...where,
      status: 404,
    });
    expect(apiErrorMessage(missing, "pulumi")).toBe(missing.message);
  });
});
