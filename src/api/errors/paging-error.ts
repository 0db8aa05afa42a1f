import { ApiError, type ApiErrorDetails } from "./api-error";

/**
 * A listing that would not end: the server sent a page with nothing new on it (it ignores
 * `page`, or goes round in circles), or the listing passed `maxPages`. Stopped instead of
 * looping; the request named is the page that showed it.
 */
export class PagingError extends ApiError {
  override name = "PagingError";

  constructor(details: ApiErrorDetails & { why: string }) {
    super(
      `${details.operation}: ${details.method} ${details.path} ${details.why}; stopped.`,
      details,
    );
  }
}
