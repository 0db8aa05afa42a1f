import { z } from "zod";
import { RequestValidationError } from "../errors/request-validation-error";
import { DateOrDateTime, PathId } from "../schemas";

/** Where a refused request would have gone; named in the error. */
export interface Target {
  readonly operation: string;
  readonly method: "GET" | "PUT";
  /** The path template, e.g. `/v1/error-groups/{id}`: the real path may not be buildable. */
  readonly path: string;
}

/**
 * A path parameter. Dot segments are refused too: `.` and `..` (even percent-encoded) are
 * resolved away by URL parsing and would send the request to a different resource.
 */
export const PathParam = PathId.refine((value) => value !== "." && value !== "..", {
  message: "must not be '.' or '..' (URL parsing would change the path)",
});

/**
 * A point in time given as a `Date` or a string. Dates become ISO strings in UTC; strings
 * must be RFC 3339 date-times or plain dates (spec 4.3 declares "date format").
 */
export const TimeInput = z.preprocess(
  (value) =>
    value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString() : value,
  z
    .string({
      error: (issue) =>
        issue.input instanceof Date
          ? "is an invalid Date"
          : "must be a Date or an ISO 8601 string such as 2026-05-01T12:00:00.000Z",
    })
    .refine((text) => DateOrDateTime.safeParse(text).success, {
      error: (issue) =>
        `must be an RFC 3339 date-time such as 2026-05-01T12:00:00.000Z or a date such as 2026-05-01, not ${JSON.stringify(issue.input)}`,
    }),
);

/** Validates `input` against `schema` or throws a RequestValidationError; nothing is sent either way. */
export function checkRequest<S extends z.ZodType>(
  target: Target,
  schema: S,
  input: unknown,
): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new RequestValidationError({ ...target, problems: z.prettifyError(result.error) });
}

/** Encodes a validated path parameter for use as one path segment. */
export const segment = (value: string): string => encodeURIComponent(value);
