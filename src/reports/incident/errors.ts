import { UserError } from "../../user-error";

/** Raised when the API has no incident with the id asked for. */
export class IncidentNotFoundError extends UserError {
  override name = "IncidentNotFoundError";

  constructor(
    readonly incidentId: string,
    options: { cause: unknown },
  ) {
    super(
      `Incident ${JSON.stringify(incidentId)} does not exist in this account (its updates answer 404). Check the id, and that MONITORING_API_KEY belongs to the incident's account.`,
      options,
    );
  }
}
