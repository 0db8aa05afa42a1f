import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../src/api";
import { readService } from "../../src/cli/import/read-service";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import { rewriteAnswers } from "../support/rewrite-answers";
import { LIVE_ACCOUNT, LIVE_INCIDENTS, LIVE_KEY, liveSeed } from "../support/status-page-seed";

/** The lists whose answers get their last entry's id a number, as no contract allows. */
const LISTS = ["/v1/status-pages/services", "/v1/status-pages", "/v1/status-pages/incidents"];

describe("import's read of the service", () => {
  let live: RunningEmulator;

  beforeAll(async () => {
    live = await startEmulator({ port: 0, seed: liveSeed() });
  });

  afterAll(async () => {
    await live?.close();
  });

  it("reads every list whole, says its progress, and names each entry the contract refuses", async () => {
    const restore = rewriteAnswers(
      (method, url) => method === "GET" && LISTS.includes(url.pathname),
      (body) => {
        const page = body as { entries: Record<string, unknown>[] };
        return {
          ...page,
          entries: page.entries.map((e, i, all) => (i === all.length - 1 ? { ...e, id: 42 } : e)),
        };
      },
    );
    const lists: unknown[][] = [];
    try {
      const client = createClient({ baseUrl: live.url, accountId: LIVE_ACCOUNT, apiKey: LIVE_KEY });
      const read = await readService(client, {
        list: (...call) => lists.push(call),
        each: () => undefined,
      });
      expect(read.services).toHaveLength(5);
      expect(read.statusPages).toHaveLength(0);
      expect(read.incidents).toHaveLength(LIVE_INCIDENTS.length - 1);
      expect(read.notes).toEqual([
        expect.stringMatching(
          /^A service the services list shows is not one the contract allows \(42\): /,
        ),
        expect.stringMatching(
          /^A status page the list shows is not one the contract allows \(42\): /,
        ),
      ]);
      expect(read.unreadable).toEqual([
        {
          // An id of the wrong type still names the entry (a maintenance window's is a number).
          incidentId: "42",
          name: expect.any(String),
          reason: expect.stringMatching(
            /^the incident list shows it in a shape the contract does not allow: /,
          ),
        },
      ]);
    } finally {
      restore();
    }
    expect(lists).toEqual([
      ["services", 5, 1, false],
      ["services", 5, 1, true],
      ["status pages", 0, 1, false],
      ["status pages", 0, 1, true],
      ["incidents", LIVE_INCIDENTS.length - 1, 1, false],
      ["incidents", LIVE_INCIDENTS.length - 1, 1, true],
    ]);
  });
});
