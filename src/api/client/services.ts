import { ROUTES } from "../routes";
import type { Service } from "../schemas";
import type { CursorPage, CursorQuery, ListPagesOptions } from "./cursor-pages";
import { createListedResourceApi } from "./listed-resource";
import type { Transport } from "./transport";

/** The account's services, as the service's public reference lists them. */
export interface ServicesApi {
  /**
   * One page of the account's services: `GET /v1/status-pages/services?limit=&nextId=`. An
   * entry the contract does not allow is left out and listed in `skipped`.
   */
  list(query?: CursorQuery): Promise<CursorPage<Service>>;
  /**
   * Every page of the services list, following `nextId` until it is `null`; a cursor that
   * comes back, or more than `maxPages` pages, fails with a `PagingError`.
   * @example for await (const page of client.services.pages()) for (const service of page.entries) console.log(service.id, service.name)
   */
  pages(options?: ListPagesOptions): AsyncIterableIterator<CursorPage<Service>>;
  /** One service: `GET /v1/status-pages/services/{serviceId}`. */
  get(serviceId: string): Promise<Service>;
}

export function createServicesApi(transport: Transport, maxPages: number): ServicesApi {
  return createListedResourceApi(transport, maxPages, {
    name: "services",
    list: ROUTES.listServices,
    get: ROUTES.getService,
    id: "serviceId",
  });
}
