import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { IncidentUpdate } from "../../src/api/schemas";
import { type ImportRead, planImport } from "../../src/cli/import/import-plan";
import { loadDefinitionSources } from "../../src/definitions";

/**
 * Whatever the service's list holds, `import` writes only files `validate` passes: an incident
 * repeated, a message too long for a file, a date no definition can say, CRLF, emoji joined by
 * U+200D, U+2028 and U+FEFF; one holding a bidi control is refused with its reason instead.
 */

/** Pieces of what customers' text holds; the last ones no definition takes. */
const ALLOWED = [
  "plain words",
  "line\r\nend",
  "old mac\rline",
  "\n",
  "\t",
  "family 👨‍👩‍👧 plan",
  "🏳️‍🌈",
  "flag 🏴󠁧󠁢󠁳󠁣󠁴󠁿",
  "👍🏽",
  "\u2028",
  "\u2029",
  "\uFEFF",
  "\uFEFFstarts",
  "#",
  ": ",
  "- ",
  '"',
  "|",
  "決済",
] as const;
const REFUSED = ["\u202E", "\u2066", "\u200B", "\u0007", "a\u200Db"] as const;

const text = (pieces: readonly string[]) =>
  fc
    .array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 6 })
    .map((parts) => parts.join(""));

const message = fc.oneof(
  { weight: 8, arbitrary: text(ALLOWED).map((words) => `Update: ${words}`) },
  { weight: 1, arbitrary: text([...ALLOWED, ...REFUSED]).map((words) => `Update: ${words}`) },
  { weight: 1, arbitrary: fc.constant(`Long: ${"x".repeat(600 * 1024)}`) },
);

const date = fc.constantFrom(
  "2026-11-26T09:40:00.000Z",
  "2026-11-26T09:40:00Z",
  "2026-11-26",
  "not a date",
  "",
  "+275760-09-13T00:00:00.000Z",
  null,
  undefined,
);

const update = fc.record({
  description: message,
  status: fc.constantFrom(
    "INVESTIGATING",
    "IDENTIFIED",
    "MONITORING",
    "RESOLVED",
    "DEGRADED",
    null,
  ),
  publicIncidentUpdateDate: date,
  created_at: date,
});

const incident = fc.record({
  id: fc.constantFrom("inc-1", "inc-2", "inc-3", "inc-4"),
  name: fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom("Checkout", "Family 👨‍👩‍👧 plans", "決済の遅延") },
    { weight: 1, arbitrary: fc.constantFrom("Check\u202Eout", "Zero\u200Bwidth") },
  ),
  lastUpdateStatus: fc.constantFrom("INVESTIGATING", "RESOLVED"),
  created_at: date,
  updates: fc.array(update, { minLength: 0, maxLength: 4 }),
});

/** Whether every text of the incident is one a definition can hold, once CRLF is LF. */
function holdable(drawn: { name: string; updates: readonly { description: string }[] }): boolean {
  const texts = [drawn.name, ...drawn.updates.map((entry) => entry.description)];
  return texts.every(
    (one) => !REFUSED.some((piece) => one.includes(piece)) && !one.startsWith("Long:"),
  );
}

function readOf(drawn: readonly IncidentDrawn[]): ImportRead {
  const incidents = drawn.map((one, index) => ({
    id: one.id,
    name: one.name,
    severity: "MAJOR",
    lastUpdateStatus: one.lastUpdateStatus,
    created_at: one.created_at,
    services: [{ id: "svc-a", name: "A" }],
    incidentUpdates: one.updates.map(
      (entry, at): IncidentUpdate => ({
        ...entry,
        id: `u-${index}-${at}`,
        notifySubscribers: false,
      }),
    ),
  }));
  return { services: [{ id: "svc-a", name: "A" }], statusPages: [], incidents };
}

interface IncidentDrawn {
  readonly id: string;
  readonly name: string;
  readonly lastUpdateStatus: string;
  readonly created_at: string | null | undefined;
  readonly updates: readonly Omit<IncidentUpdate, "id" | "notifySubscribers">[];
}

const EMPTY_PROJECT = {
  dir: "incidents",
  files: [],
  defined: new Map<string, string>(),
  catalog: undefined,
  schemaDir: "../schema",
} as const;

describe("the files import writes", () => {
  it("always pass validate: each incident once, the ones no definition holds refused with why", () => {
    fc.assert(
      fc.property(fc.array(incident, { minLength: 1, maxLength: 6 }), (drawn) => {
        const plan = planImport(readOf(drawn), EMPTY_PROJECT, { all: true });
        const loaded = loadDefinitionSources(
          plan.files.map((file) => ({
            path: file.path,
            text: file.text,
            catalog: file.path.endsWith("/services.yaml"),
          })),
        );
        expect(loaded.problems).toEqual([]);

        const written = plan.incidents.map((one) => one.incidentId);
        const refused = plan.refused.map((one) => one.incidentId);
        expect(new Set(written).size).toBe(written.length);
        expect([...written, ...refused].sort()).toEqual(
          [...new Set(drawn.map((one) => one.id))].sort(),
        );
        for (const one of plan.refused) expect(one.reason).not.toBe("");
        // What is written is what each incident's kept copy held, line ends as LF.
        for (const definition of loaded.definitions.map((one) => one.definition)) {
          for (const entry of definition.updates ?? []) expect(entry.message).not.toContain("\r");
          if (definition.updates?.some((entry) => entry.at !== undefined)) {
            expect(definition.updates.every((entry) => entry.at !== undefined)).toBe(true);
          }
        }
        // Nothing a definition can hold is refused: of a repeated incident, the copy kept is the
        // one with the most updates, of those the last listed.
        const kept = new Map<string, IncidentDrawn>();
        for (const one of drawn) {
          const other = kept.get(one.id);
          if (other === undefined || one.updates.length >= other.updates.length)
            kept.set(one.id, one);
        }
        for (const [id, one] of kept) {
          if (holdable(one)) expect(refused, id).not.toContain(id);
          else expect(refused, id).toContain(id);
        }
      }),
      { numRuns: 40 },
    );
  });

  it("dates an entry by its creation when its public date is no date, and keeps every entry's date", () => {
    const read = readOf([
      {
        id: "inc-1",
        name: "Checkout",
        lastUpdateStatus: "MONITORING",
        created_at: "2026-11-26T09:00:00.000Z",
        updates: [
          {
            description: "Looking\r\ninto it",
            status: "INVESTIGATING",
            publicIncidentUpdateDate: "not a date",
            created_at: "2026-11-26T09:40:00.000Z",
          },
          {
            description: "Fixed for 👨‍👩‍👧 plans\u2028and \uFEFFothers",
            status: "MONITORING",
            publicIncidentUpdateDate: "2026-11-26T10:00:00.000Z",
            created_at: "2026-11-26T10:05:00.000Z",
          },
        ],
      },
    ]);
    const plan = planImport(read, EMPTY_PROJECT, { all: true });
    expect(plan.refused).toEqual([]);
    const loaded = loadDefinitionSources(
      plan.files.map((file) => ({ ...file, catalog: file.path.endsWith("/services.yaml") })),
    );
    expect(loaded.problems).toEqual([]);
    expect(loaded.definitions[0]?.definition.updates).toEqual([
      {
        status: "INVESTIGATING",
        message: "Looking\ninto it",
        notify: false,
        at: "2026-11-26T09:40:00.000Z",
      },
      {
        status: "MONITORING",
        message: "Fixed for 👨‍👩‍👧 plans\u2028and \uFEFFothers",
        notify: false,
        at: "2026-11-26T10:00:00.000Z",
      },
    ]);
  });
});
