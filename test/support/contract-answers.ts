import fc from "fast-check";
import { createClient, type MonitoringClient } from "../../src/api";

/*
 * What the service's reference lets an answer be, for the property tests that read every
 * such answer (the client's, the reports'): fields left out or null, and a client that gets
 * whatever a test draws, whatever it asks.
 */

/** A field that may be left out, sent as null, or sent with a value. */
export const nullish = <T>(value: fc.Arbitrary<T>) =>
  fc.oneof(fc.constant("absent" as const), fc.constant(null), value);

/** A field that may be left out or sent with a value (the reference allows no null). */
export const optional = <T>(value: fc.Arbitrary<T>) =>
  fc.oneof(fc.constant("absent" as const), value);

/** The fields whose value is not "absent". */
export const present = (fields: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== "absent"));

/** A client whose every request is answered with `body()`, whatever it asks; no retry, no pacing. */
export function answering(body: () => unknown): MonitoringClient {
  return createClient({
    baseUrl: "http://127.0.0.1:9",
    apiKey: "property-key",
    retry: { limit: 0 },
    rateLimit: { limit: 1_000_000, intervalMs: 1_000, shared: false },
    fetch: async () =>
      new Response(JSON.stringify(body()), { headers: { "content-type": "application/json" } }),
  });
}
