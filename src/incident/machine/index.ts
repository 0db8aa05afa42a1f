import type { Enforce } from "../../settings/catalog";
import type { DeclaredEntry } from "../entries";
import type { IncidentInputs } from "../inputs";
import type { IncidentRecord } from "../record";
import { afterProbe, type Carried, type Probe, type RunContext, unexpected } from "./context";
import { type Known, type Sending, stepKnown, stepSending } from "./entries";
import { beginEntries, type Opening, stepOpening } from "./opening";
import {
  beginClaim,
  beginDiff,
  beginRefresh,
  type Claim,
  type Diff,
  type Refresh,
  stepClaim,
  stepDiff,
  stepRefresh,
} from "./reads";
import { beginRemoval, type Removal, stepRemoval } from "./removal";
import { beginStatus, type StatusApply, stepStatus } from "./status";
import type { Answer, Step } from "./steps";

/*
 * The order of every Pulumi operation on an incident, as a step machine: `next(state, answer)`
 * returns the next step as data (a read, a write, the end), and the provider sends it and
 * feeds the answer back. It owns every loop and fallback; ARCHITECTURE.md draws it.
 */

export type { RunContext } from "./context";
export type { Answer, Done, Refusal, RemoveOutcome, Reply, ServiceIncidents, Step } from "./steps";

/** An operation before its first step: what Pulumi asked, and what the run knows. */
export type Operation =
  /** create or update: `olds` is the last apply, absent (or claimed) when adopting or opening. */
  | { op: "apply"; inputs: IncidentInputs; olds: IncidentRecord | undefined; context: RunContext }
  /** create in `incident-sync up`'s claim run: record it, apply nothing. */
  | { op: "claim"; inputs: IncidentInputs; context: RunContext }
  /** `pulumi refresh`. */
  | { op: "refresh"; id: string; record: IncidentRecord; context: RunContext }
  /** delete. */
  | { op: "remove"; record: IncidentRecord; context: RunContext }
  /** diff: whether an up applies, and whether it replaces. */
  | {
      op: "diff";
      olds: IncidentRecord;
      news: IncidentInputs;
      enforce: Enforce;
      context: RunContext;
    };

/** Where an operation stands: its start, or a phase of one of its machines. */
export type State =
  | Operation
  | StatusApply
  | Opening
  | Known
  | Sending
  | Removal
  | Refresh
  | Claim
  | Diff
  | Probe;

/** What each phase waits for: the answers of the step that led to it. */
const ACCEPTS: Record<Exclude<State, Operation>["phase"], readonly Answer["kind"][]> = {
  "open-lease": ["leased"],
  "open-list": ["listed", "failed"],
  "open-read": ["incident", "failed"],
  "open-take": ["took", "taken"],
  opening: ["incident", "failed"],
  "open-confirm": ["incident", "failed"],
  "open-services": ["services", "failed"],
  "known-lease": ["leased"],
  "known-take": ["took", "taken"],
  "known-list": ["listed", "failed"],
  "known-get": ["incident", "failed"],
  "known-put": ["incident", "failed"],
  send: ["update", "failed"],
  reread: ["incident", "failed"],
  "status-read": ["updates", "failed"],
  "status-put": ["incident", "failed"],
  probe: ["updates", "failed"],
  "refresh-updates": ["updates", "failed"],
  "refresh-incident": ["incident", "failed"],
  claim: ["updates", "failed"],
  diff: ["incident", "failed"],
  "find-list": ["listed", "failed"],
  "find-read": ["incident", "failed"],
  catalog: ["named", "failed"],
  exists: ["updates", "failed"],
  put: ["incident", "failed"],
  "resolve-lease": ["leased"],
  "resolve-get": ["incident", "failed"],
  "resolve-post": ["update", "failed"],
  "resolve-reread": ["incident", "failed"],
};

/** The next step of an operation, given the answer of the step before (`begin` first). */
export function next(state: State, answer: Answer): { state: State; step: Step } {
  if ("op" in state) return begin(state, answer.at);
  if (!ACCEPTS[state.phase].includes(answer.kind)) return unexpected(state, answer);
  switch (state.phase) {
    case "status-read":
    case "status-put":
      return stepStatus(state, answer);
    case "probe":
      return afterProbe(state, answer);
    case "refresh-updates":
    case "refresh-incident":
      return stepRefresh(state, answer);
    case "claim":
      return stepClaim(state, answer);
    case "diff":
      return stepDiff(state, answer);
    case "find-list":
    case "find-read":
    case "catalog":
    case "exists":
    case "put":
    case "resolve-lease":
    case "resolve-get":
    case "resolve-post":
    case "resolve-reread":
      return stepRemoval(state, answer);
    case "known-lease":
    case "known-take":
    case "known-list":
    case "known-get":
    case "known-put":
      return stepKnown(state, answer);
    case "send":
    case "reread":
      return stepSending(state, answer);
    default:
      return stepOpening(state, answer);
  }
}

function begin(operation: Operation, at: number): { state: State; step: Step } {
  const carried: Carried = { context: operation.context, notes: [] };
  switch (operation.op) {
    case "apply": {
      const { inputs, olds } = operation;
      if (inputs.updates === undefined) return beginStatus(carried, inputs, olds, at);
      return beginEntries(carried, inputs as IncidentInputs & { updates: DeclaredEntry[] }, olds);
    }
    case "claim":
      return beginClaim(carried, operation.inputs, at);
    case "refresh":
      return beginRefresh(carried, operation.id, operation.record);
    case "remove":
      return beginRemoval(carried, operation.record);
    case "diff": {
      const { olds, news, enforce } = operation;
      return beginDiff({ ...carried, phase: "diff", olds, news, enforce });
    }
  }
}
