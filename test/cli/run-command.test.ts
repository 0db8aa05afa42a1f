import { parse } from "csv-parse/sync";
import { describe, expect, test } from "vitest";
import { UnauthorizedError } from "../../src/api";
import { ApiOptionsError } from "../../src/cli/api-options";
import { ExitCode } from "../../src/cli/exit-codes";
import { runCommand } from "../../src/cli/run-command";
import { UsageError } from "../../src/cli/usage-error";
import { InvalidDefinitionsError } from "../../src/definitions/invalid-definitions-error";
import { SeedError } from "../../src/emulator/seed";
import { EngineError } from "../../src/engine/errors";
import { AppliedFileError } from "../../src/reports/drift/applied";
import { StackConfigError } from "../../src/settings";
import { UserError } from "../../src/user-error";
import { captureIo } from "../reports/support/harness";

const KEY = "secret-key-1234567890";

function run(
  format: Parameters<typeof runCommand>[1]["format"],
  body: Parameters<typeof runCommand>[2],
  extra: Partial<Parameters<typeof runCommand>[1]> = {},
) {
  const capture = captureIo({});
  const exitCode = runCommand(
    capture.io,
    { command: "drift", format, secrets: [KEY], ...extra },
    body,
  );
  return exitCode.then((code) => ({ code, stdout: capture.stdout(), stderr: capture.stderr() }));
}

const unauthorized = () =>
  new UnauthorizedError(
    `GET /v1/status-pages/incidents/inc-api/incident-updates failed: 401 Unauthorized: the API key is not valid. Check the API key the client was created with.`,
    {
      operation: "incidents.listUpdates",
      method: "GET",
      path: "/v1/status-pages/incidents/inc-api/incident-updates",
      status: 401,
      serverMessage: "the API key is not valid",
      attempts: 1,
    },
  );

const invalid = () =>
  new InvalidDefinitionsError("incidents", [
    {
      file: "incidents/api.yaml",
      line: 3,
      column: 11,
      code: "invalid-value",
      message: 'severity "HUGE" is not allowed; use one of CRITICAL, MAJOR, MEDIUM, MINOR',
    },
  ]);

