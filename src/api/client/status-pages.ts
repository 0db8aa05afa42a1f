import { z } from "zod";
import { ROUTES } from "../routes";
import { CursorListPage, PathId, StatusPage } from "../schemas";
import {
  type CursorPage,
  type CursorQuery,
  ListPagesInput,
  type ListPagesOptions,
  readCursorPage,
  walkCursorPages,
} from "./cursor-pages";
import { checkRequest, target } from "./request-checks";
import { callRoute } from "./route-call";
import type { Transport } from "./transport";

/** The account's status pages: each page's cards and the services each card shows. */
export interface StatusPagesApi {
  /**
   * One page of the account's status pages: `GET /v1/status-pages?limit=&nextId=`. An entry
   * the contract does not allow is left out and listed in `skipped`.
   */
  list(query?: CursorQuery): Promise<CursorPage<StatusPage>>;
  /**
   * Every page of the status-page list, following `nextId` until it is `null`; a cursor that
   * comes back, or more than `maxPages` pages, fails with a `PagingError`.
   */
  pages(options?: ListPagesOptions): AsyncIterableIterator<CursorPage<StatusPage>>;
  /**
   * One status page with its cards and their services: `GET /v1/status-pages/{statusPageId}`.
   * @example const page = await client.statusPages.get("sp-acme"); page.cards.flatMap((card) => card.services)
   */
  get(statusPageId: string): Promise<StatusPage>;
}

const R = ROUTES;
const LIST = target("statusPages.list", R.listStatusPages);
const PAGES = target("statusPages.pages", R.listStatusPages);
const GET = target("statusPages.get", R.getStatusPage);

const StatusPageInput = z.strictObject({ statusPageId: PathId });

export function createStatusPagesApi(transport: Transport, maxPages: number): StatusPagesApi {
  const list = async (query: CursorQuery = {}) => {
    const input = checkRequest(LIST, R.listStatusPages.query.schema, query);
    const page = await transport.call({
      ...LIST,
      path: R.listStatusPages.path,
      query: input,
      schema: CursorListPage,
    });
    return readCursorPage(page, StatusPage);
  };
  return {
    list,
    async *pages(options = {}) {
      const input = checkRequest(PAGES, ListPagesInput, options);
      yield* walkCursorPages({
        target: PAGES,
        pageSize: input.pageSize,
        maxPages: input.maxPages ?? maxPages,
        page: list,
      });
    },
    async get(statusPageId) {
      const input = checkRequest(GET, StatusPageInput, { statusPageId });
      return callRoute(transport, GET, R.getStatusPage, input);
    },
  };
}
