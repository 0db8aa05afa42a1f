import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { parseDefinitionFile, type SourceFile } from "../../src/definitions";
import { MAX_DOCUMENTS, MAX_FILE_BYTES } from "../../src/definitions/limits";
import { parseDefinitionFileFast } from "../../src/definitions/parse-fast";
import { parseDefinitionFileFully } from "../../src/definitions/parse-file";
import { definitionYaml } from "./helpers";
import { apply, EXAMPLES, FRAGMENTS, mutation } from "./mutations";

/** A valid, plainly written definition with its own id. */
const plainDefinition = (index: number) => definitionYaml({ id: `inc-${index}` });

/**
 * A scalar as a person might write it: mostly a plain id, sometimes an odd string that
 * looks like something else; valid files dominate so the fast path is exercised.
 */
const scalar = fc.oneof(
  { weight: 12, arbitrary: fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "7",
      "0x1F",
      "1e3",
      "true",
      "null",
      "~",
      "",
      "-",
      "a: b",
      "a #b",
      "é😀",
      "..",
      ".",
      "a/b",
      "a%2e",
      "inc\u202Ex",
      "inc\u200B",
      "inc\u0007",
      "\u3000",
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
);

/** Mostly `usual`, sometimes anything from `odd`. */
const mostly = <T>(usual: fc.Arbitrary<T>, odd: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 9, arbitrary: usual }, { weight: 1, arbitrary: odd });

/** A value spelled plainly, quoted, or in the ways only the full path takes on. */
const written = (value: string) =>
  mostly(
    fc.constantFrom(value, JSON.stringify(value), `'${value.replaceAll("'", "''")}'`),
    fc.constantFrom(
      `&a ${value}`,
      `!!str ${value}`,
      `!!timestamp ${value}`,
      `!!set {${value}}`,
      `!why ${value}`,
      '" "',
      `\t${value}`,
      `${value} # why`,
      `|\n  ${value}`,
      `>-\n  ${value}`,
      `\n  ${value}`,
      `# why\n  ${value}`,
    ),
  );

/** One definition written line by line, in the styles people use, with comments and extras. */
const definitionText = fc
  .record({
    id: scalar.chain(written),
    name: scalar.chain(written),
    resource: fc.option(scalar.chain(written), { nil: undefined }),
    severity: mostly(fc.constantFrom("CRITICAL", "MAJOR", "MEDIUM", "MINOR"), fc.constant("LOW")),
    status: fc.constantFrom("INVESTIGATING", "IDENTIFIED", "MONITORING", "RESOLVED"),
    services: fc.array(fc.stringMatching(/^svc-[a-z]{1,4}$/), { minLength: 1, maxLength: 3 }),
    flow: fc.boolean(),
    duration: fc.option(
      mostly(
        fc.constantFrom("5", "0", "-3", "null"),
        fc.constantFrom("1.5", "007", "1_000", "0o17", "+5", "~", "", "NULL"),
      ),
      { nil: undefined },
    ),
    reopen: fc.option(
      mostly(fc.constantFrom("true", "false"), fc.constantFrom("yes", "True", "FALSE")),
      { nil: undefined },
    ),
    comment: fc.option(fc.constantFrom("# why", "  # indented", ""), { nil: undefined }),
    extra: mostly(fc.constant(undefined), fc.constantFrom(...FRAGMENTS)),
  })
  .map((fields) =>
    [
      fields.comment,
      `id: ${fields.id}`,
      fields.resource === undefined ? undefined : `resource: ${fields.resource}`,
      `name: ${fields.name}`,
      `severity: ${fields.severity}`,
      `status: ${fields.status}`,
      fields.flow
        ? `services: [${fields.services.join(", ")}]`
        : `services:\n${fields.services.map((id) => `  - id: ${id}\n    name: ${id} name`).join("\n")}`,
      fields.duration === undefined ? undefined : `duration: ${fields.duration} # minutes`,
      fields.reopen === undefined ? undefined : `reopen: ${fields.reopen}`,
      "evidence:\n  checks: [chk-api]\n  heartbeats:\n    - hb-backup",
      fields.extra,
    ]
      .filter((line) => line !== undefined)
      .join("\n"),
  );

/** Files of one to three definitions, with or without a leading `---` and a final newline. */
const generatedFile = fc
  .record({
    documents: fc.array(definitionText, { minLength: 1, maxLength: 3 }),
    leading: fc.constantFrom("", "---\n", "# header\n---\n", "# header\n"),
    separator: fc.constantFrom("\n---\n", "\n--- \n", "\n---\n# next\n"),
    trailing: mostly(fc.constantFrom("", "\n"), fc.constantFrom("\n\n", "\n---\n", "\n...\n")),
    newline: mostly(fc.constant("\n"), fc.constant("\r\n")),
    indent: mostly(fc.constant(""), fc.constant("  ")),
  })
  .map(({ documents, leading, separator, trailing, newline, indent }) => ({
    path: "incidents/generated.yaml",
    text: (leading + documents.join(separator) + trailing)
      .split("\n")
      .map((line) => (line === "---" ? line : indent + line))
      .join(newline),
  }));

function expectSameResult(file: SourceFile): void {
  expect(parseDefinitionFile(file)).toEqual(parseDefinitionFileFully(file));
}

describe("the fast path for plainly written files", () => {
  it("gives the same definitions, positions and problems as yaml for mutated example files", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...EXAMPLES),
        fc.array(mutation, { minLength: 0, maxLength: 6 }),
        (example, changes) => {
          expectSameResult({ path: example.path, text: changes.reduce(apply, example.text) });
        },
      ),
      { numRuns: 1500 },
    );
  });

  it("gives the same result as yaml for generated files, valid or not, and for their mutations", () => {
    fc.assert(
      fc.property(generatedFile, fc.array(mutation, { maxLength: 3 }), (file, changes) => {
        expectSameResult(file);
        expectSameResult({ path: file.path, text: changes.reduce(apply, file.text) });
      }),
      { numRuns: 1500 },
    );
    // 1,500 runs take 8–10 s alone, and several times that beside the engine tests on 2 cores.
  }, 90_000);

  it("gives the same result as yaml for any JSON value written as YAML", () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { minLength: 1, maxLength: 3 }), (values) => {
        expectSameResult({
          path: "incidents/random.yaml",
          text: values.map((value) => stringify(value)).join("---\n"),
        });
      }),
      { numRuns: 300 },
    );
  });

  it("leaves files past a limit to yaml, which reports them the same way", () => {
    const many = Array.from({ length: MAX_DOCUMENTS + 1 }, (_, index) =>
      plainDefinition(index),
    ).join("---\n");
    const big = `${plainDefinition(0)}reason: ${"x".repeat(MAX_FILE_BYTES)}\n`;
    for (const text of [many, big]) {
      const file = { path: "incidents/limits.yaml", text };
      expect(parseDefinitionFileFast(file)).toBeUndefined();
      expectSameResult(file);
      expect(parseDefinitionFile(file).problems.length).toBeGreaterThan(0);
    }
  });

  it("takes the fast path for the shipped examples and for files written like them", () => {
    for (const example of EXAMPLES) {
      expect(parseDefinitionFileFast(example)).toEqual(parseDefinitionFileFully(example));
    }
    const files = fc.sample(generatedFile, { numRuns: 300, seed: 7 });
    const taken = files.filter((file) => parseDefinitionFileFast(file) !== undefined);
    const valid = files.filter((file) => parseDefinitionFileFully(file).problems.length === 0);
    expect(valid.length).toBeGreaterThan(100);
    expect(taken.length).toBeGreaterThan(valid.length / 3);
  });
});
