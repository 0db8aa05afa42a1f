import http from "node:http";
import type { AddressInfo } from "node:net";

/** A proxy on loopback, and how to stop it. */
export interface HeaderProxy {
  readonly url: string;
  /** Every request it passed on: method and path. */
  readonly requests: string[];
  close(): Promise<void>;
}

/**
 * Passes every request on to `target` with the header `from` renamed `to`, as the vendor's CLI
 * names the account header otherwise than the emulator does.
 */
export function startHeaderProxy(target: string, from: string, to: string): Promise<HeaderProxy> {
  const upstream = new URL(target);
  const requests: string[] = [];
  const server = http.createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    const headers: http.OutgoingHttpHeaders = { ...request.headers, host: upstream.host };
    const renamed = headers[from];
    if (renamed !== undefined) {
      delete headers[from];
      headers[to] = renamed;
    }
    const forwarded = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path: request.url,
        headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on("error", () => response.destroy());
    request.pipe(forwarded);
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        requests,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
