import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { afterEach } from "vitest";

/** A request as the server received it. */
export interface ReceivedRequest {
  readonly method: string;
  /** Path and query exactly as sent (still percent-encoded). */
  readonly rawPath: string;
  readonly url: URL;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** Arrival time, `performance.now()` of the server. */
  readonly at: number;
}

export type Handler = (request: ReceivedRequest, response: ServerResponse) => unknown;

export interface TestServer {
  readonly url: string;
  readonly requests: ReceivedRequest[];
  /** The most requests the server was handling at the same moment. */
  readonly maxInFlight: number;
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 (random port) for the fault cases the emulator cannot be
 * made to produce on cue: a 503 then a 200, a `Retry-After`, a stalled answer, a dropped
 * socket, a body that breaks the contract. It records every request it receives.
 */
export async function startTestServer(handler: Handler): Promise<TestServer> {
  const requests: ReceivedRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const server = createServer((incoming, response) => {
    const at = performance.now();
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let done = false;
    const finish = () => {
      if (!done) inFlight--;
      done = true;
    };
    response.on("close", finish);
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const rawPath = incoming.url ?? "/";
      const request: ReceivedRequest = {
        method: incoming.method ?? "GET",
        rawPath,
        url: new URL(rawPath, "http://127.0.0.1"),
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at,
      };
      requests.push(request);
      Promise.resolve(handler(request, response)).catch((error: unknown) => {
        sendJson(response, 500, {
          statusCode: 500,
          error: "Test handler failed",
          message: String(error),
        });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get maxInFlight() {
      return maxInFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (response.writableEnded || response.destroyed) return;
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

/** The error body the emulator sends: `{ statusCode, error, message }`. */
export function sendError(
  response: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  const error = status === 429 ? "Too Many Requests" : status >= 500 ? "Server Error" : "Error";
  sendJson(response, status, { statusCode: status, error, message }, headers);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `startTestServer` for a test file whose tests start several: each is closed after its test. */
export function serversClosedAfterEach(): (handler: Handler) => Promise<TestServer> {
  const servers: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  return async (handler) => {
    const server = await startTestServer(handler);
    servers.push(server);
    return server;
  };
}

/** What `promise` rejected with, or undefined when it resolved. */
export const caught = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

/**
 * A handler that answers 200 at once, then one byte of JSON whitespace every `everyMs`, never
 * ending: a server that holds a client that reads the body outside its timeout.
 */
export function drip(everyMs: number): Handler {
  return (_request, response) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.write("[");
    const timer = setInterval(() => {
      if (response.destroyed) clearInterval(timer);
      else response.write(" ");
    }, everyMs);
    response.on("close", () => clearInterval(timer));
  };
}
