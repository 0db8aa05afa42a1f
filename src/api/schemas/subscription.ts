import { z } from "zod";
import { ResponseDate } from "./dates";

/*
 * A status page's subscribers (`GET /v1/status-pages/{statusPageId}/subscriptions`): the people
 * an update with `notifySubscribers` reaches. The reference gives no shape beyond the route, so
 * only `id` is relied on and the list is read as a plain array or as `{ entries }`.
 */

/** One subscription of a page, read liberally: `type` (e.g. `EMAIL`) and `status` as strings. */
export const StatusPageSubscription = z.object({
  id: z.string(),
  type: z.string().nullish(),
  email: z.string().nullish(),
  status: z.string().nullish(),
  created_at: ResponseDate.nullish(),
});
export type StatusPageSubscription = z.infer<typeof StatusPageSubscription>;

/** The list as the emulator answers it: a plain array (the OpenAPI document's shape). */
export const StatusPageSubscriptionList = z.array(StatusPageSubscription);
export type StatusPageSubscriptionList = z.infer<typeof StatusPageSubscriptionList>;

/** The list as the client reads it: an array, or an object holding one as `entries`; each entry on its own. */
export const SubscriptionListAnswer = z.union([
  z.array(z.unknown()),
  z.object({ entries: z.array(z.unknown()), length: z.number().nullish() }),
]);
export type SubscriptionListAnswer = z.infer<typeof SubscriptionListAnswer>;
