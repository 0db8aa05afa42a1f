import type { MiddlewareHandler } from "hono";
import type { RateWindow } from "./behaviour";
import { ErrorResponse } from "./http-error";

/**
 * The behaviour `rateWindow`: at most `limit` requests of one API key in any `seconds`
 * (a sliding window, counted at arrival, by the real clock whatever the emulator's `now`);
 * the rest are answered 429 with no `Retry-After`, as the service's contract documents
 * none. Only requests let through count, so a client that waits is served again.
 */
export function rateWindowMiddleware(window: () => RateWindow): MiddlewareHandler {
  let current = "off";
  const sent = new Map<string, number[]>();
  return async (c, next) => {
    const rule = window();
    const shown = JSON.stringify(rule);
    if (shown !== current) {
      current = shown;
      sent.clear();
    }
    if (rule === "off") return next();
    const key = c.req.header("authorization") ?? "";
    const now = performance.now();
    const since = now - rule.seconds * 1000;
    const times = (sent.get(key) ?? []).filter((at) => at > since);
    if (times.length >= rule.limit) {
      sent.set(key, times);
      throw new ErrorResponse(
        429,
        `rate limit exceeded: at most ${rule.limit} requests per ${rule.seconds} s with this API key`,
      );
    }
    times.push(now);
    sent.set(key, times);
    return next();
  };
}
