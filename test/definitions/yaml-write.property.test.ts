import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isHiddenCharacter } from "../../src/api/schemas";
import { loadDefinitionSources } from "../../src/definitions";
import { catalogYaml, definitionYaml } from "../../src/definitions/yaml-write";

/**
 * What `import` writes reads back through the loader exactly as it was given: any message a
 * definition takes (several lines, Markdown, any script, YAML's own punctuation), any name, as
 * a literal block where one can hold it.
 */

/** Characters that mean something to YAML or Markdown, and text of every script. */
const TRICKY = [
  "\n",
  "\t",
  " ",
  "  ",
  "#",
  ": ",
  "- ",
  "---",
  "...",
  "'",
  '"',
  "\\",
  "|",
  ">",
  "*",
  "&",
  "!",
  "%",
  "@",
  "`",
  "[",
  "]",
  "{",
  "}",
  ",",
  "?",
  "é",
  "ß",
  "決済",
  "مرحبا",
  "🚀",
  "**bold**",
  "> quote",
  "null",
  "true",
  "1.5",
  "~",
];

const character = fc.oneof(
  fc.constantFrom(...TRICKY),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 }),
);

/** Whether a definition takes the text as a message: not blank, nothing hidden but tab and line feed. */
const takenAsMessage = (text: string) =>
  text.trim() !== "" && ![...text].some((c) => c !== "\n" && c !== "\t" && isHiddenCharacter(c));

const message = fc
  .array(character, { minLength: 1, maxLength: 40 })
  .map((parts) => parts.join(""))
  .filter(takenAsMessage);

const name = fc
  .array(character, { minLength: 1, maxLength: 20 })
  .map((parts) => parts.join("").replaceAll("\n", " "))
  .filter((text) => takenAsMessage(text) && [...text].length <= 255);

function load(text: string, catalog: string) {
  return loadDefinitionSources([
    { path: "incidents/services.yaml", text: catalog, catalog: true },
    { path: "incidents/imported.yaml", text },
  ]);
}

describe("the YAML import writes", () => {
  it("reads back every message, name and service name exactly, whatever they hold", () => {
    fc.assert(
      fc.property(
        name,
        name,
        fc.array(message, { minLength: 1, maxLength: 4 }),
        (incidentName, serviceName, messages) => {
          const catalog = catalogYaml(
            ["the catalog"],
            [{ comment: "a group", services: [{ id: "svc-a", name: serviceName }] }],
          );
          const text = definitionYaml(["imported"], {
            id: "inc-1",
            name: incidentName,
            severity: "MAJOR",
            services: [{ id: "svc-a", name: serviceName, named: "catalog" }],
            updates: messages.map((text, index) => ({
              status: "INVESTIGATING",
              message: text,
              at: new Date(Date.UTC(2026, 0, 1) + index * 1000).toISOString(),
            })),
          });
          const loaded = load(text, catalog);
          expect(loaded.problems).toEqual([]);
          const [only] = loaded.definitions;
          expect(only?.definition.name).toBe(incidentName);
          expect(only?.definition.services).toEqual([{ id: "svc-a", name: serviceName }]);
          expect(only?.definition.updates?.map((entry) => entry.message)).toEqual(messages);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("writes a message of several lines as a literal block, and one a block cannot hold double-quoted", () => {
    const text = definitionYaml([], {
      id: "inc-1",
      name: "Checkout",
      severity: "MINOR",
      services: [{ id: "svc-a", name: "A", named: "here" }],
      updates: [
        { status: "INVESTIGATING", message: "Line one\n\n- a list\n" },
        { status: "RESOLVED", message: "ends with a line of spaces\n " },
      ],
    });
    expect(text).toMatchInlineSnapshot(`
      "id: inc-1
      name: Checkout
      severity: MINOR
      services:
        - id: svc-a
          name: A
      updates:
        - status: INVESTIGATING
          message: |
            Line one

            - a list
        - status: RESOLVED
          message: "ends with a line of spaces\\n "
      "
    `);
  });

  it("keeps a comment one comment, whatever the text it quotes holds", () => {
    const text = catalogYaml(
      ["header"],
      [{ comment: "On the page\nid: injected", services: [{ id: "svc-a", name: "A" }] }],
    );
    expect(text).toBe("# header\n# On the page\\nid: injected\nsvc-a: A\n");
  });
});
