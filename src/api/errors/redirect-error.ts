import { ApiError, type ApiErrorDetails } from "./api-error";

/**
 * A redirect the client does not follow: to another origin (any method; the API key is
 * never sent there, and another host's answer is not this API's), for a write (a PUT is not
 * repeated somewhere it was not sent), or one hop too many.
 */
export class RedirectError extends ApiError {
  override name = "RedirectError";
  /** Where the server pointed, as it said it. */
  readonly location: string;

  constructor(details: ApiErrorDetails & { location: string; why: string }) {
    super(
      `${details.operation}: ${details.method} ${details.path} was redirected (${details.status}) to ${details.location}: ${details.why}. Check the API's base URL.`,
      details,
    );
    this.location = details.location;
  }
}
