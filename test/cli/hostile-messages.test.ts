import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendJson, startTestServer, type TestServer } from "../support/http-server";
import { runCli } from "./run-cli";

let server: TestServer;

beforeAll(async () => {
  // A server whose refusal carries a colour code, a line break and a workflow command.
  server = await startTestServer((_request, response) =>
    sendJson(response, 400, {
      statusCode: 400,
      error: "Bad Request",
      message: "\u001b[31mred\n::error::injected\u202eevil",
    }),
  );
});
afterAll(async () => {
  await server?.close();
});

describe("text from the server on stderr", () => {
  it("shows escape codes, line breaks and bidi controls as escapes, so no line of its own can start", async () => {
    const run = await runCli(["report", "errors", "--check", "chk-api"], process.cwd(), {
      MONITORING_API_URL: server.url,
      MONITORING_API_KEY: "hostile-message-key",
      MONITORING_ACCOUNT_ID: "acct_1",
    });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain("\\u001B[31mred\\n::error::injected\\u202Eevil");
    expect(run.stderr).not.toContain("\u001b");
    expect(run.stderr).not.toContain("\u202e");
    expect(run.stderr.split("\n").some((line) => line.startsWith("::"))).toBe(false);
  });
});
