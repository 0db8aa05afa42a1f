import { createHash } from "node:crypto";

/*
 * Error grouping: the raw message of a failed check result is "cleaned" by replacing the
 * parts that differ between occurrences of the same failure, and the cleaned text is
 * hashed. Results of one check with the same hash share an error group.
 *
 * Replacement order matters: timestamps and UUIDs contain digits and hex, so they go
 * first; URLs next (their query strings and id-like path segments); then bare paths,
 * hex ids and finally any remaining number.
 */

const TIMESTAMP =
  /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/gi;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const URL_PATTERN =
  /\b([a-z][a-z0-9+.-]*:\/\/[^\s/?#"'<>]+)([^\s?#"'<>]*)(\?[^\s#"'<>]*)?(#[^\s"'<>]*)?/gi;
const BARE_PATH = /(^|[\s"'(=:])((?:\/[\w.~%@+-]+){2,}\/?)/g;
const IPV4 = /\b\d{1,3}(?:\.\d{1,3}){3}\b/g;
const HEX_ID = /\b(?:0x[0-9a-f]+|[0-9a-f]{8,})\b/gi;
const NUMBER = /(?<![A-Za-z<])\d+(?:\.\d+)?/g;
const WHITESPACE = /\s+/g;
const VERSION_SEGMENT = /^v\d{1,2}$/i;

/** Longest cleaned message kept; longer messages are cut so one result cannot bloat a group. */
export const CLEANED_MESSAGE_MAX = 2_000;

function cleanPath(path: string): string {
  return path
    .split("/")
    .map((segment) =>
      segment !== "" && /\d/.test(segment) && !VERSION_SEGMENT.test(segment) ? "<id>" : segment,
    )
    .join("/");
}

function isHexId(text: string): boolean {
  return /^0x/i.test(text) || (/\d/.test(text) && /[a-f]/i.test(text));
}

/**
 * Replaces the volatile parts of an error message: timestamps → `<timestamp>`,
 * UUIDs → `<uuid>`, URL query strings → `?<query>`, path segments that contain a digit

 * (except version segments such as `v1`) → `<id>`, IPv4 addresses → `<ip>`, hex ids → `<hex>`, other numbers →
 * `<n>`. Whitespace runs collapse to one space.
 *
 * @example
 * cleanErrorMessage("Timeout of 30000ms exceeded for https://api.example.com/orders/8812?x=1")
 * // → "Timeout of <n>ms exceeded for https://api.example.com/orders/<id>?<query>"
 */
export function cleanErrorMessage(raw: string): string {
  const cleaned = raw
    .replace(TIMESTAMP, "<timestamp>")
    .replace(UUID, "<uuid>")
    .replace(
      URL_PATTERN,
      (_match, origin: string, path: string, query?: string, fragment?: string) =>
        `${origin}${cleanPath(path)}${query ? "?<query>" : ""}${fragment ? "#<fragment>" : ""}`,
    )
    .replace(BARE_PATH, (_match, lead: string, path: string) => `${lead}${cleanPath(path)}`)
    .replace(IPV4, "<ip>")
    .replace(HEX_ID, (match) => (isHexId(match) ? "<hex>" : match))
    .replace(NUMBER, "<n>")
    .replace(WHITESPACE, " ")
    .trim();
  return cleaned.length > CLEANED_MESSAGE_MAX ? cleaned.slice(0, CLEANED_MESSAGE_MAX) : cleaned;
}

/** The error hash: SHA-256 of the cleaned message, lowercase hex. */
export function errorHash(cleanedMessage: string): string {
  return createHash("sha256").update(cleanedMessage, "utf8").digest("hex");
}
