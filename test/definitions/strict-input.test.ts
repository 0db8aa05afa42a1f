import { describe, expect, it } from "vitest";
import { definitionYaml, load, problemLines } from "./helpers";

function problemsOf(text: string): string {
  return problemLines(load({ "incidents/a.yaml": text }).problems);
}

describe("tags outside the YAML core schema", () => {
  it("are refused where they are written, instead of silently changing the value", () => {
    expect(problemsOf(`${definitionYaml()}evidence: !!set {a, b}\n`)).toMatchInlineSnapshot(`
      "incidents/a.yaml:8:11 unsupported-tag: the tag !!set is not allowed here; definitions use plain YAML values (only !!str, !!int, !!float, !!bool, !!null, !!seq and !!map, each on a value of its kind)
      incidents/a.yaml:8:18 unknown-key: unknown field "a" in evidence; allowed fields are heartbeats, checks
      incidents/a.yaml:8:21 unknown-key: unknown field "b" in evidence; allowed fields are heartbeats, checks"
    `);
    expect(
      problemsOf(
        `${definitionYaml()}evidence:\n  checks: !!omap [chk-api: 1]\nreason: !!timestamp 2026-11-01\n`,
      ),
    ).toMatchInlineSnapshot(`
      "incidents/a.yaml:9:11 unsupported-tag: the tag !!omap is not allowed here; definitions use plain YAML values (only !!str, !!int, !!float, !!bool, !!null, !!seq and !!map, each on a value of its kind)
      incidents/a.yaml:9:19 invalid-type: evidence.checks[0] must be text, not a mapping
      incidents/a.yaml:10:9 unsupported-tag: the tag !!timestamp is not allowed here; definitions use plain YAML values (only !!str, !!int, !!float, !!bool, !!null, !!seq and !!map, each on a value of its kind)"
    `);
    expect(problemsOf(`${definitionYaml()}reason: !why because\n`)).toMatchInlineSnapshot(
      `"incidents/a.yaml:8:9 unsupported-tag: the tag !why is not allowed here; definitions use plain YAML values (only !!str, !!int, !!float, !!bool, !!null, !!seq and !!map, each on a value of its kind)"`,
    );
  });

  it("are refused even when the value would pass, so the definition is not loaded", () => {
    const result = load({ "incidents/a.yaml": definitionYaml({ id: "!!binary aW5jLWE=" }) });
    expect(result.definitions).toEqual([]);
    expect(problemLines(result.problems)).toMatchInlineSnapshot(
      `"incidents/a.yaml:1:5 unsupported-tag: the tag !!binary is not allowed here; definitions use plain YAML values (only !!str, !!int, !!float, !!bool, !!null, !!seq and !!map, each on a value of its kind)"`,
    );
  });

  it("allow the core schema's own tags on values of their kind", () => {
    const text = definitionYaml({ id: "!!str 404", duration: "!!int 30", reopen: "!!bool true" });
    const result = load({ "incidents/a.yaml": text });
    expect(result.problems).toEqual([]);
    expect(result.definitions[0]?.definition).toMatchObject({
      id: "404",
      duration: 30,
      reopen: true,
    });
  });
});

describe("names and ids that are blank", () => {
  it("are refused, whatever whitespace they hold", () => {
    expect(problemsOf(definitionYaml({ id: '"   "', name: '"\\t "' }))).toMatchInlineSnapshot(`
      "incidents/a.yaml:1:5 blank-text: id must not be blank (it holds only whitespace)
      incidents/a.yaml:2:7 blank-text: name must not be blank (it holds only whitespace)"
    `);
    expect(
      problemsOf(definitionYaml({ resource: '" "', services: '["\\u3000"]' })),
    ).toMatchInlineSnapshot(`
      "incidents/a.yaml:5:12 blank-text: services[0] must not be blank (it holds only whitespace)
      incidents/a.yaml:6:11 blank-text: resource must not be blank (it holds only whitespace)"
    `);
  });
});

