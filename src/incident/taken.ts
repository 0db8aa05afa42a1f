import { type IncidentStatus, knownStatus } from "../api/schemas";
import type { IncidentDeclaration } from "./declaration";
import { driftedFields, type ObservedFields } from "./observation";

/*
 * Convergence is checked, not assumed: after a PUT, the service's answer is compared with what
 * was sent. A field or a status it did not take fails that incident with what it kept and what
 * to do, so it is never reported applied, and the next run sends it again. The service's `PUT`
 * may post a status update, only set `lastUpdateStatus`, or ignore it (service-contract.md).
 */

/** What a PUT answered, as far as the check goes. */
export interface PutAnswer extends ObservedFields {
  /** Always present in the answer; a value we do not know counts as not taken. */
  lastUpdateStatus: string;
}

/**
 * Why the service did not take a PUT of `declared` (and `status`, when one was sent), by its
 * answer; undefined when it took everything.
 */
export function notTaken(
  incidentId: string,
  declared: Pick<IncidentDeclaration, "name" | "severity" | "services">,
  status: IncidentStatus | undefined,
  answer: PutAnswer,
): string | undefined {
  const kept = driftedFields(declared, answer).map((field) =>
    field === "services"
      ? `services ${answer.services.map((service) => service.id).join(", ")}`
      : `${field} ${JSON.stringify(answer[field])}`,
  );
  const statusKept = status !== undefined && knownStatus(answer.lastUpdateStatus) !== status;
  if (statusKept) kept.push(`status ${JSON.stringify(answer.lastUpdateStatus)}`);
  if (kept.length === 0) return undefined;
  const what = statusKept
    ? " If the status keeps not taking, this service's PUT ignores lastUpdateStatus: declare the incident's status with `updates:` (an update posted with that status, as the service's own tools change it), or set it on the status page."
    : " If it keeps refusing, change it on the status page or ask the service why.";
  return `incident ${incidentId}: the service answered the PUT with ${kept.join(" and ")}, not what was sent${status === undefined ? "" : ` (status ${status})`}: it did not take the change, and nothing is recorded as applied. The next run sends it again.${what}`;
}
