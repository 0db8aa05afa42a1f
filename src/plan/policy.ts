import { SEVERITY_ORDER } from "../api/schemas";
import type { LoadedDefinition } from "../definitions/parsed-file";
import { compareText, type DefinitionProblem } from "../definitions/problem";
import {
  type IncidentService,
  incidentLabel,
  reopenRefused,
  reopenWithoutFlagMessage,
} from "../incident";
import { named } from "../named";
import { entriesOf } from "./diff";
import { resolvedByStacks } from "./stack-effects";
import type { IncidentChange, PolicyFinding } from "./types";

/** What the policy reads beside the changes: the plan's stack, and the working tree. */
export interface PolicyContext {
  /** The stack of `plan --stack`, whose plan shows a definition taken off it as removed. */
  readonly stack?: string | undefined;
  /** Every definition of the working tree, whatever stack it is on. */
  readonly head?: readonly LoadedDefinition[] | undefined;
}

/**
 * The lifecycle policy: errors for what misleads customers unless meant (a reopen, a lower
 * severity without a new `reason`, a replace, a rename without `aliases`, a posted entry
 * changed, an incident resolved by a change of `stacks` without a new `reason`); a warning for
 * services removed.
 */
export function checkPolicy(
  changes: readonly IncidentChange[],
  context: PolicyContext = {},
): PolicyFinding[] {
  const findings: PolicyFinding[] = [];
  for (const change of changes) {
    const resolving = stacksResolution(change, context);
    if (resolving !== undefined) findings.push(resolving);
    if (change.kind === "remove" && change.redeclaredBy !== undefined) {
      findings.push({
        level: "error",
        rule: "renamed-without-alias",
        resource: change.redeclaredBy,
        incidentId: change.incidentId,
        name: change.before.name,
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
        name: after.name,
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
  return named(service.name, [service.id]);
}

/**
 * A change of `stacks` that resolves the incident on a stack takes the consent a lowered
 * severity does, a new `reason`: taking a stack off the list resolves it there as deleting
 * the definition would, in an edit that reads as small.
 */
function stacksResolution(
  change: IncidentChange,
  context: PolicyContext,
): PolicyFinding | undefined {
  const stacks = resolvedByStacks(change, context.stack);
  if (stacks.length === 0 || change.kind === "add") return undefined;
  const after =
    change.kind === "update"
      ? change.after
      : context.head?.find((loaded) => loaded.definition.resource === change.resource)?.definition;
  const reason = after?.reason;
  if (reason !== undefined && reason !== change.before.reason) return undefined;
  const where = stacks.length === 1 ? `stack ${stacks[0]}` : `stacks ${stacks.join(", ")}`;
  return {
    level: "error",
    rule: "stacks-change-resolves",
    resource: change.resource,
    incidentId: change.incidentId,
    name: change.before.name,
    file: change.file,
    message: `this change of stacks takes the incident off ${where}, and up there resolves it on the status page (its onRemove is resolve), as deleting the definition would: customers read it as over. If that is meant, give a new "reason" that says why. To leave it on the status page there instead, set "onRemove: release" and apply that first, then change stacks.`,
  };
}

/**
 * A `stacks` entry that names no stack of the project, as a policy error at its place: the
 * definition would be taken off the stack meant, released or resolved there.
 */
export function stackFindings(
  problems: readonly DefinitionProblem[],
  head: readonly LoadedDefinition[],
): PolicyFinding[] {
  return problems.map((problem) => {
    const definition = head
      .filter((loaded) => loaded.file === problem.file && loaded.at.line <= (problem.line ?? 0))
      .at(-1)?.definition;
    return {
      level: "error",
      rule: "unknown-stack",
      resource: definition?.resource ?? "",
      incidentId: definition === undefined ? "" : incidentLabel(definition.id, definition.resource),
      ...(definition === undefined ? {} : { name: definition.name }),
      file: problem.file,
      ...(problem.line === undefined ? {} : { line: problem.line, column: problem.column ?? 1 }),
      message: problem.message,
    };
  });
}
