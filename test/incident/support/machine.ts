import {
  type ApiError,
  BadRequestError,
  type IncidentResponse,
  type IncidentUpdate,
  NotFoundError,
  RateLimitError,
  ServerError,
  TimeoutError,
} from "../../../src/api";
import {
  type Answer,
  type IncidentInputs,
  type IncidentRecord,
  type Monotonic,
  next,
  type Reply,
  type State,
  type Step,
} from "../../../src/incident";

/** The machine's clock in these tests: answers are stamped from here. */
export const T0 = Date.parse("2026-11-27T12:00:00.000Z");
export const iso = (ms: number) => new Date(ms).toISOString();

export const ACCOUNT = "acct-1";
export const context = { accountId: ACCOUNT, inRun: new Set<string>() };

/** A new incident's inputs: two entries, the first notifying. */
export function entriesInputs(overrides: Partial<IncidentInputs> = {}): IncidentInputs {
  return {
    resource: "checkout-down",
    name: "Checkout fails",
    severity: "MAJOR",
    status: "IDENTIFIED",
    services: [{ id: "svc-api", name: "Public API" }],
    onRemove: "release",
    providerVersion: "0.3.0",
    updates: [
      { status: "INVESTIGATING", message: "We are looking into it. [e0]", notify: true },
      { status: "IDENTIFIED", message: "We found the cause. [e1]", notify: true },
    ],
    ...overrides,
  };
}

/** A declaration without `updates`, adopting an incident by id. */
export function statusInputs(overrides: Partial<IncidentInputs> = {}): IncidentInputs {
  return {
    incidentId: "inc-1",
    name: "Checkout fails",
    severity: "MAJOR",
    status: "MONITORING",
    services: [{ id: "svc-api", name: "Public API" }],
    onRemove: "resolve",
    providerVersion: "0.3.0",
    ...overrides,
  };
}

export function update(id: string | undefined, message: string, at: number, status?: string) {
  return {
    ...(id === undefined ? {} : { id }),
    description: message,
    ...(status ? { status } : {}),
    created_at: iso(at),
    publicIncidentUpdateDate: iso(at),
    notifySubscribers: false,
  } satisfies IncidentUpdate;
}

/** An incident as the service answers it. */
export function incident(
  id: string,
  updates: IncidentUpdate[],
  overrides: Partial<IncidentResponse> = {},
): IncidentResponse {
  return {
    id,
    name: "Checkout fails",
    severity: "MAJOR",
    services: [{ id: "svc-api", name: "Public API", accountId: ACCOUNT }],
    incidentUpdates: updates,
    lastUpdateStatus: updates.at(-1)?.status ?? "INVESTIGATING",
    created_at: updates[0]?.created_at ?? iso(T0),
    updated_at: updates.at(-1)?.created_at ?? iso(T0),
    ...overrides,
  };
}

const request = {
  operation: "incidents.test",
  method: "POST",
  path: "/v1/status-pages/incidents",
  attempts: 1,
};

/** The failures a step may get, as the client throws them. */
export const FAILURES = {
  "not-found": () => new NotFoundError("404 Not Found", { ...request, status: 404 }),
  timeout: () => new TimeoutError({ ...request, timeoutMs: 10_000 }),
  "server-error": () => new ServerError("503 Service Unavailable", { ...request, status: 503 }),
  "rate-limited": () => new RateLimitError("429 Too Many Requests", { ...request, status: 429 }),
  refused: () => new BadRequestError("400 Bad Request", { ...request, status: 400 }),
} satisfies Record<string, () => ApiError>;

export const failed = (error: ApiError): Reply => ({ kind: "failed", error, text: error.message });

/**
 * Feeds the machine `replies` after its start, one a second; the last state and step. With
 * `clock`, each answer also carries the monotonic clock, ticking with the wall clock.
 */
export function drive(
  start: State,
  replies: readonly Reply[],
  at = T0,
  clock?: Monotonic,
): { state: State; step: Step } {
  const stamp = (index: number) => ({
    at: at + index * 1_000,
    ...(clock ? { clock: { boot: clock.boot, ms: clock.ms + index * 1_000 } } : {}),
  });
  let moved = next(start, { kind: "begin", ...stamp(0) });
  replies.forEach((reply, index) => {
    moved = next(moved.state, { ...reply, ...stamp(index + 1) } as Answer);
  });
  return moved;
}

export function record(inputs: IncidentInputs, overrides: Partial<IncidentRecord> = {}) {
  const { providerVersion, observed: _o, candidates: _c, claimOnly: _claim, ...declared } = inputs;
  return {
    ...declared,
    incidentId: inputs.incidentId ?? "",
    providerVersion,
    appliedAt: iso(T0 - 3_600_000),
    live: { status: inputs.status, at: iso(T0 - 3_600_000), source: "applied" as const },
    appliedUpdates: [],
    ...overrides,
  } satisfies IncidentRecord;
}
