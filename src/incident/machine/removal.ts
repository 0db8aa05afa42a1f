import { openingsSought } from "../creation";
import { requestOf, unnamedServices } from "../declaration";
import { lacksOperationMessage, missingOnRemoveMessage } from "../messages";
import type { IncidentRecord } from "../record";
import { decideRemoval, putResolved, resolvingUpdate } from "../removal";
import { notTaken } from "../taken";
import {
  inWindow,
  RESOLVING_ENTRY,
  THROTTLED_WRITES_MAX,
  type Unanswered,
  unansweredAt,
  windowEnd,
} from "../unanswered";
import { type Carried, failed, type Next, type Probe, probe, refuse, unexpected } from "./context";
import { afterRead, nextRead, type Search, searchDecision, searchIn } from "./search";
import type { Answer, RemoveOutcome, Step } from "./steps";

/*
 * Deleting a resource, as `decideRemoval` says: let go, or resolve by PUT, falling back to a
 * posted update when the service's PUT did not take RESOLVED, or with `updates` by a last
 * update; an incident claimed and never recorded is looked for first.
 */

export interface Removal extends Carried {
  phase:
    | "find-list"
    | "find-read"
    | "catalog"
    | "exists"
    | "put"
    | "resolve-lease"
    | "resolve-get"
    | "resolve-post"
    | "resolve-reread";
  record: IncidentRecord;
  /** The incident to resolve with a last update. */
  incidentId: string;
  /** The removal resolves it by PUT (not with a last update at once). */
  viaPut: boolean;
  search?: Search;
  /** How many of this removal's posts were answered 429, each read back before another. */
  throttled?: number;
  /** The lease's last holder sent the resolving update and got no answer (or died sending it). */
  heldBack?: boolean;
  /** This removal's resolving update, sent with no answer: kept in the lease when not shown. */
  sent?: Unanswered;
}

type Moved = Next<Removal | Probe>;

export function beginRemoval(carried: Carried, record: IncidentRecord): Moved {
  const removal = decideRemoval(record, carried.context.inRun);
  const state: Removal = {
    ...carried,
    // Stryker disable next-line StringLiteral: every path below sets the phase it goes on with, or ends
    phase: "exists",
    record,
    incidentId: record.incidentId,
    // Stryker disable next-line ConditionalExpression: only a resolve has `via`; for the others it is undefined, not "put"
    viaPut: removal.kind === "resolve" && removal.via === "put",
  };
  if (removal.kind === "release") {
    const notes = removal.notice ? [...carried.notes, removal.notice] : carried.notes;
    return done({ ...state, notes }, removal.redeclared ? "released-redeclared" : "released");
  }
  if (removal.kind === "find-opened") {
    return { state: { ...state, phase: "find-list" }, step: { kind: "list", fresh: false } };
  }
  const unnamed = state.viaPut && unnamedServices(record.services).length > 0;
  if (unnamed) {
    const { incidentId, services } = record;
    return {
      state: { ...state, phase: "catalog" },
      step: { kind: "catalog", incidentId, services },
    };
  }
  return afterNames(state);
}

function done(state: Removal, outcome: RemoveOutcome): Moved {
  return { state, step: { kind: "done", result: { op: "remove", outcome }, notes: state.notes } };
}

/** A claimed incident is resolved only if it exists: the killed run may not have adopted it. */
function afterNames(state: Removal): Moved {
  if (state.record.claimed) {
    const step: Step = { kind: "list-updates", incidentId: state.incidentId };
    return { state: { ...state, phase: "exists" }, step };
  }
  return resolve(state);
}

function resolve(state: Removal): Moved {
  if (!state.viaPut) return resolveWithUpdate(state, state.incidentId);
  const { record } = state;
  const body = requestOf(record, { accountId: state.context.accountId, status: "RESOLVED" });
  return {
    state: { ...state, phase: "put" },
    step: { kind: "put", incidentId: record.incidentId, body },
  };
}

function resolveWithUpdate(state: Removal, incidentId: string): Moved {
  return {
    state: { ...state, phase: "resolve-lease", incidentId },
    step: { kind: "lease", key: `incident:${incidentId}` },
  };
}

