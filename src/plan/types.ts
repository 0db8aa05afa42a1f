import type { IncidentStatus } from "../api/schemas";
import type { DefinitionProblem } from "../definitions/problem";
import type { IncidentDefinition, OnRemove } from "../definitions/schema";
import type { EntryRule, ServiceChanges } from "../incident";

/** A field whose value differs between the base and the working tree. */
export interface FieldChange {
  readonly field: PlanField;
  /** The old value as people read it; `undefined` when it was not set. */
  readonly before: string | undefined;
  readonly after: string | undefined;
}

/** Fields compared one to one; services and evidence lists are compared by item. */
export type PlanField =
  /** The resource was renamed, with the old name among the new one's `aliases`. */
  | "resource"
  | "id"
  | "name"
  | "severity"
  | "status"
  | "duration"
  | "onRemove"
  | "closing"
  | "reopen"
  | "reason"
  | "stacks";

export type { ServiceChanges };

export interface ListChanges {
  readonly added: string[];
  readonly removed: string[];
}

/**
 * What an entry of `updates` does on the status page when the change is applied: `post` (new,
 * notifying subscribers when it says so) or `edit` (posted before, changed in place, notifying
 * nobody). The message is what customers read, as written.
 */
export interface EntryChange {
  readonly kind: "post" | "edit";
  /** Its place in `updates`, from 0. */
  readonly index: number;
  readonly status: IncidentStatus;
  /** Whether posting it sends it to every subscriber; never for an edit. */
  readonly notify: boolean;
  /** A backfilled date. */
  readonly at?: string;
  readonly message: string;
  /** An edit: the message customers read until now. */
  readonly before?: string;
}

/**
 * What a change of `stacks` does on one stack: declares the incident there (`added`), or takes
 * it off, which leaves it on the status page (`released`) or resolves it (`resolved`) as its
 * last apply's `onRemove` says.
 */
export interface StackEffect {
  /** A stack of the project, or `every other stack` when the project's stacks are unknown. */
  readonly stack: string;
  readonly effect: "added" | "released" | "resolved";
}

export type IncidentChange =
  | {
      readonly kind: "add";
      readonly resource: string;
      /** The id, or `(new: <resource>)` for an incident the first `up` opens. */
      readonly incidentId: string;
      readonly file: string;
      readonly after: IncidentDefinition;
      /** The entries of `updates` posted when it is applied. */
      readonly entries: EntryChange[];
    }
  | {
      readonly kind: "remove";
      readonly resource: string;
      readonly incidentId: string;
      readonly file: string;
      readonly before: IncidentDefinition;
      /**
       * What applying the change does to the incident on the status page: `release` whatever
       * the definition said when another resource declares the same incident (`redeclaredBy`).
       */
      readonly onRemove: OnRemove;
      /** The resource that declares the same incident now: a rename without `aliases`. */
      readonly redeclaredBy?: string;
      /** The definition is still in the tree, but its `stacks` no longer names the plan's stack. */
      readonly byStacks?: true;
    }
  | {
      readonly kind: "update";
      readonly resource: string;
      readonly incidentId: string;
      readonly file: string;
      readonly before: IncidentDefinition;
      readonly after: IncidentDefinition;
      /** The incident id changed: the old incident is released and a new one managed. */
      readonly replace: boolean;
      /**
       * Whether `up` changes the status page for it (what the provider's diff reports); false
       * when only `reason` or `evidence` changed, which are for reviewers.
       */
      readonly applies: boolean;
      readonly fields: FieldChange[];
      readonly services: ServiceChanges;
      readonly evidence: { readonly heartbeats: ListChanges; readonly checks: ListChanges };
      /** The entries of `updates` posted or changed in place. */
      readonly entries: EntryChange[];
      /** When `stacks` changed: what that does on each stack it adds or takes away. */
      readonly stacks?: StackEffect[];
    };

export type PolicyRule =
  | "reopen-without-flag"
  /** With `plan --evidence`: the status page shows the incident resolved; applying would reopen it. */
  | "reopen-live-resolved"
  /** With `plan --evidence`: a service the incident lists is not on the account's services list. */
  | "unknown-service"
  /** With `plan --evidence`: a field changed on the status page that the next `up` would put back. */
  | "changed-on-status-page"
  | "severity-downgrade-without-reason"
  | "services-removed"
  | "incident-id-changed"
  /** A resource renamed without the old name in `aliases`: Pulumi deletes one and creates the other. */
  | "renamed-without-alias"
  /** A posted entry of `updates` removed, reordered, given another status, or set to notify. */
  | EntryRule
  /** A `stacks` entry that names no stack of the project. */
  | "unknown-stack"
  /** A change of `stacks` resolves the incident on a stack, and no new `reason` says why. */
  | "stacks-change-resolves";

/** A lifecycle policy finding: errors fail the plan (exit 3), warnings are for reviewers. */
export interface PolicyFinding {
  readonly level: "error" | "warning";
  readonly rule: PolicyRule;
  readonly resource: string;
  readonly incidentId: string;
  /** The incident's name as the definition declares it. */
  readonly name?: string;
  readonly file: string;
  /** Where in the file, when the finding is about one place (a `stacks` entry). */
  readonly line?: number;
  readonly column?: number;
  readonly message: string;
}

export type PlanVerdict = "no-changes" | "changes" | "policy-violated";

/** The semantic difference between two sets of definitions and its policy verdict. */
export interface Plan {
  readonly base: { readonly ref: string; readonly commit: string };
  readonly dir: string;
  /** The stack whose definitions were compared (`plan --stack`); absent: every definition. */
  readonly stack?: string;
  readonly verdict: PlanVerdict;
  readonly summary: {
    readonly add: number;
    readonly update: number;
    readonly remove: number;
    readonly unchanged: number;
    readonly errors: number;
    readonly warnings: number;
  };
  /** Sorted by resource name. */
  readonly changes: IncidentChange[];
  /** Sorted errors first, then by resource name. */
  readonly findings: PolicyFinding[];
  /**
   * Problems in the base definitions. Invalid base definitions are left out of the
   * comparison (they show as added), so a broken base can still be fixed.
   */
  readonly baseProblems: DefinitionProblem[];
}
