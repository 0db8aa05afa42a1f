import { describe, expect, it } from "vitest";
import { belongsToStack } from "../../src/definitions";
import { definitionYaml, load, problemLines } from "./helpers";

describe("aliases and stacks in definitions (issue 26)", () => {
  it("read aliases and stacks, and say which stacks a definition belongs to", () => {
    const result = load({
      "incidents/a.yaml": definitionYaml({
        resource: "api-errors",
        aliases: "[inc-api-errors-old, api]",
        stacks: "[staging, prod]",
      }),
    });
    expect(result.problems).toEqual([]);
    const [loaded] = result.definitions;
    expect(loaded?.definition).toMatchObject({
      aliases: ["inc-api-errors-old", "api"],
      stacks: ["staging", "prod"],
    });
    expect(belongsToStack({ stacks: ["staging", "prod"] }, "prod")).toBe(true);
    expect(belongsToStack({ stacks: ["staging"] }, "prod")).toBe(false);
    expect(belongsToStack({}, "prod")).toBe(true);
  });

  it("name stacks as Pulumi does: stack, org/stack, org/project/stack, each part matching where both name it", () => {
    const result = load({
      "incidents/a.yaml": definitionYaml({ stacks: "[prod, acme/staging, acme/incidents/eu]" }),
    });
    expect(result.problems).toEqual([]);
    const stacks = ["prod", "acme/staging", "acme/incidents/eu"];
    const declaredOn = (stack: string) => belongsToStack({ stacks }, stack);
    expect(
      [
        "prod",
        "acme/prod",
        "other/incidents/prod",
        "staging",
        "acme/staging",
        "other/staging",
        "acme/incidents/staging",
        "eu",
        "acme/eu",
        "acme/incidents/eu",
        "acme/other-project/eu",
        "dev",
      ].filter(declaredOn),
    ).toEqual([
      "prod",
      "acme/prod",
      "other/incidents/prod",
      "staging",
      "acme/staging",
      "acme/incidents/staging",
      "eu",
      "acme/eu",
      "acme/incidents/eu",
    ]);
  });

  it("refuse an alias that is in use, is the definition's own name, or is claimed twice", () => {
    const result = load({
      "incidents/a.yaml": `${definitionYaml({ resource: "a", aliases: "[a, b, gone]" })}---\n${definitionYaml(
        { id: "inc-b", resource: "b" },
      )}---\n${definitionYaml({ id: "inc-c", resource: "c", aliases: "[gone]" })}`,
    });
    expect(problemLines(result.problems)).toMatchInlineSnapshot(`
      "incidents/a.yaml:1:1 alias-conflict: alias "a" is this definition's own resource name; list only the names it had before
      incidents/a.yaml:1:1 alias-conflict: alias "b" is the resource name of the definition at incidents/a.yaml:11; a resource cannot be renamed to a name that is still in use
      incidents/a.yaml:20:1 alias-conflict: alias "gone" is also an alias at incidents/a.yaml:1; one old resource can become only one new one"
    `);
  });

  it("refuse stack names a stack cannot have, and stacks listed twice", () => {
    const result = load({
      "incidents/a.yaml": definitionYaml({
        stacks: "[acme/incidents/prod/eu, prod stack, staging, staging]",
      }),
    });
    expect(result.problems.map((problem) => problem.code)).toEqual([
      "invalid-value",
      "invalid-value",
      "repeated-item",
    ]);
    expect(problemLines(result.problems)).toContain("must be a stack name");
  });
});
