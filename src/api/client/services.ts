import { z } from "zod";
import { buildPath, ROUTES } from "../routes";
import { PathId, type Service, type ServiceRequest } from "../schemas";
import type { CursorPage, CursorQuery, ListPagesOptions } from "./cursor-pages";
import { createListedResourceApi } from "./listed-resource";
import { checkRequest, target } from "./request-checks";
import { callRoute } from "./route-call";
import type { Transport } from "./transport";

/** The account's services: the reference's list and read, and its create, rename and remove. */
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
  /**
   * Creates a service: `POST /v1/status-pages/services`, answered 200 with its id, a GUID the
   * service picks. Not idempotent: sent once, a 429 included; after a timeout or a 5xx it may
   * have been made, and the caller reads the list before sending it again.
   * @example const service = await client.services.create({ name: "Public API" })
   */
  create(body: ServiceRequest): Promise<Service>;
  /** Renames a service: `PUT /v1/status-pages/services/{serviceId}`. Idempotent. */
  rename(serviceId: string, body: ServiceRequest): Promise<Service>;
  /** Removes a service: `DELETE /v1/status-pages/services/{serviceId}` (204). */
  remove(serviceId: string): Promise<void>;
}

const R = ROUTES;
const CREATE = target("services.create", R.createService);
const RENAME = target("services.rename", R.renameService);
const REMOVE = target("services.remove", R.deleteService);
const CreateInput = z.strictObject({ body: R.createService.body.schema });
const ServiceInput = z.strictObject({ serviceId: PathId });
const RenameInput = ServiceInput.extend({ body: R.renameService.body.schema });
/** What a delete answers: 204, or a 2xx with any body, which nothing reads. */
const AnyBody = z.unknown();

export function createServicesApi(transport: Transport, maxPages: number): ServicesApi {
  const listed = createListedResourceApi(transport, maxPages, {
    name: "services",
    list: R.listServices,
    get: R.getService,
    id: "serviceId",
  });
  return {
    ...listed,
    async create(body) {
      const input = checkRequest(CREATE, CreateInput, { body });
      return callRoute(transport, CREATE, R.createService, {}, { body: input.body });
    },
    async rename(serviceId, body) {
      const input = checkRequest(RENAME, RenameInput, { serviceId, body });
      return callRoute(transport, RENAME, R.renameService, input, { body: input.body });
    },
    async remove(serviceId) {
      const input = checkRequest(REMOVE, ServiceInput, { serviceId });
      await transport.call({ ...REMOVE, path: buildPath(R.deleteService, input), schema: AnyBody });
    },
  };
}
