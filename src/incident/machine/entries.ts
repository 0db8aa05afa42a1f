import type { IncidentResponse, IncidentUpdate } from "../../api/schemas";
import {
  type Applying,
  adoptedNote,
  claimedEntriesOn,
  entriesRecord,
  fieldsNeedPut,
  foundNote,
  lastApplyMs,
  planEntriesOn,
} from "../apply";
import { openingLease } from "../creation";
import { editRequest, entryRequest, requestOf } from "../declaration";
import { type DeclaredEntry, foundPosted, isPostingOf } from "../entries";
import type { EntryAction, RecordedEntries } from "../entry-plan";
import type { IncidentInputs } from "../inputs";
import { missingMessage } from "../messages";
import { fieldsDigest, observe } from "../observation";
import { pageChangeRefusalBeforeApply } from "../page-change";
import { declarationIn, type IncidentRecord, seenIn } from "../record";
import { notTaken } from "../taken";
import {
  inWindow,
  latest,
  type Moment,
  type Monotonic,
  THROTTLED_WRITES_MAX,
  type Unanswered,
  unansweredAt,
  windowEnd,
} from "../unanswered";
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
import type { Answer, Refusal } from "./steps";

/*
 * An apply with `updates` once its incident is known: read it, PUT its fields when they
 * differ, then post and edit its entries in order (opening.ts finds or opens it). A post is
 * read back before anything is sent again; one whose answer never came, or was not the update
 * sent, is kept in the state, and not sent again until a read shows it or its window has
 * passed; one answered 429 is sent again only once a read shows it was not made.
 */

export type WithEntries = IncidentInputs & { updates: DeclaredEntry[] };
type Declared = Applying & { updates: DeclaredEntry[] };
type Kept = Refusal["keep"];

export interface Entries extends Carried {
  inputs: WithEntries;
  olds: IncidentRecord | undefined;
  /** A write another run sent under a lease this one took, which got no answer. */
  heldBack?: Unanswered | undefined;
}

/** The incident known: read it, PUT its fields, plan its entries. */
export interface Known extends Entries {
  phase: "known-lease" | "known-take" | "known-list" | "known-get" | "known-put";
  /** When another holder last let go of the incident's lease. */
  releasedAt?: number | undefined;
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
  /** When a post whose answer never came, or was not the update sent, was sent (ms). */
  sentAt?: number;
  sentClock?: Monotonic | undefined;
  /** A post answered 429 is being read back; how many of this operation's were. */
  throttledBack?: boolean;
  throttled?: number;
}

type Moved = Next<Known | Sending | Probe>;

export function knownState(
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

export function stepKnown(state: Known, answer: Answer): Moved {
  const { incidentId } = state.declaration;
  const failure = failed(answer);
  // The list only spares a read: without it, the incident is read alone.
  if (failure && state.phase === "known-list") return read(state);
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
        // Stryker disable next-line ConditionalExpression: no other answer carries `unanswered`
        answer.kind === "leased" ? answer.unanswered : undefined,
      );
      // Stryker disable next-line ConditionalExpression: no other answer carries `releasedAt`
      const releasedAt = answer.kind === "leased" ? answer.releasedAt : undefined;
      return {
        state: { ...state, phase: "known-take", heldBack, releasedAt },
        step: { kind: "take", incidentId },
      };
    }
    case "known-take":
      if (state.answer) return plan(state, state.answer, answer);
      if (mayAdoptFromList(state)) {
        return { state: { ...state, phase: "known-list" }, step: { kind: "list", fresh: false } };
      }
      return read(state);
    case "known-list": {
      if (answer.kind !== "listed") return unexpected(state, answer);
      const listed = unchangedInList(state, answer);
      return listed ? plan(state, listed, answer) : read(state);
    }
    case "known-get": {
      if (answer.kind !== "incident") return unexpected(state, answer);
      const refusal = pageChangeRefused(state, answer.incident);
      if (refusal !== undefined) return refuse(state, refusal);
      if (!state.opened && fieldsNeedPut(state.declaration, answer.incident)) {
        const body = requestOf(state.declaration, { accountId: state.context.accountId });
        return { state: { ...state, phase: "known-put" }, step: { kind: "put", incidentId, body } };
      }
      return plan(state, answer.incident, answer);
    }
    case "known-put": {
      if (answer.kind !== "incident") return unexpected(state, answer);
      const refusal = notTaken(incidentId, state.declaration, undefined, answer.incident);
      if (refusal !== undefined) return refuse(state, refusal);
      return plan(state, answer.incident, answer);
    }
  }
}

