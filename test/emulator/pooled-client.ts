import { Agent, type IncomingHttpHeaders, request } from "node:http";
import type { Socket } from "node:net";

export interface PooledResponse {
  status: number;
  headers: IncomingHttpHeaders;
  json: unknown;
  /** Which connection of the pool carried the request: 1 for the first one opened, and so on. */
  connection: number;
}

export interface PooledRequest {
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Send the body without Content-Length (Transfer-Encoding: chunked), in 64 KiB pieces. */
  chunked?: boolean;
}

/**
 * A real HTTP client that pools connections as production clients do: node:http's
 * keep-alive Agent with one connection, so a request reuses the previous request's
 * connection whenever the server kept it open. Each response says which connection
 * carried it.
 */
export function pooledClient(baseUrl: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const connections = new WeakMap<Socket, number>();
  let opened = 0;
  const url = new URL(baseUrl);

  function send(
    method: string,
    path: string,
    options: PooledRequest = {},
  ): Promise<PooledResponse> {
    return new Promise((resolve, reject) => {
      const outgoing = request(
        { host: url.hostname, port: url.port, method, path, agent, headers: options.headers },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
          incoming.on("error", reject);
          incoming.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            resolve({
              status: incoming.statusCode ?? 0,
              headers: incoming.headers,
              json: text === "" ? undefined : JSON.parse(text),
              connection: connections.get(outgoing.socket as Socket) ?? 0,
            });
          });
        },
      );
      outgoing.on("socket", (socket: Socket) => {
        if (!connections.has(socket)) connections.set(socket, ++opened);
      });
      outgoing.on("error", reject);
      const body = options.body === undefined ? undefined : Buffer.from(options.body);
      if (body === undefined) {
        outgoing.end();
      } else if (options.chunked) {
        for (let at = 0; at < body.length; at += 65_536)
          outgoing.write(body.subarray(at, at + 65_536));
        outgoing.end();
      } else {
        outgoing.setHeader("content-length", body.length);
        outgoing.end(body);
      }
    });
  }

  return { send, close: () => agent.destroy() };
}