export function stepRemoval(state: Removal, answer: Answer): Moved {
  const failure = failed(answer);
  const { incidentId } = state;
  switch (state.phase) {
    case "find-list":
    case "find-read": {
      if (failure && state.phase === "find-list") {
        return refuse(state, failure.absent ? lacksOperationMessage(failure) : failure.text);
      }
      const search =
        state.search === undefined
          ? // Stryker disable next-line ConditionalExpression: next() lets only a list or a failure reach find-list, and failures return before
            answer.kind === "listed"
            ? searchIn(answer, openingsSought(state.record, undefined))
            : undefined
          : afterRead(state.search, answer);
      // Stryker disable next-line ConditionalExpression: the same: a search is always made or carried on here
      if (search === undefined) return unexpected(state, answer);
      const read = nextRead(search);
      if (read) return { state: { ...state, phase: "find-read", search }, step: read };
      const intentAt = state.record.intentAt;
      const decision = searchDecision(search, state.record, { intentAt, now: answer.at });
      if (decision.kind !== "adopt") return done(state, "released");
      return resolveWithUpdate(state, decision.incidentId);
    }
    case "catalog":
      // Stryker disable next-line OptionalChaining,StringLiteral: next() lets only the names or a failure reach catalog
      if (answer.kind !== "named") return refuse(state, failure?.text ?? "");
      return afterNames({ ...state, record: { ...state.record, services: answer.services } });
    case "exists":
      if (failure?.absent) return done(state, "released");
      if (failure) return refuse(state, failure.text);
      return resolve(state);
    case "put": {
      if (failure) {
        const missing = missingOnRemoveMessage(incidentId, state.context.accountId || undefined);
        return refuse(state, failure.absent ? missing : failure.text);
      }
      // Stryker disable next-line ConditionalExpression: next() lets only an incident or a failure reach put, and failures return before
      if (answer.kind !== "incident") return unexpected(state, answer);
      const refusal = notTaken(incidentId, state.record, undefined, answer.incident);
      if (refusal !== undefined) return refuse(state, refusal);
      if (putResolved(answer.incident)) return done(state, "resolved");
      // A PUT that did not take RESOLVED: resolved with an update, as the service's tools do.
      return resolveWithUpdate(state, incidentId);
    }
    case "resolve-lease": {
      // Stryker disable next-line ConditionalExpression: next() lets only a leased answer reach resolve-lease
      const held = answer.kind === "leased" ? answer.unanswered : undefined;
      const heldBack = held?.entry === RESOLVING_ENTRY && inWindow(held, answer);
      const next = { ...state, heldBack };
      return { state: { ...next, phase: "resolve-get" }, step: { kind: "get", incidentId } };
    }
    case "resolve-get":
    case "resolve-reread": {
      if (failure?.absent) return probe(state, incidentId, "", failure);
      if (failure) return refuse(state, failure.text);
      // Stryker disable next-line ConditionalExpression: next() lets only an incident or a failure reach these phases, and failures return before
      if (answer.kind !== "incident") return unexpected(state, answer);
      const last = resolvingUpdate(answer.incident.incidentUpdates, state.record.closing);
      if (last === undefined) return done(state, "resolved");
      if (state.phase === "resolve-reread" || state.heldBack) {
        const message = `incident ${incidentId}: the update that resolves it got no answer, and the service does not show it resolved: the next run reads again before it posts.`;
        if (state.sent === undefined) return refuse(state, message);
        // The lease's next holder holds it back too, until a read shows it or its window ends.
        const until = ` It is not posted again before ${windowEnd(state.sent, answer)}.`;
        return {
          state,
          step: {
            kind: "refuse",
            message: message + until,
            notes: state.notes,
            unanswered: state.sent,
          },
        };
      }
      return {
        state: { ...state, phase: "resolve-post" },
        step: {
          kind: "post",
          incidentId,
          body: last,
          intent: {
            lease: `incident:${incidentId}`,
            entry: RESOLVING_ENTRY,
            resource: state.record.resource ?? "",
          },
        },
      };
    }
    case "resolve-post":
      if (failure?.unknown) {
        const sent = unansweredAt(RESOLVING_ENTRY, answer);
        return {
          state: { ...state, phase: "resolve-reread", sent },
          step: { kind: "get", incidentId },
        };
      }
      // Answered 429: read again, and posted again only if the read shows it not resolved.
      if (failure?.throttled && (state.throttled ?? 0) < THROTTLED_WRITES_MAX) {
        const throttled = (state.throttled ?? 0) + 1;
        return {
          state: { ...state, phase: "resolve-get", throttled },
          step: { kind: "get", incidentId },
        };
      }
      if (failure?.absent) return probe(state, incidentId, "", failure);
      if (failure) return refuse(state, failure.text);
      return done(state, "resolved");
  }
}
