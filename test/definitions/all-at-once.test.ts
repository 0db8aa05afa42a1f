import { describe, expect, it } from "vitest";
import { definitionYaml, load, problemLines } from "./helpers";

describe("every problem of a document at once", () => {
  it("reports a repeated service together with the document's other problems", () => {
    const { problems } = load({
      "incidents/a.yaml": definitionYaml({
        severity: "LOW",
        services: "[svc-api, svc-web, svc-api]",
      }),
    });
    expect(problemLines(problems)).toMatchInlineSnapshot(`
      "incidents/a.yaml:3:11 invalid-value: severity "LOW" is not allowed; use one of CRITICAL, MAJOR, MEDIUM, MINOR
      incidents/a.yaml:5:30 repeated-item: services[2]: service "svc-api" is listed twice (also item 1); remove one"
    `);
  });

  it("reports a repeated service even when another item of the list is wrong", () => {
    const { problems } = load({
      "incidents/a.yaml": definitionYaml({ services: "[svc-api, 7, {id: svc-api, nam: API}]" }),
    });
    expect(problemLines(problems)).toMatchInlineSnapshot(`
      "incidents/a.yaml:5:21 invalid-type: services[1] must be a service id or a mapping with "id" and an optional "name", not the number 7
      incidents/a.yaml:5:24 repeated-item: services[2]: service "svc-api" is listed twice (also item 1); remove one
      incidents/a.yaml:5:38 unknown-key: unknown field "nam" in services[2]; did you mean "name"?"
    `);
  });

  it("reports repeated evidence ids together with other problems", () => {
    const { problems } = load({
      "incidents/a.yaml": definitionYaml({
        status: "DONE",
        evidence: "\n  checks: [chk-api, chk-api]\n  heartbeats: [hb-1, hb/2, hb-1]",
      }),
    });
    expect(problemLines(problems)).toMatchInlineSnapshot(`
      "incidents/a.yaml:4:9 invalid-value: status "DONE" is not allowed; use one of INVESTIGATING, IDENTIFIED, MONITORING, RESOLVED
      incidents/a.yaml:9:21 repeated-item: evidence.checks[1]: check "chk-api" is listed twice (also item 1); remove one
      incidents/a.yaml:10:24 invalid-character: evidence.heartbeats[1] "hb/2" must not contain "/" (character 3); an id is one URL path segment of visible characters, without whitespace, /, \\, ?, # or %
      incidents/a.yaml:10:28 repeated-item: evidence.heartbeats[2]: heartbeat "hb-1" is listed twice (also item 1); remove one"
    `);
  });

  it("reports an id used in two files even when one of them has other problems", () => {
    const { problems } = load({
      "incidents/a.yaml": definitionYaml({ severity: "LOW" }),
      "incidents/b.yaml": `${definitionYaml({ resource: "copy" })}colour: red\n`,
    });
    expect(problemLines(problems)).toMatchInlineSnapshot(`
      "incidents/a.yaml:1:5 duplicate-id: incident id "inc-api-errors" is also defined at incidents/b.yaml:1:5; each incident must be defined once
      incidents/a.yaml:3:11 invalid-value: severity "LOW" is not allowed; use one of CRITICAL, MAJOR, MEDIUM, MINOR
      incidents/b.yaml:1:5 duplicate-id: incident id "inc-api-errors" is also defined at incidents/a.yaml:1:5; each incident must be defined once
      incidents/b.yaml:9:1 unknown-key: unknown field "colour"; allowed fields are resource, aliases, id, name, severity, status, services, duration, updates, evidence, stacks, onRemove, closing, reopen, reason, kind"
    `);
  });

  it("reports a resource name used twice even when both documents have other problems", () => {
    const { problems } = load({
      "incidents/a.yaml": `${definitionYaml({ resource: "api", status: "DONE" })}---\n${definitionYaml({ id: "inc-b", resource: "api", name: "" })}`,
    });
    expect(problemLines(problems)).toMatchInlineSnapshot(`
      "incidents/a.yaml:4:9 invalid-value: status "DONE" is not allowed; use one of INVESTIGATING, IDENTIFIED, MONITORING, RESOLVED
      incidents/a.yaml:8:11 duplicate-resource: resource name "api" is also used at incidents/a.yaml:16:11; give each definition its own "resource"
      incidents/a.yaml:10:1 missing-key: missing required field "name" (the incident title)
      incidents/a.yaml:16:11 duplicate-resource: resource name "api" is also used at incidents/a.yaml:8:11; give each definition its own "resource""
    `);
  });

  it("does not count the id of a document whose id is itself wrong", () => {
    const { problems } = load({
      "incidents/a.yaml": definitionYaml({ id: '"a b"' }),
      "incidents/b.yaml": definitionYaml({ id: '"a b"' }),
    });
    expect(problems.map((problem) => problem.code)).toEqual([
      "invalid-character",
      "invalid-character",
    ]);
  });

  it("reports a key written twice together with the document's other problems", () => {
    const { problems } = load({
      "incidents/a.yaml": `${definitionYaml({ severity: "LOW" })}name: Another title\n`,
    });
    expect(problemLines(problems)).toMatchInlineSnapshot(`
      "incidents/a.yaml:3:11 invalid-value: severity "LOW" is not allowed; use one of CRITICAL, MAJOR, MEDIUM, MINOR
      incidents/a.yaml:8:1 yaml-syntax: YAML syntax error: the key "name" appears twice in this mapping; keep one"
    `);
  });
});
