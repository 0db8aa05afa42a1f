import { describe, expect, it } from "vitest";
import { load, problemLines } from "./helpers";

const HEAD = "id: inc-a\nname: Outage\nseverity: MAJOR\n";

function problemsOf(text: string): string {
  return problemLines(load({ "incidents/a.yaml": text }).problems);
}

describe("a bracket or quote that is never closed", () => {
  it("is reported on the line of the [ that opened a flow sequence, with the parser's words", () => {
    expect(problemsOf(`${HEAD}status: [MONITORING\nservices: [svc-api]\n`)).toMatchInlineSnapshot(
      `"incidents/a.yaml:4:9 yaml-syntax: YAML syntax error: the [ that opens here is never closed; flow sequence in block collection must be sufficiently indented and end with a ]"`,
    );
    expect(problemsOf(`${HEAD}services: [svc-api, [svc-web]\n`)).toMatchInlineSnapshot(
      `"incidents/a.yaml:4:11 yaml-syntax: YAML syntax error: the [ that opens here is never closed; flow sequence in block collection must be sufficiently indented and end with a ]"`,
    );
    expect(problemsOf(`${HEAD}services: [svc-api`)).toMatchInlineSnapshot(
      `"incidents/a.yaml:4:11 yaml-syntax: YAML syntax error: the [ that opens here is never closed; flow sequence in block collection must be sufficiently indented and end with a ]"`,
    );
  });

  it("is reported on the line of the { that opened a flow mapping", () => {
    expect(
      problemsOf(`${HEAD}status: MONITORING\nevidence: {checks: [chk-api]\nservices: [svc-api]\n`),
    ).toMatchInlineSnapshot(
      `"incidents/a.yaml:5:11 yaml-syntax: YAML syntax error: the { that opens here is never closed; flow map in block collection must be sufficiently indented and end with a }"`,
    );
    expect(
      problemsOf(`${HEAD}status: MONITORING\nservices:\n  - {id: svc-api, name: API\n`),
    ).toMatchInlineSnapshot(
      `"incidents/a.yaml:6:5 yaml-syntax: YAML syntax error: the { that opens here is never closed; flow map in block collection must be sufficiently indented and end with a }"`,
    );
  });

  it("is reported where a double or single quote opened, escapes and doubled quotes considered", () => {
    expect(problemsOf(`id: inc-a\nname: "Outage\nseverity: MAJOR\n`)).toMatchInlineSnapshot(
      `"incidents/a.yaml:2:7 yaml-syntax: YAML syntax error: the quoted text that starts here has no closing quote"`,
    );
    expect(problemsOf(`id: inc-a\nname: "Outage \\"\nseverity: MAJOR\n`)).toMatchInlineSnapshot(
      `"incidents/a.yaml:2:7 yaml-syntax: YAML syntax error: the quoted text that starts here has no closing quote"`,
    );
    expect(problemsOf(`id: inc-a\nname: 'it''s down\nseverity: MAJOR\n`)).toMatchInlineSnapshot(
      `"incidents/a.yaml:2:7 yaml-syntax: YAML syntax error: the quoted text that starts here has no closing quote"`,
    );
  });

  it("reports a quote and the bracket around it each where it opened", () => {
    expect(
      problemsOf(`${HEAD}services: ["svc-api, svc-web]\nstatus: MONITORING\n`),
    ).toMatchInlineSnapshot(`
      "incidents/a.yaml:4:11 yaml-syntax: YAML syntax error: the [ that opens here is never closed; flow sequence in block collection must be sufficiently indented and end with a ]
      incidents/a.yaml:4:12 yaml-syntax: YAML syntax error: the quoted text that starts here has no closing quote"
    `);
  });
});
