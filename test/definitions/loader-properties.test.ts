import { readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { IncidentDefinition, type LoadResult, loadDefinitionSources } from "../../src/definitions";

const EXAMPLES = ["api-errors.yaml", "db-maintenance.yaml", "storefront.yaml"].map((name) => ({
  path: `incidents/${name}`,
  text: readFileSync(path.join(__dirname, "..", "..", "incidents", name), "utf8"),
}));

/** Pieces of YAML that tend to break parsers and schemas when dropped anywhere. */
const FRAGMENTS = [
  ":",
  "-",
  " ",
  "  ",
  "\n",
  "\t",
  "[",
  "]",
  "{",
  "}",
  ",",
  '"',
  "'",
  "#",
  "&a",
  "*a",
  "!",
  "!!str",
  "---",
  "...",
  "|",
  ">",
  "?",
  "%YAML 1.2",
  "null",
  "~",
  "true",
  "1e3",
  "0x1F",
  "é",
  "😀",
  "\u0000",
  "severity: LOW",
  "services: []",
  "id: 7",
  "reopen: maybe",
  "x".repeat(300),
  "<<: *a",
];

type Mutation =
  | { kind: "delete"; at: number; length: number }
  | { kind: "insert"; at: number; text: string }
  | { kind: "duplicate-line"; line: number }
  | { kind: "drop-line"; line: number }
  | { kind: "indent-line"; line: number; by: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    kind: fc.constant("delete" as const),
    at: fc.nat(),
    length: fc.integer({ min: 1, max: 20 }),
  }),
  fc.record({
    kind: fc.constant("insert" as const),
    at: fc.nat(),
    text: fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 8 })),
  }),
  fc.record({ kind: fc.constant("duplicate-line" as const), line: fc.nat() }),
  fc.record({ kind: fc.constant("drop-line" as const), line: fc.nat() }),
  fc.record({
    kind: fc.constant("indent-line" as const),
    line: fc.nat(),
    by: fc.integer({ min: 1, max: 4 }),
  }),
);

function apply(text: string, change: Mutation): string {
  const lines = text.split("\n");
  const line = "line" in change ? change.line % lines.length : 0;
  switch (change.kind) {
    case "delete": {
      const at = change.at % (text.length + 1);
      return text.slice(0, at) + text.slice(at + change.length);
    }
    case "insert": {
      const at = change.at % (text.length + 1);
      return text.slice(0, at) + change.text + text.slice(at);
    }
    case "duplicate-line":
      lines.splice(line, 0, lines[line] ?? "");
      return lines.join("\n");
    case "drop-line":
      lines.splice(line, 1);
      return lines.join("\n");
    case "indent-line":
      lines[line] = " ".repeat(change.by) + (lines[line] ?? "");
      return lines.join("\n");
  }
}

/** Either every definition is valid, or every problem says where and what. */
function expectWellFormed(result: LoadResult, texts: Map<string, string>): void {
  if (result.problems.length === 0) {
    expect(result.definitions.length).toBeGreaterThan(0);
    for (const loaded of result.definitions) {
      expect(IncidentDefinition.safeParse(loaded.definition).success).toBe(true);
    }
    return;
  }
  for (const problem of result.problems) {
    const text = texts.get(problem.file);
    expect(text).toBeDefined();
    const lineCount = (text ?? "").split("\n").length;
    expect(problem.line).toBeGreaterThanOrEqual(1);
    expect(problem.line).toBeLessThanOrEqual(lineCount);
    expect(problem.column).toBeGreaterThanOrEqual(1);
    expect(problem.message.length).toBeGreaterThan(10);
    expect(problem.message).not.toMatch(/undefined|\[object Object\]/);
  }
}

describe("the loader under random input", () => {
  it("never crashes on mutated example files and always answers with definitions or located problems", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...EXAMPLES),
        fc.array(mutation, { minLength: 1, maxLength: 6 }),
        (example, changes) => {
          const text = changes.reduce(apply, example.text);
          const result = loadDefinitionSources([{ path: example.path, text }]);
          expectWellFormed(result, new Map([[example.path, text]]));
        },
      ),
      { numRuns: 400 },
    );
  });

  it("never crashes on arbitrary YAML values written as definitions", () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { minLength: 1, maxLength: 3 }), (values) => {
        const text = values.map((value) => stringify(value)).join("---\n");
        const result = loadDefinitionSources([{ path: "incidents/random.yaml", text }]);
        expectWellFormed(result, new Map([["incidents/random.yaml", text]]));
      }),
      { numRuns: 300 },
    );
  });

  it("accepts every definition built from valid field values and keeps its fields", () => {
    const definition = fc.record({
      id: fc.stringMatching(/^[a-z][a-z0-9-]{0,30}$/),
      name: fc.string({ minLength: 1, maxLength: 255 }).filter((name) => name.trim() !== ""),
      severity: fc.constantFrom("CRITICAL", "MAJOR", "MEDIUM", "MINOR"),
      status: fc.constantFrom("INVESTIGATING", "IDENTIFIED", "MONITORING", "RESOLVED"),
      services: fc.uniqueArray(fc.stringMatching(/^svc-[a-z]{1,8}$/), {
        minLength: 1,
        maxLength: 4,
      }),
    });
    fc.assert(
      fc.property(definition, (input) => {
        const text = stringify(input);
        const result = loadDefinitionSources([{ path: "incidents/x.yaml", text }]);
        expect(result.problems).toEqual([]);
        expect(result.definitions[0]?.definition).toMatchObject({
          ...input,
          resource: input.id,
          services: input.services.map((id) => ({ id })),
        });
      }),
      { numRuns: 200 },
    );
  });
});
