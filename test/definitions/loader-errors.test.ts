import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadDefinitions } from "../../src/definitions";
import { definitionYaml, load, problemLines } from "./helpers";

describe("the loader's problems", () => {
  it("names an unknown key and suggests the closest allowed one", () => {
    const { problems } = load({
      "incidents/a.yaml": `${definitionYaml()}sevrity: MINOR\nevidence:\n  check: [chk-api]\n`,
    });
    expect(problemLines(problems)).toMatchInlineSnapshot(`
      "incidents/a.yaml:8:1 unknown-key: unknown field "sevrity"; did you mean "severity"?
      incidents/a.yaml:10:3 unknown-key: unknown field "check" in evidence; did you mean "checks"?"
    `);
  });

  it("quotes a number as it is written, and says what YAML made of it (issue 36)", () => {
    const { problems } = load({
      "incidents/a.yaml": definitionYaml({ id: "0x1F", duration: "1e400" }),
      "incidents/b.yaml": definitionYaml({ id: "inc-b", duration: "-.inf", name: "0o17" }),
    });
    expect(problemLines(problems)).toMatchInlineSnapshot(`
      "incidents/a.yaml:1:5 invalid-type: id must be text, not the number 0x1F (YAML reads it as 31); put it in quotes: "0x1F"
      incidents/a.yaml:8:11 invalid-value: duration 1e400 is too large to be a number (YAML reads it as infinity); write a smaller number
      incidents/b.yaml:2:7 invalid-type: name must be text, not the number 0o17 (YAML reads it as 15); put it in quotes: "0o17"
      incidents/b.yaml:8:11 invalid-value: duration -.inf is too small to be a number (YAML reads it as minus infinity); write a larger number"
    `);
  });

  it("lists the allowed keys when an unknown key resembles none of them", () => {
    const { problems } = load({ "incidents/a.yaml": `${definitionYaml()}owner: team-payments\n` });
    expect(problemLines(problems)).toMatchInlineSnapshot(
      `"incidents/a.yaml:8:1 unknown-key: unknown field "owner"; allowed fields are resource, aliases, id, name, severity, status, services, duration, updates, evidence, stacks, onRemove, closing, reopen, reason, kind"`,
    );
  });

  it("gives the allowed values of a wrong enum value and the likely intended one", () => {
    const { problems } = load({
      "incidents/a.yaml": definitionYaml({ severity: "major", status: "CLOSED" }),
    });
    expect(problemLines(problems)).toMatchInlineSnapshot(`
      "incidents/a.yaml:3:11 invalid-value: severity "major" is not allowed; use one of CRITICAL, MAJOR, MEDIUM, MINOR (did you mean MAJOR?)
      incidents/a.yaml:4:9 invalid-value: status "CLOSED" is not allowed; use one of INVESTIGATING, IDENTIFIED, MONITORING, RESOLVED"
    `);
  });

  it("gives the length of a name that is too long", () => {
    const { problems } = load({ "incidents/a.yaml": definitionYaml({ name: "x".repeat(300) }) });
    expect(problemLines(problems)).toMatchInlineSnapshot(
      `"incidents/a.yaml:2:7 too-long: name is 300 characters long; the limit is 255"`,
    );
  });

  it("reports an empty services list", () => {
    const { problems } = load({ "incidents/a.yaml": definitionYaml({ services: "[]" }) });
    expect(problemLines(problems)).toMatchInlineSnapshot(
      `"incidents/a.yaml:5:11 empty-list: services is empty; list at least one affected service"`,
    );
  });

  it("reports bad YAML syntax with a position in every file", () => {
    const { problems } = load({
      "incidents/a.yaml": definitionYaml({ name: '"unterminated' }),
      "incidents/b.yaml": "id: inc-b\nname: Outage\n  severity: MAJOR\n",
      "incidents/c.yaml": "id: inc-c\nservices:\n\t- svc-api\n",
      "incidents/d.yaml": `${definitionYaml()}id: inc-d\n`,
    });
    expect(problemLines(problems)).toMatchInlineSnapshot(`
      "incidents/a.yaml:2:7 yaml-syntax: YAML syntax error: the quoted text that starts here has no closing quote
      incidents/b.yaml:2:7 yaml-syntax: YAML syntax error: implicit keys need to be on a single line
      incidents/b.yaml:2:7 yaml-syntax: YAML syntax error: nested mappings are not allowed in compact mappings
      incidents/c.yaml:3:1 yaml-syntax: YAML syntax error: tabs are not allowed as indentation
      incidents/d.yaml:8:1 yaml-syntax: YAML syntax error: the key "id" appears twice in this mapping; keep one"
    `);
  });

  it("points at both definitions when two files use the same incident id", () => {
    const { problems } = load({
      "incidents/a.yaml": definitionYaml(),
      "incidents/b.yaml": `# copied from a.yaml\n${definitionYaml({ resource: "api-errors-copy" })}`,
    });
    expect(problemLines(problems)).toMatchInlineSnapshot(`
      "incidents/a.yaml:1:5 duplicate-id: incident id "inc-api-errors" is also defined at incidents/b.yaml:2:5; each incident must be defined once
      incidents/b.yaml:2:5 duplicate-id: incident id "inc-api-errors" is also defined at incidents/a.yaml:1:5; each incident must be defined once"
    `);
  });

  it("points at both definitions when two use the same resource name", () => {
    const { problems } = load({
      "incidents/a.yaml": definitionYaml({ resource: "api" }),
      "incidents/b.yaml": `${definitionYaml({ resource: "api", id: "inc-other" })}---\n${definitionYaml({ id: "api" })}`,
    });
    expect(problemLines(problems)).toMatchInlineSnapshot(`
      "incidents/a.yaml:8:11 duplicate-resource: resource name "api" is also used at incidents/b.yaml:8:11, incidents/b.yaml:10:5; give each definition its own "resource"
      incidents/b.yaml:8:11 duplicate-resource: resource name "api" is also used at incidents/a.yaml:8:11, incidents/b.yaml:10:5; give each definition its own "resource"
      incidents/b.yaml:10:5 duplicate-resource: resource name "api" (taken from its id) is also used at incidents/a.yaml:8:11, incidents/b.yaml:8:11; give each definition its own "resource""
    `);
  });

  it("refuses a pasted twin, two definitions without id that open the same incident, at both (issue 45)", () => {
    const opening = (resource: string, message: string, more: Record<string, string> = {}) =>
      definitionYaml({
        id: "",
        resource,
        name: "Card payments failing",
        updates: `\n  - status: IDENTIFIED\n    message: ${message}`,
        ...more,
      });
    const { problems } = load({
      "incidents/a.yaml": opening("payments", "Card payments fail at checkout."),
      // The same first message, whatever its outer blanks, and one more entry: still a twin.
      "incidents/b.yaml": `# pasted\n${opening("payments-copy", '"  Card payments fail at checkout.\\n"')}  - status: IDENTIFIED\n    message: More to say.\n`,
      "incidents/c.yaml": opening("payments-other", "Card payments fail on mobile."),
      // Disjoint stacks each open their own; `prod` and `acme/prod` can be one stack.
      "incidents/d.yaml": opening("slow-staging", "Checkout is slow.", { stacks: "[staging]" }),
      "incidents/e.yaml": opening("slow-prod", "Checkout is slow.", { stacks: "[acme/prod]" }),
      "incidents/f.yaml": opening("late-prod", "Refunds are late.", { stacks: "[prod]" }),
      "incidents/g.yaml": opening("late-all", "Refunds are late.", {
        stacks: "[staging, acme/prod]",
      }),
    });
    expect(problemLines(problems)).toMatchInlineSnapshot(`
      "incidents/a.yaml:1:7 duplicate-incident: incident "Card payments failing" is also defined at incidents/b.yaml:2:7 with the same name and first message and no id, so up would open it once for each and notify its subscribers each time; delete the copy, or, if they are different incidents, make each one's name or first message say which (a date, what is affected) or declare them in different stacks
      incidents/b.yaml:2:7 duplicate-incident: incident "Card payments failing" is also defined at incidents/a.yaml:1:7 with the same name and first message and no id, so up would open it once for each and notify its subscribers each time; delete the copy, or, if they are different incidents, make each one's name or first message say which (a date, what is affected) or declare them in different stacks
      incidents/f.yaml:1:7 duplicate-incident: incident "Card payments failing" is also defined at incidents/g.yaml:1:7 with the same name and first message and no id, so up would open it once for each and notify its subscribers each time; delete the copy, or, if they are different incidents, make each one's name or first message say which (a date, what is affected) or declare them in different stacks
      incidents/g.yaml:1:7 duplicate-incident: incident "Card payments failing" is also defined at incidents/f.yaml:1:7 with the same name and first message and no id, so up would open it once for each and notify its subscribers each time; delete the copy, or, if they are different incidents, make each one's name or first message say which (a date, what is affected) or declare them in different stacks"
    `);
  });

  it("explains missing fields, values of the wrong type and repeated services", () => {
    const { problems } = load({
      "incidents/a.yaml":
        "id: 404\nname: Outage\nstatus: RESOLVED\nservices: [svc-api, 7]\nreopen: yes\n",
      "incidents/b.yaml": definitionYaml({ services: "[svc-api, svc-web, svc-api]" }),
      "incidents/c.yaml": "- id: inc-a\n- id: inc-b\n",
      "incidents/d.yaml": "# nothing here yet\n",
    });
    expect(problemLines(problems)).toMatchInlineSnapshot(`
      "incidents/a.yaml:1:1 missing-key: missing required field "severity" (one of CRITICAL, MAJOR, MEDIUM, MINOR)
      incidents/a.yaml:1:5 invalid-type: id must be text, not the number 404; put it in quotes: "404"
      incidents/a.yaml:4:21 invalid-type: services[1] must be a service id or a mapping with "id" and an optional "name", not the number 7
      incidents/a.yaml:5:9 invalid-type: reopen must be true or false, not the text "yes"
      incidents/b.yaml:5:30 repeated-item: services[2]: service "svc-api" is listed twice (also item 1); remove one
      incidents/c.yaml:1:1 not-a-mapping: a definition must be a mapping of fields (id, name, severity, status, services), not a list
      incidents/d.yaml:1:1 empty-file: the file holds no incident definition; add one or delete the file"
    `);
  });

  it("collects every problem in every file and orders them the same whatever the input order", () => {
    const files = {
      "incidents/z.yaml": definitionYaml({ severity: "HIGH" }),
      "incidents/a.yaml": `${definitionYaml({ name: "" })}---\n${definitionYaml({ id: "inc-2", status: "DONE" })}`,
      "incidents/m.yaml": "id: [\n",
    };
    const forward = load(files).problems;
    const backward = load(Object.fromEntries(Object.entries(files).reverse())).problems;
    expect(backward).toEqual(forward);
    expect(problemLines(forward)).toMatchInlineSnapshot(`
      "incidents/a.yaml:1:1 missing-key: missing required field "name" (the incident title)
      incidents/a.yaml:1:5 duplicate-id: incident id "inc-api-errors" is also defined at incidents/z.yaml:1:5; each incident must be defined once
      incidents/a.yaml:11:9 invalid-value: status "DONE" is not allowed; use one of INVESTIGATING, IDENTIFIED, MONITORING, RESOLVED
      incidents/m.yaml:1:5 yaml-syntax: YAML syntax error: the [ that opens here is never closed; flow sequence in block collection must be sufficiently indented and end with a ]
      incidents/z.yaml:1:5 duplicate-id: incident id "inc-api-errors" is also defined at incidents/a.yaml:1:5; each incident must be defined once
      incidents/z.yaml:3:11 invalid-value: severity "HIGH" is not allowed; use one of CRITICAL, MAJOR, MEDIUM, MINOR"
    `);
  });
});

