import type { IncidentResponse, IncidentUpdate } from "../../api/schemas";
import {
  type Applying,
  claimedEntriesOn,
  entriesRecord,
  fieldsNeedPut,
  foundNote,
  lastApplyMs,
  planEntriesOn,
  recordedEntriesOf,
} from "../apply";
import { openingKey, openingsSought, takenTwiceMessage } from "../creation";
import { createRequestOf, entryRequest, incidentLabel, requestOf } from "../declaration";
import { type DeclaredEntry, earliest, foundPosted, isPostingOf } from "../entries";
import type { EntryAction, RecordedEntries } from "../entry-plan";
import type { IncidentInputs } from "../inputs";
import { lacksOperationMessage, missingMessage } from "../messages";
import { claimedRecord, declarationIn, type IncidentRecord } from "../record";
import { notTaken } from "../taken";
import { inWindow, latest, type Unanswered, windowEnd } from "../unanswered";
import {
  type Carried,
  failed,
  kept,
  type Next,
  type Probe,
  probe,
  refuse,
  unexpected,
} from "./context";
import { afterRead, nextRead, type Search, searchDecision, searchIn } from "./search";
import type { Answer, Refusal } from "./steps";

/*
 * An apply with `updates`: open the incident (or take the one an earlier run opened), PUT its
 * fields when they differ, then post and edit its entries in order. Before a write that is
 * not idempotent is sent again, a read finds it already made; one whose answer never came is
 * kept in the state, and not sent again until a read shows it or its window has passed.
 */

type WithEntries = IncidentInputs & { updates: DeclaredEntry[] };
type Declared = Applying & { updates: DeclaredEntry[] };
type Kept = Refusal["keep"];

interface Entries extends Carried {
  inputs: WithEntries;
  olds: IncidentRecord | undefined;
  /** A write another run sent under a lease this one took, which got no answer. */
  heldBack?: Unanswered | undefined;
}

/** Looking for the incident a new definition opened, or opening it, under its lease. */
export interface Opening extends Entries {
  phase: "open-lease" | "open-list" | "open-read" | "open-take" | "opening";
  /** When another holder last let go of the lease. */
  releasedAt?: number | undefined;
  search?: Search;
  /** When this operation sent a create whose answer never came (ms). */
  sentAt?: number;
  /** The incident found, to take. */
  found?: IncidentResponse;
}

/** The incident known: read it, PUT its fields, plan its entries. */
export interface Known extends Entries {
  phase: "known-lease" | "known-take" | "known-get" | "known-put";
  declaration: Declared;
  /** This operation opened it: the create sent its fields and its first entry. */
  opened: boolean;
  recorded: RecordedEntries;
  posted: IncidentUpdate[];
  /** The create's answer, when it gave what the record needs: no read is due. */
  answer?: IncidentResponse;
}

/** Carrying out the plan of entries, one action at a time. */
export interface Sending extends Omit<Known, "phase"> {
  phase: "send" | "reread";
  incident: IncidentResponse;
  actions: EntryAction[];
  /** The action under way. */
  next: number;
  ids: string[];
  posted: IncidentUpdate[];
  /** A create or a post was made in this operation: it is kept, whatever follows. */
  wrote: boolean;
  /** A post answered without an id, being read back: it is made either way. */
  answered?: IncidentUpdate;
  /** When a post whose answer never came was sent (ms), being read back. */
  sentAt?: number;
}

export type EntriesApply = Opening | Known | Sending;
type Moved = Next<EntriesApply | Probe>;

export function beginEntries(
  carried: Carried,
  inputs: WithEntries,
  olds: IncidentRecord | undefined,
): Moved {
  const known = inputs.incidentId ?? (olds?.incidentId || undefined);
  if (known === undefined) {
    const [opening] = openingsSought(inputs, undefined);
    return {
      state: { ...carried, phase: "open-lease", inputs, olds },
      step: { kind: "lease", key: `opening:${opening ? openingKey(opening) : ""}` },
    };
  }
  const state = knownState(carried, inputs, olds, known, recordedEntriesOf(olds));
  return { state, step: { kind: "lease", key: `incident:${known}` } };
}

function knownState(
  carried: Carried,
  inputs: WithEntries,
  olds: IncidentRecord | undefined,
  incidentId: string,
  recorded: RecordedEntries,
  opened?: IncidentUpdate[],
): Known {
  const declaration = { ...declarationIn(inputs), incidentId, updates: inputs.updates };
  return {
    ...carried,
    phase: "known-lease",
    inputs,
    olds,
    declaration,
    recorded,
    posted: opened ?? [],
    opened: opened !== undefined,
  };
}

