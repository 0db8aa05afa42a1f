import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { createClient, RequestValidationError } from "../../src/api";
import { PathId } from "../../src/api/schemas";
import { validateText } from "../../src/cli/commands/validate";
import type { DefinitionProblem, LoadResult } from "../../src/definitions";
import {
  MAX_ALIAS_NODES,
  MAX_DEPTH,
  MAX_DOCUMENTS,
  MAX_PROBLEMS_PER_FILE,
} from "../../src/definitions/limits";
import { PositionIndex } from "../../src/definitions/position";
import { createEmulator } from "../../src/emulator";
import { definitionYaml, load } from "./helpers";

/*
 * Generated input for each rule of issues 14, 16 and 17: bounded answers to adversarial
 * files, strict input, output that stays one line per problem, one path-parameter rule in
 * every layer, syntax errors at the opening token, and every problem at once. Run counts
 * and times are recorded in BENCHMARKS.md ("Reliability").
 */

const FILE = "incidents/generated.yaml";

/** Every problem of one file says where, inside the file, and the cap holds. */
function expectLocatedAndCapped(result: LoadResult, texts: ReadonlyMap<string, string>): void {
  const byFile = new Map<string, DefinitionProblem[]>();
  for (const problem of result.problems) {
    const text = texts.get(problem.file);
    expect(text, problem.file).toBeDefined();
    const lines = (text ?? "").split("\n");
    expect(problem.line).toBeGreaterThanOrEqual(1);
    expect(problem.line).toBeLessThanOrEqual(lines.length);
    expect(problem.column).toBeGreaterThanOrEqual(1);
    expect(problem.column).toBeLessThanOrEqual((lines[(problem.line ?? 1) - 1]?.length ?? 0) + 1);
    expect(problem.message).not.toMatch(/undefined|\[object Object\]|^\s*$/);
    byFile.set(problem.file, [...(byFile.get(problem.file) ?? []), problem]);
  }
  for (const problems of byFile.values()) {
    expect(problems.length).toBeLessThanOrEqual(MAX_PROBLEMS_PER_FILE + 1);
    const capped = problems.filter((problem) => problem.code === "too-many-problems");
    expect(capped.length).toBeLessThanOrEqual(1);
  }
}

/** The line and column of a character offset of `text`. */
function at(text: string, offset: number): { line: number; column: number } {
  return new PositionIndex(text).at(offset);
}

type ShapeInput =
  | { kind: "keys"; count: number }
  | { kind: "aliases"; count: number }
  | { kind: "depth"; count: number; style: "flow" | "block" | "compact" }
  | { kind: "documents"; count: number; empty: boolean };

