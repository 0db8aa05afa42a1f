import { readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";

/** The example definitions shipped in incidents/, as files to mutate. */
export const EXAMPLES = ["api-errors.yaml", "db-maintenance.yaml", "storefront.yaml"].map(
  (name) => ({
    path: `incidents/${name}`,
    text: readFileSync(path.join(__dirname, "..", "..", "incidents", name), "utf8"),
  }),
);

/** Pieces of YAML that tend to break parsers and schemas when dropped anywhere. */
export const FRAGMENTS = [
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

export type Mutation =
  | { kind: "delete"; at: number; length: number }
  | { kind: "insert"; at: number; text: string }
  | { kind: "duplicate-line"; line: number }
  | { kind: "drop-line"; line: number }
  | { kind: "indent-line"; line: number; by: number };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
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

export function apply(text: string, change: Mutation): string {
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
