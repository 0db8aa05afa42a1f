import { z } from "zod";
import { PagingError } from "../errors/paging-error";
import { buildPath, ROUTES } from "../routes";
import { CHECKS_LIMIT_MAX, type Check, type ChecksQuery, PathId } from "../schemas";
import { answeredPage } from "./answered-page";
import { streamPages } from "./page-stream";
import { checkRequest, target } from "./request-checks";
import { callRoute } from "./route-call";
import type { Transport } from "./transport";

/** Options of `checks.all`: the list's filters, and the size of its pages. */
export interface AllChecksOptions extends Omit<ChecksQuery, "limit" | "page"> {
  /**
   * Checks per page, 1 to 100.
   * @default 100
   */
  pageSize?: number;
}

/** The account's checks, read for their names ("Names of checks and heartbeats"). */
export interface ChecksApi {
  /**
   * One page of `GET /v1/checks`: a plain array, `limit` 1 to 100 (server default 10), `page` from 1.
   * @example await client.checks.list({ checkType: "HEARTBEAT", limit: 100 })
   */
  list(query?: ChecksQuery): Promise<Check[]>;
  /** One check: `GET /v1/checks/{id}`. */
  get(id: string): Promise<Check>;
  /**
   * Every check, streamed one page at a time and in page order, until the first short page; a
   * reader that stops early (every name it wanted found) requests no page after.
   * @example for await (const check of client.checks.all()) console.log(check.id, check.name)
   */
  all(options?: AllChecksOptions): AsyncIterableIterator<Check>;
  /**
   * The names of `checkIds`, by id: the list read a page at a time until every one is found
   * or a page comes back short. A check the list lacks, or gives no name, is left out.
   * @example const names = await client.checks.namesOf(["hb-7f3a"]); names["hb-7f3a"] // "Nightly invoice run"
   */
  namesOf(checkIds: readonly string[]): Promise<Record<string, string>>;
}

const LIST_ROUTE = ROUTES.listChecks;
const GET_ROUTE = ROUTES.getCheck;
const LIST = target("checks.list", LIST_ROUTE);
const GET = target("checks.get", GET_ROUTE);
const ALL = target("checks.all", LIST_ROUTE);

const GetInput = z.strictObject({ id: PathId });
const AllInput = LIST_ROUTE.query.schema.omit({ limit: true, page: true }).extend({
  pageSize: LIST_ROUTE.query.schema.shape.limit.unwrap().default(CHECKS_LIMIT_MAX),
});

export function createChecksApi(transport: Transport, maxPages: number): ChecksApi {
  const api: ChecksApi = {
    async list(query = {}) {
      const input = checkRequest(LIST, LIST_ROUTE.query.schema, query);
      return callRoute(transport, LIST, LIST_ROUTE, {}, { query: { ...input } });
    },

    async get(id) {
      const input = checkRequest(GET, GetInput, { id });
      return callRoute(transport, GET, GET_ROUTE, input);
    },

    all(options = {}) {
      // Checked now, so a bad call fails before the first page is even requested.
      const { pageSize, ...filters } = checkRequest(ALL, AllInput, options);
      const path = buildPath(LIST_ROUTE, {});
      return streamPages({
        pageSize,
        // One page at a time: a reader looking for a few names stops after the page that
        // holds the last one, and no page ahead of it is requested.
        pagesInFlight: 1,
        fetchPage: (page, signal) =>
          transport.call({
            ...ALL,
            path,
            query: { ...filters, limit: pageSize, page },
            schema: LIST_ROUTE.success.body.schema,
            signal,
          }),
        maxPages,
        keyOf: (check) => check.id,
        stuck: (page, why) =>
          new PagingError({
            ...answeredPage(ALL, path, {
              ...filters,
              limit: String(pageSize),
              page: String(page),
            }),
            why,
          }),
      });
    },

    async namesOf(checkIds) {
      const wanted = new Set(checkIds);
      // No prototype: a check id such as `__proto__` or `constructor` is a key like any other.
      const names: Record<string, string> = Object.create(null);
      if (wanted.size === 0) return names;
      for await (const check of api.all()) {
        if (!wanted.delete(check.id)) continue;
        if (check.name?.trim()) names[check.id] = check.name;
        if (wanted.size === 0) break;
      }
      return names;
    },
  };
  return api;
}
