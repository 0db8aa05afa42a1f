import { z } from "zod";
import {
  ErrorBody,
  ErrorGroup,
  ErrorGroupList,
  ErrorGroupsQuery,
  HeartbeatEventsQuery,
  HeartbeatEventsResponse,
  Incident,
  IncidentRequest,
  IncidentUpdateList,
} from "./schemas";

/**
 * The OpenAPI 3.1 document of the five operations (spec section 4), generated from the
 * same zod schemas the client and the emulator validate with. OpenAPI 3.1 uses JSON
 * Schema 2020-12, zod's default target, so the schemas go in unchanged.
 */
export interface OpenApiDocument {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  security: Record<string, string[]>[];
  paths: Record<string, Record<string, unknown>>;
  components: {
    schemas: Record<string, unknown>;
    responses: Record<string, unknown>;
    parameters: Record<string, unknown>;
    securitySchemes: Record<string, unknown>;
  };
}

type JsonSchema = Record<string, unknown>;

function schema(type: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(type, { io, unrepresentable: "any" });
  return rest;
}

function queryParameters(query: z.ZodType, descriptions: Record<string, string>): unknown[] {
  const properties = (schema(query, "input").properties ?? {}) as Record<string, JsonSchema>;
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: "query",
    required: false,
    description: descriptions[name],
    schema: property,
  }));
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: string) => ({ "application/json": { schema: ref(name) } });
const errorResponse = (description: string) => ({ description, content: json("ErrorBody") });
const response = (code: string) => ({ $ref: `#/components/responses/${code}` });

const COMMON_ERRORS = {
  "400": response("BadRequest"),
  "401": response("Unauthorized"),
  "403": response("Forbidden"),
  "404": response("NotFound"),
  "429": response("TooManyRequests"),
  "503": response("ServiceUnavailable"),
};

function pathParameter(name: string, description: string) {
  return {
    name,
    in: "path",
    required: true,
    description,
    schema: { type: "string", minLength: 1 },
  };
}

const serviceAccount = { $ref: "#/components/parameters/ServiceAccount" };

/** Builds the document; `serverUrl` becomes its one server entry. */
export function buildOpenApiDocument(serverUrl = "/"): OpenApiDocument {
  return {
    openapi: "3.1.0",
    info: {
      title: "Monitoring API: status-page incidents, heartbeat events and error groups",
      version: "1.0.0",
      description:
        "The five operations incident-sync uses. Errors are `{ statusCode, error, message }`.",
    },
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }],
    paths: {
      "/v1/status-pages/incidents/{incidentId}": {
        put: {
          operationId: "updateIncident",
          summary: "Update an incident",
          parameters: [pathParameter("incidentId", "The incident to update."), serviceAccount],
          requestBody: { required: true, content: json("IncidentRequest") },
          responses: {
            "200": { description: "Successful", content: json("Incident") },
            ...COMMON_ERRORS,
            "413": errorResponse("The request body is larger than 1 MiB."),
            "415": errorResponse("The request body is not application/json."),
          },
        },
      },
      "/v1/status-pages/incidents/{incidentId}/incident-updates": {
        get: {
          operationId: "listIncidentUpdates",
          summary: "List the 100 latest updates of an incident, newest first",
          parameters: [pathParameter("incidentId", "The incident."), serviceAccount],
          responses: {
            "200": { description: "Successful", content: json("IncidentUpdateList") },
            ...COMMON_ERRORS,
          },
        },
      },
      "/v1/checks/heartbeats/{checkId}/events": {
        get: {
          operationId: "listHeartbeatEvents",
          summary: "List the events of a heartbeat with success-ratio statistics",
          parameters: [
            pathParameter("checkId", "The heartbeat check."),
            serviceAccount,
            ...queryParameters(HeartbeatEventsQuery, {
              startTime: "Start of the window, inclusive. Default: one day before endTime.",
              endTime: "End of the window, inclusive. Default: now.",
              limit: "Most events returned, newest first. Default 10.",
            }),
          ],
          responses: {
            "200": { description: "Successful", content: json("HeartbeatEventsResponse") },
            ...COMMON_ERRORS,
          },
        },
      },
      "/v1/error-groups/checks/{checkId}": {
        get: {
          operationId: "listErrorGroupsForCheck",
          summary: "List the error groups of a check, lastSeen newest first",
          parameters: [
            pathParameter("checkId", "The check."),
            serviceAccount,
            ...queryParameters(ErrorGroupsQuery, {
              limit: "Groups per page. Default 10.",
              page: "Page number from 1. Default 1.",
            }),
          ],
          responses: {
            "200": { description: "Successful", content: json("ErrorGroupList") },
            ...COMMON_ERRORS,
          },
        },
      },
      "/v1/error-groups/{id}": {
        get: {
          operationId: "getErrorGroup",
          summary: "Retrieve one error group",
          parameters: [pathParameter("id", "The error group identifier."), serviceAccount],
          responses: {
            "200": { description: "Successful", content: json("ErrorGroup") },
            ...COMMON_ERRORS,
          },
        },
      },
    },
    components: {
      schemas: {
        IncidentRequest: schema(IncidentRequest, "input"),
        Incident: schema(Incident, "output"),
        IncidentUpdateList: schema(IncidentUpdateList, "output"),
        HeartbeatEventsResponse: schema(HeartbeatEventsResponse, "output"),
        ErrorGroupList: schema(ErrorGroupList, "output"),
        ErrorGroup: schema(ErrorGroup, "output"),
        ErrorBody: schema(ErrorBody, "output"),
      },
      responses: {
        BadRequest: errorResponse("The request is not valid; the message says which field."),
        Unauthorized: errorResponse("The Bearer API key is missing or not valid."),
        Forbidden: errorResponse("x-service-account does not match the key's account."),
        NotFound: errorResponse("No such resource in this account."),
        TooManyRequests: errorResponse("Rate limited; see the Retry-After header."),
        ServiceUnavailable: errorResponse("Temporarily unavailable; retry later."),
      },
      parameters: {
        ServiceAccount: {
          name: "x-service-account",
          in: "header",
          required: false,
          description: "The account id; when sent it must be the account of the API key.",
          schema: { type: "string" },
        },
      },
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } },
    },
  };
}
