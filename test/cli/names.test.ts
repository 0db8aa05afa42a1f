import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import { tempDir } from "../reports/support/harness";
import { bareGuids } from "../support/named-lines";
import { runCli } from "./run-cli";

/*
 * Issue 52: no line a person reads shows a bare GUID where the service gives a name. The seed
 * gives every incident, service, check and heartbeat a GUID, as the hosted service does, and a
 * name; each command's every line is read against them.
 */

const ACCOUNT = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
const KEY = "names-test-key-0123456789";
const INCIDENT = "3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b";
const API_SERVICE = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
const WEB_SERVICE = "1b2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e";
const API_CHECK = "2c3d4e5f-6a7b-4c8d-8e9f-1a2b3c4d5e6f";
const HEARTBEAT = "3d4e5f6a-7b8c-4d9e-9f0a-2b3c4d5e6f7a";

/** What a person knows each GUID by, as the seed names it. */
const NAMES = new Map([
  [INCIDENT, "Invoices are late"],
  [API_SERVICE, "Billing API"],
  [WEB_SERVICE, "Customer portal"],
  [API_CHECK, "Invoice API checks"],
  [HEARTBEAT, "Nightly invoice run"],
]);
const name = (id: string) => NAMES.get(id) ?? id;

let running: RunningEmulator;
let project: string;

beforeAll(async () => {
  running = await startEmulator({
    seed: {
      accounts: [
        {
          id: ACCOUNT,
          apiKeys: [KEY],
          services: [
            { id: API_SERVICE, name: name(API_SERVICE) },
            { id: WEB_SERVICE, name: name(WEB_SERVICE) },
          ],
          incidents: [
            {
              id: INCIDENT,
              name: name(INCIDENT),
              severity: "MAJOR",
              services: [API_SERVICE, WEB_SERVICE],
              updates: [
                {
                  description: "Invoices are sent late.",
                  status: "INVESTIGATING",
                  created_at: "-3h",
                },
                // Posted on the status page, not in git: drift names the incident it is on.
                { description: "Found the cause.", status: "IDENTIFIED", created_at: "-1h" },
              ],
            },
          ],
          heartbeats: [
            {
              checkId: HEARTBEAT,
              name: name(HEARTBEAT),
              period: "1d",
              pings: [
                { at: "-2d", ok: true },
                { at: "-1d", ok: false },
              ],
            },
          ],
          checks: [{ id: API_CHECK, name: name(API_CHECK) }],
          checkResults: [
            { checkId: API_CHECK, at: "-2h", error: "Timeout of 30000ms exceeded" },
            { checkId: API_CHECK, at: "-1h", error: "502 Bad Gateway" },
          ],
        },
      ],
    },
  });
  project = await tempDir("names");
  await mkdir(path.join(project, "incidents"));
  await writeFile(
    path.join(project, "incidents", "invoices.yaml"),
    [
      `id: ${INCIDENT}`,
      `name: ${name(INCIDENT)}`,
      "severity: MAJOR",
      "status: INVESTIGATING",
      "services:",
      `  - { id: ${API_SERVICE}, name: ${name(API_SERVICE)} }`,
      `  - { id: ${WEB_SERVICE}, name: ${name(WEB_SERVICE)} }`,
      "evidence:",
      `  checks: [${API_CHECK}]`,
      `  heartbeats: [${HEARTBEAT}]`,
      "",
    ].join("\n"),
  );
});
afterAll(async () => {
  await running?.close();
});

const env = () => ({
  MONITORING_API_URL: running.url,
  MONITORING_API_KEY: KEY,
  MONITORING_ACCOUNT_ID: ACCOUNT,
});

describe("every line a person reads names what the service names", () => {
  test.each([
    ["drift", ["drift"], [INCIDENT]],
    ["drift as Markdown", ["drift", "--format", "markdown"], [INCIDENT]],
    ["report errors", ["report", "errors"], [API_CHECK]],
    ["report heartbeats", ["report", "heartbeats", "--since", "7d"], [HEARTBEAT]],
    [
      "report incident",
      ["report", "incident", INCIDENT, "--from", "3d"],
      [INCIDENT, API_SERVICE, WEB_SERVICE, API_CHECK, HEARTBEAT],
    ],
  ])("%s", async (_title, args, shown) => {
    const run = await runCli(args, project, env());
    expect(run.exitCode, run.stderr).toBeLessThan(3);
    const text = `${run.stdout}\n${run.stderr}`;
    expect(bareGuids(text, NAMES)).toEqual([]);
    // Each thing is there, by its name and with its id.
    for (const id of shown) expect(text).toContain(`${name(id)} (`);
  });

  test("a service without the checks list names the checks by id, with a warning, and the report is written", async () => {
    const before = running.emulator.control.getBehaviour();
    running.emulator.control.setBehaviour({ referenceOperations: "not-found" });
    try {
      const run = await runCli(["report", "errors"], project, env());
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stderr).toContain("warning: the checks' names could not be read");
      expect(run.stdout).toContain(`| ${API_CHECK} | 2 |`);
    } finally {
      running.emulator.control.setBehaviour(before);
    }
  });
});
