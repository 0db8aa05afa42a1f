import { ROUTES } from "../routes";
import type { StatusPage } from "../schemas";
import type { CursorPage, CursorQuery, ListPagesOptions } from "./cursor-pages";
import { createListedResourceApi } from "./listed-resource";
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

export function createStatusPagesApi(transport: Transport, maxPages: number): StatusPagesApi {
  return createListedResourceApi(transport, maxPages, {
    name: "statusPages",
    list: ROUTES.listStatusPages,
    get: ROUTES.getStatusPage,
    id: "statusPageId",
  });
}