describe("adversarial files (issue 17)", () => {
  const shape: fc.Arbitrary<ShapeInput> = fc.oneof(
    fc.record({ kind: fc.constant("keys" as const), count: fc.integer({ min: 0, max: 3_000 }) }),
    fc.record({
      kind: fc.constant("aliases" as const),
      count: fc.integer({ min: 0, max: MAX_ALIAS_NODES + 2_000 }),
    }),
    fc.record({
      kind: fc.constant("depth" as const),
      count: fc.integer({ min: 1, max: 3 * MAX_DEPTH }),
      style: fc.constantFrom("flow", "block", "compact"),
    }),
    fc.record({
      kind: fc.constant("documents" as const),
      count: fc.integer({ min: 1, max: MAX_DOCUMENTS + 200 }),
      empty: fc.boolean(),
    }),
  );

  function write(input: ShapeInput): string {
    switch (input.kind) {
      case "keys":
        return `${definitionYaml()}${Array.from({ length: input.count }, (_, index) => `k${index}: v`).join("\n")}\n`;
      case "aliases":
        return `${definitionYaml()}reason: &r why\nx: [${Array.from({ length: input.count }, () => "*r").join(", ")}]\n`;
      case "depth":
        if (input.style === "flow") {
          return definitionYaml({ reason: `${"[".repeat(input.count)}${"]".repeat(input.count)}` });
        }
        if (input.style === "compact") return `${"- ".repeat(input.count)}x\n`;
        return `${Array.from({ length: input.count }, (_, depth) => `${" ".repeat(depth)}a:`).join("\n")} 1\n`;
      case "documents":
        // Each empty document is its own `---` line: joining empty strings with `---` would
        // hold one document fewer than `count`, as the parser counts them.
        if (input.empty) return "---\n".repeat(input.count);
        return Array.from({ length: input.count }, (_, index) =>
          definitionYaml({ id: `inc-${index}` }),
        ).join("---\n");
    }
  }
  it("get located problems, at most 100 and a count per file, and the limit's own code", () => {
    fc.assert(
      fc.property(shape, (input) => {
        const text = write(input);
        const result = load({ [FILE]: text });
        expectLocatedAndCapped(result, new Map([[FILE, text]]));
        const codes = new Set(result.problems.map((problem) => problem.code));
        const deepest = input.kind === "depth" ? input.count + (input.style === "flow" ? 1 : 0) : 0;
        expect(codes.has("too-deep")).toBe(deepest > MAX_DEPTH);
        if (input.kind === "aliases") {
          expect(codes.has("too-many-aliases")).toBe(input.count > MAX_ALIAS_NODES);
        }
        if (input.kind === "documents") {
          expect(codes.has("too-many-documents")).toBe(input.count > MAX_DOCUMENTS);
        }
        if (input.kind === "keys") {
          expect(codes.has("too-many-problems")).toBe(input.count > MAX_PROBLEMS_PER_FILE);
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe("strict input (issue 17)", () => {
  /** Characters that hide in ids: controls, format and bidi characters, odd spaces. */
  const hidden = fc.oneof(
    fc.integer({ min: 0x00, max: 0x1f }),
    fc.integer({ min: 0x7f, max: 0x9f }),
    fc.constantFrom(
      0xad,
      0x061c,
      0x180e,
      0x200b,
      0x200c,
      0x200d,
      0x200e,
      0x200f,
      0x2028,
      0x2029,
      0x202a,
      0x202b,
      0x202c,
      0x202d,
      0x202e,
      0x2060,
      0x2066,
      0x2067,
      0x2068,
      0x2069,
      0xfeff,
      0x3000,
      0x00a0,
      0xe0001,
    ),
  );
  /** Whether YAML lets the character be written as it is inside a quoted or plain value. */
  const printable = (code: number) =>
    code === 0x09 ||
    code === 0x85 ||
    (code >= 0xa0 && code !== 0xfeff && code !== 0x2028 && code !== 0x2029);

  it("name a hidden character in an id and point at it, as written or as an escape", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z][a-z0-9-]{0,6}$/),
        hidden,
        fc.stringMatching(/^[a-z0-9]{1,6}$/),
        fc.constantFrom("plain", "single", "double", "escape"),
        (prefix, code, suffix, style) => {
          const character = String.fromCodePoint(code);
          const written = printable(code) && style !== "escape";
          const escaped = `\\U${code.toString(16).padStart(8, "0")}`;
          const value = written
            ? style === "plain"
              ? `${prefix}${character}${suffix}`
              : style === "single"
                ? `'${prefix}${character}${suffix}'`
                : `"${prefix}${character}${suffix}"`
            : `"${prefix}${escaped}${suffix}"`;
          const text = definitionYaml({ id: value });
          const { problems } = load({ [FILE]: text });
          expect(problems).toHaveLength(1);
          const [problem] = problems;
          expect(problem?.code).toBe("invalid-character");
          expect(problem?.message).toContain(
            `U+${code.toString(16).toUpperCase().padStart(4, "0")}`,
          );
          const offset = text.indexOf(written ? character : escaped);
          expect({ line: problem?.line, column: problem?.column }).toEqual(at(text, offset));
        },
      ),
      { numRuns: 400 },
    );
  });

  it("refuse a tag outside the core schema where it is written, on any field", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(
          "!!set",
          "!!omap",
          "!!pairs",
          "!!timestamp",
          "!!binary",
          "!local",
          "!<tag:yaml.org,2002:set>",
          "!<tag:example.com,2026:x>",
        ),
        fc.constantFrom("id", "name", "severity", "status", "services", "reason"),
        (tag, field) => {
          const values: Record<string, string> = {
            id: "inc-a",
            name: "Outage",
            severity: "MAJOR",
            status: "IDENTIFIED",
            services: "[svc-api]",
            reason: "because",
          };
          const text = definitionYaml({ [field]: `${tag} ${values[field]}` });
          const result = load({ [FILE]: text });
          expect(result.definitions).toEqual([]);
          const tags = result.problems.filter((problem) => problem.code === "unsupported-tag");
          expect(tags).toHaveLength(1);
          expect({ line: tags[0]?.line, column: tags[0]?.column }).toEqual(
            at(text, text.indexOf(tag)),
          );
        },
      ),
      { numRuns: 150 },
    );
  });

  it("refuse names and ids that hold only whitespace", () => {
    const space = fc.constantFrom("\\t", " ", "\\u00A0", "\\u2003", "\\u3000", "\\u202F");
    fc.assert(
      fc.property(
        fc.array(space, { minLength: 1, maxLength: 5 }),
        fc.constantFrom("id", "name", "resource", "services"),
        (spaces, field) => {
          const blank = `"${spaces.join("")}"`;
          const text = definitionYaml({ [field]: field === "services" ? `[${blank}]` : blank });
          const { problems } = load({ [FILE]: text });
          expect(problems.map((problem) => problem.code)).toEqual(["blank-text"]);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe("text output (issue 17)", () => {
  it("stays one line per problem whatever the keys, values and file names hold", () => {
    const anyText = fc.string({ unit: "binary", maxLength: 12 });
    fc.assert(
      fc.property(anyText, anyText, anyText, anyText, (id, key, value, name) => {
        const file = `incidents/${name}.yaml`;
        const text = `id: ${JSON.stringify(id)}\nname: ${JSON.stringify(value)}\n${JSON.stringify(key)}: ${JSON.stringify(value)}\n`;
        const result = load({ [file]: text });
        const output = validateText("incidents", result);
        const lines = output.split("\n");
        expect(lines).toHaveLength(result.problems.length + 3);
        expect(output.slice(0, -1)).not.toMatch(/[^\n\P{Cc}]|[\p{Cf}\p{Zl}\p{Zp}]/u);
      }),
      { numRuns: 300 },
    );
  });
});

describe("one rule for ids in a URL path (issue 14)", () => {
  const emulator = createEmulator({ seed: "demo" });
  afterAll(() => emulator.close());
  const sent: string[] = [];
  const client = createClient({
    baseUrl: "http://127.0.0.1:9",
    apiKey: "generated-key",
    retry: { limit: 0 },
    rateLimit: { limit: 1_000_000, intervalMs: 1_000 },
    fetch: async (input) => {
      sent.push(input instanceof Request ? input.url : String(input));
      return new Response("[]", { headers: { "content-type": "application/json" } });
    },
  });
  const idLike = fc.oneof(
    fc.stringMatching(/^[a-z0-9._:@~-]{1,12}$/),
    fc.string({ unit: "binary", minLength: 0, maxLength: 8 }),
    fc
      .tuple(
        fc.stringMatching(/^[a-z0-9]{0,4}$/),
        fc.constantFrom(".", "..", "/", "\\", "?", "#", "%", " ", "%2e", "\u202E", "\u0000"),
        fc.stringMatching(/^[a-z0-9]{0,4}$/),
      )
      .map((parts) => parts.join("")),
  );

  it("is the same decision in the definitions, the client and the emulator, and keeps the path", async () => {
    await fc.assert(
      fc.asyncProperty(idLike, async (id) => {
        const accepted = PathId.safeParse(id).success;
        const segment = encodeURIComponent(id);

        const text = definitionYaml({ id: JSON.stringify(id) });
        const { definitions, problems } = load({ [FILE]: text });
        expect(definitions.length === 1).toBe(accepted);
        expect(problems.some((problem) => problem.line === 1)).toBe(!accepted);

        const before = sent.length;
        const outcome = await client.incidents.listUpdates(id).then(
          () => "sent",
          (error: unknown) => (error instanceof RequestValidationError ? "refused" : error),
        );
        expect(outcome).toBe(accepted ? "sent" : "refused");
        expect(sent.length - before).toBe(accepted ? 1 : 0);

        const response = await emulator.app.request(
          `/v1/status-pages/incidents/${segment}/incident-updates`,
          { headers: { authorization: "Bearer demo-key" } },
        );
        if (accepted) {
          expect(response.status).not.toBe(400);
          const url = new URL(sent.at(-1) ?? "");
          expect(url.pathname).toBe(`/v1/status-pages/incidents/${segment}/incident-updates`);
          expect(decodeURIComponent(url.pathname.split("/")[4] ?? "")).toBe(id);
        } else if (!/^(?:\.{1,2}|%2e|)$/i.test(segment)) {
          // An empty id or a dot segment never reaches a route: URL parsing resolves the
          // dots first, and an empty segment matches no route (both 404).
          expect(response.status).toBe(400);
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe("syntax errors at the opening token (issue 14)", () => {
  it("are reported where the unclosed bracket or quote opened, in any field and document", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("id", "name", "severity", "status", "reason"),
        fc.constantFrom("[", "{", '"', "'"),
        fc.integer({ min: 0, max: 3 }),
        (field, opener, before) => {
          const earlier = Array.from({ length: before }, (_, index) =>
            definitionYaml({ id: `inc-${index}` }),
          );
          const broken = definitionYaml({
            id: "inc-broken",
            reason: "because",
            [field]: `${opener}${field === "id" ? "inc-broken" : "value"}`,
          });
          const text = [...earlier, broken].join("---\n");
          const { problems } = load({ [FILE]: text });
          const offset = text.lastIndexOf(`${field}: ${opener}`) + field.length + 2;
          const expected = at(text, offset);
          const syntax = problems.filter((problem) => problem.code === "yaml-syntax");
          expect(
            syntax.map((problem) => ({ line: problem.line, column: problem.column })),
          ).toContainEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("every problem at once (issue 16)", () => {
  it("reports each injected fault in one run, whatever else is wrong", () => {
    fc.assert(
      fc.property(
        fc.record({
          severity: fc.boolean(),
          unknownKey: fc.boolean(),
          repeatedService: fc.boolean(),
          missingName: fc.boolean(),
          repeatedCheck: fc.boolean(),
          badHeartbeat: fc.boolean(),
          duplicateId: fc.boolean(),
          repeatedKey: fc.boolean(),
        }),
        (faults) => {
          const fields: Record<string, string> = {
            severity: faults.severity ? "LOW" : "MAJOR",
            services: faults.repeatedService ? "[svc-api, svc-web, svc-api]" : "[svc-api]",
            evidence: `\n  checks: [${faults.repeatedCheck ? "chk-a, chk-a" : "chk-a"}]\n  heartbeats: [${faults.badHeartbeat ? "hb/1" : "hb-1"}]`,
          };
          if (faults.missingName) fields.name = "";
          let text = definitionYaml(fields);
          if (faults.unknownKey) text += "colour: red\n";
          if (faults.repeatedKey) text += "status: RESOLVED\n";
          const files: Record<string, string> = {
            [FILE]: text,
            "incidents/services.yaml": "svc-api: Public API\nsvc-web: Web app\n",
          };
          if (faults.duplicateId) files["incidents/copy.yaml"] = definitionYaml();
          const codes = load(files)
            .problems.filter((problem) => problem.file === FILE)
            .map((problem) => problem.code);
          const expected = [
            faults.severity && "invalid-value",
            faults.unknownKey && "unknown-key",
            faults.repeatedService && "repeated-item",
            faults.missingName && "missing-key",
            faults.repeatedCheck && "repeated-item",
            faults.badHeartbeat && "invalid-character",
            faults.duplicateId && "duplicate-id",
            faults.repeatedKey && "yaml-syntax",
          ].filter((code): code is string => code !== false);
          expect([...codes].sort()).toEqual([...expected].sort());
        },
      ),
      { numRuns: 300 },
    );
  });
});
