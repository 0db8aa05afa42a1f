import { connect } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import { DRAIN_LIMIT } from "../../src/emulator/connection";
import { incidentBody } from "./helpers";
import { type PooledRequest, pooledClient } from "./pooled-client";

/**
 * Issue 14: an error answer must leave the connection usable for the client's next request,
 * or say `Connection: close`. Each case sends a bad request, then a good one, through a
 * pooling client with one connection, over real HTTP.
 */
let running: RunningEmulator;
let client: ReturnType<typeof pooledClient>;
const ADMIN = "keep-alive-admin";

beforeAll(async () => {
  running = await startEmulator({ port: 0, adminToken: ADMIN });
});
afterAll(() => running.close());
beforeEach(() => {
  running.emulator.control.setFaults({});
  client?.close();
  client = pooledClient(running.url);
});

const KEY = { authorization: "Bearer demo-key" };
const JSON_TYPE = { "content-type": "application/json" };
const INCIDENT = "/v1/status-pages/incidents/inc-api-errors";
const bigBody = JSON.stringify({ ...incidentBody, name: "x".repeat(2 * 1024 * 1024) });
const someBody = JSON.stringify({ padding: "y".repeat(200_000) });

const good = () => client.send("GET", "/v1/error-groups/checks/chk-api", { headers: KEY });

interface BadRequest {
  name: string;
  status: number;
  method: string;
  path: string;
  request: PooledRequest;
  faults?: Parameters<RunningEmulator["emulator"]["control"]["setFaults"]>[0];
}

const BAD_REQUESTS: BadRequest[] = [
  {
    name: "413 for a body over 1 MiB with Content-Length",
    status: 413,
    method: "PUT",
    path: INCIDENT,
    request: { headers: { ...KEY, ...JSON_TYPE }, body: bigBody },
  },
  {
    name: "413 for a chunked body over 1 MiB",
    status: 413,
    method: "PUT",
    path: INCIDENT,
    request: { headers: { ...KEY, ...JSON_TYPE }, body: bigBody, chunked: true },
  },
  {
    name: "400 for malformed JSON",
    status: 400,
    method: "PUT",
    path: INCIDENT,
    request: { headers: { ...KEY, ...JSON_TYPE }, body: '{"name": ' },
  },
  {
    name: "400 for a body that breaks the schema",
    status: 400,
    method: "PUT",
    path: INCIDENT,
    request: { headers: { ...KEY, ...JSON_TYPE }, body: someBody },
  },
  {
    name: "415 for a body that is not JSON",
    status: 415,
    method: "PUT",
    path: INCIDENT,
    request: { headers: { ...KEY, "content-type": "text/plain" }, body: someBody },
  },
  {
    name: "401 for a missing API key",
    status: 401,
    method: "PUT",
    path: INCIDENT,
    request: { headers: JSON_TYPE, body: someBody },
  },
  {
    name: "401 for the control API without the admin token",
    status: 401,
    method: "POST",
    path: "/_control/seed",
    request: { headers: { ...KEY, ...JSON_TYPE }, body: someBody },
  },
  {
    name: "403 for another account in x-service-account",
    status: 403,
    method: "PUT",
    path: INCIDENT,
    request: {
      headers: { ...KEY, ...JSON_TYPE, "x-service-account": "acct-other" },
      body: someBody,
    },
  },
  {
    name: "404 for an unknown route",
    status: 404,
    method: "POST",
    path: "/v2/incidents",
    request: { headers: { ...KEY, ...JSON_TYPE }, body: someBody },
  },
  {
    name: "404 for an unknown incident",
    status: 404,
    method: "PUT",
    path: "/v1/status-pages/incidents/inc-nope",
    request: { headers: { ...KEY, ...JSON_TYPE }, body: JSON.stringify(incidentBody) },
  },
  {
    name: "405 for another method on a known path",
    status: 405,
    method: "POST",
    path: INCIDENT,
    request: { headers: { ...KEY, ...JSON_TYPE }, body: someBody },
  },
  {
    name: "an injected 503",
    status: 503,
    method: "PUT",
    path: INCIDENT,
    request: { headers: { ...KEY, ...JSON_TYPE }, body: someBody },
    faults: { failRate: 1 },
  },
  {
    name: "an injected 429",
    status: 429,
    method: "PUT",
    path: INCIDENT,
    request: { headers: { ...KEY, ...JSON_TYPE }, body: someBody },
    faults: { rateLimitEvery: 1 },
  },
];

describe("a pooled connection after an error answer", () => {
  it.each(BAD_REQUESTS)("carries the next request after $name", async (bad) => {
    if (bad.faults) running.emulator.control.setFaults(bad.faults);
    const first = await client.send(bad.method, bad.path, bad.request);
    running.emulator.control.setFaults({});
    expect(first.status).toBe(bad.status);
    expect(first.json).toMatchObject({ statusCode: bad.status });
    expect(first.headers.connection).toBe("keep-alive");

    const second = await good();
    expect(second.status).toBe(200);
    expect(second.connection).toBe(first.connection);
  });

  it("is dropped after an injected reset, and the next request gets a new one", async () => {
    const before = await good();
    running.emulator.control.setFaults({ resetRate: 1 });
    await expect(
      client.send("PUT", INCIDENT, { headers: { ...KEY, ...JSON_TYPE }, body: someBody }),
    ).rejects.toMatchObject({ code: expect.stringMatching(/ECONNRESET|ECONNREFUSED|EPIPE/) });
    running.emulator.control.setFaults({});
    const after = await good();
    expect(after.status).toBe(200);
    expect(after.connection).not.toBe(before.connection);
  });
});

/** Sends raw bytes and collects everything the server sends until it closes the connection. */
function rawExchange(bytes: string): Promise<{ response: string; closedAfterMs: number }> {
  const { hostname, port } = new URL(running.url);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect({ host: hostname, port: Number(port) }, () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () =>
      resolve({
        response: Buffer.concat(chunks).toString("latin1"),
        closedAfterMs: performance.now() - started,
      }),
    );
    socket.setTimeout(10_000, () => socket.destroy(new Error("the server never closed")));
  });
}

describe("a connection that cannot be kept", () => {
  it("is answered with Connection: close when the declared body is too large to drain", async () => {
    const { response } = await rawExchange(
      `PUT ${INCIDENT} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer demo-key\r\nContent-Type: application/json\r\nContent-Length: ${DRAIN_LIMIT.bytes + 1}\r\n\r\n{`,
    );
    expect(response).toMatch(/^HTTP\/1\.1 413 /);
    expect(response).toMatch(/\r\nConnection: close\r\n/i);
  });

  it("is answered with Connection: close when the body stops arriving", async () => {
    const { response, closedAfterMs } = await rawExchange(
      `PUT ${INCIDENT} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name"`,
    );
    expect(response).toMatch(/^HTTP\/1\.1 401 /);
    expect(response).toMatch(/\r\nConnection: close\r\n/i);
    expect(closedAfterMs).toBeGreaterThanOrEqual(DRAIN_LIMIT.ms - 50);
  });
});