describe("loading a directory", () => {
  const created: string[] = [];
  const tempDir = async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "incident-sync-defs-"));
    created.push(dir);
    return dir;
  };
  afterEach(async () => {
    await Promise.all(created.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it("reports a missing directory with what to do", async () => {
    const dir = path.join(await tempDir(), "incidents");
    const { problems } = await loadDefinitions(dir);
    expect(problems.map((problem) => problem.code)).toEqual(["missing-directory"]);
    expect(problems[0]?.message.replace(dir, "<dir>")).toMatchInlineSnapshot(
      `"the directory <dir> does not exist; create it with incident definitions or pass the right directory"`,
    );
  });

  it("reports a directory without definition files, even if it holds other files", async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, "README.md"), "# Incidents\n");
    const { problems } = await loadDefinitions(dir);
    expect(problems.map((problem) => problem.code)).toEqual(["empty-directory"]);
    expect(problems[0]?.message.replace(dir, "<dir>")).toMatchInlineSnapshot(
      `"the directory <dir> holds no .yaml or .yml files; add an incident definition or point to the right directory"`,
    );
  });

  it("reports a file given where a directory is expected", async () => {
    const file = path.join(await tempDir(), "incident.yaml");
    await writeFile(file, definitionYaml());
    const { problems } = await loadDefinitions(file);
    expect(problems[0]?.message.replace(file, "<file>")).toMatchInlineSnapshot(
      `"<file> is a file, not a directory; pass the directory that holds the definitions"`,
    );
  });

  it("reads .yaml and .yml files in sub-folders and skips hidden and other files", async () => {
    const dir = await tempDir();
    await mkdir(path.join(dir, "payments"));
    await mkdir(path.join(dir, ".drafts"));
    await writeFile(path.join(dir, "api.yaml"), definitionYaml());
    await writeFile(
      path.join(dir, "payments", "checkout.yml"),
      definitionYaml({ id: "inc-checkout" }),
    );
    await writeFile(path.join(dir, ".drafts", "draft.yaml"), "not: [valid");
    await writeFile(path.join(dir, ".hidden.yaml"), "not: [valid");
    await writeFile(path.join(dir, "notes.txt"), "not: [valid");
    const result = await loadDefinitions(dir);
    expect(result.problems).toEqual([]);
    expect(result.files.map((file) => path.relative(dir, file))).toEqual([
      "api.yaml",
      path.join("payments", "checkout.yml"),
    ]);
    expect(result.definitions.map((loaded) => loaded.definition.id)).toEqual([
      "inc-api-errors",
      "inc-checkout",
    ]);
  });

  it("reports a file it cannot read and still loads the others", async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, "a.yaml"), definitionYaml());
    await writeFile(path.join(dir, "b.yaml"), definitionYaml({ id: "inc-b" }));
    const result = await loadDefinitions(dir, {
      readFile: async (file) => {
        if (file.endsWith("b.yaml")) throw new Error("EACCES: permission denied");
        const { readFile } = await import("node:fs/promises");
        return readFile(file, "utf8");
      },
    });
    expect(result.definitions.map((loaded) => loaded.definition.id)).toEqual(["inc-api-errors"]);
    expect(result.problems.map((problem) => `${problem.code}: ${problem.message}`)).toEqual([
      "unreadable-file: the file could not be read: EACCES: permission denied",
    ]);
  });
});

describe("a valid definition", () => {
  it("fills in the resource name, the removal option and service objects, named by the catalog", () => {
    const { definitions, problems } = load({
      "incidents/services.yaml": "svc-api: Public API\n",
      "incidents/a.yaml": definitionYaml({
        services: "\n  - svc-api\n  - { id: svc-web, name: Web app }",
      }),
    });
    expect(problems).toEqual([]);
    expect(definitions[0]?.definition).toEqual({
      resource: "inc-api-errors",
      id: "inc-api-errors",
      name: "Elevated error rates on the Public API",
      severity: "MAJOR",
      status: "IDENTIFIED",
      services: [
        { id: "svc-api", name: "Public API" },
        { id: "svc-web", name: "Web app" },
      ],
      onRemove: "release",
    });
    expect(definitions[0]?.at).toEqual({ line: 1, column: 1 });
  });
});
