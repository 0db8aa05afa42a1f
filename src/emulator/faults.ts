import type { MiddlewareHandler } from "hono";
import { z } from "zod";
import { ErrorResponse } from "./http-error";

/**
 * Network misbehaviour injected into the public API (never into the control API or
 * `/openapi.json`). Every member is optional; `setFaults` replaces the whole set, so
 * `setFaults({})` turns every fault off.
 */
export const Faults = z
  .strictObject({
    /** Fixed delay added to every response, in ms. @default 0 */
    latencyMs: z.int().min(0).max(60_000).default(0),
    /** Random extra delay, uniform in `[0, jitterMs]`, in ms. @default 0 */
    jitterMs: z.int().min(0).max(60_000).default(0),
    /** Share of requests (0..1) answered 503 Service Unavailable. @default 0 */
    failRate: z.number().min(0).max(1).default(0),
    /**
     * Every Nth request is answered 429 Too Many Requests with `Retry-After`; 0 is off.
     * With `rateLimitBurst` k, the last k requests of every N are.
     * @default 0
     */
    rateLimitEvery: z.int().min(0).max(1_000_000).default(0),
    /**
     * How many requests in a row each rate limit answers 429: a burst of k ending at every
     * Nth request (`rateLimitEvery: 20, rateLimitBurst: 5`: requests 16 to 20, 36 to 40, …).
     * At most `rateLimitEvery`.
     * @default 1
     */
    rateLimitBurst: z.int().min(1).max(1_000_000).default(1),
    /** The `Retry-After` of 429 and 503 responses, in seconds. @default 1 */
    retryAfterSeconds: z.int().min(0).max(3_600).default(1),
    /** Share of requests (0..1) whose connection is reset without a response. @default 0 */
    resetRate: z.number().min(0).max(1).default(0),
    /**
     * Share of writes (0..1: POST, PUT, PATCH, DELETE) carried out, then their connection
     * reset before the answer: a write that happened while its client saw only a failure.
     * @default 0
     */
    lostAnswerRate: z.number().min(0).max(1).default(0),
    /**
     * Share of POSTs (0..1: a create, a post) carried out, then answered 429 all the same: a
     * client that takes a 429 to mean "not made" sends it twice.
     * @default 0
     */
    throttledAfterWriteRate: z.number().min(0).max(1).default(0),
    /**
     * An incident of the account whose body answers every create and post, each carried out
     * as sent: the create with that incident as a read shows it, the post with its newest
     * update. Another incident's body, which a client must not take for what it sent.
     * @default null (off)
     */
    answerWithIncident: z.string().min(1).max(200).nullable().default(null),
  })
  .refine(
    (faults) => faults.rateLimitEvery === 0 || faults.rateLimitBurst <= faults.rateLimitEvery,
    {
      path: ["rateLimitBurst"],
      message:
        "must be at most rateLimitEvery: a burst is the end of every rateLimitEvery requests",
    },
  );

/** Whether the `count`th request (from 1) falls in a rate-limit burst. */
export function inRateLimitBurst(faults: ResolvedFaults, count: number): boolean {
  if (faults.rateLimitEvery === 0) return false;
  return (count - 1) % faults.rateLimitEvery >= faults.rateLimitEvery - faults.rateLimitBurst;
}
/** Faults as given (any member may be left out). */
export type Faults = z.input<typeof Faults>;
/** Faults with every member filled in. */
export type ResolvedFaults = z.output<typeof Faults>;

/**
 * Thrown to simulate a reset connection. Over HTTP the socket is destroyed; in-process
 * (`app.request`) the error escapes the app, so the caller's promise rejects as a
 * failed fetch would.
 */
export class ConnectionResetFault extends Error {
  override name = "ConnectionResetFault";
  readonly code = "ECONNRESET";
  constructor() {
    super("connection reset by the emulator's fault injection (resetRate)");
  }
}

interface SocketBindings {
  incoming?: { socket?: { destroy(): void } };
}

/** Mutable fault state of one emulator, read by the middleware on every request. */
export class FaultInjector {
  private faults: ResolvedFaults = Faults.parse({});
  private requests = 0;

  constructor(private readonly random: () => number = Math.random) {}

  set(faults: Faults): ResolvedFaults {
    this.faults = Faults.parse(faults);
    this.requests = 0;
    return this.faults;
  }

  get(): ResolvedFaults {
    return { ...this.faults };
  }

  middleware(): MiddlewareHandler {
    return async (c, next) => {
      const faults = this.faults;
      this.requests += 1;
      const delay = faults.latencyMs + Math.round(this.random() * faults.jitterMs);
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      if (faults.resetRate > 0 && this.random() < faults.resetRate) {
        const socket = (c.env as SocketBindings | undefined)?.incoming?.socket;
        socket?.destroy();
        throw new ConnectionResetFault();
      }
      if (inRateLimitBurst(faults, this.requests)) {
        const every =
          faults.rateLimitBurst === 1
            ? `every ${faults.rateLimitEvery} requests`
            : `the last ${faults.rateLimitBurst} of every ${faults.rateLimitEvery} requests`;
        throw new ErrorResponse(
          429,
          `rate limit exceeded (fault injection: ${every}); retry after ${faults.retryAfterSeconds} s`,
          { "Retry-After": String(faults.retryAfterSeconds) },
        );
      }
      if (faults.failRate > 0 && this.random() < faults.failRate) {
        throw new ErrorResponse(
          503,
          "service unavailable (fault injection: failRate); retry later",
          {
            "Retry-After": String(faults.retryAfterSeconds),
          },
        );
      }
      await next();
      const post = c.req.method === "POST" && c.res.ok;
      if (post && faults.throttledAfterWriteRate > 0) {
        if (this.random() < faults.throttledAfterWriteRate) {
          throw new ErrorResponse(
            429,
            `rate limit exceeded (fault injection: throttledAfterWriteRate, after the write was carried out); retry after ${faults.retryAfterSeconds} s`,
            { "Retry-After": String(faults.retryAfterSeconds) },
          );
        }
      }
      const write = c.req.method !== "GET" && c.req.method !== "HEAD";
      if (write && faults.lostAnswerRate > 0 && this.random() < faults.lostAnswerRate) {
        const socket = (c.env as SocketBindings | undefined)?.incoming?.socket;
        socket?.destroy();
        throw new ConnectionResetFault();
      }
    };
  }
}
