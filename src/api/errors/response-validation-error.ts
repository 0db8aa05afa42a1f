import { ApiError, type ApiErrorDetails } from "./api-error";

/** One way a response broke the contract: where (`[0].events[2].timestamp`) and what. */
export interface ContractIssue {
  readonly field: string;
  readonly problem: string;
}

const SHOWN_ISSUES = 3;

/**
 * A successful response whose body breaks the API contract (spec sections 2 and 4):
 * not JSON, a required field missing, a value of the wrong type. Names the operation
 * and the field, so the mismatch can be reported to the service owner.
 */
export class ResponseValidationError extends ApiError {
  override name = "ResponseValidationError";
  readonly issues: readonly ContractIssue[];

  constructor(details: ApiErrorDetails & { issues: readonly ContractIssue[] }) {
    const shown = details.issues
      .slice(0, SHOWN_ISSUES)
      .map((issue) => `${issue.field || "(body)"}: ${issue.problem}`)
      .join("; ");
    const more =
      details.issues.length > SHOWN_ISSUES
        ? ` (and ${details.issues.length - SHOWN_ISSUES} more)`
        : "";
    super(
      `${details.operation}: ${details.method} ${details.path} returned a response that breaks the API contract at ${shown}${more}`,
      details,
    );
    this.issues = details.issues;
  }
}