/**
 * Under `onPageChange: refuse`, a change on the status page this read shows, before the PUT
 * that would undo it: the program's observation lacks an incident opened by its resource once
 * the page renamed it, as it is no longer the definition's opening.
 */
function pageChangeRefused(state: Known, incident: IncidentResponse): string | undefined {
  // Stryker disable next-line ConditionalExpression,LogicalOperator: a shortcut; the refusal checks the setting again, and an incident just opened shows what was declared
  if (state.opened || state.context.onPageChange !== "refuse") return undefined;
  const observed = observe(incident.incidentUpdates, incident, state.declaration);
  return pageChangeRefusalBeforeApply(
    state.olds,
    { ...state.declaration, observed },
    state.context.onPageChange,
  );
}

function read(state: Known): Moved {
  const { incidentId } = state.declaration;
  return { state: { ...state, phase: "known-get" }, step: { kind: "get", incidentId } };
}

/**
 * An adoption the program saw with the declared fields: the run's copy of the list may show
 * that nothing differs, and then no read of its own is due. Anything to send is decided on a
 * read under the lease, as ever.
 */
function mayAdoptFromList(state: Known): boolean {
  const { olds, inputs, declaration } = state;
  if (state.opened || state.heldBack !== undefined) return false;
  if (olds !== undefined && !olds.claimed) return false;
  const observed = inputs.observed;
  return observed?.kind === "read" && observed.fields === fieldsDigest(declaration);
}

/** The incident as the run's list shows it, when read after any other holder let go and nothing in it differs. */
function unchangedInList(
  state: Known,
  answer: Extract<Answer, { kind: "listed" }>,
): IncidentResponse | undefined {
  if (state.releasedAt !== undefined && answer.readAt <= state.releasedAt) return undefined;
  const { incidentId } = state.declaration;
  const entry = answer.incidents.entries.find((listed) => listed.id === incidentId);
  if (entry?.incidentUpdates === undefined) return undefined;
  const incident: IncidentResponse = { ...entry, incidentUpdates: entry.incidentUpdates };
  if (fieldsNeedPut(state.declaration, incident)) return undefined;
  const { olds } = state;
  const recorded = olds?.claimed ? claimedEntriesOn(olds, incident) : state.recorded;
  const planned = planEntriesOn(state.declaration, incident, recorded, lastApplyMs(olds));
  const writes = planned.actions.some((action) => action.kind !== "found");
  return planned.refusal === undefined && !writes ? incident : undefined;
}

function plan(state: Known, incident: IncidentResponse, now: Moment): Moved {
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
  if (planned.refusal) return refuse(sending, planned.refusal, keepSent(sending, now.at));
  const adopted = planned.actions.flatMap((action) =>
    action.kind === "found" && !postedByUs(sending, action.index) ? [action.index] : [],
  );
  if (adopted.length === 0) return carryOn(sending, now);
  const note = adoptedNote(state.declaration.incidentId, adopted);
  return carryOn({ ...sending, notes: [...sending.notes, note] }, now);
}

/**
 * Whether an entry found on the status page is one a run of ours posted without recording its
 * id: recorded without it, or posted since the last apply. Else it was there when adopted.
 */
function postedByUs(state: Sending, index: number): boolean {
  return index < state.recorded.entries.length || lastApplyMs(state.olds) !== undefined;
}

/** The next action of the plan, or the record once none is left. */
function carryOn(state: Sending, now: Moment): Moved {
  const action = state.actions[state.next];
  const { declaration } = state;
  const { incidentId } = declaration;
  if (action === undefined) {
    const { providerVersion, observed } = state.inputs;
    const record = {
      ...entriesRecord(declaration, providerVersion, state, new Date(now.at)),
      ...seenIn(observed, declaration),
    };
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
    const notes =
      own || !postedByUs(state, action.index)
        ? state.notes
        : [...state.notes, foundNote(incidentId, action.index, action.updateId)];
    return carryOn(
      { ...state, ids, next: state.next + 1, posted: own ? [own] : state.posted, notes },
      now,
    );
  }
  if (action.kind === "edit") {
    const live = state.incident.incidentUpdates.find((shown) => shown.id === action.updateId);
    const body = editRequest(entry, live);
    return { state, step: { kind: "edit", incidentId, updateId: action.updateId, body } };
  }
  const recorded = state.olds?.incidentId === incidentId ? state.olds.unanswered : undefined;
  const unanswered = [recorded, state.heldBack].find(
    (write) => write?.entry === action.index && inWindow(write, now),
  );
  if (unanswered !== undefined) {
    return refuse(
      state,
      `incident ${incidentId}: updates[${action.index}] is not posted yet: its post, sent at ${unanswered.at}, got no answer, and the service does not show it. It is not sent again until the service shows it or until ${windowEnd(unanswered, now)}; run again then.`,
      keepSent(state, now.at, unanswered),
    );
  }
  const body = entryRequest(entry, { notify: entry.notify });
  const resource = state.inputs.resource ?? "";
  // An incident this operation opened is posted on under the opening's lease, the one held.
  const lease = state.opened ? openingLease(state.inputs) : `incident:${incidentId}`;
  const intent = { lease, entry: action.index, resource };
  return { state, step: { kind: "post", incidentId, body, intent } };
}

