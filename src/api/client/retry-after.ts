/**
 * Milliseconds to wait according to a `Retry-After` header: delay-seconds (`120`) or an
 * HTTP-date (`Wed, 21 Oct 2026 07:28:00 GMT`). `undefined` when absent or unreadable.
 * The retry policy waits it out (or refuses a wait longer than `maxRetryAfterMs`), and a
 * `RateLimitError` reports it.
 */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const value = headers.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
