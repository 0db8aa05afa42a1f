import { z } from "zod";
import { PagingError } from "../errors/paging-error";
import { buildPath, ROUTES } from "../routes";
import {
  MAINTENANCE_WINDOWS_LIMIT_MAX,
  MAINTENANCES_LIMIT_MAX,
  Maintenance,
  type MaintenanceMoveRequest,
  type MaintenancesQuery,
  type MaintenanceUpdate,
  type MaintenanceUpdateChangeRequest,
  type MaintenanceUpdateRequest,
  MaintenanceWindow,
  type MaintenanceWindowChangeRequest,
  type MaintenanceWindowCreateRequest,
  type MaintenanceWindowsQuery,
  PathId,
} from "../schemas";
import { answeredPage } from "./answered-page";
import { streamPages } from "./page-stream";
import { readEntries, type SkippedEntry } from "./read-entries";
import { checkRequest, type Target, target } from "./request-checks";
import { callRoute } from "./route-call";
import type { Transport } from "./transport";

/** A window's id: the number the service chose, or its text. */
export type MaintenanceWindowId = number | string;

/** One page of a plain-array list: the entries read, and those the contract refuses. */
export interface ListedPage<T> {
  readonly entries: T[];
  /** Entries that were not what the contract describes: left out, and said why. */
  readonly skipped: SkippedEntry[];
}

/** Options of `maintenanceWindows.all` and `allMaintenances`. */
export interface MaintenanceListOptions {
  /**
   * Entries per page: 1 to 100 for windows, 1 to 50 for maintenances.
   * @default the largest page the list allows
   */
  pageSize?: number;
  /** Told of each entry the contract refuses, which the walk leaves out. */
  onSkipped?: (entry: SkippedEntry) => void;
}

/**
 * Scheduled maintenance ("Scheduled maintenance on the status page"): windows, each window's
 * maintenances (one per occurrence) and their updates. A create and a post are not
 * idempotent: each is sent once and retried only on a 429 that the client does not resend
 * either (the caller reads first); every other call follows the client's retry rules.
 */
export interface MaintenanceWindowsApi {
  /**
   * One page of `GET /v1/maintenance-windows`: a plain array, `limit` 1 to 100 (server
   * default 10), `page` from 1. An entry the contract refuses is left out, in `skipped`.
   */
  list(query?: MaintenanceWindowsQuery): Promise<ListedPage<MaintenanceWindow>>;
  /**
   * Every window, a page at a time until a short page, in page order; a reader that stops
   * early requests no page after.
   * @example for await (const window of client.maintenanceWindows.all()) console.log(window.id, window.name)
   */
  all(options?: MaintenanceListOptions): AsyncIterableIterator<MaintenanceWindow>;
  /** One window: `GET /v1/maintenance-windows/{id}`. */
  get(id: MaintenanceWindowId): Promise<MaintenanceWindow>;
  /**
   * Creates a window (and the service its maintenances): `POST /v1/maintenance-windows`, 201.
   * Not idempotent: after a timeout or a 5xx it may have been made, so read the list before
   * sending it again.
   * @example await client.maintenanceWindows.create({ name: "Database upgrade", startsAt: "2026-12-04T02:00:00Z", endsAt: "2026-12-04T03:00:00Z", repeatUnit: null, statusPageVisibility: { enabled: true, statusPageIds: ["sp-acme"], affectAllServices: true, reminderMinutesBefore: [1440] } })
   */
  create(body: MaintenanceWindowCreateRequest): Promise<MaintenanceWindow>;
  /** Changes the fields sent, and only those: `PUT /v1/maintenance-windows/{id}` (partial). */
  change(id: MaintenanceWindowId, body: MaintenanceWindowChangeRequest): Promise<MaintenanceWindow>;
  /** Removes a window and everything it made, permanently: `DELETE …/{id}`. */
  remove(id: MaintenanceWindowId): Promise<void>;
  /** One page of a window's maintenances: `GET …/{id}/maintenances`, `limit` 1 to 50. */
  listMaintenances(
    id: MaintenanceWindowId,
    query?: MaintenancesQuery,
  ): Promise<ListedPage<Maintenance>>;
  /** Every maintenance of a window, a page at a time until a short page. */
  allMaintenances(
    id: MaintenanceWindowId,
    options?: MaintenanceListOptions,
  ): AsyncIterableIterator<Maintenance>;
  /** One maintenance with its updates: `GET …/maintenances/{maintenanceId}`. */
  getMaintenance(id: MaintenanceWindowId, maintenanceId: string): Promise<Maintenance>;
  /** Moves one occurrence, not the window: `PATCH …/maintenances/{maintenanceId}`. */
  moveMaintenance(
    id: MaintenanceWindowId,
    maintenanceId: string,
    body: MaintenanceMoveRequest,
  ): Promise<Maintenance>;
  /** Removes one maintenance and its updates: `DELETE …/maintenances/{maintenanceId}`. */
  removeMaintenance(id: MaintenanceWindowId, maintenanceId: string): Promise<void>;
  /**
   * Posts an update to one maintenance: `POST …/maintenances/{maintenanceId}/updates`, 201.
   * With `notifySubscribers: true` it reaches every subscriber, for good. Not idempotent.
   */
  postUpdate(
    id: MaintenanceWindowId,
    maintenanceId: string,
    body: MaintenanceUpdateRequest,
  ): Promise<MaintenanceUpdate>;
  /** Changes an update's text (and status) in place: `PUT …/updates/{updateId}`. */
  changeUpdate(
    id: MaintenanceWindowId,
    maintenanceId: string,
    updateId: string,
    body: MaintenanceUpdateChangeRequest,
  ): Promise<MaintenanceUpdate>;
  /** Removes one update: `DELETE …/updates/{updateId}`. */
  removeUpdate(id: MaintenanceWindowId, maintenanceId: string, updateId: string): Promise<void>;
}

