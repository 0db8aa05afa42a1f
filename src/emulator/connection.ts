import type { Context, MiddlewareHandler } from "hono";

/**
 * How much of an unread request body the emulator reads and drops so that the connection
 * can carry the next request. Past either bound it answers `Connection: close` instead.
 */
export const DRAIN_LIMIT = { bytes: 128 * 1024 * 1024, ms: 1_000 } as const;

const TIMED_OUT = Symbol("timed out");

/**
 * Reads the rest of a body and drops it. Resolves `true` once the body has ended, `false`
 * when it is longer than `DRAIN_LIMIT.bytes` or has not ended within `DRAIN_LIMIT.ms`.
 */
export async function discardRest(
  reader: ReadableStreamDefaultReader<Uint8Array>,
): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(resolve, DRAIN_LIMIT.ms, TIMED_OUT);
  });
  let bytes = 0;
  try {
    for (;;) {
      const pending = reader.read();
      const chunk = await Promise.race([pending, timeout]);
      if (chunk === TIMED_OUT) {
        // The read stays pending until the socket closes; its rejection then means nothing.
        pending.catch(() => undefined);
        return false;
      }
      if (chunk.done) return true;
      bytes += chunk.value.byteLength;
      if (bytes > DRAIN_LIMIT.bytes) return false;
    }
  } finally {
    clearTimeout(timer);
  }
}

/** Whether the request body, if it has one, has been read to its end (or can be now). */
async function bodySettled(c: Context): Promise<boolean> {
  const request = c.req.raw;
  // Read by a handler (whole, or to the end by `readBody` after a 413): nothing is left.
  if (request.bodyUsed) return true;
  const body = request.body;
  if (body === null) return true;
  const declared = Number(c.req.header("content-length"));
  if (declared > DRAIN_LIMIT.bytes || body.locked) return false;
  return discardRest(body.getReader());
}

/**
 * Keeps keep-alive honest on every answer, errors included (issue 14). An answer given
 * before the request body was read (401, 403, 404, 405, 413, 415, an injected 429 or 503)
 * would leave the rest of the body on the connection, where it would be parsed as the
 * next request. So the rest is read and dropped before answering; a body too long or too
 * slow for that is answered with `Connection: close`, so the client opens a new
 * connection instead of reusing one the server is about to close. An injected reset
 * destroys the connection and never gets here.
 */
export function settleRequestBody(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (!(await bodySettled(c))) c.res.headers.set("Connection", "close");
  };
}
