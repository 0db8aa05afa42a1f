import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendJson, startTestServer, type TestServer } from "../support/http-server";
import { runCli } from "./run-cli";

/** A group as the service sends it; `id` is whatever the server chose. */
const group = (id: string) => ({
  id,
  checkId: "chk-api",
  errorHash: `hash-${id}`,
  rawErrorMessage: `Timeout ${id}`,
  cleanedErrorMessage: "Timeout",
  firstSeen: "2026-11-23T08:00:00.000Z",
  lastSeen: "2026-11-23T09:00:00.000Z",
  archivedUntilNextEvent: false,
});

let server: TestServer;

beforeAll(async () => {
  // A server that lists a group whose id cannot be a path segment, among safe ones.
  server = await startTestServer((request, response) => {
    const { pathname } = request.url;
    if (pathname === "/v1/error-groups/checks/chk-api") {
      const page = request.url.searchParams.get("page") ?? "1";
      return sendJson(
        response,
        200,
        page === "1" ? [group("eg_1"), group("eg/2"), group("eg_3")] : [],
      );
    }
    const id = decodeURIComponent(pathname.replace("/v1/error-groups/", ""));
    return sendJson(response, 200, { ...group(id), rootCauseAnalyses: [{ id: `rca-${id}` }] });
  });
});
afterAll(async () => {
  await server?.close();
});

describe("report errors --details with an id the server sent that cannot be a path segment", () => {
  it("writes that group as listed with a warning naming it, and the rest with their details", async () => {
    const run = await runCli(
      ["report", "errors", "--check", "chk-api", "--details", "--format", "json"],
      process.cwd(),
      {
        MONITORING_API_URL: server.url,
        MONITORING_API_KEY: "unsafe-id-key",
        MONITORING_ACCOUNT_ID: "acct_1",
      },
    );
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      'warning: error group "eg/2" of check "chk-api" is written as listed, without its details',
    );
    const report = JSON.parse(run.stdout) as {
      groups: { id: string; rootCauseAnalyses?: unknown[] }[];
    };
    // Details arrive in any order; the JSON export streams groups as they come.
    const written = report.groups.map((g) => [g.id, g.rootCauseAnalyses?.length ?? 0]);
    expect(written.sort()).toEqual([
      ["eg/2", 0],
      ["eg_1", 1],
      ["eg_3", 1],
    ]);
    const asked = server.requests.map((request) => request.url.pathname);
    expect(asked).toContain("/v1/error-groups/eg_1");
    expect(asked.some((path) => path.includes("eg%2F2") || path.endsWith("/2"))).toBe(false);
  });
});
