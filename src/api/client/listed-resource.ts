import { z } from "zod";
import type { NamedSchema, PathParamName, PathParams, Route } from "../routes";
import { CursorListPage, type CursorListQuery, PathId } from "../schemas";
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

/** A resource of the account listed a page at a time by cursor and read one by its id. */
export interface ListedResourceApi<T> {
  list(query?: CursorQuery): Promise<CursorPage<T>>;
  pages(options?: ListPagesOptions): AsyncIterableIterator<CursorPage<T>>;
  get(id: string): Promise<T>;
}

/** The two routes of a listed resource; the entries of a list page are read as `get` answers. */
export interface ListedResource<Path extends string, S extends z.ZodType> {
  /** The client's name of the resource in its operations: `services` gives `services.list`. */
  readonly name: string;
  readonly list: Pick<Route, "method" | "path"> & {
    readonly query: { readonly schema: typeof CursorListQuery };
  };
  readonly get: Route<Path> & { readonly success: { readonly body: NamedSchema<S> } };
  /** The one parameter of the `get` path: `serviceId`. */
  readonly id: PathParamName<Path>;
}

/**
 * `list`, `pages` and `get` of a listed resource (services, status pages), each checked
 * before it is sent; a list entry the contract refuses is skipped, as `readCursorPage` says.
 */
export function createListedResourceApi<Path extends string, S extends z.ZodType>(
  transport: Transport,
  maxPages: number,
  resource: ListedResource<Path, S>,
): ListedResourceApi<z.output<S>> {
  const LIST = target(`${resource.name}.list`, resource.list);
  const PAGES = target(`${resource.name}.pages`, resource.list);
  const GET = target(`${resource.name}.get`, resource.get);
  const entry = resource.get.success.body.schema;
  const GetInput = z.strictObject({ [resource.id]: PathId });
  const list = async (query: CursorQuery = {}) => {
    const input = checkRequest(LIST, resource.list.query.schema, query);
    const page = await transport.call({
      ...LIST,
      path: resource.list.path,
      query: input,
      schema: CursorListPage,
    });
    return readCursorPage(page, entry);
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
    async get(id) {
      // The schema holds the one parameter the path names, checked as every path id is.
      const input = checkRequest(GET, GetInput, { [resource.id]: id }) as PathParams<Path>;
      return callRoute(transport, GET, resource.get, input);
    },
  };
}
