/*
 * The rate ledger: what every client sending with one key remembers of the requests sent,
 * and the one rule of when the next may go. A sliding log: the sends in flight, the sends
 * answered in the last window (each dated by its answer), a 429's hold, and the limit each
 * process sharing the ledger keeps. A send goes at once while every limit has room in the
 * window that ends now, so a run spends its window as fast as latency allows and waits only
 * when the window is full.
 *
 * A request reaches the service at some time between its taking and its answer, so a send
 * counts in every window from its taking until a window after its answer: then no window of
 * arrivals, however the service aligns or slides it, holds more than a limit's worth.
 *
 * Invariants (test/api/rate-ledger.property.test.ts):
 * - a send taken at `t` under a kept limit `(L, W)` found fewer than `L` others taken before
 *   it whose answer came after `t - W` (or has not come);
 * - a group's `last` is never before any answer it counts, so merging only over-counts;
 * - the log stays bounded whatever the limits, and a time ahead of the clock is cut to it.
 * Pure: the caller reads the ledger, passes `now`, and writes it back under its lock.
 */

/** Sends close in time, kept as one entry: the first and last send's time, and how many. */
export type SendGroup = [first: number, last: number, count: number];

/** The limit of a process sharing the ledger, and when it last took a slot. */
export type KeptLimit = [limit: number, intervalMs: number, seenAt: number];

/**
 * A send in flight: its id, and when it counts as answered if its process never says (the
 * attempt's longest time: its process died, or lost the ledger).
 */
export type OpenSend = [id: string, answeredBy: number];

export interface Ledger {
  /** Answered sends, oldest first; no group ends after the next begins. */
  sends: SendGroup[];
  /** Sends not yet answered: each counts in every window. */
  open: OpenSend[];
  /** A 429 said to wait: nobody sends before this (epoch ms). */
  holdUntil: number;
  limits: KeptLimit[];
}

/** The pace one client keeps: its limit, and the longest wait a server may ask of it. */
export interface Pace {
  readonly limit: number;
  readonly intervalMs: number;
  /** Longer than this, a hold cannot have come from a server. */
  readonly maxHoldMs: number;
}

/** A time in the ledger that was ahead of the clock, and cut to it. */
export type Clamped =
  | { readonly kind: "hold"; readonly aheadMs: number; readonly maxHoldMs: number }
  | { readonly kind: "sends"; readonly aheadMs: number };

/**
 * The window is counted this much longer than the service's, so that the spread between
 * a request's sending and its arrival cannot put one more into the service's window.
 */
export const WINDOW_MARGIN = 0.02;
/** Sends within a window's this-many-th part of one another share a log entry. */
const RESOLUTION = 100;
/** Most log entries and kept limits; beyond them the oldest are merged or dropped. */
const MAX_GROUPS = 512;
const MAX_LIMITS = 16;
const MAX_OPEN = 4_096;
/** A kept limit is dropped once its process has not sent for this many of its windows. */
const LIMIT_KEPT_WINDOWS = 2;
/** Sends this little ahead of the clock are cut to it without a word. */
const QUIET_AHEAD_MS = 1_000;

export function emptyLedger(): Ledger {
  return { sends: [], open: [], holdUntil: 0, limits: [] };
}

/** The span a limit's window is counted over. */
export function spanOf(intervalMs: number): number {
  return intervalMs * (1 + WINDOW_MARGIN);
}

/** A send about to be taken: its id, and how long its attempt may take at most. */
export interface Ticket {
  readonly id: string;
  readonly openForMs: number;
}

/**
 * Takes a slot at `now` when every kept limit (this client's included) has room in the
 * window ending now and no hold is on: `at` is then `now`, and the send is open in the log
 * until `answered`. Otherwise `at` is when to ask again, and nothing is taken.
 */
export function takeSlot(
  ledger: Ledger,
  now: number,
  pace: Pace,
  ticket: Ticket,
): { at: number; clamped: Clamped[] } {
  const clamped = clampAhead(ledger, now, pace.maxHoldMs);
  closeOverdue(ledger, now);
  keepLimit(ledger, now, pace);
  let at = Math.max(now, ledger.holdUntil);
  for (const [limit, intervalMs] of ledger.limits) {
    at = Math.max(at, roomAt(ledger, now, limit, spanOf(intervalMs)));
  }
  if (at > now) return { at, clamped };
  ledger.open.push([ticket.id, now + ticket.openForMs]);
  if (ledger.open.length > MAX_OPEN) {
    for (const [id] of ledger.open.slice(0, ledger.open.length - MAX_OPEN))
      answered(ledger, now, id);
  }
  return { at: now, clamped };
}

/** The send `id` was answered (or failed) at `now`: it counts for a window from now. */
export function answered(ledger: Ledger, now: number, id: string): void {
  const index = ledger.open.findIndex(([openId]) => openId === id);
  if (index === -1) return;
  ledger.open.splice(index, 1);
  record(ledger, now);
}

/** A 429: nobody sharing the ledger sends before `until` (at most `maxHoldMs` from now). */
export function holdSends(ledger: Ledger, now: number, until: number, pace: Pace): Clamped[] {
  const clamped = clampAhead(ledger, now, pace.maxHoldMs);
  ledger.holdUntil = Math.max(ledger.holdUntil, Math.min(until, now + pace.maxHoldMs));
  return clamped;
}

/**
 * Times ahead of the clock: a hold longer than any server may ask is dropped, and sends
 * dated ahead (the clock set back) count as sent now, so neither stalls a client for longer
 * than a window.
 */
