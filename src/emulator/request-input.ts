import type { Context } from "hono";
import { z } from "zod";
import { PathId } from "../api/schemas";
import { discardRest } from "./connection";
import { ErrorResponse } from "./http-error";

/** The largest body a route takes, and what a 413 says to whoever sent more. */
export interface BodyLimit {
  readonly bytes: number;
  readonly tooLarge: string;
}

/** Largest request body of the public API (issue 3: over 1 MiB is 413). */
export const PUBLIC_BODY_LIMIT: BodyLimit = {
  bytes: 1024 * 1024,
  tooLarge: "the request body is larger than 1048576 bytes (1 MiB): send a smaller incident",
};
/** Largest control API body: bulk check results for load tests are big. */
export const CONTROL_BODY_LIMIT: BodyLimit = {
  bytes: 64 * 1024 * 1024,
  tooLarge: "the control request body is larger than 67108864 bytes (64 MiB)",
};

/**
 * One line per problem, joined: error bodies are JSON, where a multi-line
 * `z.prettifyError` text reads worse than `path: message; path: message`.
 */
export function describeIssues(where: string, issues: readonly z.core.$ZodIssue[]): string {
  const parts = issues.slice(0, 10).map((issue) => {
    const path = issue.path.map(String).join(".");
    return `${path === "" ? where : path}: ${issue.message}`;
  });
  const more = issues.length > 10 ? `; and ${issues.length - 10} more` : "";
  return `invalid ${where}: ${parts.join("; ")}${more}`;
}

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * The body as text, at most `limit.bytes` (else 413). A declared length is checked before
 * anything is read; a body without one (chunked) is counted as it arrives, and past the
 * limit the rest is read and dropped, so the connection can carry the next request (or,
 * when that is not possible, the 413 says `Connection: close`).
 */
async function readBody(c: Context, limit: BodyLimit): Promise<string> {
  const declared = c.req.header("content-length");
  if (declared !== undefined) {
    if (Number(declared) > limit.bytes) throw new ErrorResponse(413, limit.tooLarge);
    return c.req.text();
  }
  const body = c.req.raw.body;
  if (body === null) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) break;
    size += chunk.value.byteLength;
    if (size > limit.bytes) {
      const drained = await discardRest(reader);
      throw new ErrorResponse(413, limit.tooLarge, drained ? {} : { Connection: "close" });
    }
    chunks.push(chunk.value);
  }
  reader.releaseLock();
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Reads a JSON body: 415 unless the content type is JSON, 413 past `limit`, 400 when empty
 * or malformed, then validates it with `schema` (400 listing every problem).
 */
export async function readJsonBody<S extends z.ZodType>(
  c: Context,
  schema: S,
  limit: BodyLimit,
): Promise<z.output<S>> {
  const contentType = c.req.header("content-type");
  if (contentType === undefined || !JSON_MEDIA_TYPE.test(contentType)) {
    throw new ErrorResponse(
      415,
      `Content-Type must be application/json${contentType === undefined ? " (none was sent)" : `, got ${contentType.slice(0, 100)}`}`,
    );
  }
  const text = await readBody(c, limit);
  if (text.trim() === "") {
    throw new ErrorResponse(400, "the request body is empty: send a JSON object");
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : "not JSON";
    throw new ErrorResponse(400, `malformed JSON body: ${reason}`);
  }
  const result = schema.safeParse(parsed);
  if (!result.success) throw new ErrorResponse(400, describeIssues("body", result.error.issues));
  return result.data;
}

const NUMERIC = /^[+-]?\d+(?:\.\d+)?$/;
const numericNames = new WeakMap<z.ZodType, ReadonlySet<string>>();

/** The query parameters a schema types as numbers: their text is converted before validation. */
function numericParameters(schema: z.ZodType): ReadonlySet<string> {
  let names = numericNames.get(schema);
  if (names === undefined) {
    const properties = (z.toJSONSchema(schema, { io: "input", unrepresentable: "any" })
      .properties ?? {}) as Record<string, { type?: unknown }>;
    names = new Set(
      Object.entries(properties)
        .filter(([, property]) => property.type === "integer" || property.type === "number")
        .map(([name]) => name),
    );
    numericNames.set(schema, names);
  }
  return names;
}

/**
 * Validates the query string. Parameters the schema types as numbers are converted from
 * text when they look like numbers; a parameter sent twice stays an array and fails
 * validation.
 */
export function readQuery<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  const numeric = numericParameters(schema);
  const raw: Record<string, string | string[]> = {};
  for (const [name, values] of Object.entries(c.req.queries())) {
    const converted = values.map((value) =>
      numeric.has(name) && NUMERIC.test(value) ? Number(value) : value,
    );
    raw[name] = (converted.length === 1 ? converted[0] : converted) as string;
  }
  const result = schema.safeParse(raw);
  if (!result.success) throw new ErrorResponse(400, describeIssues("query", result.error.issues));
  return result.data;
}

/**
 * A path parameter after Hono's decoding, checked with the client's rule (`PathId`): an id
 * the client would refuse to send is answered 400 with the same words.
 */
export function pathParam(c: Context, name: string): string {
  const value = c.req.param(name) ?? "";
  const result = PathId.safeParse(value);
  if (!result.success) {
    throw new ErrorResponse(400, `path parameter ${name} ${result.error.issues[0]?.message}`);
  }
  return result.data;
}
