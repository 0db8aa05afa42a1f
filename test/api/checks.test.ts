import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import {
  createClient,
  type MonitoringClient,
  NotFoundError,
  RequestValidationError,
} from "../../src/api";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import { API_KEY } from "../support/api-fixtures";
import { sendJson, startTestServer, type TestServer } from "../support/http-server";

const KEY = "checks-test-key";
const ACCOUNT = "acct-checks";
const API_CHECKS = Array.from({ length: 5 }, (_, index) => ({
  id: `chk-${index}`,
  name: `Check ${index}`,
}));

let running: RunningEmulator;
let client: MonitoringClient;

beforeAll(async () => {
  running = await startEmulator({
    seed: {
      accounts: [
        {
          id: ACCOUNT,
          apiKeys: [KEY],
          checks: API_CHECKS,
          heartbeats: [
            { checkId: "hb-invoices", name: "Nightly invoice run" },
            { checkId: "hb-unnamed" },
          ],
        },
      ],
    },
  });
  client = createClient({ baseUrl: running.url, apiKey: KEY, accountId: ACCOUNT });
});
afterAll(() => running?.close());

describe("the checks list against the emulator", () => {
  test("lists the seed's checks by id with their names and types, heartbeats included", async () => {
    const checks = await client.checks.list({ limit: 100 });
    expect(checks.map((check) => [check.id, check.name ?? null, check.checkType])).toEqual([
      ["chk-0", "Check 0", "API"],
      ["chk-1", "Check 1", "API"],
      ["chk-2", "Check 2", "API"],
      ["chk-3", "Check 3", "API"],
      ["chk-4", "Check 4", "API"],
      ["hb-invoices", "Nightly invoice run", "HEARTBEAT"],
      ["hb-unnamed", null, "HEARTBEAT"],
    ]);
  });

  test("pages through every check until a short page, one page at a time", async () => {
    const before = running.emulator.control.stats().total;
    const ids: string[] = [];
    for await (const check of client.checks.all({ pageSize: 3 })) ids.push(check.id);
    expect(ids).toHaveLength(7);
    expect(running.emulator.control.stats().total - before).toBe(3);
  });

  test("a reader that has what it wants requests no page after the one it stopped in", async () => {
    const before = running.emulator.control.stats().total;
    for await (const check of client.checks.all({ pageSize: 2 })) {
      if (check.id === "chk-1") break;
    }
    expect(running.emulator.control.stats().total - before).toBe(1);
  });

  test("names the checks asked for in one read, leaving out one unknown or unnamed", async () => {
    const before = running.emulator.control.stats().total;
    const names = await client.checks.namesOf(["hb-invoices", "chk-1", "hb-unnamed", "chk-nope"]);
    expect({ ...names }).toEqual({ "hb-invoices": "Nightly invoice run", "chk-1": "Check 1" });
    expect(running.emulator.control.stats().total - before).toBe(1);
    expect({ ...(await client.checks.namesOf([])) }).toEqual({});
    expect(running.emulator.control.stats().total - before).toBe(1);
  });

  test("filters by type and by a text of the name", async () => {
    const heartbeats = await client.checks.list({ checkType: "HEARTBEAT" });
    expect(heartbeats.map((check) => check.id)).toEqual(["hb-invoices", "hb-unnamed"]);
    const invoices = await client.checks.list({ search: "invoice" });
    expect(invoices.map((check) => check.name)).toEqual(["Nightly invoice run"]);
    expect(await client.checks.list({ search: "%" })).toEqual([]);
    expect(await client.checks.list({ tag: "prod" })).toEqual([]);
  });

  test("reads one check, and a missing one is a NotFoundError", async () => {
    expect(await client.checks.get("hb-invoices")).toMatchObject({
      id: "hb-invoices",
      name: "Nightly invoice run",
      checkType: "HEARTBEAT",
    });
    await expect(client.checks.get("chk-nope")).rejects.toBeInstanceOf(NotFoundError);
  });

  test("refuses, unsent, a limit outside 1 to 100 and an id that is no path segment", async () => {
    const before = running.emulator.control.stats().total;
    await expect(client.checks.list({ limit: 101 })).rejects.toBeInstanceOf(RequestValidationError);
    expect(() => client.checks.all({ pageSize: 0 })).toThrow(RequestValidationError);
    await expect(client.checks.get("../x")).rejects.toBeInstanceOf(RequestValidationError);
    expect(running.emulator.control.stats().total).toBe(before);
  });
});

describe("the checks list from a service that sends more, or less, than the emulator", () => {
  const servers: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  test("accepts a check without a name and keeps the fields it does not know", async () => {
    const server = await startTestServer((_request, response) =>
      sendJson(response, 200, [
        { id: "c-1", name: "Nightly invoice run", frequency: 10, locations: ["eu-west-1"] },
        { id: "c-2" },
        { id: "c-3", name: null, checkType: "MULTI_STEP" },
      ]),
    );
    servers.push(server);
    const lean = createClient({ baseUrl: server.url, apiKey: API_KEY });
    const checks = await lean.checks.list({ limit: 3, page: 2 });
    expect(checks).toEqual([
      { id: "c-1", name: "Nightly invoice run", frequency: 10, locations: ["eu-west-1"] },
      { id: "c-2" },
      { id: "c-3", name: null, checkType: "MULTI_STEP" },
    ]);
    expect(server.requests[0]?.rawPath).toBe("/v1/checks?limit=3&page=2");
  });
});
