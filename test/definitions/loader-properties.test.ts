import { readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { IncidentDefinition, type LoadResult, loadDefinitionSources } from "../../src/definitions";
import { apply, EXAMPLES, mutation } from "./mutations";

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

/** The example services catalog, which names the services the examples list by id. */
const CATALOG = {
  path: "incidents/services.yaml",
  text: readFileSync(path.join(__dirname, "..", "..", "incidents", "services.yaml"), "utf8"),
  catalog: true,
};

describe("the loader under random input", () => {
  it("never crashes on mutated example files and always answers with definitions or located problems", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...EXAMPLES),
        fc.array(mutation, { minLength: 1, maxLength: 6 }),
        (example, changes) => {
          const text = changes.reduce(apply, example.text);
          const result = loadDefinitionSources([CATALOG, { path: example.path, text }]);
          expectWellFormed(
            result,
            new Map([
              [CATALOG.path, CATALOG.text],
              [example.path, text],
            ]),
          );
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
      services: fc.uniqueArray(
        fc.record({
          id: fc.stringMatching(/^svc-[a-z]{1,8}$/),
          name: fc.string({ minLength: 1, maxLength: 40 }).filter((name) => name.trim() !== ""),
          inCatalog: fc.boolean(),
        }),
        { minLength: 1, maxLength: 4, selector: (service) => service.id },
      ),
    });
    fc.assert(
      fc.property(definition, ({ services, ...fields }) => {
        // A service is written by id when the catalog names it, else as { id, name }.
        const text = stringify({
          ...fields,
          services: services.map(({ id, name, inCatalog }) => (inCatalog ? id : { id, name })),
        });
        const catalog = stringify(
          Object.fromEntries(services.flatMap((s) => (s.inCatalog ? [[s.id, s.name]] : []))),
        );
        const result = loadDefinitionSources([
          { path: "incidents/services.yaml", text: catalog, catalog: true },
          { path: "incidents/x.yaml", text },
        ]);
        expect(result.problems).toEqual([]);
        expect(result.definitions[0]?.definition).toMatchObject({
          ...fields,
          resource: fields.id,
          services: services.map(({ id, name }) => ({ id, name })),
        });
      }),
      { numRuns: 200 },
    );
  });
});
