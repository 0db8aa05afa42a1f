import { describe, expect, it } from "vitest";
import { givenLimits, resolveApiConnection } from "../../src/cli/api-connection";
import { readStackSettings } from "../../src/incident";

const connection = { MONITORING_API_URL: "http://127.0.0.1:1", MONITORING_API_KEY: "k" };

describe("client limits", () => {
  it("a run given no limit passes none on, so the stack's own config applies", () => {
    expect(givenLimits({}, {})).toEqual({});
  });

  it("takes a flag over its variable, and the variable when no flag is given", () => {
    expect(givenLimits({ rateLimit: "120" }, { MONITORING_RATE_LIMIT: "60" })).toEqual({
      rateLimit: 120,
    });
    expect(givenLimits({}, { MONITORING_CONCURRENCY: "4" })).toEqual({ concurrency: 4 });
  });

  it("falls back to the client's defaults for the commands that make their own client", () => {
    expect(resolveApiConnection({}, connection)).toMatchObject({
      requestsPerMinute: 600,
      concurrency: 8,
    });
  });

  it("has the same bounds in the stack config as on the command line", () => {
    expect(() => givenLimits({ rateLimit: "60001" }, {})).toThrow(/from 1 to 60000/);
    const stack = (rateLimit: string) => () =>
      readStackSettings((name) =>
        name === "baseUrl"
          ? "http://127.0.0.1:1"
          : name === "accountId"
            ? "acc"
            : name === "rateLimit"
              ? rateLimit
              : undefined,
      );
    expect(stack("60000")).not.toThrow();
    expect(stack("60001")).toThrow(/rateLimit/);
  });
});
