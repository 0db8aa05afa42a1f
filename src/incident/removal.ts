import { type IncidentUpdate, type IncidentUpdateRequest, knownStatus } from "../api/schemas";
import { entryRequest } from "./declaration";
import { liveStatusOf } from "./live-status";
import type { IncidentRecord } from "./record";

/** The message an incident with `updates` is resolved with when its definition is removed. */
export const RESOLVED_ON_REMOVE = "This incident is resolved.";

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

/** The last update that resolves a removed incident with `updates`; none when it is resolved. */
export function resolvingUpdate(
  updates: readonly IncidentUpdate[],
): IncidentUpdateRequest | undefined {
  if (liveStatusOf(updates).status === "RESOLVED") return undefined;
  const entry = { status: "RESOLVED" as const, message: RESOLVED_ON_REMOVE, notify: false };
  return entryRequest(entry, { notify: false });
}
