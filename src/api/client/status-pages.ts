import { z } from "zod";
import { buildPath, ROUTES } from "../routes";
import {
  PathId,
  type StatusPage,
  type StatusPageRequest,
  StatusPageSubscription,
  SubscriptionListAnswer,
} from "../schemas";
import {
  type CursorPage,
  type CursorQuery,
  type ListPagesOptions,
  readCursorPage,
} from "./cursor-pages";
import { createListedResourceApi } from "./listed-resource";
import { checkRequest, target } from "./request-checks";
import { callRoute } from "./route-call";
import type { Transport } from "./transport";

/** A page's subscriptions: those read, and any entry the contract does not allow, left out. */
export type Subscriptions = Omit<CursorPage<StatusPageSubscription>, "nextId">;

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
  /**
   * Creates a status page with its cards: `POST /v1/status-pages`, answered 201. Not
   * idempotent, and its `url` (lower-cased by the service) is unique across the service: a
   * create that timed out may have taken it, so the caller reads the list before sending again.
   * @example await client.statusPages.create({ name: "Acme status", url: "acme-status", cards: [{ name: "Shop", services: [{ id: "svc_web" }] }] })
   */
  create(body: StatusPageRequest): Promise<StatusPage>;
  /**
   * Changes a status page: `PUT /v1/status-pages/{statusPageId}` with the page as a whole, its
   * cards in order; a card sent with its `id` keeps it, one without is new, one left out goes.
   */
  replace(statusPageId: string, body: StatusPageRequest): Promise<StatusPage>;
  /** Removes a status page, and what its subscribers see: `DELETE /v1/status-pages/{statusPageId}`. */
  remove(statusPageId: string): Promise<void>;
  /**
   * Who the page's notifications reach: `GET /v1/status-pages/{statusPageId}/subscriptions`,
   * read as a plain array or as `{ entries }`; an odd entry is left out and listed in `skipped`.
   */
  subscriptions(statusPageId: string): Promise<Subscriptions>;
}

const R = ROUTES;
const CREATE = target("statusPages.create", R.createStatusPage);
const REPLACE = target("statusPages.replace", R.updateStatusPage);
const REMOVE = target("statusPages.remove", R.deleteStatusPage);
const SUBSCRIPTIONS = target("statusPages.subscriptions", R.listStatusPageSubscriptions);
const CreateInput = z.strictObject({ body: R.createStatusPage.body.schema });
const PageInput = z.strictObject({ statusPageId: PathId });
const ReplaceInput = PageInput.extend({ body: R.updateStatusPage.body.schema });
/** What a delete answers: 204, or a 2xx with any body, which nothing reads. */
const AnyBody = z.unknown();

export function createStatusPagesApi(transport: Transport, maxPages: number): StatusPagesApi {
  const listed = createListedResourceApi(transport, maxPages, {
    name: "statusPages",
    list: R.listStatusPages,
    get: R.getStatusPage,
    id: "statusPageId",
  });
  return {
    ...listed,
    async create(body) {
      const input = checkRequest(CREATE, CreateInput, { body });
      return callRoute(transport, CREATE, R.createStatusPage, {}, { body: input.body });
    },
    async replace(statusPageId, body) {
      const input = checkRequest(REPLACE, ReplaceInput, { statusPageId, body });
      return callRoute(transport, REPLACE, R.updateStatusPage, input, { body: input.body });
    },
    async remove(statusPageId) {
      const input = checkRequest(REMOVE, PageInput, { statusPageId });
      await transport.call({
        ...REMOVE,
        path: buildPath(R.deleteStatusPage, input),
        schema: AnyBody,
      });
    },
    async subscriptions(statusPageId) {
      const input = checkRequest(SUBSCRIPTIONS, PageInput, { statusPageId });
      const answer = await transport.call({
        ...SUBSCRIPTIONS,
        path: buildPath(R.listStatusPageSubscriptions, input),
        schema: SubscriptionListAnswer,
      });
      const entries = Array.isArray(answer) ? answer : answer.entries;
      const { nextId: _none, ...read } = readCursorPage({ entries }, StatusPageSubscription);
      return read;
    },
  };
}
