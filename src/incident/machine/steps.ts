import { ApiError, writeOutcomeUnknown } from "../../api/errors";
import type {
  IncidentCreateRequest,
  IncidentRequest,
  IncidentResponse,
  IncidentUpdate,
  IncidentUpdateRequest,
  ListedIncident,
} from "../../api/schemas";
import type { IncidentService } from "../declaration";
import type { IncidentRecord } from "../record";
import type { Intent, Monotonic, Unanswered } from "../unanswered";

/*
 * The steps of the machine and the answers fed back to it, as plain data: what the provider
 * sends (`Step`), what it got (`Answer`), and how an operation ends (`Done`, `Refusal`).
 */

/** What the machine asks the provider to do next: one request, or the end. */
export type Step =
  /** Wait for, then hold until the operation ends, this machine's lease on `key`. */
  | { kind: "lease"; key: string }
  /** Every incident the service lists: this run's copy, or with `fresh` a new read. */
  | { kind: "list"; fresh: boolean }
  | { kind: "get"; incidentId: string }
  /** The spec's own read of an incident's updates (4.2). */
  | { kind: "list-updates"; incidentId: string }
  /** Take the incident for this resource, unless another resource of the run took it first. */
  | { kind: "take"; incidentId: string }
  /** Name the services from the definitions' services catalog (older state has no names). */
  | { kind: "catalog"; incidentId: string; services: IncidentService[] }
  /** The ids of every service the account lists (`GET /v1/status-pages/services`). */
  | { kind: "services" }
  /**
   * `POST /v1/status-pages/incidents`: not idempotent, and notifies as its entry says. Its
   * `intent` is recorded under its lease, durably, before it is sent; so is a post's.
   */
  | { kind: "open"; body: IncidentCreateRequest; intent: Intent }
  | { kind: "put"; incidentId: string; body: IncidentRequest }
  /** `POST …/incident-updates`: not idempotent, and notifies as its body says. */
  | { kind: "post"; incidentId: string; body: IncidentUpdateRequest; intent: Intent }
  /** `PUT …/incident-updates/{id}`: an edit in place, which never notifies. */
  | { kind: "edit"; incidentId: string; updateId: string; body: IncidentUpdateRequest }
  | Done
  | Refusal;

/** The requests that write: each is sent once by a step of its own. */
export type WriteStep = Extract<Step, { kind: "open" | "put" | "post" | "edit" }>;

/** What removing a recorded incident did, for the engine's log and for tests. */
export type RemoveOutcome = "released" | "released-redeclared" | "resolved";

/** An operation carried out: what it returns to Pulumi. */
export interface Done {
  kind: "done";
  result:
    | { op: "apply"; id: string; record: IncidentRecord }
    | { op: "claim"; id: string; record: IncidentRecord }
    | { op: "refresh"; id: string; record: IncidentRecord }
    | { op: "remove"; outcome: RemoveOutcome }
    | { op: "diff"; changes: boolean; replace: boolean };
  /** Lines for the engine's log (the provider's stderr), in order. */
  notes: string[];
}

/** An operation that stops: why, and what the state must keep of what it did before. */
export interface Refusal {
  kind: "refuse";
  message: string;
  notes: string[];
  /** What was sent before the refusal, to record (Pulumi's partial failure): never lost. */
  keep?: { id: string; record: IncidentRecord };
  /** A write sent with no answer and not shown, where no record keeps it: the lease does. */
  unanswered?: Unanswered;
}

/** The service's incidents as listed: those read, and those the contract's schema refused. */
export interface ServiceIncidents {
  entries: ListedIncident[];
  skipped: { index: number; id?: string | undefined; name?: string | undefined; problem: string }[];
}

/**
 * What a step got, with the provider's clock when it was sent (ms), and its monotonic clock
 * where it has one (`unanswered.ts` measures windows by it).
 */
export type Answer = Reply & { at: number; clock?: Monotonic | undefined };

/** What a step got. */
export type Reply =
  | { kind: "begin" }
  /**
   * `releasedAt`: when a holder last let go of the lease, if one did; `unanswered`: a write
   * one of them sent that got no answer (or was sending when it died), and may still be made;
   * `made`: the incident a holder recorded having opened or posted on under it.
   */
  | {
      kind: "leased";
      releasedAt: number | undefined;
      unanswered?: Unanswered | undefined;
      made?: { incidentId: string } | undefined;
    }
  /** `readAt`: when the read began; `inRun`: the incidents the run's other resources hold. */
  | { kind: "listed"; incidents: ServiceIncidents; readAt: number; inRun: ReadonlySet<string> }
  | { kind: "incident"; incident: IncidentResponse }
  | { kind: "updates"; updates: IncidentUpdate[] }
  | { kind: "update"; update: IncidentUpdate }
  | { kind: "named"; services: IncidentService[] }
  | { kind: "services"; ids: ReadonlySet<string> }
  | { kind: "took" }
  | { kind: "taken" }
  /** `text`: the error as the person running it reads it (translated once, by the provider). */
  | { kind: "failed"; error: unknown; text: string };

export type Failed = Extract<Answer, { kind: "failed" }>;

/** A failure as the machine decides on it. */
export interface Failure {
  /** A 404 or 405: the incident, or the operation, is not there. */
  absent: boolean;
  /** The request may have been carried out all the same (`writeOutcomeUnknown`). */
  unknown: boolean;
  /** A 429: a write is read back before it is sent again, as one made may answer it too. */
  throttled: boolean;
  method: string;
  path: string;
  status: number | undefined;
  text: string;
}

export function failureOf(answer: Failed): Failure {
  const { error, text } = answer;
  if (!(error instanceof ApiError)) {
    const status = undefined;
    return { absent: false, unknown: false, throttled: false, method: "", path: "", status, text };
  }
  const { method, path, status } = error;
  const absent = status === 404 || status === 405;
  const unknown = writeOutcomeUnknown(error);
  return { absent, unknown, throttled: status === 429, method, path, status, text };
}