const R = ROUTES;
const LIST = target("maintenanceWindows.list", R.listMaintenanceWindows);
const ALL = target("maintenanceWindows.all", R.listMaintenanceWindows);
const GET = target("maintenanceWindows.get", R.getMaintenanceWindow);
const CREATE = target("maintenanceWindows.create", R.createMaintenanceWindow);
const CHANGE = target("maintenanceWindows.change", R.changeMaintenanceWindow);
const REMOVE = target("maintenanceWindows.remove", R.deleteMaintenanceWindow);
const LIST_MAINTENANCES = target("maintenanceWindows.listMaintenances", R.listMaintenances);
const ALL_MAINTENANCES = target("maintenanceWindows.allMaintenances", R.listMaintenances);
const GET_MAINTENANCE = target("maintenanceWindows.getMaintenance", R.getMaintenance);
const MOVE_MAINTENANCE = target("maintenanceWindows.moveMaintenance", R.moveMaintenance);
const REMOVE_MAINTENANCE = target("maintenanceWindows.removeMaintenance", R.deleteMaintenance);
const POST_UPDATE = target("maintenanceWindows.postUpdate", R.postMaintenanceUpdate);
const CHANGE_UPDATE = target("maintenanceWindows.changeUpdate", R.changeMaintenanceUpdate);
const REMOVE_UPDATE = target("maintenanceWindows.removeUpdate", R.deleteMaintenanceUpdate);

/** A window id as one path segment: a number becomes its decimal text. */
const WindowId = z.preprocess(
  (value) => (typeof value === "number" && Number.isSafeInteger(value) ? String(value) : value),
  PathId,
);
const WindowInput = z.strictObject({ maintenanceWindowId: WindowId });
const MaintenanceInput = WindowInput.extend({ maintenanceId: PathId });
const UpdateInput = MaintenanceInput.extend({ updateId: PathId });
const ListOptions = (max: number) =>
  z.object({
    pageSize: z.int().min(1).max(max).default(max),
    onSkipped: z.custom<(entry: SkippedEntry) => void>((v) => typeof v === "function").optional(),
  });
const WindowsListOptions = ListOptions(MAINTENANCE_WINDOWS_LIMIT_MAX);
const MaintenancesListOptions = ListOptions(MAINTENANCES_LIMIT_MAX);
/** A list answer before its entries are read one by one. */
const RawList = z.array(z.unknown());
/** What a delete answers: 204, or a 2xx with any body, which nothing reads. */
const AnyBody = z.unknown();

