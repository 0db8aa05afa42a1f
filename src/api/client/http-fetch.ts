import http from "node:http";
import https from "node:https";
import type { Readable } from "node:stream";
import zlib from "node:zlib";

/** Statuses whose answer has no body, and so a `Response` with none. */
const BODILESS = new Set([101, 103, 204, 205, 304]);

/** The decoders of the encodings `fetch` decodes; the client asks for none, a server may send one. */
const DECODERS: Readonly<Record<string, () => NodeJS.ReadWriteStream>> = {
  gzip: () => zlib.createGunzip(),
  "x-gzip": () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};

/**
 * A `fetch` for ky over `node:http` and `node:https`, with a keep-alive agent of its own, as
 * the client's `fetch` option takes it. Node's `fetch` (undici) parses answers with llhttp
 * compiled to WebAssembly, which V8 compiles again optimized once pages stream in; this one
 * uses the parser Node's `http` has built in. What a caller sees is `fetch`'s: the answer
 * once its headers came, its body as a stream; no redirect followed (the transport decides
 * them); a failure to connect or a body cut short as `fetch`'s `TypeError` ("fetch failed",
 * "terminated"), which ky takes for a network error; an abort as the signal's reason.
 */
export function createHttpFetch(): typeof fetch {
  const agents = {
    "http:": { module: http, agent: new http.Agent({ keepAlive: true }) },
    "https:": { module: https, agent: new https.Agent({ keepAlive: true }) },
  };
  return async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const { signal } = request;
    signal.throwIfAborted();
    const url = new URL(request.url);
    const scheme = agents[url.protocol as keyof typeof agents];
    if (scheme === undefined) {
      throw new TypeError("fetch failed", { cause: new Error(`${url.protocol} is not http`) });
    }
    const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
    const headers: Record<string, string> = Object.fromEntries(request.headers);
    if (body !== undefined) headers["content-length"] = String(body.byteLength);
    return new Promise<Response>((resolve, reject) => {
      const outgoing = scheme.module.request(
        url,
        { method: request.method, headers, agent: scheme.agent, signal },
        (incoming) => {
          try {
            resolve(responseOf(incoming, request.method, signal));
          } catch (cause) {
            incoming.destroy();
            reject(new TypeError("fetch failed", { cause }));
          }
        },
      );
      outgoing.on("error", (cause) =>
        reject(signal.aborted ? signal.reason : new TypeError("fetch failed", { cause })),
      );
      outgoing.end(body);
    });
  };
}

function responseOf(incoming: http.IncomingMessage, method: string, signal: AbortSignal): Response {
  const status = incoming.statusCode ?? 0;
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let at = 0; at + 1 < raw.length; at += 2) {
    headers.append(raw[at] as string, raw[at + 1] as string);
  }
  const init = { status, statusText: incoming.statusMessage ?? "", headers };
  if (BODILESS.has(status) || method === "HEAD") {
    incoming.resume();
    return new Response(null, init);
  }
  const encoding = (incoming.headers["content-encoding"] ?? "").trim().toLowerCase();
  const decoder = DECODERS[encoding];
  const source = decoder === undefined ? incoming : incoming.pipe(decoder());
  if (decoder !== undefined) incoming.on("error", (error) => (source as Readable).destroy(error));
  return new Response(bodyOf(incoming, source as Readable, signal), init);
}

/**
 * The answer's body as `fetch` gives it. A failure before the first read waits for that read
 * (a decoder's error with no listener would end the process), and a body cancelled, read or
 * not (an answer over the size limit is never read), lets its socket go at once rather than
 * keep it busy in the keep-alive pool.
 */
function bodyOf(
  incoming: http.IncomingMessage,
  source: Readable,
  signal: AbortSignal,
): ReadableStream<Uint8Array> {
  source.on("error", () => undefined);
  const chunks = chunksOf(source, signal);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel() {
      source.destroy();
      incoming.destroy();
      chunks.return(undefined).catch(() => undefined);
    },
  });
}

/** The body's chunks, a failure reading them said as `fetch` says it. */
async function* chunksOf(body: Readable, signal: AbortSignal): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of body) yield chunk as Uint8Array;
  } catch (cause) {
    throw signal.aborted ? signal.reason : new TypeError("terminated", { cause });
  }
}
