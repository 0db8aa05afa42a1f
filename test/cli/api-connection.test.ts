import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { givenLimits, resolveApiConnection } from "../../src/cli/api-connection";
import { addApiOptions } from "../../src/cli/api-options";
import { readStackSettings, SETTINGS } from "../../src/settings";

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

  it("says the same of a bad value on the command line and in the stack config: one parser", () => {
    const flag = (text: string) => () => givenLimits({ rateLimit: text }, {});
    const stack = (text: string) => () =>
      readStackSettings((name) =>
        name === "baseUrl"
          ? "http://127.0.0.1:1"
          : name === "accountId"
            ? "acc"
            : name === "rateLimit"
              ? text
              : undefined,
      );
    for (const ok of ["1", "60000", " 42 "]) {
      expect(flag(ok)).not.toThrow();
      expect(stack(ok)).not.toThrow();
    }
    const problem = "must be a whole number of requests per minute from 1 to 60000";
    for (const bad of ["0", "60001", "1.5", "-3", "many"]) {
      expect(flag(bad)).toThrow(`--rate-limit ${problem}, not ${JSON.stringify(bad)}.`);
      expect(stack(bad)).toThrow(
        `incident-sync:rateLimit is ${JSON.stringify(bad)}: it ${problem}`,
      );
    }
  });

  it("shows the catalog's defaults and bounds in --help", () => {
    const command = addApiOptions(new Command("x"));
    let shown = "";
    command.configureOutput({ writeOut: (text) => (shown += text) });
    command.outputHelp();
    expect(shown).toContain(
      `requests per minute, ${SETTINGS.rateLimit.min} to ${SETTINGS.rateLimit.max}`,
    );
    expect(shown.replace(/\s+/g, " ")).toContain(
      `the client sends at most ${SETTINGS.rateLimit.default} requests per minute and has at most ${SETTINGS.concurrency.default} calls in flight`,
    );
  });
});
