import { describe, expect, it } from "vitest";
import {
  MAX_ALIAS_NODES,
  MAX_DEPTH,
  MAX_DOCUMENTS,
  MAX_FILE_BYTES,
  MAX_PROBLEMS_PER_FILE,
} from "../../src/definitions/limits";
import { definitionYaml, load, problemLines } from "./helpers";

/** The problems of one in-memory file, as people read them. */
function problemsOf(text: string): string {
  return problemLines(load({ "incidents/a.yaml": text }).problems);
}

describe("the limits on one file", () => {
  it("refuses a file over 512 KiB without parsing it", () => {
    const text = `${definitionYaml()}reason: ${"x".repeat(MAX_FILE_BYTES)}\n`;
    expect(problemsOf(text)).toMatchInlineSnapshot(
      `"incidents/a.yaml:1:1 file-too-large: the file is 524,443 bytes; the limit is 524,288 bytes (512 KiB), so it is not read: split it into several files"`,
    );
  });

  it("counts the file's size in UTF-8 bytes, not in characters", () => {
    const fits = `${definitionYaml()}reason: ${"é".repeat(Math.floor(MAX_FILE_BYTES / 2) - 200)}\n`;
    expect(load({ "incidents/a.yaml": fits }).problems).toEqual([]);
    const over = `${definitionYaml()}reason: ${"é".repeat(MAX_FILE_BYTES / 2)}\n`;
    expect(load({ "incidents/a.yaml": over }).problems.map((problem) => problem.code)).toEqual([
      "file-too-large",
    ]);
  });

  it("checks the first 1,000 documents of a file and says where it stopped", () => {
    const documents = Array.from({ length: MAX_DOCUMENTS + 5 }, (_, index) =>
      definitionYaml({ id: `inc-${index}` }),
    );
    const result = load({ "incidents/a.yaml": documents.join("---\n") });
    expect(result.definitions).toHaveLength(MAX_DOCUMENTS);
    expect(problemLines(result.problems)).toMatchInlineSnapshot(
      `"incidents/a.yaml:8000:1 too-many-documents: the file holds more than 1,000 YAML documents; the rest of it from here is not checked: split it into several files"`,
    );
  });

  it("answers 100,000 document markers, or 50,000 documents, with located problems, not a stack overflow", () => {
    expect(problemsOf("---\n".repeat(100_000))).toMatchInlineSnapshot(
      `"incidents/a.yaml:1001:1 too-many-documents: the file holds more than 1,000 YAML documents; the rest of it from here is not checked: split it into several files"`,
    );
    const lines = problemsOf(`id: x\n${"---\nid: x\n".repeat(50_000)}`).split("\n");
    expect(lines).toHaveLength(MAX_PROBLEMS_PER_FILE + 1);
    expect(lines.slice(-2).join("\n")).toMatchInlineSnapshot(`
      "incidents/a.yaml:39:5 too-many-problems: 4,901 more problems from here on are not listed (at most 100 are listed per file); fix the ones above and validate again
      incidents/a.yaml:2000:1 too-many-documents: the file holds more than 1,000 YAML documents; the rest of it from here is not checked: split it into several files"
    `);
  });

  it("reports nesting past 32 levels at the list or mapping that goes too deep", () => {
    const flow = `id: ${"[".repeat(100_000)}${"]".repeat(100_000)}\n`;
    const block = `${Array.from({ length: 40 }, (_, depth) => `${" ".repeat(depth)}a:`).join("\n")} 1\n`;
    const compact = `${"- ".repeat(200_000)}x\n`;
    const result = load({
      "incidents/flow.yaml": flow,
      "incidents/block.yaml": block,
      "incidents/compact.yaml": compact,
    });
    expect(problemLines(result.problems)).toMatchInlineSnapshot(`
      "incidents/block.yaml:33:33 too-deep: lists and mappings are nested more than 32 levels deep here (a definition needs 3); the file is not checked past this point
      incidents/compact.yaml:1:65 too-deep: lists and mappings are nested more than 32 levels deep here (a definition needs 3); the file is not checked past this point
      incidents/flow.yaml:1:36 too-deep: lists and mappings are nested more than 32 levels deep here (a definition needs 3); the file is not checked past this point"
    `);
  });

  it("accepts nesting up to the limit and checks such a document as usual", () => {
    const deepest = `${"[".repeat(MAX_DEPTH - 1)}${"]".repeat(MAX_DEPTH - 1)}`;
    expect(problemsOf(definitionYaml({ reason: deepest }))).toMatchInlineSnapshot(
      `"incidents/a.yaml:8:9 invalid-type: reason must be text, not a list"`,
    );
  });

  it("stops aliases that expand past 10,000 values, at the alias that crosses the limit", () => {
    const laughs = [
      "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]",
      ...Array.from({ length: 8 }, (_, level) => {
        const name = String.fromCharCode(98 + level);
        const previous = String.fromCharCode(97 + level);
        return `${name}: &${name} [${Array.from({ length: 10 }, () => `*${previous}`).join(", ")}]`;
      }),
    ].join("\n");
    expect(problemsOf(`${definitionYaml()}${laughs}\n`)).toMatchInlineSnapshot(
      `"incidents/a.yaml:11:36 too-many-aliases: aliases in this file expand to more than 10,000 values; from this document on, documents with aliases are not checked: write the values out or use fewer aliases"`,
    );
    const many = Array.from({ length: MAX_ALIAS_NODES + 10 }, (_, index) => `  - *s${index % 2}`);
    const text = `${definitionYaml()}x: [&s0 a, &s1 b]\nevidence:\n  checks:\n${many.join("\n")}\n`;
    expect(problemsOf(text)).toMatchInlineSnapshot(
      `"incidents/a.yaml:10011:5 too-many-aliases: aliases in this file expand to more than 10,000 values; from this document on, documents with aliases are not checked: write the values out or use fewer aliases"`,
    );
  });

  it("lists at most 100 problems of a file and counts the rest where they start", () => {
    const keys = Array.from({ length: 20_000 }, (_, index) => `extra${index}: 1`).join("\n");
    const result = load({ "incidents/a.yaml": `${definitionYaml()}${keys}\n` });
    expect(result.problems).toHaveLength(MAX_PROBLEMS_PER_FILE + 1);
    expect(problemLines(result.problems.slice(-2))).toMatchInlineSnapshot(`
      "incidents/a.yaml:107:1 unknown-key: unknown field "extra99"; allowed fields are resource, aliases, id, name, severity, status, services, duration, updates, evidence, stacks, onRemove, closing, reopen, reason, kind
      incidents/a.yaml:108:1 too-many-problems: 19,900 more problems from here on are not listed (at most 100 are listed per file); fix the ones above and validate again"
    `);
  });

  it("counts duplicate ids of other files into the same cap", () => {
    const files: Record<string, string> = {};
    const keys = Array.from({ length: 150 }, (_, index) => `extra${index}: 1`).join("\n");
    files["incidents/a.yaml"] = `${definitionYaml()}${keys}\n`;
    for (let index = 0; index < 5; index++)
      files[`incidents/copy-${index}.yaml`] = definitionYaml();
    const result = load(files);
    const inA = result.problems.filter((problem) => problem.file === "incidents/a.yaml");
    expect(inA).toHaveLength(MAX_PROBLEMS_PER_FILE + 1);
    expect(problemLines(inA.slice(0, 1))).toMatchInlineSnapshot(
      `"incidents/a.yaml:1:5 duplicate-id: incident id "inc-api-errors" is also defined at incidents/copy-0.yaml:1:5, incidents/copy-1.yaml:1:5, incidents/copy-2.yaml:1:5 and 2 more; each incident must be defined once"`,
    );
    expect(problemLines(inA.slice(-1))).toMatchInlineSnapshot(
      `"incidents/a.yaml:107:1 too-many-problems: 51 more problems from here on are not listed (at most 100 are listed per file); fix the ones above and validate again"`,
    );
  });

  it("names at most three other places of a duplicate id and counts the rest", () => {
    const documents = Array.from({ length: 500 }, () => definitionYaml()).join("---\n");
    const result = load({ "incidents/a.yaml": documents });
    expect(problemLines(result.problems.slice(0, 1))).toMatchInlineSnapshot(
      `"incidents/a.yaml:1:5 duplicate-id: incident id "inc-api-errors" is also defined at incidents/a.yaml:9:5, incidents/a.yaml:17:5, incidents/a.yaml:25:5 and 496 more; each incident must be defined once"`,
    );
    expect(result.problems.at(-1)?.code).toBe("too-many-problems");
  });
});