describe("ids with characters a reader cannot see", () => {
  it("name the character and point at it, written as it is or as an escape", () => {
    expect(problemsOf(definitionYaml({ id: "inc-\u202Eabc" }))).toMatchInlineSnapshot(
      `"incidents/a.yaml:1:9 invalid-character: id "inc-\\u202Eabc" must not contain U+202E RIGHT-TO-LEFT OVERRIDE (character 5); an id is one URL path segment of visible characters, without whitespace, /, \\, ?, # or %"`,
    );
    expect(problemsOf(definitionYaml({ id: '"inc-\\0"' }))).toMatchInlineSnapshot(
      `"incidents/a.yaml:1:10 invalid-character: id "inc-\\u0000" must not contain U+0000 NULL (character 5); an id is one URL path segment of visible characters, without whitespace, /, \\, ?, # or %"`,
    );
    expect(problemsOf(definitionYaml({ id: '"inc-\\a-x"' }))).toMatchInlineSnapshot(
      `"incidents/a.yaml:1:10 invalid-character: id "inc-\\u0007-x" must not contain U+0007 BELL (character 5); an id is one URL path segment of visible characters, without whitespace, /, \\, ?, # or %"`,
    );
    expect(problemsOf(definitionYaml({ id: "'inc-\u200Bx'" }))).toMatchInlineSnapshot(
      `"incidents/a.yaml:1:10 invalid-character: id "inc-\\u200Bx" must not contain U+200B ZERO WIDTH SPACE (character 5); an id is one URL path segment of visible characters, without whitespace, /, \\, ?, # or %"`,
    );
  });

  it("point at the first of repeated characters, and at the next line for a space made by folding", () => {
    expect(problemsOf(definitionYaml({ id: '"a\\u200Bb\\u200Bc"' }))).toMatchInlineSnapshot(
      `"incidents/a.yaml:1:7 invalid-character: id "a\\u200Bb\\u200Bc" must not contain U+200B ZERO WIDTH SPACE (character 2); an id is one URL path segment of visible characters, without whitespace, /, \\, ?, # or %"`,
    );
    expect(problemsOf(definitionYaml({ id: '"inc\n  -\\u202Ex"' }))).toMatchInlineSnapshot(
      `"incidents/a.yaml:2:1 invalid-character: id "inc -\\u202Ex" must not contain U+0020 SPACE (character 4); an id is one URL path segment of visible characters, without whitespace, /, \\, ?, # or %"`,
    );
  });

  it("are refused in evidence, service ids and resource names too", () => {
    const text = definitionYaml({
      resource: '"db\\u200Dmaint"',
      services: '["svc\\u2066api"]',
      evidence: '\n  heartbeats: ["hb\\u0085x"]\n  checks: ["chk\\u061C"]',
    });
    expect(problemsOf(text)).toMatchInlineSnapshot(`
      "incidents/a.yaml:5:16 invalid-character: services[0] "svc\\u2066api" must not contain U+2066 LEFT-TO-RIGHT ISOLATE (character 4), which cannot be seen and makes different ids look alike
      incidents/a.yaml:6:14 invalid-character: resource "db\\u200Dmaint" must not contain U+200D ZERO WIDTH JOINER (character 3), which cannot be seen and makes different ids look alike
      incidents/a.yaml:8:19 invalid-character: evidence.heartbeats[0] "hb\\u0085x" must not contain U+0085 NEXT LINE (character 3); an id is one URL path segment of visible characters, without whitespace, /, \\, ?, # or %
      incidents/a.yaml:9:16 invalid-character: evidence.checks[0] "chk\\u061C" must not contain U+061C ARABIC LETTER MARK (character 4); an id is one URL path segment of visible characters, without whitespace, /, \\, ?, # or %"
    `);
  });
});

describe("customers' text", () => {
  it("may hold emoji joined by U+200D in a title, and U+2028, U+2029 and U+FEFF in a message", () => {
    const text = definitionYaml({
      name: '"Family \\U0001F468\\u200D\\U0001F469\\u200D\\U0001F467 plans"',
      status: "",
      updates:
        '\n  - status: INVESTIGATING\n    message: "One\\u2028two\\u2029three, \\uFEFFpasted \\U0001F3F3\\uFE0F\\u200D\\U0001F308"',
    });
    const result = load({ "incidents/a.yaml": text });
    expect(problemLines(result.problems)).toBe("");
    expect(result.definitions[0]?.definition.updates?.[0]?.message).toBe(
      "One\u2028two\u2029three, \uFEFFpasted 🏳️‍🌈",
    );
  });

  it("still refuses bidi controls, a joiner between letters, and a line separator in a title", () => {
    const text = definitionYaml({
      name: '"Check\\u2028out"',
      status: "",
      updates:
        '\n  - status: INVESTIGATING\n    message: "Fixed for \\u202Eall"\n  - status: IDENTIFIED\n    message: "a\\u200Db"',
    });
    expect(problemsOf(text)).toMatchInlineSnapshot(`
      "incidents/a.yaml:2:13 invalid-character: name "Check\\u2028out" must not contain U+2028 LINE SEPARATOR (character 6), which cannot be seen or changes how the text around it is shown
      incidents/a.yaml:9:25 invalid-character: updates[0].message "Fixed for \\u202Eall" must not contain U+202E RIGHT-TO-LEFT OVERRIDE (character 11), which cannot be seen or changes how the text around it is shown
      incidents/a.yaml:11:16 invalid-character: updates[1].message "a\\u200Db" must not contain U+200D ZERO WIDTH JOINER (character 2), which cannot be seen or changes how the text around it is shown"
    `);
  });
});

