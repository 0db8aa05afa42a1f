import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type IncidentResponse, IncidentStatus, knownStatus, Severity } from "../../src/api";
import { ROUTES } from "../../src/api/routes";
import { liveStatusObserved, liveStatusOf, observe } from "../../src/incident";
import { answering, nullish, optional, present } from "../support/contract-answers";

/*
 * The service's reference lets responses leave fields out or send null, and the service may add
 * statuses and severities: every such answer to the PUT and to the list of updates is read,
 * and a status we do not know makes the live status unknown instead of failing a run.
 */

const RUNS = 1_000;
const STATUSES: readonly string[] = IncidentStatus.options;

/** A string the service may send for a status or severity: one we know, or a new one. */
const enumValue = (known: readonly string[]) =>
  fc.oneof(
    fc.constantFrom(...known),
    fc.constantFrom("PAUSED", "investigating", "Resolved", "SCHEDULED", " RESOLVED"),
    fc.string({ minLength: 1, maxLength: 12 }).filter((value) => !known.includes(value)),
  );

const MIN = Date.UTC(2020, 0, 1);
const MAX = Date.UTC(2030, 0, 1);
/** After every date generated: the newest update is placed here. */
const NEWEST = "2031-01-01T00:00:00.000Z";

/** A timestamp as servers write it: ISO, another format, or something unreadable. */
const timestamp = fc.oneof(
  fc.integer({ min: MIN, max: MAX }).map((ms) => new Date(ms).toISOString()),
  fc.integer({ min: MIN, max: MAX }).map((ms) => new Date(ms).toISOString().replace("T", " ")),
  fc.constantFrom("", "yesterday", "2026-13-45"),
);

const update = fc
  .record({
    id: nullish(fc.uuid()),
    description: fc.string({ maxLength: 200 }),
    status: nullish(fc.oneof(enumValue(STATUSES), fc.constant(""))),
    publicIncidentUpdateDate: nullish(timestamp),
    created_at: nullish(timestamp),
    notifySubscribers: nullish(fc.boolean()),
    addedLater: optional(fc.jsonValue()),
  })
  .map(present);

const service = fc
  .record({
    id: fc.string({ minLength: 1, maxLength: 12 }),
    name: optional(fc.string({ maxLength: 20 })),
    accountId: optional(fc.string({ minLength: 1, maxLength: 12 })),
    created_at: optional(timestamp),
    updated_at: nullish(timestamp),
  })
  .map(present);

const incident = fc
  .record({
    id: fc.string({ minLength: 1, maxLength: 12 }),
    name: fc.string({ maxLength: 300 }),
    severity: enumValue(Severity.options),
    services: fc.array(service, { maxLength: 3 }),
    incidentUpdates: fc.array(update, { maxLength: 5 }),
    lastUpdateStatus: enumValue(STATUSES),
    created_at: timestamp,
    updated_at: nullish(timestamp),
    duration: nullish(fc.integer({ min: 0, max: 1_000_000 })),
    addedLater: optional(fc.jsonValue()),
  })
  .map(present);

const request = {
  name: "Elevated error rates",
  severity: "MAJOR" as const,
  services: [{ id: "svc-api", name: "Public API", accountId: "acct-demo" }],
};

describe("responses the service's reference allows (generated, 1,000 cases each)", () => {
  it("the PUT's answer is read with fields absent, null or present and enum values unknown", async () => {
    let answer: Record<string, unknown> = {};
    const client = answering(() => answer);
    await fc.assert(
      fc.asyncProperty(incident, async (generated) => {
        answer = generated;
        expect(ROUTES.updateIncident.success.body.schema.safeParse(generated).success).toBe(true);
        const read: IncidentResponse = await client.incidents.update("inc-api-errors", request);
        expect(read.lastUpdateStatus).toBe(generated.lastUpdateStatus);
        expect(read.severity).toBe(generated.severity);
        const known = knownStatus(read.lastUpdateStatus);
        expect(known).toBe(
          STATUSES.includes(read.lastUpdateStatus) ? read.lastUpdateStatus : undefined,
        );
        expect(() => liveStatusOf(read.incidentUpdates)).not.toThrow();
        expect(() => observe(read.incidentUpdates)).not.toThrow();
      }),
      { numRuns: RUNS },
    );
  });

  it("the list of updates is read, and an unknown newest status makes the live status unknown", async () => {
    let answer: unknown[] = [];
    const client = answering(() => answer);
    await fc.assert(
      fc.asyncProperty(
        fc.array(update, { maxLength: 8 }),
        enumValue(STATUSES),
        fc.boolean(),
        async (older, newestStatus, dated) => {
          // The newest update, published after every other one (by either date field).
          const newest = {
            id: "upd-newest",
            description: "Status changed",
            status: newestStatus,
            ...(dated ? { publicIncidentUpdateDate: NEWEST } : { created_at: NEWEST }),
          };
          answer = [...older, newest];
          expect(ROUTES.listIncidentUpdates.success.body.schema.safeParse(answer).success).toBe(
            true,
          );
          const updates = await client.incidents.listUpdates("inc-api-errors");
          expect(updates).toHaveLength(answer.length);

          const known = STATUSES.includes(newestStatus);
          const live = liveStatusOf(updates);
          const applied = liveStatusOf(updates, {
            status: "MONITORING",
            at: new Date(MAX).toISOString(),
          });
          const observed = observe(updates);
          const fromObservation = liveStatusObserved(observed);
          for (const status of [live, applied, fromObservation]) {
            expect(status).toMatchObject(
              known
                ? { status: newestStatus, source: "update" }
                : { status: null, source: "update", unrecognized: newestStatus },
            );
          }
          expect(observed).toMatchObject({
            kind: "read",
            newestAt: NEWEST,
            status: { status: newestStatus, at: NEWEST, updateId: "upd-newest" },
          });
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("the live status is never a value we do not know, whatever the updates hold", () => {
    fc.assert(
      fc.property(fc.array(update, { maxLength: 8 }), (generated) => {
        const updates = ROUTES.listIncidentUpdates.success.body.schema.parse(generated);
        const live = liveStatusOf(updates);
        expect(live.status === null || STATUSES.includes(live.status)).toBe(true);
        const observed = observe(updates);
        const fromObservation = liveStatusObserved(observed);
        expect(fromObservation?.status).toBe(live.status);
        expect(fromObservation?.unrecognized).toBe(live.unrecognized);
      }),
      { numRuns: RUNS },
    );
  });
});
