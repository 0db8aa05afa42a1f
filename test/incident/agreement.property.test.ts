import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { diff as providerDiff } from "../../providers/incident-operations";
import type { IncidentStatus, IncidentUpdate } from "../../src/api";
import type { LoadedDefinition } from "../../src/definitions";
import { IncidentDefinition } from "../../src/definitions/schema";
import { type AppliedField, decideApply, declarationOf } from "../../src/incident";
import { diffDefinitions } from "../../src/plan";
import { incidentReadBack } from "../../src/program";
import { computeDrift } from "../../src/reports";

const RUNS = 1000;
const statuses: IncidentStatus[] = ["INVESTIGATING", "IDENTIFIED", "MONITORING", "RESOLVED"];
const serviceIds = ["svc-api", "svc-web", "svc-db", "svc-auth"];

/** A service as a loaded definition holds it: always named (inline or by the catalog). */
const service = fc.record({
  id: fc.constantFrom(...serviceIds),
  name: fc.constantFrom("Public API", "Web app"),
});

/** A definition as a person could write it, normalized by the schema. */
const definition = fc
  .record(
    {
      id: fc.constantFrom("inc-a", "inc-b"),
      name: fc.constantFrom("API errors", "Slow checkout"),
      severity: fc.constantFrom("CRITICAL", "MAJOR", "MEDIUM", "MINOR"),
      status: fc.constantFrom(...statuses),
      services: fc.uniqueArray(service, { minLength: 1, maxLength: 3, selector: (s) => s.id }),
      duration: fc.constantFrom(undefined, null, 60, 120),
      onRemove: fc.constantFrom("release", "resolve"),
      reopen: fc.constantFrom(undefined, true, false),
      reason: fc.constantFrom(undefined, "Only EU", "Fixed upstream"),
      evidence: fc.constantFrom(undefined, { checks: ["chk-api"] }, { heartbeats: ["hb-1"] }),
    },
    { requiredKeys: ["id", "name", "severity", "status", "services"] },
  )
  .map((fields) =>
    IncidentDefinition.parse({
      ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)),
      resource: "incident",
    }),
  );

/** A second version: the same, a shuffle of its services, or another definition's fields. */
const pair = fc.tuple(definition, definition, fc.nat(3)).map(([before, other, how]) => {
  if (how === 0) return [before, before] as const;
  if (how === 1) return [before, { ...before, services: [...before.services].reverse() }] as const;
  if (how === 2) return [before, { ...other, id: before.id }] as const;
  return [before, other] as const;
});

const loaded = (d: IncidentDefinition): LoadedDefinition => ({
  definition: d,
  file: "incidents/a.yaml",
  document: 1,
  at: { line: 1, column: 1 },
  idAt: { line: 1, column: 5 },
  nameAt: { line: 2, column: 7 },
  resourceAt: undefined,
  servicesAt: d.services.map((_, index) => ({ line: 6 + index, column: 5 })),
});

describe("plan and the provider agree (generated, 1,000 cases each)", () => {
  it("plan reports a change to the status page exactly when the provider's diff does, and the same fields", async () => {
    await fc.assert(
      fc.asyncProperty(pair, async ([before, after]) => {
        const plan = diffDefinitions([loaded(before)], [loaded(after)]);
        const change = plan.changes[0];
        const planApplies = change?.kind === "update" && change.applies;
        const planFields = new Set<string>(
          change?.kind === "update"
            ? [
                ...change.fields.map((field) => field.field),
                ...(change.services.added.length +
                  change.services.removed.length +
                  change.services.renamed.length >
                0
                  ? ["services"]
                  : []),
              ].filter((field) => field !== "reason" && field !== "id")
            : [],
        );
        const state = {
          ...declarationOf(before),
          incidentId: before.id ?? "",
          providerVersion: "1",
          appliedAt: "2026-11-23T08:00:00.000Z",
          live: {
            status: before.status,
            at: "2026-11-23T08:00:00.000Z",
            source: "applied" as const,
          },
          appliedUpdates: [],
        };
        const result = await providerDiff({}, state, {
          ...declarationOf(after),
          providerVersion: "1",
        });
        expect(result.changes).toBe(planApplies);
        const decided = decideApply(state, declarationOf(after), undefined, "observed").changed;
        expect(new Set<AppliedField | string>(decided)).toEqual(planFields);
      }),
      { numRuns: RUNS },
    );
  });
});