describe("ids that would change the request's path", () => {
  it("refuse dot segments, separators, query and fragment marks, percent signs and spaces", () => {
    const ids = ['".."', '"."', "a/b", '"a\\\\b"', "a?b", "a#b", "a%2e", '"a b"'];
    const lines = ids.map((id) => problemsOf(definitionYaml({ id })));
    expect(lines.join("\n")).toMatchInlineSnapshot(`
      "incidents/a.yaml:1:5 invalid-value: id ".." must not be '.' or '..' (URL parsing would change the path)
      incidents/a.yaml:1:5 invalid-value: id "." must not be '.' or '..' (URL parsing would change the path)
      incidents/a.yaml:1:6 invalid-character: id "a/b" must not contain "/" (character 2); an id is one URL path segment of visible characters, without whitespace, /, \\, ?, # or %
      incidents/a.yaml:1:7 invalid-character: id "a\\\\b" must not contain "\\" (character 2); an id is one URL path segment of visible characters, without whitespace, /, \\, ?, # or %
      incidents/a.yaml:1:6 invalid-character: id "a?b" must not contain "?" (character 2); an id is one URL path segment of visible characters, without whitespace, /, \\, ?, # or %
      incidents/a.yaml:1:6 invalid-character: id "a#b" must not contain "#" (character 2); an id is one URL path segment of visible characters, without whitespace, /, \\, ?, # or %
      incidents/a.yaml:1:6 invalid-character: id "a%2e" must not contain "%" (character 2); an id is one URL path segment of visible characters, without whitespace, /, \\, ?, # or %
      incidents/a.yaml:1:7 invalid-character: id "a b" must not contain U+0020 SPACE (character 2); an id is one URL path segment of visible characters, without whitespace, /, \\, ?, # or %"
    `);
  });

  it("refuse the same in evidence ids, which are path parameters too", () => {
    const text = definitionYaml({ evidence: "\n  heartbeats: [hb/1]\n  checks: [..]" });
    expect(problemsOf(text)).toMatchInlineSnapshot(`
      "incidents/a.yaml:9:18 invalid-character: evidence.heartbeats[0] "hb/1" must not contain "/" (character 3); an id is one URL path segment of visible characters, without whitespace, /, \\, ?, # or %
      incidents/a.yaml:10:12 invalid-value: evidence.checks[0] ".." must not be '.' or '..' (URL parsing would change the path)"
    `);
  });

  it("allow letters of any script, digits and punctuation that URLs encode", () => {
    const result = load({ "incidents/a.yaml": definitionYaml({ id: "inc-ü:日本@1_x.y~z" }) });
    expect(result.problems).toEqual([]);
  });
});

describe("titles and reasons with characters that hide or reshape text", () => {
  it("refuse an escape, a NUL or a bidirectional override in a title, naming the code point and where it is", () => {
    expect(problemsOf(definitionYaml({ name: '"Down \\e[31mnow"' }))).toMatchInlineSnapshot(
      `"incidents/a.yaml:2:13 invalid-character: name "Down \\u001B[31mnow" must not contain U+001B ESCAPE (character 6), which cannot be seen or changes how the text around it is shown"`,
    );
    expect(problemsOf(definitionYaml({ name: '"API\\0 errors"' }))).toMatchInlineSnapshot(
      `"incidents/a.yaml:2:11 invalid-character: name "API\\u0000 errors" must not contain U+0000 NULL (character 4), which cannot be seen or changes how the text around it is shown"`,
    );
    expect(problemsOf(definitionYaml({ name: "API \u202Esrorre" }))).toMatchInlineSnapshot(
      `"incidents/a.yaml:2:11 invalid-character: name "API \\u202Esrorre" must not contain U+202E RIGHT-TO-LEFT OVERRIDE (character 5), which cannot be seen or changes how the text around it is shown"`,
    );
    expect(
      problemsOf(definitionYaml({ reason: '"Lowered\\u2066 by the on-call"' })),
    ).toMatchInlineSnapshot(
      `"incidents/a.yaml:8:17 invalid-character: reason "Lowered\\u2066 by the on-call" must not contain U+2066 LEFT-TO-RIGHT ISOLATE (character 8), which cannot be seen or changes how the text around it is shown"`,
    );
  });

  it("refuse the same in a service's name, written in the definition or in the services catalog", () => {
    expect(
      problemsOf(definitionYaml({ services: '\n  - { id: svc-api, name: "Public\\u202EIPA" }' })),
    ).toMatchInlineSnapshot(
      `"incidents/a.yaml:6:33 invalid-character: services[0].name "Public\\u202EIPA" must not contain U+202E RIGHT-TO-LEFT OVERRIDE (character 7), which cannot be seen or changes how the text around it is shown"`,
    );
    const catalog = (name: string) =>
      problemLines(
        load({
          "incidents/services.yaml": `svc-api: ${name}\n`,
          "incidents/a.yaml": definitionYaml({ services: "\n  - svc-api" }),
        }).problems.filter((problem) => problem.file.endsWith("services.yaml")),
      );
    expect(catalog('"Public\\e[8mAPI"')).toMatchInlineSnapshot(
      `"incidents/services.yaml:1:17 invalid-character: svc-api "Public\\u001B[8mAPI" must not contain U+001B ESCAPE (character 7), which cannot be seen or changes how the text around it is shown"`,
    );
    expect(catalog('"Public\\tAPI"')).toBe("");
  });

  it("accept a tab in a title and lines in a reason", () => {
    expect(problemsOf(definitionYaml({ name: '"API\\terrors"' }))).toBe("");
    expect(
      problemsOf(
        definitionYaml({ reason: "|\n  Customers saw errors.\n  Lowered after the fix." }),
      ),
    ).toBe("");
  });
});