describe("the one way every command runs", () => {
  test("a command that succeeds gets its output through whole and its exit code back", async () => {
    const result = await run("json", async (io) => {
      io.stdout.write('{"drift":');
      io.stdout.write("true}\n");
      return ExitCode.Changes;
    });
    expect(result).toEqual({ code: 2, stdout: '{"drift":true}\n', stderr: "" });
  });

  test("a failure after half a document was written replaces it with a JSON error document", async () => {
    const result = await run("json", async (io) => {
      io.stdout.write('{"kind":"drift","definitions":[');
      throw unauthorized();
    });

    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({
      error: {
        type: "UnauthorizedError",
        message:
          "GET /v1/status-pages/incidents/inc-api/incident-updates failed: 401 Unauthorized: the API key is not valid. The API key was refused: check MONITORING_API_KEY or --api-key.",
      },
    });
    expect(result.stderr).toMatchInlineSnapshot(`
      "incident-sync drift: GET /v1/status-pages/incidents/inc-api/incident-updates failed: 401 Unauthorized: the API key is not valid. The API key was refused: check MONITORING_API_KEY or --api-key.
      "
    `);
  });

  test("in text the error goes to stderr only and stdout stays empty", async () => {
    const result = await run("text", async (io) => {
      io.stdout.write("DRIFTED  inc-api");
      throw new ApiOptionsError("Missing the API URL (--api-url or MONITORING_API_URL).");
    });
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr: "incident-sync drift: Missing the API URL (--api-url or MONITORING_API_URL).\n",
    });
  });

  test("without a stdout format (output to --out) a failure shows on stderr only", async () => {
    const result = await run(undefined, async () => {
      throw new ApiOptionsError("Missing the API URL (--api-url or MONITORING_API_URL).");
    });
    expect(result.stdout).toBe("");
    expect(result.code).toBe(1);
  });

  test("invalid definitions are listed on stderr and in each format's error document", async () => {
    const json = await run("json", async () => {
      throw invalid();
    });
    expect(JSON.parse(json.stdout).error).toEqual({
      type: "InvalidDefinitionsError",
      message: "the definitions in incidents are not valid (1 problem); fix them first:",
      problems: [expect.objectContaining({ file: "incidents/api.yaml", line: 3, column: 11 })],
    });
    expect(json.stderr).toMatchInlineSnapshot(`
      "incident-sync drift: the definitions in incidents are not valid (1 problem); fix them first:
        incidents/api.yaml:3:11: severity "HUGE" is not allowed; use one of CRITICAL, MAJOR, MEDIUM, MINOR [invalid-value]
      "
    `);

    const github = await run("github", async () => {
      throw invalid();
    });
    expect(github.stdout).toMatchInlineSnapshot(`
      "::error file=incidents/api.yaml,line=3,col=11,title=incident-sync%3A invalid-value::severity "HUGE" is not allowed; use one of CRITICAL, MAJOR, MEDIUM, MINOR
      ::error title=incident-sync drift::the definitions in incidents are not valid (1 problem); fix them first:
      "
    `);

    const markdown = await run(
      "markdown",
      async () => {
        throw invalid();
      },
      { markdownMarker: async () => "<!-- incident-sync-drift -->" },
    );
    expect(markdown.stdout).toMatchInlineSnapshot(`
      "<!-- incident-sync-drift -->
      ### incident-sync drift: failed

      ❌ the definitions in incidents are not valid (1 problem); fix them first:

      - \`incidents/api.yaml:3:11\` severity "HUGE" is not allowed; use one of CRITICAL, MAJOR, MEDIUM, MINOR
      "
    `);
  });

  test("a CSV error document is a table with one error column, and HTML a page", async () => {
    const csv = await run("csv", async () => {
      throw unauthorized();
    });
    expect(parse(csv.stdout, { columns: true })).toEqual([
      { error: expect.stringContaining("401 Unauthorized") },
    ]);

    const html = await run("html", async () => {
      throw new ApiOptionsError("The API URL must use http or https, not ftp:");
    });
    expect(html.stdout).toMatch(/^<!doctype html>/);
    expect(html.stdout).toContain(
      "<h1>incident-sync drift: failed</h1>\n<pre>The API URL must use http or https, not ftp:</pre>",
    );
  });

  test("an unexpected error is a bug: its stack trace is on stderr, never the key", async () => {
    const result = await run("json", async () => {
      throw new TypeError(`cannot read properties of undefined (request with Bearer ${KEY})`);
    });

    expect(result.code).toBe(1);
    expect(result.stdout).not.toContain(KEY);
    expect(result.stderr).not.toContain(KEY);
    expect(JSON.parse(result.stdout).error).toEqual({
      type: "InternalError",
      message:
        "unexpected error (a bug in incident-sync; please report it with the trace below): cannot read properties of undefined (request with Bearer [redacted])",
    });
    const [first, second, third] = result.stderr.split("\n");
    expect([first, second]).toEqual([
      "incident-sync drift: unexpected error (a bug in incident-sync; please report it with the trace below): cannot read properties of undefined (request with Bearer [redacted])",
      "TypeError: cannot read properties of undefined (request with Bearer [redacted])",
    ]);
    expect(third).toMatch(/^ {4}at /);
  });

  test("errors the user can fix never show a stack trace", async () => {
    const result = await run("text", async () => {
      throw unauthorized();
    });
    expect(result.stderr).not.toMatch(/^ {4}at /m);
  });

  test.each([
    ["EngineError", () => new EngineError("Pulumi CLI not found: run npm run engine")],
    ["StackConfigError", () => new StackConfigError("incident-sync:baseUrl is not set")],
    ["SeedError", () => new SeedError("seed.yaml", ["accounts: required"])],
    ["AppliedFileError", () => new AppliedFileError("applied.json is not JSON")],
    ["UsageError", () => new UsageError("--out needs a file")],
  ])(
    "a %s, as every UserError of any layer, is its message alone with exit 1",
    async (type, make) => {
      const error = make();
      expect(error).toBeInstanceOf(UserError);
      const result = await run("json", async () => {
        throw error;
      });
      expect(result.code).toBe(ExitCode.Failure);
      expect(JSON.parse(result.stdout).error).toEqual({ type, message: error.message });
      expect(result.stderr).toBe(`incident-sync drift: ${error.message}\n`);
    },
  );

  test("once a command released its output, a failure leaves what was written and says it is incomplete", async () => {
    const result = await run("csv", async (io) => {
      io.stdout.write("id,checkId\neg_1,chk-api\n");
      io.releaseStdout?.();
      io.stdout.write("eg_2,chk-api\n");
      throw unauthorized();
    });

    expect(result.code).toBe(1);
    expect(result.stdout).toBe("id,checkId\neg_1,chk-api\neg_2,chk-api\n");
    expect(result.stderr.split("\n").at(-2)).toMatchInlineSnapshot(
      `"The output already written to stdout is incomplete (see --help on failures)."`,
    );
  });
});
