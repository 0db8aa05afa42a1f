import type { ApiErrorDetails } from "../errors/api-error";
import { RedirectError } from "../errors/redirect-error";

/** Same-origin redirects of a GET followed in a row before the call fails. */
const REDIRECTS_MAX = 5;

/** A 3xx answer, thrown from the fetch so that the call's loop decides whether to follow it. */
export class Redirected extends Error {
  constructor(
    readonly status: number,
    readonly location: string | null,
  ) {
    super(`redirect ${status}`);
  }
}

/**
 * Where to go after a redirect, or why not: only a GET follows, only within the origin it
 * was sent to, and only `REDIRECTS_MAX` times.
 */
export function redirectTarget(
  from: string,
  redirect: Redirected,
  redirects: number,
  where: ApiErrorDetails,
): string {
  const refuse = (location: string, why: string) => new RedirectError({ ...where, location, why });
  if (redirect.location === null) throw refuse("(no Location header)", "no address to follow");
  let target: URL;
  try {
    target = new URL(redirect.location, from);
  } catch {
    throw refuse(redirect.location, "not an address");
  }
  const origin = new URL(from);
  if (target.origin !== origin.origin) {
    throw refuse(
      target.href,
      `another origin than the API's (${origin.host} → ${target.host}); the client follows no redirect there, and never sends the key there`,
    );
  }
  if (where.method !== "GET") {
    throw refuse(target.href, `a ${where.method} is not sent again to another address`);
  }
  if (redirects >= REDIRECTS_MAX) throw refuse(target.href, `more than ${REDIRECTS_MAX} redirects`);
  return target.href;
}