/** A status page's history: updates posted by people, and one apply that sets `applied`. */
const history = fc
  .record({
    initial: fc.constantFrom(...statuses),
    posts: fc.array(
      fc.record({
        minute: fc.integer({ min: 1, max: 240 }),
        status: fc.option(fc.constantFrom(...statuses), { nil: undefined }),
        // A backfilled update: created later than the date customers see.
        backfilled: fc.boolean(),
      }),
      { maxLength: 8 },
    ),
    applyMinute: fc.integer({ min: 1, max: 240 }),
    applied: fc.constantFrom(...statuses),
  })
  .map(({ initial, posts, applyMinute, applied }) => {
    const at = (minute: number) => new Date(Date.UTC(2026, 10, 23, 0, minute)).toISOString();
    const unique = posts.filter(
      (post, index) =>
        post.minute !== applyMinute && posts.findIndex((p) => p.minute === post.minute) === index,
    );
    const updates: IncidentUpdate[] = [
      {
        id: "u-0",
        description: "opened",
        status: initial,
        publicIncidentUpdateDate: at(0),
        notifySubscribers: false,
      },
      ...unique.map((post) => ({
        id: `u-${post.minute}`,
        description: "posted on the status page",
        ...(post.status ? { status: post.status } : {}),
        publicIncidentUpdateDate: at(post.minute),
        created_at: post.backfilled ? at(300 + post.minute) : at(post.minute),
        notifySubscribers: false,
      })),
    ];
    // The apply's PUT posts "Status changed to X" when it changes the status, as the emulator does.
    const before = [...updates]
      .filter((u) => Date.parse(u.publicIncidentUpdateDate ?? "") < Date.parse(at(applyMinute)))
      .sort(
        (a, b) =>
          Date.parse(b.publicIncidentUpdateDate ?? "") -
          Date.parse(a.publicIncidentUpdateDate ?? ""),
      )
      .find((u) => u.status)?.status;
    if (before !== applied) {
      updates.push({
        id: "u-apply",
        description: `Status changed to ${applied}`,
        status: applied,
        publicIncidentUpdateDate: at(applyMinute),
        notifySubscribers: false,
      });
    }
    return { updates, applied: { status: applied, appliedAt: at(applyMinute) } };
  });

describe("drift and the stack outputs agree (generated, 1,000 cases)", () => {
  it("give the same live status, state and updates outside git, dated alike, for the same history", async () => {
    const declared = IncidentDefinition.parse({
      id: "inc-a",
      name: "A",
      severity: "MAJOR",
      status: "MONITORING",
      services: [{ id: "svc-api", name: "Public API" }],
    });
    await fc.assert(
      fc.asyncProperty(history, fc.boolean(), async ({ updates, applied }, knowsApply) => {
        const outputs = incidentReadBack(
          declared,
          "incidents/a.yaml",
          { ...applied, incidentId: declared.id ?? "", appliedUpdates: [] },
          { ok: true, value: { id: declared.id ?? "", updates } },
        );
        const drift = await computeDrift(
          { listUpdates: async () => updates },
          [{ definition: declared, file: "incidents/a.yaml", at: { line: 1 } }],
          {
            since: new Date(applied.appliedAt),
            // `drift --applied` knows the last apply as the state does; without it the newest
            // status update speaks, which the generated apply always posts when it changes one.
            ...(knowsApply
              ? { applied: new Map([["inc-a", { status: applied.status, at: applied.appliedAt }]]) }
              : {}),
            isNotFound: () => false,
          },
        );
        const report = drift.definitions[0];
        const live = "status" in outputs.output.live ? outputs.output.live.status : "unavailable";
        expect(report?.liveStatus).toBe(live);
        if (outputs.drift === undefined) {
          expect(report?.state).toBe("in-sync");
        } else {
          expect(outputs.drift.state).toBe(report?.state);
          expect(outputs.drift.updatesOutsideGit).toEqual(report?.updatesOutsideGit);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
