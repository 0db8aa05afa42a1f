import type { z } from "zod";

export type HttpMethod = "GET" | "PUT" | "POST" | "PATCH" | "DELETE";

/** The parameter names of a path template: `"/v1/error-groups/{id}"` gives `"id"`. */
export type PathParamName<Path extends string> =
  Path extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParamName<Rest> : never;

/** Values of every parameter of a path template, as the caller has them (not yet encoded). */
export type PathParams<Path extends string> = { readonly [Name in PathParamName<Path>]: string };

/** A zod schema with the name it has under `components.schemas` of the OpenAPI document. */
export interface NamedSchema<S extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly schema: S;
}

/** Error statuses an operation can answer, each with a `{ statusCode, error, message }` body. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 503;

/**
 * One operation of the HTTP API, written once: the client builds its URLs from it, the
 * emulator registers its handlers with it and the OpenAPI document describes it.
 */
export interface Route<Path extends string = string> {
  /** The OpenAPI `operationId`; the emulator's request counts are keyed by it. */
  readonly operationId: string;
  readonly method: HttpMethod;
  /** The path template, OpenAPI style: `/v1/error-groups/{id}`. */
  readonly path: Path;
  readonly summary: string;
  /** Every parameter of the template, in path order, with its description and an example. */
  readonly pathParams: { readonly [name: string]: { description: string; example?: string } };
  /** Query parameters: a strict object schema, and a sentence per parameter. */
  readonly query?: {
    readonly schema: z.ZodObject;
    readonly descriptions: { readonly [name: string]: string };
  };
  /** The JSON request body, when the operation takes one (always required). */
  readonly body?: NamedSchema;
  /** The answer on success; `body` is left out for 204. */
  readonly success: {
    readonly status: 200 | 201 | 204;
    readonly description: string;
    readonly body?: NamedSchema;
  };
  readonly errors: readonly ErrorStatus[];
  /** Name of the security scheme the operation requires (a key of `securitySchemes`). */
  readonly security: string;
  /** Header parameters, by their name under `components.parameters`. */
  readonly headers?: readonly string[];
  readonly tags?: readonly string[];
}

const PARAMETER = /\{([^}]+)\}/g;

/** The parameter names of a template, in path order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(PARAMETER)].map((match) => match[1] as string);
}

/**
 * The concrete path of an operation: each parameter URL-encoded as one path segment, so an
 * id holding `/`, `?` or `#` still names one resource.
 * @example buildPath(ROUTES.getErrorGroup, { id: "eg 1" }) // "/v1/error-groups/eg%201"
 */
export function buildPath<Path extends string>(
  route: { readonly path: Path },
  params: PathParams<Path>,
): string {
  const values = params as Readonly<Record<string, string>>;
  return route.path.replace(PARAMETER, (_, name: string) => {
    const value = values[name];
    if (value === undefined)
      throw new TypeError(`buildPath: no value for {${name}} of ${route.path}`);
    return encodeURIComponent(value);
  });
}

/** The template in Hono's syntax: `/v1/error-groups/:id`. */
export function honoPath(path: string): string {
  return path.replace(PARAMETER, (_, name: string) => `:${name}`);
}
