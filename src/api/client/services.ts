import { z } from "zod";
import { ROUTES } from "../routes";
import { CursorListPage, PathId, Service } from "../schemas";
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

const R = ROUTES;
const LIST = target("services.list", R.listServices);
const PAGES = target("services.pages", R.listServices);
const GET = target("services.get", R.getService);

const ServiceInput = z.strictObject({ serviceId: PathId });

export function createServicesApi(transport: Transport, maxPages: number): ServicesApi {
  const list = async (query: CursorQuery = {}) => {
    const input = checkRequest(LIST, R.listServices.query.schema, query);
    const page = await transport.call({
      ...LIST,
      path: R.listServices.path,
      query: input,
      schema: CursorListPage,
    });
    return readCursorPage(page, Service);
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
    async get(serviceId) {
      const input = checkRequest(GET, ServiceInput, { serviceId });
      return callRoute(transport, GET, R.getService, input);
    },
  };
}
