import { SEVERITY_ORDER } from "../api/schemas";
import { compareText } from "../definitions/problem";
import { type IncidentService, reopenRefused, reopenWithoutFlagMessage } from "../incident";
import { entriesOf } from "./diff";
import type { IncidentChange, PolicyFinding } from "./types";

/**
 * The lifecycle policy: errors for what misleads customers unless meant (a reopen, a lower
 * severity without a new `reason`, a replace, a rename without `aliases`, a posted entry
 * changed); a warning for services removed.
 */
export function checkPolicy(changes: readonly IncidentChange[]): PolicyFinding[] {
  const findings: PolicyFinding[] = [];
  for (const change of changes) {
    if (change.kind === "remove" && change.redeclaredBy !== undefined) {
      findings.push({
        level: "error",
        rule: "renamed-without-alias",
        resource: change.redeclaredBy,
        incidentId: change.incidentId,
        file:
          changes.find((other) => other.kind === "add" && other.resource === change.redeclaredBy)
            ?.file ?? change.file,
        message: `resource "${change.resource}" is renamed to "${change.redeclaredBy}" without an alias: Pulumi would create "${change.redeclaredBy}" and delete "${change.resource}" (which releases the incident, whatever onRemove says). Add \`aliases: [${change.resource}]\` to the definition of "${change.redeclaredBy}" to make the rename a no-op.`,
      });
      continue;
    }
    if (change.kind !== "update") continue;
    const { before, after } = change;
    const finding = (level: PolicyFinding["level"], rule: PolicyFinding["rule"], message: string) =>
      findings.push({
        level,
        rule,
        resource: change.resource,
        incidentId: change.incidentId,
        file: change.file,
        message,
      });

    if (change.replace) {
      finding(
        "error",
        "incident-id-changed",
        `the incident id changed from "${before.id}" to "${after.id}" under resource "${change.resource}", which replaces the incident: "${before.id}" would be ${before.onRemove === "resolve" ? "resolved" : "released"} and "${after.id}" taken over. Keep the id, or remove this definition and add a new one with its own resource name.`,
      );
      continue;
    }
    for (const violation of entriesOf(before.updates ?? [], after.updates ?? []).violations) {
      finding("error", violation.rule, violation.message);
    }
    if (reopenRefused(before.status, after.status, after.reopen)) {
      finding("error", "reopen-without-flag", reopenWithoutFlagMessage(after.status));
    }
    const downgrade =
      SEVERITY_ORDER.indexOf(after.severity) > SEVERITY_ORDER.indexOf(before.severity);
    if (downgrade && (after.reason === undefined || after.reason === before.reason)) {
      finding(
        "error",
        "severity-downgrade-without-reason",
        after.reason === undefined
          ? `severity is lowered from ${before.severity} to ${after.severity} without a reason; add a "reason" that says why.`
          : `severity is lowered from ${before.severity} to ${after.severity} but "reason" is unchanged from before; update it to say why.`,
      );
    }
    if (change.services.removed.length > 0) {
      finding(
        "warning",
        "services-removed",
        `${change.services.removed.length === 1 ? "service" : "services"} ${change.services.removed.map(serviceLabel).join(", ")} no longer ${change.services.removed.length === 1 ? "shows" : "show"} this incident on the status page.`,
      );
    }
  }
  return sortFindings(findings);
}

/** Errors first, then by resource and rule: the order every output lists findings in. */
export function sortFindings(findings: PolicyFinding[]): PolicyFinding[] {
  return findings.sort(
    (a, b) =>
      (a.level === b.level ? 0 : a.level === "error" ? -1 : 1) ||
      compareText(a.resource, b.resource) ||
      compareText(a.rule, b.rule),
  );
}

/** `Checkout (svc-checkout)`, or the bare id when no name was written. */
export function serviceLabel(service: IncidentService): string {
  return service.name ? `${service.name} (${service.id})` : service.id;
}
