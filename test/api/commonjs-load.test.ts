import { execFile } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, test } from "vitest";
import { API_KEY, errorGroup } from "../support/api-fixtures";
import { sendJson, startTestServer, type TestServer } from "../support/http-server";

const run = promisify(execFile);
const root = resolve(__dirname, "../..");
// Inside the repository (and git-ignored), so the compiled files resolve node_modules.
const out = join(root, "test-artifacts", "api-commonjs");

let server: TestServer;

beforeAll(async () => {
  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  // The project's own compiler settings, limited to the client so others' work cannot break it.
  await writeFile(
    join(out, "tsconfig.json"),
    JSON.stringify({
      extends: join(root, "tsconfig.json"),
      compilerOptions: {
        outDir: join(out, "dist"),
        rootDir: root,
        declaration: false,
        sourceMap: false,
      },
      include: [join(root, "src/api/**/*.ts")],
      exclude: [],
    }),
  );
  await run(process.execPath, [
    join(root, "node_modules/typescript/bin/tsc"),
    "-p",
    join(out, "tsconfig.json"),
  ]);
  server = await startTestServer((_request, response) =>
    sendJson(response, 200, errorGroup("eg_1", "2026-05-01T00:00:00.000Z")),
  );
});

afterAll(async () => {
  await server?.close();
  await rm(out, { recursive: true, force: true });
});

test("the compiled client loads with require() from CommonJS and makes a call", async () => {
  const script = `
    const api = require(${JSON.stringify(join(out, "dist/src/api"))});
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
