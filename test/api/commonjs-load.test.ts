import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, test } from "vitest";
import { API_KEY, errorGroup } from "../support/api-fixtures";
import { sendJson, startTestServer, type TestServer } from "../support/http-server";

const run = promisify(execFile);
// The client as `npm run build` compiles it (npm test builds first), with the project's
// compiler settings: CommonJS, as a CommonJS consumer loads it.
const compiled = resolve(__dirname, "../../dist/src/api");

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer((_request, response) =>
    sendJson(response, 200, errorGroup("eg_1", "2026-05-01T00:00:00.000Z")),
  );
});

afterAll(async () => {
  await server?.close();
});

test("the compiled client loads with require() from CommonJS and makes a call", async () => {
  const script = `
    const api = require(${JSON.stringify(compiled)});
    const client = api.createClient({ baseUrl: process.argv[1], apiKey: process.argv[2] });
    client.errorGroups.get("eg_1").then((group) => {
      console.log(JSON.stringify({
        id: group.id,
        errors: [api.ApiError, api.NotFoundError, api.RateLimitError, api.TimeoutError].every((c) => typeof c === "function"),
      }));
    });
  `;
  const { stdout } = await run(process.execPath, ["-e", script, server.url, API_KEY]);
  expect(JSON.parse(stdout)).toEqual({ id: "eg_1", errors: true });
  expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);
});
