export { ApiError, type ApiErrorDetails } from "./api-error";
export { ClientOptionsError } from "./client-options-error";
export { DeadlineError } from "./deadline-error";
export { EventsWalkStuckError } from "./events-walk-stuck-error";
export {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  type HttpErrorDetails,
  NotFoundError,
  RateLimitError,
  ServerError,
  UnauthorizedError,
} from "./http-errors";
export { NetworkError } from "./network-error";
export { PagingError } from "./paging-error";
export { RedirectError } from "./redirect-error";
export { RequestValidationError } from "./request-validation-error";
export { ResponseTooLargeError } from "./response-too-large-error";
export { type ContractIssue, ResponseValidationError } from "./response-validation-error";
export { TimeoutError } from "./timeout-error";
export { writeOutcomeUnknown } from "./write-outcome";
