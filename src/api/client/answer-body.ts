import { z } from "zod";
import { safeLine } from "../../safe-text";
import type { ApiErrorDetails } from "../errors/api-error";
import { ResponseTooLargeError } from "../errors/response-too-large-error";
import { ResponseValidationError } from "../errors/response-validation-error";
import { ErrorBody } from "../schemas/error-body";
import { parseJsonBody, redactSecret, TooDeepError } from "./json-body";
import type { ResolvedOptions } from "./resolve-options";

/*
 * What the client reads of an answer: a success's body against its schema, and a refusal's
 * own reason, each kept to what a hostile server cannot turn against the client (its depth,
 * the key it echoes, what a terminal would run).
 */

const SERVER_MESSAGE_MAX = 300;

/** A successful answer's body, parsed within `limits.maxDepth` and checked against `schema`. */
export function parseBody<S extends z.ZodType>(
  schema: S,
  text: string,
  where: ApiErrorDetails,
  options: ResolvedOptions,
): z.output<S> {
  let json: unknown;
  try {
    json = text === "" ? undefined : parseJsonBody(text, options.limits.maxDepth, options.apiKey);
  } catch (cause) {
    if (cause instanceof TooDeepError) {
      throw new ResponseTooLargeError({
        ...where,
        limit: { name: "maxDepth", value: cause.maxDepth },
        size: `a body nested more than ${cause.maxDepth} levels deep`,
      });
    }
    throw new ResponseValidationError({
      ...where,
      cause,
      issues: [{ field: "", problem: "the body is not valid JSON" }],
    });
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  throw new ResponseValidationError({
    ...where,
    cause: parsed.error,
    issues: parsed.error.issues.map((issue) => ({
      field: z.core.toDotPath(issue.path),
      problem: issue.message,
    })),
  });
}

/**
 * The server's own explanation, so a refusal says why: `message` of the
 * `{ statusCode, error, message? }` body; else the body's validation detail (`details`,
 * `errors`, `issues` or `validation`, as frameworks name it) after `error`; else `error` alone
 * when it says more than the status text; else a short plain-text body. Anything else (HTML
 * error pages, other JSON) is tolerated and left out. A server that echoes the key back does
 * not get it, or any part of it, into our error text: the key is redacted before the message
 * is cut to its length, and the result is one line made safe for a terminal or a CI log.
 */
export function serverMessage(
  data: unknown,
  apiKey: string,
  statusText: string,
): string | undefined {
  let message: string | undefined;
  const body = ErrorBody.partial().safeParse(data);
  if (body.success && body.data.message) message = body.data.message;
  else if (typeof data === "object" && data !== null && !Array.isArray(data)) {
    const detail = validationDetail(data as Record<string, unknown>);
    const error = body.success ? body.data.error?.trim() : undefined;
    const saysMore = error && error.toLowerCase() !== statusText.trim().toLowerCase();
    message = [saysMore ? error : undefined, detail].filter(Boolean).join(": ") || undefined;
  } else if (typeof data === "string" && !data.trimStart().startsWith("<")) {
    message = data.trim().split("\n")[0];
  }
  if (!message) return undefined;
  const redacted = redactSecret(message, apiKey);
  const clipped =
    redacted.length > SERVER_MESSAGE_MAX ? `${redacted.slice(0, SERVER_MESSAGE_MAX)}…` : redacted;
  return safeLine(clipped);
}

/** Where error bodies put their validation problems, by the names frameworks use. */
const DETAIL_KEYS = ["details", "errors", "issues", "validation"] as const;

function validationDetail(body: Record<string, unknown>): string | undefined {
  for (const key of DETAIL_KEYS) {
    const value = body[key];
    if (value === undefined || value === null) continue;
    if (typeof value === "string") return value;
    try {
      return JSON.stringify(value);
    } catch {
      // Nested too deep to write out (ky parsed the error body as it came): not shown.
      return undefined;
    }
  }
  return undefined;
}