function clampAhead(ledger: Ledger, now: number, maxHoldMs: number): Clamped[] {
  const clamped: Clamped[] = [];
  if (ledger.holdUntil > now + maxHoldMs) {
    clamped.push({ kind: "hold", aheadMs: ledger.holdUntil - now, maxHoldMs });
    ledger.holdUntil = now;
  }
  let ahead = 0;
  for (const group of ledger.sends) {
    ahead = Math.max(ahead, group[1] - now);
    group[0] = Math.min(group[0], now);
    group[1] = Math.min(group[1], now);
  }
  if (ahead > QUIET_AHEAD_MS) clamped.push({ kind: "sends", aheadMs: ahead });
  for (const kept of ledger.limits) kept[2] = Math.min(kept[2], now);
  return clamped;
}

/** Sends whose process never said they were answered count as answered at their latest. */
function closeOverdue(ledger: Ledger, now: number): void {
  const overdue = ledger.open.filter(([, by]) => by <= now).sort((a, b) => a[1] - b[1]);
  if (overdue.length === 0) return;
  ledger.open = ledger.open.filter(([, by]) => by > now);
  for (const [, by] of overdue) record(ledger, by);
}

/** This client's limit kept (seen now), and the limits of processes long gone dropped. */
function keepLimit(ledger: Ledger, now: number, pace: Pace): void {
  const mine = ledger.limits.find(([l, i]) => l === pace.limit && i === pace.intervalMs);
  if (mine) mine[2] = now;
  else ledger.limits.push([pace.limit, pace.intervalMs, now]);
  ledger.limits = ledger.limits
    .filter(([, intervalMs, seenAt]) => now - seenAt <= LIMIT_KEPT_WINDOWS * spanOf(intervalMs))
    .sort((a, b) => b[2] - a[2])
    .slice(0, MAX_LIMITS);
}

/**
 * When `limit` in any `span` leaves room for one more send, from `now` on: answered sends
 * leave the window a span after their answer; a send in flight stays in it until answered
 * and a span more, so while those alone fill it the answer is a span from now, at the soonest.
 */
function roomAt(ledger: Ledger, now: number, limit: number, span: number): number {
  const since = now - span;
  let inWindow = ledger.open.length;
  for (const [, last, count] of ledger.sends) if (last > since) inWindow += count;
  let excess = inWindow - limit + 1;
  if (excess <= 0) return now;
  for (const [, last, count] of ledger.sends) {
    if (last <= since) continue;
    excess -= count;
    if (excess <= 0) return last + span;
  }
  return now + span;
}

/**
 * An answer at `at` in the log, close answers merged, and what no window counts dropped.
 * Answers come in any order across processes: one older than the newest group joins it,
 * dated by its `last`, which only counts it longer.
 */
function record(ledger: Ledger, at: number): void {
  const spans = ledger.limits.map(([, intervalMs]) => spanOf(intervalMs));
  const shortest = spans.length === 0 ? 0 : Math.min(...spans);
  const longest = spans.length === 0 ? Number.POSITIVE_INFINITY : Math.max(...spans);
  const { sends } = ledger;
  const newest = sends.at(-1);
  if (newest && (at <= newest[1] || at - newest[0] < shortest / RESOLUTION)) {
    newest[1] = Math.max(newest[1], at);
    newest[2] += 1;
  } else sends.push([at, at, 1]);
  const now = Math.max(at, newest?.[1] ?? at);
  while (sends.length > 0 && (sends[0]?.[1] ?? now) <= now - longest) sends.shift();
  while (sends.length > MAX_GROUPS) {
    const [a, b] = sends.splice(0, 2) as [SendGroup, SendGroup];
    sends.unshift([a[0], Math.max(a[1], b[1]), a[2] + b[2]]);
  }
}

const finite = (value: unknown): value is number =>
  typeof value === "number" && Number.isFinite(value);
const positive = (value: unknown): value is number => finite(value) && value > 0;

/** The ledger in a file's text; anything unreadable or out of shape is left out. */
export function parseLedger(text: string): Ledger {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return emptyLedger();
  }
  const raw = (typeof data === "object" && data !== null ? data : {}) as Record<string, unknown>;
  const sends = (Array.isArray(raw.sends) ? raw.sends : [])
    .filter(
      (group): group is SendGroup =>
        Array.isArray(group) &&
        group.length === 3 &&
        finite(group[0]) &&
        finite(group[1]) &&
        group[0] <= group[1] &&
        Number.isSafeInteger(group[2]) &&
        group[2] > 0,
    )
    .map(([first, last, count]): SendGroup => [first, last, count])
    .sort((a, b) => a[1] - b[1]);
  const open = (Array.isArray(raw.open) ? raw.open : [])
    .filter(
      (send): send is OpenSend =>
        Array.isArray(send) && send.length === 2 && typeof send[0] === "string" && finite(send[1]),
    )
    .map(([id, by]): OpenSend => [id, by])
    .slice(-MAX_OPEN);
  const limits = (Array.isArray(raw.limits) ? raw.limits : [])
    .filter(
      (kept): kept is KeptLimit =>
        Array.isArray(kept) &&
        kept.length === 3 &&
        Number.isSafeInteger(kept[0]) &&
        positive(kept[0]) &&
        positive(kept[1]) &&
        finite(kept[2]),
    )
    .map(([limit, intervalMs, seenAt]): KeptLimit => [limit, intervalMs, seenAt])
    .slice(0, MAX_LIMITS);
  return { sends, open, holdUntil: finite(raw.holdUntil) ? raw.holdUntil : 0, limits };
}

export function serializeLedger(ledger: Ledger): string {
  return JSON.stringify(ledger);
}