export function createMaintenanceWindowsApi(
  transport: Transport,
  maxPages: number,
): MaintenanceWindowsApi {
  /** The entries of every page of `path`, each read on its own, until a short page. */
  async function* walk<S extends z.ZodType>(
    where: Target,
    path: string,
    pageSize: number,
    schema: S,
    onSkipped: ((entry: SkippedEntry) => void) | undefined,
  ): AsyncGenerator<z.output<S>, void, undefined> {
    let index = 0;
    const raw = streamPages({
      pageSize,
      pagesInFlight: 1,
      fetchPage: (page, signal) =>
        transport.call({
          ...where,
          path,
          query: { limit: pageSize, page },
          schema: RawList,
          signal,
        }),
      maxPages,
      keyOf: (entry) => JSON.stringify((entry as { id?: unknown } | null)?.id ?? entry),
      stuck: (page, why) =>
        new PagingError({
          ...answeredPage(where, path, { limit: String(pageSize), page: String(page) }),
          why,
        }),
    });
    for await (const entry of raw) {
      const { entries, skipped } = readEntries([entry], schema);
      for (const refused of skipped) onSkipped?.({ ...refused, index });
      index += 1;
      yield* entries;
    }
  }

  return {
    async list(query = {}) {
      const input = checkRequest(LIST, R.listMaintenanceWindows.query.schema, query);
      const answer = await transport.call({
        ...LIST,
        path: R.listMaintenanceWindows.path,
        query: input,
        schema: RawList,
      });
      return readEntries(answer, MaintenanceWindow);
    },

    all(options = {}) {
      // Checked now, so a bad call fails before the first page is even requested.
      const { pageSize, onSkipped } = checkRequest(ALL, WindowsListOptions, options);
      const path = buildPath(R.listMaintenanceWindows, {});
      return walk(ALL, path, pageSize, MaintenanceWindow, onSkipped);
    },

    async get(id) {
      const input = checkRequest(GET, WindowInput, { maintenanceWindowId: id });
      return callRoute(transport, GET, R.getMaintenanceWindow, input);
    },

    async create(body) {
      const input = checkRequest(
        CREATE,
        z.strictObject({ body: R.createMaintenanceWindow.body.schema }),
        { body },
      );
      return callRoute(transport, CREATE, R.createMaintenanceWindow, {}, { body: input.body });
    },

    async change(id, body) {
      const schema = WindowInput.extend({ body: R.changeMaintenanceWindow.body.schema });
      const input = checkRequest(CHANGE, schema, { maintenanceWindowId: id, body });
      return callRoute(transport, CHANGE, R.changeMaintenanceWindow, input, { body: input.body });
    },

    async remove(id) {
      const input = checkRequest(REMOVE, WindowInput, { maintenanceWindowId: id });
      await transport.call({
        ...REMOVE,
        path: buildPath(R.deleteMaintenanceWindow, input),
        schema: AnyBody,
      });
    },

    async listMaintenances(id, query = {}) {
      const schema = WindowInput.extend({ query: R.listMaintenances.query.schema });
      const input = checkRequest(LIST_MAINTENANCES, schema, { maintenanceWindowId: id, query });
      const answer = await transport.call({
        ...LIST_MAINTENANCES,
        path: buildPath(R.listMaintenances, input),
        query: input.query,
        schema: RawList,
      });
      return readEntries(answer, Maintenance);
    },

    allMaintenances(id, options = {}) {
      const input = checkRequest(ALL_MAINTENANCES, WindowInput, { maintenanceWindowId: id });
      const { pageSize, onSkipped } = checkRequest(
        ALL_MAINTENANCES,
        MaintenancesListOptions,
        options,
      );
      const path = buildPath(R.listMaintenances, input);
      return walk(ALL_MAINTENANCES, path, pageSize, Maintenance, onSkipped);
    },

    async getMaintenance(id, maintenanceId) {
      const input = checkRequest(GET_MAINTENANCE, MaintenanceInput, {
        maintenanceWindowId: id,
        maintenanceId,
      });
      return callRoute(transport, GET_MAINTENANCE, R.getMaintenance, input);
    },

    async moveMaintenance(id, maintenanceId, body) {
      const schema = MaintenanceInput.extend({ body: R.moveMaintenance.body.schema });
      const input = checkRequest(MOVE_MAINTENANCE, schema, {
        maintenanceWindowId: id,
        maintenanceId,
        body,
      });
      return callRoute(transport, MOVE_MAINTENANCE, R.moveMaintenance, input, {
        body: input.body,
      });
    },

    async removeMaintenance(id, maintenanceId) {
      const input = checkRequest(REMOVE_MAINTENANCE, MaintenanceInput, {
        maintenanceWindowId: id,
        maintenanceId,
      });
      await transport.call({
        ...REMOVE_MAINTENANCE,
        path: buildPath(R.deleteMaintenance, input),
        schema: AnyBody,
      });
    },

    async postUpdate(id, maintenanceId, body) {
      const schema = MaintenanceInput.extend({ body: R.postMaintenanceUpdate.body.schema });
      const input = checkRequest(POST_UPDATE, schema, {
        maintenanceWindowId: id,
        maintenanceId,
        body,
      });
      return callRoute(transport, POST_UPDATE, R.postMaintenanceUpdate, input, {
        body: input.body,
      });
    },

    async changeUpdate(id, maintenanceId, updateId, body) {
      const schema = UpdateInput.extend({ body: R.changeMaintenanceUpdate.body.schema });
      const input = checkRequest(CHANGE_UPDATE, schema, {
        maintenanceWindowId: id,
        maintenanceId,
        updateId,
        body,
      });
      return callRoute(transport, CHANGE_UPDATE, R.changeMaintenanceUpdate, input, {
        body: input.body,
      });
    },

    async removeUpdate(id, maintenanceId, updateId) {
      const input = checkRequest(REMOVE_UPDATE, UpdateInput, {
        maintenanceWindowId: id,
        maintenanceId,
        updateId,
      });
      await transport.call({
        ...REMOVE_UPDATE,
        path: buildPath(R.deleteMaintenanceUpdate, input),
        schema: AnyBody,
      });
    },
  };
}
