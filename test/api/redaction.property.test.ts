import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createClient, type IncidentUpdate } from "../../src/api";
import { describeFailure } from "../../src/cli/failure";
import { observe, updateForState } from "../../src/incident";
import { sendJson, startTestServer, type TestServer } from "../support/http-server";

/**
 * Issue 36: a server message was cut to 300 characters before the key was taken out of it,
 * so a key placed across the cut left 2 to 18 of its characters in `up`'s reports and in
 * `report`'s JSON. The key here is written in letters that appear nowhere else in what the
 * client or the CLI says, so any of its characters in the output is a leak.
 */
const KEY_LETTERS = "JKQWXY";
/** Where server text is cut: the error message, the observation's quote, the state's text. */
const SERVER_MESSAGE_MAX = 300;
const OBSERVED_MAX = 120;
const STATE_TEXT_MAX = 2_000;

const key = fc
  .array(fc.constantFrom(...KEY_LETTERS), { minLength: 8, maxLength: 40 })
  .map((letters) => letters.join(""));
const filler = fc.constantFrom("a", "b", " ", "-", "é");

/** `length` characters of `fill` with `key` at `offset`. */
function textWithKey(length: number, fill: string, secret: string, offset: number): string {
  return `${fill.repeat(offset)}${secret}${fill.repeat(Math.max(0, length - offset - secret.length))}`;
}

/** Every offset that puts at least one character of the key on each side of `cut`, and the ends. */
function offsetsAround(cut: number, secret: string): number[] {
  return Array.from({ length: secret.length + 3 }, (_, index) => cut - secret.length - 1 + index);
}

const leaks = (text: string) => new RegExp(`[${KEY_LETTERS}]`).test(text);

let server: TestServer;
let answer: { status: number; body: unknown } = { status: 200, body: [] };

beforeAll(async () => {
  server = await startTestServer((_request, response) =>
    sendJson(response, answer.status, answer.body),
  );
});
afterAll(async () => {
  await server?.close();
});

describe("no part of the key at any offset around any cut", () => {
  test("a server message cut to its length in the error, and the CLI's failure built from it", async () => {
    await fc.assert(
      fc.asyncProperty(key, filler, async (secret, fill) => {
        const client = createClient({ baseUrl: server.url, apiKey: secret, retry: { limit: 0 } });
        for (const offset of offsetsAround(SERVER_MESSAGE_MAX, secret)) {
          const message = textWithKey(SERVER_MESSAGE_MAX + 60, fill, secret, offset);
          answer = { status: 400, body: { statusCode: 400, error: "Bad Request", message } };
          const error = await client.incidents.listUpdates("inc_1").catch((e: unknown) => e);
          const failure = describeFailure(error, [secret]);
          expect(leaks((error as Error).message), `offset ${offset}`).toBe(false);
          expect(leaks(JSON.stringify(failure)), `offset ${offset}`).toBe(false);
        }
      }),
      { numRuns: 25 },
    );
  });

  test("an update's description cut for the observation and for the state", async () => {
    await fc.assert(
      fc.asyncProperty(key, filler, async (secret, fill) => {
        const client = createClient({ baseUrl: server.url, apiKey: secret });
        for (const cut of [OBSERVED_MAX - 1, STATE_TEXT_MAX]) {
          for (const offset of offsetsAround(cut, secret)) {
            const update: IncidentUpdate = {
              id: "upd_1",
              description: textWithKey(cut + 60, fill, secret, offset),
              status: "INVESTIGATING",
              publicIncidentUpdateDate: "2026-05-01T00:00:00.000Z",
              notifySubscribers: false,
            };
            answer = { status: 200, body: [update] };
            const [read] = await client.incidents.listUpdates("inc_1");
            const kept = [
              observe([read as IncidentUpdate]),
              updateForState(read as IncidentUpdate),
            ];
            expect(leaks(JSON.stringify(kept)), `cut ${cut}, offset ${offset}`).toBe(false);
          }
        }
      }),
      { numRuns: 10 },
    );
  });

  test("a key spelled with JSON escapes in a body is redacted all the same", async () => {
    const secret = "JKQWXYJKQW";
    const spelled = [...secret].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
    const server2 = await startTestServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        `[{"id":"upd_1","description":"key ${spelled.join("")} here","status":"INVESTIGATING","publicIncidentUpdateDate":"2026-05-01T00:00:00.000Z","notifySubscribers":false}]`,
      );
    });
    try {
      const client = createClient({ baseUrl: server2.url, apiKey: secret });
      const [read] = await client.incidents.listUpdates("inc_1");
      expect(read?.description).toBe("key [redacted] here");
    } finally {
      await server2.close();
    }
  });
});
