import { z } from "zod";
import { buildPath, ROUTES } from "../routes";
import {
  INCIDENTS_LIMIT_MAX,
  type IncidentCreateRequest,
  IncidentListPage,
  type IncidentRequest,
  type IncidentResponse,
  type IncidentUpdate,
  type IncidentUpdateRequest,
  ListedIncident,
  PathId,
} from "../schemas";
import {
  type CursorPage,
  readCursorPage,
  type SkippedEntry,
  walkCursorPages,
} from "./cursor-pages";
import { checkRequest, target } from "./request-checks";
import { callRoute } from "./route-call";
import type { Transport } from "./transport";

/** An entry of the incident list that the schema refused: left out, and said why. */
export type SkippedIncident = SkippedEntry;

/** One page of `GET /v1/status-pages/incidents`. */
export type IncidentPage = CursorPage<ListedIncident>;

/** Options of `incidents.pages`. */
export interface IncidentPagesOptions {
  /**
   * Incidents per page, 1 to 100.
   * @default 100
   */
  pageSize?: number;
  /** Most pages to read; the walk then fails with a `PagingError`. @default the client's `maxPages` */
  maxPages?: number;
}

/**
 * Status-page incidents: the spec's update and list of updates (4.1, 4.2), and the incident
 * operations of the service's public reference.
 */
export interface IncidentsApi {
  /**
   * Replaces the incident's state: `PUT /v1/status-pages/incidents/{incidentId}`.
   * Idempotent (the full state is sent), so it is retried like a GET.
   * The body is checked against `IncidentRequest` first; `id`, `created_at` and
   * `updated_at` are server-owned and are not sent.
   * Every service carries its `id`, `name` and `accountId` (the account the request acts for).
   * @example await client.incidents.update("inc_1", { name: "API down", severity: "MAJOR", services: [{ id: "svc_api", name: "Public API", accountId: "acct_1" }] })
   */
  update(incidentId: string, body: IncidentRequest): Promise<IncidentResponse>;
  /** The 100 latest updates of the incident: `GET …/incidents/{incidentId}/incident-updates`. */
  listUpdates(incidentId: string): Promise<IncidentUpdate[]>;
  /**
   * Opens an incident with its first update: `POST /v1/status-pages/incidents`. Not
   * idempotent, so it is sent once and retried only on a 429 (which the service answers
   * without acting); after a timeout or a 5xx it may have been carried out, and the caller
   * must read before sending it again.
   * @example await client.incidents.create({ name: "Checkout fails", severity: "MAJOR", services: [{ id: "svc_checkout", name: "Checkout", accountId: "acct_1" }], incidentUpdates: [{ description: "We are looking into it.", status: "INVESTIGATING", notifySubscribers: false }] })
   */
  create(body: IncidentCreateRequest): Promise<IncidentResponse>;
  /** The incident with its updates: `GET /v1/status-pages/incidents/{incidentId}`. */
  get(incidentId: string): Promise<IncidentResponse>;
  /**
   * One page of the incident list, each incident with its updates. An entry the contract
   * does not allow is left out and listed in `skipped`, so one odd incident does not hide
   * the others.
   */
  listPage(query?: { limit?: number; nextId?: string }): Promise<IncidentPage>;
  /**
   * Every page of the incident list, following `nextId` until it is `null`. A cursor that
   * comes back again, or more than `maxPages` pages, fails with a `PagingError` instead of
   * looping. Stop early by leaving the loop.
   * @example for await (const page of client.incidents.pages()) for (const incident of page.entries) console.log(incident.id)
   */
  pages(options?: IncidentPagesOptions): AsyncIterableIterator<IncidentPage>;
  /** Removes the incident and all its updates, permanently: `DELETE …/incidents/{incidentId}`. */
  remove(incidentId: string): Promise<void>;
  /**
   * Posts an update: `POST …/incidents/{incidentId}/incident-updates`. With
   * `notifySubscribers: true` it reaches every subscriber, which cannot be taken back. Not
   * idempotent: sent once, retried only on a 429.
   */
  postUpdate(incidentId: string, body: IncidentUpdateRequest): Promise<IncidentUpdate>;
  /** One update: `GET …/incident-updates/{incidentUpdateId}`. */
  getUpdate(incidentId: string, incidentUpdateId: string): Promise<IncidentUpdate>;
  /** Changes one update in place: `PUT …/incident-updates/{incidentUpdateId}`. Idempotent. */
  changeUpdate(
    incidentId: string,
    incidentUpdateId: string,
    body: IncidentUpdateRequest,
  ): Promise<IncidentUpdate>;
  /** Removes one update: `DELETE …/incident-updates/{incidentUpdateId}`. */
  removeUpdate(incidentId: string, incidentUpdateId: string): Promise<void>;
}

