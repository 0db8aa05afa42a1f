import {
  Service,
  ServiceRequest,
  StatusPage,
  StatusPageRequest,
  StatusPageSubscriptionList,
} from "../schemas";
import type { ErrorStatus, Route } from "./route";

/*
 * The reference's writes of services and status pages, and a page's subscriptions
 * (service-contract.md, "Changing services and status pages"), spread into `ROUTES`.
 */

const common = {
  // API_KEY_SCHEME of public-routes.ts, which spreads these routes in (an import would be a cycle).
  security: "bearerAuth",
  headers: ["ServiceAccount"],
  tags: ["monitoring API"],
} as const;

const READ_ERRORS: readonly ErrorStatus[] = [400, 401, 403, 404, 429, 503];
/** 409: a `url` already taken, a service still in use (behaviours `duplicateAnswer`, `serviceInUse`). */
const WRITE_ERRORS: readonly ErrorStatus[] = [...READ_ERRORS, 409, 413, 415];
const SERVICE_PARAM = { serviceId: { description: "The service.", example: "svc-api" } };
const PAGE_PARAM = { statusPageId: { description: "The status page.", example: "sp-acme" } };
const SERVICE_BODY = { name: "Service", schema: Service } as const;
const PAGE_BODY = { name: "StatusPage", schema: StatusPage } as const;

export const PAGE_WRITE_ROUTES = {
  createService: {
    ...common,
    operationId: "createService",
    method: "POST",
    path: "/v1/status-pages/services",
    summary: "Create a service (not idempotent: the service picks its id)",
    pathParams: {},
    body: { name: "ServiceRequest", schema: ServiceRequest },
    success: { status: 200, description: "Created", body: SERVICE_BODY },
    errors: WRITE_ERRORS,
  },
  renameService: {
    ...common,
    operationId: "renameService",
    method: "PUT",
    path: "/v1/status-pages/services/{serviceId}",
    summary: "Rename a service",
    pathParams: SERVICE_PARAM,
    body: { name: "ServiceRequest", schema: ServiceRequest },
    success: { status: 200, description: "Successful", body: SERVICE_BODY },
    errors: WRITE_ERRORS,
  },
  deleteService: {
    ...common,
    operationId: "deleteService",
    method: "DELETE",
    path: "/v1/status-pages/services/{serviceId}",
    summary: "Remove a service",
    pathParams: SERVICE_PARAM,
    success: { status: 204, description: "Removed" },
    errors: [...READ_ERRORS, 409],
  },
  createStatusPage: {
    ...common,
    operationId: "createStatusPage",
    method: "POST",
    path: "/v1/status-pages",
    summary: "Create a status page with its cards (not idempotent; its url is unique)",
    pathParams: {},
    body: { name: "StatusPageRequest", schema: StatusPageRequest },
    success: { status: 201, description: "Created", body: PAGE_BODY },
    errors: WRITE_ERRORS,
  },
  updateStatusPage: {
    ...common,
    operationId: "updateStatusPage",
    method: "PUT",
    path: "/v1/status-pages/{statusPageId}",
    summary: "Change a status page as a whole; a card sent with its id keeps it",
    pathParams: PAGE_PARAM,
    body: { name: "StatusPageRequest", schema: StatusPageRequest },
    success: { status: 200, description: "Successful", body: PAGE_BODY },
    errors: WRITE_ERRORS,
  },
  deleteStatusPage: {
    ...common,
    operationId: "deleteStatusPage",
    method: "DELETE",
    path: "/v1/status-pages/{statusPageId}",
    summary: "Remove a status page",
    pathParams: PAGE_PARAM,
    success: { status: 204, description: "Removed" },
    errors: READ_ERRORS,
  },
  listStatusPageSubscriptions: {
    ...common,
    operationId: "listStatusPageSubscriptions",
    method: "GET",
    path: "/v1/status-pages/{statusPageId}/subscriptions",
    summary: "List the subscriptions of a status page: who its notifications reach",
    pathParams: PAGE_PARAM,
    success: {
      status: 200,
      description: "Successful",
      body: { name: "StatusPageSubscriptionList", schema: StatusPageSubscriptionList },
    },
    errors: READ_ERRORS,
  },
} as const satisfies Record<string, Route>;
