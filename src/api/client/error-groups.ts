import { z } from "zod";
import { PagingError } from "../errors/paging-error";
import { buildPath, ROUTES } from "../routes";
import { ERROR_GROUPS_LIMIT_MAX, type ErrorGroup, PathId } from "../schemas";
import { answeredPage } from "./answered-page";
import { streamPages } from "./page-stream";
import { checkRequest, target } from "./request-checks";
import { callRoute } from "./route-call";
import type { Transport } from "./transport";

/** Query of `errorGroups.listForCheck` (spec 4.4). */
export interface ErrorGroupsOptions {
  /** 1 to 100. Server default: 10. */
  limit?: number;
  /** From 1. Server default: 1. */
  page?: number;
}

/** Options of `errorGroups.allForCheck`. */
export interface AllErrorGroupsOptions {
  /**
   * Groups per page, 1 to 100.
   * @default 100
   */
  pageSize?: number;
  /** Called as each page is consumed, with its number (from 1) and how many groups it held. */
  onPage?: (page: number, count: number) => void;
}

/** Error groups (spec 4.4 and 4.5). */
export interface ErrorGroupsApi {
  /**
   * One page of `GET /v1/error-groups/checks/{checkId}`, ordered by `lastSeen` descending, then id.
   * @example await client.errorGroups.listForCheck("chk_1", { limit: 100, page: 2 })
   */
  listForCheck(checkId: string, query?: ErrorGroupsOptions): Promise<ErrorGroup[]>;
  /** `GET /v1/error-groups/{id}`. */
  get(id: string): Promise<ErrorGroup>;
  /**
   * Every error group of the check, streamed in page order. Fetches pages of `pageSize`
   * several at a time (as many as the client's `concurrency`), stops at the first short page,
   * and never yields a group twice, even if the order shifts between pages. Memory holds the
   * pages in flight and the ids seen, not the groups already yielded.
   * @example for await (const group of client.errorGroups.allForCheck("chk_1")) console.log(group.errorHash)
   */
  allForCheck(checkId: string, options?: AllErrorGroupsOptions): AsyncIterableIterator<ErrorGroup>;
}

const LIST_ROUTE = ROUTES.listErrorGroupsForCheck;
const GET_ROUTE = ROUTES.getErrorGroup;
const LIST = target("errorGroups.listForCheck", LIST_ROUTE);
const GET = target("errorGroups.get", GET_ROUTE);
const ALL = target("errorGroups.allForCheck", LIST_ROUTE);

const ListInput = LIST_ROUTE.query.schema.extend({ checkId: PathId });
const GetInput = z.strictObject({ id: PathId });
const AllInput = z.strictObject({
  checkId: PathId,
  pageSize: LIST_ROUTE.query.schema.shape.limit.unwrap().default(ERROR_GROUPS_LIMIT_MAX),
  onPage: z
    .custom<(page: number, count: number) => void>(
      (value) => typeof value === "function",
      "must be a function",
    )
    .optional(),
});

export function createErrorGroupsApi(
  transport: Transport,
  pagesInFlight: number,
  maxPages: number,
): ErrorGroupsApi {
  return {
    async listForCheck(checkId, query = {}) {
      const input = checkRequest(LIST, ListInput, { checkId, ...query });
      return callRoute(transport, LIST, LIST_ROUTE, input, {
        query: { limit: input.limit, page: input.page },
      });
    },

    async get(id) {
      const input = checkRequest(GET, GetInput, { id });
      return callRoute(transport, GET, GET_ROUTE, input);
    },

    allForCheck(checkId, options = {}) {
      // Checked now, so a bad call fails before the first page is even requested.
      const input = checkRequest(ALL, AllInput, { checkId, ...options });
      const path = buildPath(LIST_ROUTE, input);
      const groups = streamPages({
        pageSize: input.pageSize,
        pagesInFlight,
        fetchPage: (page, signal) =>
          transport.call({
            ...ALL,
            path,
            query: { limit: input.pageSize, page },
            schema: LIST_ROUTE.success.body.schema,
            signal,
          }),
        onPage: input.onPage,
        maxPages,
        keyOf: (group) => group.id,
        stuck: (page, why) =>
          new PagingError({
            ...answeredPage(ALL, path, { limit: String(input.pageSize), page: String(page) }),
            why,
          }),
      });
      return dedupeById(groups);
    },
  };
}

/**
 * Offset pages over a list ordered by `lastSeen` can shift while being read (a group seen
 * again moves to the front), so a group may show up on two pages; only its first is kept.
 */
async function* dedupeById(groups: AsyncIterable<ErrorGroup>): AsyncIterableIterator<ErrorGroup> {
  const seen = new Set<string>();
  for await (const group of groups) {
    if (seen.has(group.id)) continue;
    seen.add(group.id);
    yield group;
  }
}
