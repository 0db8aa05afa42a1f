import { type IncidentUpdate, type IncidentUpdateRequest, knownStatus } from "../api/schemas";
import { DEFAULT_CLOSING_MESSAGE } from "../definitions/schema";
import { entryRequest, type IncidentDeclaration } from "./declaration";
import { liveStatusOf } from "./live-status";
import type { IncidentRecord } from "./record";

/** The message an incident with `updates` is resolved with when its definition says no `closing`. */
export const RESOLVED_ON_REMOVE = DEFAULT_CLOSING_MESSAGE;

/** What removing a recorded incident does. */
export type Removal =
  /** Let go, leaving the status page as it is; `notice` says why, when it overrides `onRemove`. */
  | { kind: "release"; redeclared: boolean; notice?: string }
  /** A new incident claimed and never recorded as opened: resolve the one a stopped run opened, if any. */
  | { kind: "find-opened" }
  /** Resolve it: by PUT, or with `updates` by a last update; a claimed one only if it exists. */
  | { kind: "resolve"; via: "put" | "update"; unlessMissing: boolean };

/**
 * `onRemove` as written, a claimed incident included (its run may have applied it); but one
 * another resource of this run declares is released: a rename without `aliases`.
 */
export function decideRemoval(record: IncidentRecord, declaredInRun: ReadonlySet<string>): Removal {
  if (record.incidentId && declaredInRun.has(record.incidentId)) {
    return record.onRemove === "resolve"
      ? {
          kind: "release",
          redeclared: true,
          notice: `incident ${record.incidentId} is released, not resolved: another resource of this stack now declares it (a resource renamed without \`aliases\`?). Add the old resource name to the definition's \`aliases\` to make a rename a no-op.`,
        }
      : { kind: "release", redeclared: true };
  }
  if (record.onRemove !== "resolve") return { kind: "release", redeclared: false };
  if (!record.incidentId) {
    return record.updates === undefined
      ? { kind: "release", redeclared: false }
      : { kind: "find-opened" };
  }
  return {
    kind: "resolve",
    via: record.updates === undefined ? "put" : "update",
    unlessMissing: record.claimed === true,
  };
}

/**
 * Whether the PUT that resolves a removed incident took. A service whose PUT ignores the status
 * did not; the removal then resolves it with an update, as the service's own tools do.
 */
export function putResolved(answer: { lastUpdateStatus: string }): boolean {
  return knownStatus(answer.lastUpdateStatus) === "RESOLVED";
}

/**
 * What `onRemove: resolve` leaves customers when the definition is removed, in words for
 * `plan`: the last update posted and whom it reaches, from the same rule as the post.
 */
export function resolvingWords(
  declaration: Pick<IncidentDeclaration, "closing" | "updates">,
): string {
  if (declaration.updates === undefined) {
    return "its status set to RESOLVED, with no message of its own";
  }
  const message = declaration.closing?.message ?? RESOLVED_ON_REMOVE;
  const whom = declaration.closing?.notify
    ? "sent to every subscriber"
    : "on the status page only, notifying nobody";
  return `a last update, status RESOLVED, ${JSON.stringify(message)}, ${whom} (unless it is resolved already)`;
}

/**
 * The last update that resolves a removed incident with `updates`: its `closing`, else the
 * default message notifying nobody; none when it is resolved.
 */
export function resolvingUpdate(
  updates: readonly IncidentUpdate[],
  closing: IncidentDeclaration["closing"],
): IncidentUpdateRequest | undefined {
  if (liveStatusOf(updates).status === "RESOLVED") return undefined;
  const entry = {
    status: "RESOLVED" as const,
    message: closing?.message ?? RESOLVED_ON_REMOVE,
    notify: closing?.notify ?? false,
  };
  return entryRequest(entry, { notify: entry.notify });
}
