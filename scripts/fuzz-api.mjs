#!/usr/bin/env node
// npm run fuzz:api [-- <more `schemathesis run` options>]
//
// Runs schemathesis (PyPI) against the emulator's /openapi.json: every operation of the
// monitoring API with the demo key and of the control API with the admin token, every
// check (5xx, response schemas, status codes, headers, content types, auth, methods...).
// Exit 0 only when no check failed and no answer was a 5xx.
//
// schemathesis is installed from scripts/schemathesis/requirements.txt (every version
// pinned) into a venv under .incident-sync/ (scripts/python-venv.mjs).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { ensureVenv, root, run } from "./python-venv.mjs";

const requirements = path.join(root, "scripts", "schemathesis", "requirements.txt");
const config = path.join(root, "scripts", "schemathesis", "schemathesis.toml");
const home = path.join(root, ".incident-sync", "schemathesis");
const reportDir = path.join(home, "report");

const newestReport = () => {
  const name = readdirSync(reportDir)
    .filter((file) => file.startsWith("json-"))
    .sort()
    .at(-1);
  return name ? JSON.parse(readFileSync(path.join(reportDir, name), "utf8")) : undefined;
};

const bin = await ensureVenv("schemathesis", requirements);
const require = createRequire(import.meta.url);
const distEmulator = path.join(root, "dist", "src", "emulator", "index.js");
if (!existsSync(distEmulator)) throw new Error(`${distEmulator} is missing: run npm run build`);
const { createEmulator } = require(distEmulator);
const { serve } = require("@hono/node-server");

// Every request and its answer are counted here, at the server: control API and
// /openapi.json included, and whatever schemathesis sends besides its test cases.
const internalErrors = [];
const emulator = createEmulator({
  seed: "demo",
  onInternalError: (error) => {
    internalErrors.push(error);
    process.stderr.write(`emulator: internal error: ${error?.stack ?? error}\n`);
  },
});
const statuses = {};
let requests = 0;
const count = (outcome) => {
  statuses[outcome] = (statuses[outcome] ?? 0) + 1;
};
const server = await new Promise((resolve) => {
  const started = serve(
    {
      hostname: "127.0.0.1",
      port: 0,
      fetch: async (request, env) => {
        requests += 1;
        try {
          const response = await emulator.app.fetch(request, env);
          count(String(response.status));
          return response;
        } catch (error) {
          count("reset");
          throw error;
        }
      },
    },
    () => resolve(started),
  );
});
const url = `http://127.0.0.1:${server.address().port}`;
const account = emulator.seed.accounts[0];
rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });

const started = performance.now();
let exitCode;
try {
  exitCode = await run(
    bin("schemathesis"),
    [
      "--config-file",
      config,
      "run",
      `${url}/openapi.json`,
      "--report",
      "json",
      "--report-dir",
      reportDir,
      ...process.argv.slice(2),
    ],
    {
      cwd: home,
      env: {
        ...process.env,
        FUZZ_API_KEY: account.apiKeys[0],
        FUZZ_ADMIN_TOKEN: emulator.adminToken,
      },
    },
  );
} finally {
  await new Promise((resolve) => {
    server.close(resolve);
    server.closeAllConnections();
  });
  emulator.close();
}
const seconds = (performance.now() - started) / 1000;

const report = newestReport();
const serverErrors = Object.entries(statuses)
  .filter(([status]) => status.startsWith("5"))
  .reduce((sum, [, n]) => sum + n, 0);
const failures = Object.fromEntries(
  (report?.failures ?? []).map((failure) => [`${failure.code} ${failure.title}`, failure.count]),
);
const summary = {
  schemathesis: report?.schemathesis_version,
  seed: report?.seed,
  seconds: Math.round(seconds * 10) / 10,
  operations: report?.operations.tested,
  testCases: report?.test_cases.generated,
  requests,
  statuses: Object.fromEntries(Object.entries(statuses).sort(([a], [b]) => a.localeCompare(b))),
  serverErrors,
  internalErrors: internalErrors.length,
  // ST108 is schemathesis' code for a response that breaks its schema in /openapi.json.
  schemaViolations: (report?.failures ?? [])
    .filter((failure) => failure.code === "ST108")
    .reduce((sum, failure) => sum + failure.count, 0),
  failures,
};
writeFileSync(path.join(reportDir, "summary.json"), `${JSON.stringify(summary, null, 2)}\n`);
process.stdout.write(
  `fuzz:api: ${requests} requests in ${summary.seconds} s (${summary.testCases} test cases, ${summary.operations} operations), ` +
    `${serverErrors} 5xx, ${summary.schemaViolations} schema violations, ` +
    `${Object.values(failures).reduce((sum, n) => sum + n, 0)} failed checks; ` +
    `answers ${JSON.stringify(summary.statuses)}; report in ${path.relative(root, reportDir)}\n`,
);
if (exitCode === 0 && (serverErrors > 0 || internalErrors.length > 0)) exitCode = 1;
process.exitCode = exitCode;
