import { z } from "zod";
import {
  API_KEY_SCHEME,
  type ErrorStatus,
  type NamedSchema,
  PUBLIC_ROUTES,
  pathParamNames,
  type Route,
} from "./routes";
import { ErrorBody, pathIdJsonSchema } from "./schemas";

/**
 * The OpenAPI 3.1 document, generated from the route table (`src/api/routes`) and the same
 * zod schemas the client and the emulator validate with. OpenAPI 3.1 uses JSON Schema
 * 2020-12, zod's default target, so the schemas go in unchanged.
 */
export interface OpenApiDocument {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  security: Record<string, string[]>[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, unknown>>;
  components: {
    schemas: Record<string, unknown>;
    responses: Record<string, unknown>;
    parameters: Record<string, unknown>;
    securitySchemes: Record<string, unknown>;
  };
}

/** What a server adds to the document of the monitoring API: its own operations and their auth. */
export interface OpenApiExtension {
  routes: readonly Route[];
  securitySchemes: Record<string, { type: "http"; scheme: "bearer"; description: string }>;
  tags: { name: string; description: string }[];
  description: string;
}

type JsonSchema = Record<string, unknown>;

function jsonSchema(type: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(type, { io, unrepresentable: "any" });
  return rest;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: string) => ({ "application/json": { schema: ref(name) } });

const RESPONSE_NAMES: Record<ErrorStatus, string> = {
  400: "BadRequest",
  401: "Unauthorized",
  403: "Forbidden",
  404: "NotFound",
  409: "Conflict",
  413: "PayloadTooLarge",
  415: "UnsupportedMediaType",
  429: "TooManyRequests",
  503: "ServiceUnavailable",
};

/** The service does not document `Retry-After` on a 429 (service-contract.md): it may be absent. */
const retryAfter = (required: boolean) => ({
  "Retry-After": {
    description: "Seconds to wait before retrying.",
    required,
    schema: { type: "string", pattern: "^\\d+$" },
  },
});

function errorResponse(description: string, headers?: Record<string, unknown>) {
  return { description, content: json("ErrorBody"), ...(headers ? { headers } : {}) };
}

const ERROR_RESPONSES: Record<string, unknown> = {
  BadRequest: errorResponse("The request is not valid; the message says which field."),
  Unauthorized: errorResponse("The Bearer token is missing or not valid.", {
    "WWW-Authenticate": {
      description: "The Bearer challenge.",
      required: true,
      schema: { type: "string" },
    },
  }),
  Forbidden: errorResponse("x-service-account does not match the key's account."),
  NotFound: errorResponse("No such resource in this account."),
  Conflict: errorResponse("The resource exists but cannot take this request."),
  PayloadTooLarge: errorResponse("The request body is larger than the limit (1 MiB)."),
  UnsupportedMediaType: errorResponse("The request body is not application/json."),
  TooManyRequests: errorResponse(
    "Rate limited; wait as the Retry-After header says, or back off when it is absent.",
    retryAfter(false),
  ),
  ServiceUnavailable: errorResponse("Temporarily unavailable; retry later.", retryAfter(true)),
};

function queryParameters(route: Route): unknown[] {
  if (route.query === undefined) return [];
  const properties = (jsonSchema(route.query.schema, "input").properties ?? {}) as Record<
    string,
    JsonSchema
  >;
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: "query",
    required: false,
    description: route.query?.descriptions[name],
    schema: property,
  }));
}

function pathParameters(route: Route): unknown[] {
  return pathParamNames(route.path).map((name) => {
    const param = route.pathParams[name];
    if (param === undefined) {
      throw new Error(`route ${route.operationId}: path parameter {${name}} is not described`);
    }
    return {
      name,
      in: "path",
      required: true,
      description: param.description,
      schema: pathIdJsonSchema(),
      ...(param.example === undefined ? {} : { example: param.example }),
    };
  });
}

function operation(route: Route, defaultSecurity: string): Record<string, unknown> {
  const success = route.success.body
    ? { description: route.success.description, content: json(route.success.body.name) }
    : { description: route.success.description };
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.tags ? { tags: [...route.tags] } : {}),
    ...(route.security === defaultSecurity ? {} : { security: [{ [route.security]: [] }] }),
    parameters: [
      ...pathParameters(route),
      ...(route.headers ?? []).map((name) => ({ $ref: `#/components/parameters/${name}` })),
      ...queryParameters(route),
    ],
    ...(route.body ? { requestBody: { required: true, content: json(route.body.name) } } : {}),
    responses: {
      [String(route.success.status)]: success,
      ...Object.fromEntries(
        route.errors.map((status) => [
          String(status),
          { $ref: `#/components/responses/${RESPONSE_NAMES[status]}` },
        ]),
      ),
    },
  };
}

/** Every named schema of the routes, requests as input and responses as output JSON Schema. */
function componentSchemas(routes: readonly Route[]): Record<string, unknown> {
  const named = new Map<string, { schema: NamedSchema; io: "input" | "output" }>();
  const add = (schema: NamedSchema | undefined, io: "input" | "output") => {
    if (schema === undefined) return;
    const known = named.get(schema.name);
    if (known !== undefined && (known.schema.schema !== schema.schema || known.io !== io)) {
      throw new Error(`two different schemas are both named ${schema.name}`);
    }
    named.set(schema.name, { schema, io });
  };
  for (const route of routes) {
    add(route.body, "input");
    add(route.success.body, "output");
  }
  add({ name: "ErrorBody", schema: ErrorBody }, "output");
  return Object.fromEntries(
    [...named].map(([name, { schema, io }]) => [name, jsonSchema(schema.schema, io)]),
  );
}

/**
 * Builds the document of the five operations; `serverUrl` becomes its one server entry.
 * A server that offers more (the emulator's control API) passes them as `extension`.
 */
export function buildOpenApiDocument(
  serverUrl = "/",
  extension?: OpenApiExtension,
): OpenApiDocument {
  const routes = [...PUBLIC_ROUTES, ...(extension?.routes ?? [])];
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    paths[route.path] ??= {};
    (paths[route.path] as Record<string, unknown>)[route.method.toLowerCase()] = operation(
      route,
      API_KEY_SCHEME,
    );
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Monitoring API: status-page incidents, heartbeat events and error groups",
      version: "1.0.0",
      description: [
        "The five operations incident-sync uses. Errors are `{ statusCode, error, message }`.",
        ...(extension ? [extension.description] : []),
      ].join("\n\n"),
    },
    servers: [{ url: serverUrl }],
    security: [{ [API_KEY_SCHEME]: [] }],
    tags: [
      { name: "monitoring API", description: "The operations of the spec (section 4)." },
      ...(extension?.tags ?? []),
    ],
    paths,
    components: {
      schemas: componentSchemas(routes),
      responses: ERROR_RESPONSES,
      parameters: {
        ServiceAccount: {
          name: "x-service-account",
          in: "header",
          required: false,
          description: "The account id; when sent it must be the account of the API key.",
          schema: { type: "string" },
        },
      },
      securitySchemes: {
        [API_KEY_SCHEME]: {
          type: "http",
          scheme: "bearer",
          description: "The API key: `Authorization: Bearer <API key>`.",
        },
        ...extension?.securitySchemes,
      },
    },
  };
}
