import type { Context } from "hono";
import type { z } from "zod";
import { ApiError } from "./http-error";

/** Largest request body of the public API (issue 3: over 1 MiB is 413). */
export const PUBLIC_BODY_LIMIT = 1024 * 1024;
/** Largest control API body: bulk check results for load tests are big. */
export const CONTROL_BODY_LIMIT = 64 * 1024 * 1024;

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
 * Reads a JSON body: 415 unless the content type is JSON, 400 when empty or malformed,
 * then validates it with `schema` (400 listing every problem).
 */
export async function readJsonBody<S extends z.ZodType>(
  c: Context,
  schema: S,
): Promise<z.output<S>> {
  const contentType = c.req.header("content-type");
  if (contentType === undefined || !JSON_MEDIA_TYPE.test(contentType)) {
    throw new ApiError(
      415,
      `Content-Type must be application/json${contentType === undefined ? " (none was sent)" : `, got ${contentType.slice(0, 100)}`}`,
    );
  }
  const text = await c.req.text();
  if (text.trim() === "") {
    throw new ApiError(400, "the request body is empty: send a JSON object");
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : "not JSON";
    throw new ApiError(400, `malformed JSON body: ${reason}`);
  }
  const result = schema.safeParse(parsed);
  if (!result.success) throw new ApiError(400, describeIssues("body", result.error.issues));
  return result.data;
}

const NUMERIC = /^[+-]?\d+(?:\.\d+)?$/;

/**
 * Validates the query string. Parameters named in `numeric` are converted from text when
 * they look like numbers; a parameter sent twice stays an array and fails validation.
 */
export function readQuery<S extends z.ZodType>(
  c: Context,
  schema: S,
  numeric: readonly string[],
): z.output<S> {
  const raw: Record<string, string | string[]> = {};
  for (const [name, values] of Object.entries(c.req.queries())) {
    const converted = values.map((value) =>
      numeric.includes(name) && NUMERIC.test(value) ? Number(value) : value,
    );
    raw[name] = (converted.length === 1 ? converted[0] : converted) as string;
  }
  const result = schema.safeParse(raw);
  if (!result.success) throw new ApiError(400, describeIssues("query", result.error.issues));
  return result.data;
}

/** A path parameter after Hono's decoding; empty or oversized ids are 400. */
export function pathParam(c: Context, name: string): string {
  const value = c.req.param(name);
  if (value === undefined || value === "") {
    throw new ApiError(400, `path parameter ${name} must not be empty`);
  }
  if (value.length > 512) {
    throw new ApiError(400, `path parameter ${name} is longer than 512 characters`);
  }
  return value;
}