const R = ROUTES;
const UPDATE = target("incidents.update", R.updateIncident);
const LIST_UPDATES = target("incidents.listUpdates", R.listIncidentUpdates);
const CREATE = target("incidents.create", R.createIncident);
const GET = target("incidents.get", R.getIncident);
const LIST = target("incidents.listPage", R.listIncidents);
const PAGES = target("incidents.pages", R.listIncidents);
const REMOVE = target("incidents.remove", R.deleteIncident);
const POST_UPDATE = target("incidents.postUpdate", R.postIncidentUpdate);
const GET_UPDATE = target("incidents.getUpdate", R.getIncidentUpdate);
const CHANGE_UPDATE = target("incidents.changeUpdate", R.updateIncidentUpdate);
const REMOVE_UPDATE = target("incidents.removeUpdate", R.deleteIncidentUpdate);

const IncidentInput = z.strictObject({ incidentId: PathId });
const UpdateInput = z.strictObject({ incidentId: PathId, body: R.updateIncident.body.schema });
const CreateInput = z.strictObject({ body: R.createIncident.body.schema });
const UpdateIdInput = z.strictObject({ incidentId: PathId, incidentUpdateId: PathId });
const PostUpdateInput = IncidentInput.extend({ body: R.postIncidentUpdate.body.schema });
const ChangeUpdateInput = UpdateIdInput.extend({ body: R.updateIncidentUpdate.body.schema });
const PagesInput = z.strictObject({
  pageSize: z.int().min(1).max(INCIDENTS_LIMIT_MAX).default(INCIDENTS_LIMIT_MAX),
  maxPages: z.int().min(1).optional(),
});
/** What a delete answers: 204, or a 2xx with any body, which nothing reads. */
const AnyBody = z.unknown();

export function createIncidentsApi(transport: Transport, maxPages: number): IncidentsApi {
  const listPage = async (query: { limit?: number; nextId?: string } = {}) => {
    const input = checkRequest(LIST, R.listIncidents.query.schema, query);
    const page = await transport.call({
      ...LIST,
      path: R.listIncidents.path,
      query: input,
      schema: IncidentListPage,
    });
    return readCursorPage(page, ListedIncident);
  };

  return {
    async update(incidentId, body) {
      const input = checkRequest(UPDATE, UpdateInput, { incidentId, body });
      const { id: _id, created_at: _created, updated_at: _updated, ...sent } = input.body;
      return callRoute(transport, UPDATE, R.updateIncident, input, { body: sent });
    },

    async listUpdates(incidentId) {
      const input = checkRequest(LIST_UPDATES, IncidentInput, { incidentId });
      return callRoute(transport, LIST_UPDATES, R.listIncidentUpdates, input);
    },

    async create(body) {
      const input = checkRequest(CREATE, CreateInput, { body });
      return callRoute(transport, CREATE, R.createIncident, {}, { body: input.body });
    },

    async get(incidentId) {
      const input = checkRequest(GET, IncidentInput, { incidentId });
      return callRoute(transport, GET, R.getIncident, input);
    },

    listPage,

    async *pages(options = {}) {
      const input = checkRequest(PAGES, PagesInput, options);
      yield* walkCursorPages({
        target: PAGES,
        pageSize: input.pageSize,
        maxPages: input.maxPages ?? maxPages,
        page: listPage,
      });
    },

    async remove(incidentId) {
      const input = checkRequest(REMOVE, IncidentInput, { incidentId });
      await transport.call({
        ...REMOVE,
        path: buildPath(R.deleteIncident, input),
        schema: AnyBody,
      });
    },

    async postUpdate(incidentId, body) {
      const input = checkRequest(POST_UPDATE, PostUpdateInput, { incidentId, body });
      return callRoute(transport, POST_UPDATE, R.postIncidentUpdate, input, { body: input.body });
    },

    async getUpdate(incidentId, incidentUpdateId) {
      const input = checkRequest(GET_UPDATE, UpdateIdInput, { incidentId, incidentUpdateId });
      return callRoute(transport, GET_UPDATE, R.getIncidentUpdate, input);
    },

    async changeUpdate(incidentId, incidentUpdateId, body) {
      const input = checkRequest(CHANGE_UPDATE, ChangeUpdateInput, {
        incidentId,
        incidentUpdateId,
        body,
      });
      return callRoute(transport, CHANGE_UPDATE, R.updateIncidentUpdate, input, {
        body: input.body,
      });
    },

    async removeUpdate(incidentId, incidentUpdateId) {
      const input = checkRequest(REMOVE_UPDATE, UpdateIdInput, { incidentId, incidentUpdateId });
      await transport.call({
        ...REMOVE_UPDATE,
        path: buildPath(R.deleteIncidentUpdate, input),
        schema: AnyBody,
      });
    },
  };
}