export function stepSending(state: Sending, answer: Answer): Moved {
  const action = state.actions[state.next] as EntryAction;
  const { incidentId } = state.declaration;
  const failure = failed(answer);
  if (state.phase === "reread") return reread(state, action, answer);
  if (action.kind === "edit") {
    if (failure?.absent) return probe(state, incidentId, "", failure, keepSent(state, answer.at));
    if (failure) return refuse(state, failure.text, keepSent(state, answer.at));
    if (answer.kind !== "update") return unexpected(state, answer);
    return made(state, answer.update, answer.update.id ?? action.updateId, answer);
  }
  if (failure?.unknown) return unknownOutcome(state, answer);
  if (failure?.throttled && (state.throttled ?? 0) < THROTTLED_WRITES_MAX) {
    const throttled = (state.throttled ?? 0) + 1;
    return {
      state: {
        ...state,
        phase: "reread",
        throttledBack: true,
        throttled,
        sentAt: answer.at,
        sentClock: answer.clock,
      },
      step: { kind: "get", incidentId },
    };
  }
  const prefix = `incident ${incidentId}: updates[${action.index}] was not posted: `;
  if (failure?.absent) return probe(state, incidentId, prefix, failure, keepSent(state, answer.at));
  if (failure) return refuse(state, `${prefix}${failure.text}`, keepSent(state, answer.at));
  if (answer.kind !== "update") return unexpected(state, answer);
  // An answer that is not the update sent is not taken for it: was it made? A read says.
  const entry = state.declaration.updates[action.index] as DeclaredEntry;
  if (!isPostingOf(answer.update, entry)) return unknownOutcome(state, answer);
  if (answer.update.id) return made(state, answer.update, answer.update.id, answer);
  // Posted, yet the answer names no id: a read may give it; the entry is posted either way.
  return {
    state: { ...state, phase: "reread", answered: answer.update },
    step: { kind: "get", incidentId },
  };
}

/** A post that may have been made, or not: the incident, read, says. */
function unknownOutcome(state: Sending, sent: Moment): Moved {
  const { incidentId } = state.declaration;
  return {
    state: { ...state, phase: "reread", sentAt: sent.at, sentClock: sent.clock },
    step: { kind: "get", incidentId },
  };
}

/**
 * A post read back: found (its id learned), made without an id, answered 429 and not shown
 * (sent again), or not known to be made.
 */
function reread(state: Sending, action: EntryAction, answer: Answer): Moved {
  // Stryker disable next-line ArrayDeclaration: what a failed read shows is only searched for updates with an id
  const shown = answer.kind === "incident" ? answer.incident.incidentUpdates : [];
  // Stryker disable next-line MethodExpression: an empty id is never known: updates without one are not found
  const known = new Set(state.ids.filter(Boolean));
  const id = foundPosted(state.declaration.updates, [action.index], shown, { known }).get(
    action.index,
  );
  const found = id === undefined ? undefined : shown.find((update) => update.id === id);
  if (found !== undefined) return made(state, found, id ?? "", answer);
  if (state.answered !== undefined) return made(state, state.answered, "", answer);
  const { sentAt, sentClock, throttledBack, ...rest } = state;
  // A 429 the read shows was not carried out: the post goes again, after the client's wait.
  if (throttledBack && answer.kind === "incident")
    return carryOn({ ...rest, phase: "send" }, answer);
  const unanswered = unansweredAt(action.index, { at: sentAt ?? answer.at, clock: sentClock });
  return refuse(
    state,
    `incident ${state.declaration.incidentId}: updates[${action.index}] may not have been posted: the service did not answer the post sent at ${unanswered.at}, and does not show it yet. It is not sent again until the service shows it or until ${windowEnd(unanswered, answer)}: a run before then reads again before it posts.`,
    keepSent(state, answer.at, unanswered),
  );
}

function made(state: Sending, update: IncidentUpdate, id: string, now: Moment): Moved {
  const action = state.actions[state.next] as EntryAction;
  const ids = [...state.ids];
  ids[action.index] = id;
  const { answered: _a, sentAt: _s, sentClock: _c, throttledBack: _t, ...rest } = state;
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