export function stepEntries(state: EntriesApply, answer: Answer): Moved {
  switch (state.phase) {
    case "known-lease":
    case "known-take":
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

/** How messages name a new incident until it exists. */
function labelOf(state: Entries): string {
  return incidentLabel(undefined, state.inputs.resource);
}

/** What the state recorded before a create was sent: a claim, or a create never answered. */
function intent(state: Entries): IncidentRecord | undefined {
  return state.olds && !state.olds.incidentId ? state.olds : undefined;
}

function stepOpening(state: Opening, answer: Answer): Moved {
  const failure = failed(answer);
  switch (state.phase) {
    case "open-lease": {
      if (answer.kind !== "leased") return unexpected(state, answer);
      const heldBack = latest(state.heldBack, answer.unanswered);
      return list({ ...state, releasedAt: answer.releasedAt, heldBack }, false);
    }
    case "open-list": {
      if (failure) {
        return refuseOpening(state, failure.absent ? lacksOperationMessage(failure) : failure.text);
      }
      if (answer.kind !== "listed") return unexpected(state, answer);
      // Another run let go of the lease after this run's list was read: it may have opened it.
      if (state.releasedAt !== undefined && answer.readAt <= state.releasedAt) {
        return list({ ...state, releasedAt: undefined }, true);
      }
      const search = searchIn(answer, openingsSought(state.inputs, intent(state)));
      return searching({ ...state, search }, answer.at);
    }
    case "open-read":
      if (state.search === undefined) return unexpected(state, answer);
      return searching({ ...state, search: afterRead(state.search, answer) }, answer.at);
    case "open-take": {
      const incident = state.found;
      if (answer.kind !== "took" || incident === undefined) {
        return refuseOpening(state, takenTwiceMessage(labelOf(state), incident?.id ?? ""));
      }
      const recorded = recordedEntriesOf(state.olds);
      const known = knownState(state, state.inputs, state.olds, incident.id, recorded);
      // Leased, then read again: another stack may be posting on it.
      return { state: known, step: { kind: "lease", key: `incident:${incident.id}` } };
    }
    case "opening":
      if (failure?.unknown)
        return list({ ...state, sentAt: answer.at, releasedAt: undefined }, true);
      if (failure) {
        return refuse(state, failure.absent ? lacksOperationMessage(failure) : failure.text);
      }
      if (answer.kind !== "incident") return unexpected(state, answer);
      return opened(state, answer.incident);
  }
}

/**
 * A refusal of an opening. After a create that got no answer, the create is kept in the state
 * (perhaps still being made) and said, so that no create is sent again within its window.
 */
function refuseOpening(state: Opening, why?: string): Moved {
  const { sentAt } = state;
  if (sentAt === undefined) return refuse(state, why ?? "");
  const unanswered = { entry: 0, at: new Date(sentAt).toISOString() };
  const claim = claimedRecord(state.inputs, new Date(intent(state)?.intentAt ?? unanswered.at));
  const wait = `No create is sent again until the service shows it or until ${windowEnd(unanswered)}: a run before then reads again, and takes the incident if it shows.`;
  const message =
    why === undefined
      ? `${labelOf(state)}: the service did not answer the request that opens it, sent at ${unanswered.at}, and does not show it opened. ${wait}`
      : `${why} The request that opens it, sent at ${unanswered.at}, got no answer: ${wait}`;
  return refuse(state, message, kept({ ...claim, unanswered }));
}

function list(state: Opening, fresh: boolean): Moved {
  return { state: { ...state, phase: "open-list" }, step: { kind: "list", fresh } };
}

/** Reads the namesakes one by one, then decides: open, take, or refuse. */
function searching(state: Opening & { search: Search }, now: number): Moved {
  const read = nextRead(state.search);
  if (read) return { state: { ...state, phase: "open-read" }, step: read };
  const { sentAt } = state;
  const sent = sentAt === undefined ? undefined : new Date(sentAt).toISOString();
  const decision = searchDecision(state.search, state.inputs, {
    intentAt: sent ?? intent(state)?.intentAt,
    now,
  });
  if (decision.kind === "refuse") return refuseOpening(state, decision.message);
  if (decision.kind === "adopt") {
    const note =
      sent === undefined
        ? decision.note
        : `${labelOf(state)}: the request that opens it got no answer, and the service shows it opened as ${decision.incidentId}: it is taken, not opened again.`;
    return {
      state: {
        ...state,
        phase: "open-take",
        notes: [...state.notes, note],
        ...(decision.incident ? { found: decision.incident as IncidentResponse } : {}),
      },
      step: { kind: "take", incidentId: decision.incidentId },
    };
  }
  if (sent !== undefined) return refuseOpening(state);
  const held = state.heldBack?.entry === 0 ? state.heldBack : undefined;
  const unanswered = latest(intent(state)?.unanswered, held);
  if (inWindow(unanswered, now) && unanswered !== undefined) {
    return refuse(
      state,
      `${labelOf(state)}: not opened: the request that opens it, sent at ${unanswered.at}, got no answer, and the service does not show it yet. No create is sent again until the service shows it or until ${windowEnd(unanswered)}; run again then.`,
    );
  }
  const first = state.inputs.updates[0] as DeclaredEntry;
  const body = createRequestOf(declarationIn(state.inputs), first, {
    accountId: state.context.accountId,
  });
  return { state: { ...state, phase: "opening" }, step: { kind: "open", body } };
}

/** The create answered: its first entry rode in its body, posted whether its id came or not. */
function opened(state: Opening, incident: IncidentResponse): Moved {
  const first = state.inputs.updates[0] as DeclaredEntry;
  const shown = earliest(incident.incidentUpdates).find(
    (update) => update.id && isPostingOf(update, first),
  );
  const recorded = { entries: [first], ids: [shown?.id ?? ""] };
  const known = knownState(
    state,
    state.inputs,
    state.olds,
    incident.id,
    recorded,
    shown ? [shown] : [],
  );
  // An answer that lacks what the record needs is read back before anything else is sent.
  const answer = shown === undefined ? {} : { answer: incident };
  return {
    state: { ...known, ...answer, phase: "known-take" },
    step: { kind: "take", incidentId: incident.id },
  };
}

function stepKnown(state: Known, answer: Answer): Moved {
  const { incidentId } = state.declaration;
  const failure = failed(answer);
  const keep = state.opened ? keepOf(state, state.posted, answer.at) : undefined;
  if (failure?.absent && state.phase === "known-get") {
    return probe(state, incidentId, "", failure, keep);
  }
  if (failure) {
    const missing = missingMessage(incidentId, state.context.accountId || undefined);
    return refuse(state, failure.absent ? missing : failure.text, keep);
  }
  switch (state.phase) {
    case "known-lease": {
      // Other resources of the run then leave it be; it was this one's already.
      const heldBack = latest(
        state.heldBack,
        answer.kind === "leased" ? answer.unanswered : undefined,
      );
      return {
        state: { ...state, phase: "known-take", heldBack },
        step: { kind: "take", incidentId },
      };
    }
    case "known-take":
      if (state.answer) return plan(state, state.answer, answer.at);
      return { state: { ...state, phase: "known-get" }, step: { kind: "get", incidentId } };
    case "known-get":
      if (answer.kind !== "incident") return unexpected(state, answer);
      if (!state.opened && fieldsNeedPut(state.declaration, answer.incident)) {
        const body = requestOf(state.declaration, { accountId: state.context.accountId });
        return { state: { ...state, phase: "known-put" }, step: { kind: "put", incidentId, body } };
      }
      return plan(state, answer.incident, answer.at);
    case "known-put": {
      if (answer.kind !== "incident") return unexpected(state, answer);
      const refusal = notTaken(incidentId, state.declaration, undefined, answer.incident);
      if (refusal !== undefined) return refuse(state, refusal);
      return plan(state, answer.incident, answer.at);
    }
  }
}

function plan(state: Known, incident: IncidentResponse, now: number): Moved {
  const { olds } = state;
  const claimed = olds?.claimed && !state.opened;
  const recorded = claimed ? claimedEntriesOn(olds, incident) : state.recorded;
  const planned = planEntriesOn(state.declaration, incident, recorded, lastApplyMs(state.olds));
  const sending: Sending = {
    ...state,
    recorded,
    phase: "send",
    incident,
    actions: planned.actions,
    next: 0,
    ids: [...recorded.ids],
    wrote: state.opened,
  };
  if (planned.refusal) return refuse(sending, planned.refusal, keepSent(sending, now));
  return carryOn(sending, now);
}

/** The next action of the plan, or the record once none is left. */
function carryOn(state: Sending, now: number): Moved {
  const action = state.actions[state.next];
  const { declaration } = state;
  const { incidentId } = declaration;
  if (action === undefined) {
    const record = entriesRecord(declaration, state.inputs.providerVersion, state, new Date(now));
    return {
      state,
      step: { kind: "done", result: { op: "apply", id: incidentId, record }, notes: state.notes },
    };
  }
  const entry = declaration.updates[action.index] as DeclaredEntry;
  if (action.kind === "found") {
    const ids = [...state.ids];
    ids[action.index] = action.updateId;
    const update = state.incident.incidentUpdates.find((shown) => shown.id === action.updateId);
    // The first entry of the incident this operation opened, its id read back.
    const own = state.wrote && action.index === 0 && state.posted.length === 0 && update;
    const notes = own
      ? state.notes
      : [...state.notes, foundNote(incidentId, action.index, action.updateId)];
    return carryOn(
      { ...state, ids, next: state.next + 1, posted: own ? [own] : state.posted, notes },
      now,
    );
  }
  if (action.kind === "edit") {
    const body = entryRequest(entry, { notify: false });
    return { state, step: { kind: "edit", incidentId, updateId: action.updateId, body } };
  }
  const recorded = state.olds?.incidentId === incidentId ? state.olds.unanswered : undefined;
  const unanswered = [recorded, state.heldBack].find(
    (write) => write?.entry === action.index && inWindow(write, now),
  );
  if (unanswered !== undefined) {
    return refuse(
      state,
      `incident ${incidentId}: updates[${action.index}] is not posted yet: its post, sent at ${unanswered.at}, got no answer, and the service does not show it. It is not sent again until the service shows it or until ${windowEnd(unanswered)}; run again then.`,
      keepSent(state, now, unanswered),
    );
  }
  return {
    state,
    step: { kind: "post", incidentId, body: entryRequest(entry, { notify: entry.notify }) },
  };
}

function stepSending(state: Sending, answer: Answer): Moved {
  const action = state.actions[state.next] as EntryAction;
  const { incidentId } = state.declaration;
  const failure = failed(answer);
  if (state.phase === "reread") return reread(state, action, answer);
  if (action.kind === "edit") {
    if (failure?.absent) return probe(state, incidentId, "", failure, keepSent(state, answer.at));
    if (failure) return refuse(state, failure.text, keepSent(state, answer.at));
    if (answer.kind !== "update") return unexpected(state, answer);
    return made(state, answer.update, answer.update.id ?? action.updateId, answer.at);
  }
  if (failure?.unknown) {
    return {
      state: { ...state, phase: "reread", sentAt: answer.at },
      step: { kind: "get", incidentId },
    };
  }
  const prefix = `incident ${incidentId}: updates[${action.index}] was not posted: `;
  if (failure?.absent) return probe(state, incidentId, prefix, failure, keepSent(state, answer.at));
  if (failure) return refuse(state, `${prefix}${failure.text}`, keepSent(state, answer.at));
  if (answer.kind !== "update") return unexpected(state, answer);
  if (answer.update.id) return made(state, answer.update, answer.update.id, answer.at);
  // Posted, yet the answer names no id: a read may give it; the entry is posted either way.
  return {
    state: { ...state, phase: "reread", answered: answer.update },
    step: { kind: "get", incidentId },
  };
}

/** A post read back: found (its id learned), made without an id, or not known to be made. */
function reread(state: Sending, action: EntryAction, answer: Answer): Moved {
  const shown = answer.kind === "incident" ? answer.incident.incidentUpdates : [];
  const known = new Set(state.ids.filter(Boolean));
  const id = foundPosted(state.declaration.updates, [action.index], shown, { known }).get(
    action.index,
  );
  const found = id === undefined ? undefined : shown.find((update) => update.id === id);
  if (found !== undefined) return made(state, found, id ?? "", answer.at);
  if (state.answered !== undefined) return made(state, state.answered, "", answer.at);
  const unanswered = { entry: action.index, at: new Date(state.sentAt ?? answer.at).toISOString() };
  return refuse(
    state,
    `incident ${state.declaration.incidentId}: updates[${action.index}] may not have been posted: the service did not answer the post sent at ${unanswered.at}, and does not show it yet. It is not sent again until the service shows it or until ${windowEnd(unanswered)}: a run before then reads again before it posts.`,
    keepSent(state, answer.at, unanswered),
  );
}

function made(state: Sending, update: IncidentUpdate, id: string, now: number): Moved {
  const action = state.actions[state.next] as EntryAction;
  const ids = [...state.ids];
  ids[action.index] = id;
  const { answered: _answered, sentAt: _sentAt, ...rest } = state;
  const wrote = state.wrote || action.kind === "post";
  const next = { ...rest, phase: "send" as const, ids, next: state.next + 1, wrote };
  return carryOn({ ...next, posted: [...state.posted, update] }, now);
}

/** What a refusal keeps once anything was made, or a post got no answer: never lost. */
function keepSent(state: Sending, now: number, unanswered?: Unanswered): Kept {
  if (!state.wrote && unanswered === undefined) return undefined;
  return keepOf(state, state.posted, now, state.ids, state.incident, unanswered);
}

/** The record of the entries made so far: what the status page holds, and nothing more. */
function keepOf(
  state: Known | Sending,
  posted: IncidentUpdate[],
  now: number,
  ids: string[] = state.recorded.ids,
  incident?: IncidentResponse,
  unanswered?: Unanswered,
): Kept {
  const { declaration } = state;
  const done = { ...declaration, updates: declaration.updates.slice(0, ids.length) };
  const sent = { ids, posted, incident };
  const record = entriesRecord(done, state.inputs.providerVersion, sent, new Date(now));
  return kept(unanswered ? { ...record, unanswered } : record);
}
