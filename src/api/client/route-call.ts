import type { z } from "zod";
import { buildPath, type NamedSchema, type PathParams } from "../routes";
import type { Target } from "./request-checks";
import type { CallSpec, Transport } from "./transport";

/** A route that answers with a body: the path template and the schema of that body. */
interface RouteWithBody<Path extends string, S extends z.ZodType> {
  readonly path: Path;
  readonly success: { readonly body: NamedSchema<S> };
}

/**
 * One call of `route` for an input already checked with `checkRequest`: the path is built
 * from the input's parameters and the answer is checked against the route's success schema,
 * both taken from the route, so an operation cannot call one path and expect another's body.
 * @example await callRoute(transport, GET, ROUTES.getErrorGroup, { id: "eg_1" })
 */
export function callRoute<Path extends string, S extends z.ZodType>(
  transport: Transport,
  target: Target,
  route: RouteWithBody<Path, S>,
  params: PathParams<Path>,
  parts: Pick<CallSpec<S>, "query" | "body"> = {},
): Promise<z.output<S>> {
  return transport.call({
    ...target,
    ...parts,
    path: buildPath(route, params),
    schema: route.success.body.schema,
  });
}
