import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  loadDefinitionSources,
  loadDefinitions,
  readDefinitionsAtRef,
  type SourceFile,
} from "../../src/definitions";
import { parseDefinitionFileFast } from "../../src/definitions/parse-fast";
import { parseDefinitionFileFully } from "../../src/definitions/parse-file";
import { isolatedGitEnv } from "../support/git-env";
import { definitionYaml, load, problemLines } from "./helpers";

/*
 * The API requires a name for every service of a PUT: a definition writes it inline
 * (`{ id, name }`) or lists the service by id and the services catalog (services.yaml at the
 * top of the definitions directory) names it. A service named nowhere, or named two ways, is a
 * problem where the service is listed.
 */

const CATALOG = "svc-api: Public API\nsvc-web: Web app\n";

let dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  dirs = [];
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "incident-sync-service-names-"));
  dirs.push(dir);
  return dir;
}

/** Writes `files` (relative paths) under a new directory and returns it. */
async function directory(files: Record<string, string>): Promise<string> {
  const dir = await tempDir();
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
  return dir;
}

/** Services of each loaded definition, as `id=name` (a missing name shows as `id=?`). */
const named = (result: ReturnType<typeof load>) =>
  result.definitions.map((loaded) =>
    loaded.definition.services.map((service) => `${service.id}=${service.name ?? "?"}`),
  );

describe("the services catalog", () => {
  it("names a service a definition lists by its bare id, and leaves an inline name as written", () => {
    const result = load({
      "incidents/services.yaml": CATALOG,
      "incidents/a.yaml": definitionYaml({
        services:
          "\n  - svc-api\n  - { id: svc-web, name: Web app }\n  - { id: svc-db, name: Primary database }",
      }),
    });
    expect(result.problems).toEqual([]);
    expect(named(result)).toEqual([
      ["svc-api=Public API", "svc-web=Web app", "svc-db=Primary database"],
    ]);
  });

  it("is read from services.yml too, and from a real directory", async () => {
    const dir = await directory({
      "services.yml": CATALOG,
      "a.yaml": definitionYaml({ services: "[svc-api, svc-web]" }),
    });
    const result = await loadDefinitions(dir);
    expect(result.problems).toEqual([]);
    expect(named(result)).toEqual([["svc-api=Public API", "svc-web=Web app"]]);
  });

  it("is not a catalog in a sub-folder: there it is read as a definitions file", async () => {
    const dir = await directory({
      "team/services.yaml": CATALOG,
      "a.yaml": definitionYaml({ services: "[svc-api]" }),
    });
    const result = await loadDefinitions(dir);
    expect(problemLines(result.problems).replaceAll(dir, "<dir>")).toMatchInlineSnapshot(`
      "<dir>/a.yaml:5:12 unnamed-service: service "svc-api" has no name, and the API requires one for every service: write it as { id: svc-api, name: <name> } here, or name it once in the services catalog (add "svc-api: <name>" to services.yaml in the definitions directory)
      <dir>/team/services.yaml:1:1 missing-key: missing required field "id" (the incident id on the status page), or "resource" and "updates" to open a new incident
      <dir>/team/services.yaml:1:1 missing-key: missing required field "name" (the incident title)
      <dir>/team/services.yaml:1:1 missing-key: missing required field "services" (a list of service ids)
      <dir>/team/services.yaml:1:1 missing-key: missing required field "severity" (one of CRITICAL, MAJOR, MEDIUM, MINOR)
      <dir>/team/services.yaml:1:1 missing-key: missing required field "status" (one of INVESTIGATING, IDENTIFIED, MONITORING, RESOLVED), or "updates" whose last entry gives it
      <dir>/team/services.yaml:1:1 unknown-key: unknown field "svc-api"; allowed fields are resource, aliases, id, name, severity, status, services, duration, updates, evidence, stacks, onRemove, closing, reopen, reason, kind
      <dir>/team/services.yaml:2:1 unknown-key: unknown field "svc-web"; allowed fields are resource, aliases, id, name, severity, status, services, duration, updates, evidence, stacks, onRemove, closing, reopen, reason, kind"
    `);
  });

  it("may be services.yaml and services.yml at once when they name a service alike, not when they disagree", () => {
    const alike = load({
      "incidents/services.yaml": CATALOG,
      "incidents/services.yml": "svc-api: Public API\n",
      "incidents/a.yaml": definitionYaml({ services: "[svc-api]" }),
    });
    expect(alike.problems).toEqual([]);
    const disagree = load({
      "incidents/services.yaml": CATALOG,
      "incidents/services.yml": "svc-api: API\n",
      "incidents/a.yaml": definitionYaml({ services: "[svc-api]" }),
    });
    expect(problemLines(disagree.problems)).toMatchInlineSnapshot(
      `"incidents/services.yml:1:1 service-name-conflict: service "svc-api" is named "API" here but "Public API" at incidents/services.yaml:1:1; a service has one name on the status page, so make them agree (or leave the name out here and keep it in services.yaml)"`,
    );
  });

  it("reports a bad id, a blank or empty name, and a name that is not text, each where it is written", () => {
    const result = load({
      "incidents/services.yaml": [
        "svc-api: Public API",
        '"svc\\u200Bweb": Web app',
        '"": Nameless',
        'svc-db: "   "',
        "svc-auth: ''",
        "svc-cdn: 42",
        "svc-dns: [a, b]",
        "",
      ].join("\n"),
    });
    expect(problemLines(result.problems)).toMatchInlineSnapshot(`
      "incidents/services.yaml:2:1 invalid-character: service id "svc\\u200Bweb" must not contain U+200B ZERO WIDTH SPACE (character 4), which cannot be seen and makes different ids look alike
      incidents/services.yaml:3:1 too-short: service id must not be empty
      incidents/services.yaml:4:9 blank-text: svc-db must not be blank (it holds only whitespace)
      incidents/services.yaml:5:11 too-short: svc-auth must not be empty
      incidents/services.yaml:6:10 invalid-type: svc-cdn must be text, not the number 42; put it in quotes: "42"
      incidents/services.yaml:7:10 invalid-type: svc-dns must be text, not a list"
    `);
  });

  it("reports a list, a plain text or several documents instead of one mapping", () => {
    const list = load({ "incidents/services.yaml": "- svc-api\n- svc-web\n" });
    const text = load({ "incidents/services.yaml": "Public API\n" });
    const documents = load({
      "incidents/services.yaml": "svc-api: Public API\n---\nsvc-web: Web app\n",
    });
    expect(
      problemLines([...list.problems, ...text.problems, ...documents.problems]),
    ).toMatchInlineSnapshot(`
      "incidents/services.yaml:1:1 not-a-mapping: the services catalog must be a mapping of service id to name (such as "svc-api: Public API"), not a list
      incidents/services.yaml:1:1 not-a-mapping: the services catalog must be a mapping of service id to name (such as "svc-api: Public API"), not the text "Public API"
      incidents/services.yaml:2:1 too-many-documents: the services catalog is one YAML mapping of service id to name; merge its documents into one"
    `);
  });

  it("may be empty, and then names nothing", () => {
    const result = load({
      "incidents/services.yaml": "# Services are named in the definitions.\n",
      "incidents/a.yaml": definitionYaml(),
    });
    expect(result.problems).toEqual([]);
  });
});

describe("a service without a name", () => {
  /** A definition whose third service is named nowhere, in each style and on each parse path. */
  const cases = [
    {
      style: "a block sequence",
      fast: true,
      services: "\n  - svc-api\n  - { id: svc-web, name: Web app }\n  - svc-db",
      at: "8:5",
    },
    {
      style: "a block sequence of mappings",
      fast: true,
      services: "\n  - id: svc-api\n  - id: svc-web\n    name: Web app\n  - id: svc-db",
      at: "9:5",
    },
    {
      style: "a flow sequence",
      fast: true,
      services: "[svc-api, svc-web,   svc-db]",
      at: "5:32",
    },
    {
      style: "a flow sequence of mappings",
      fast: false,
      services: "[svc-api, { id: svc-web, name: Web app }, { id: svc-db }]",
      at: "5:53",
    },
    {
      style: "a block sequence behind a directive (the full parser)",
      fast: false,
      prefix: "%YAML 1.2\n---\n",
      services: "\n  - svc-api\n  - { id: svc-web, name: Web app }\n  - svc-db",
      at: "10:5",
    },
    {
      style: "a block sequence with a quoted id and comments (the full parser)",
      fast: false,
      services: "\n  # the API\n  - svc-api\n  - 'svc-web' # the site\n\n  - &db svc-db",
      at: "10:9",
    },
  ];

  it.each(cases)("is reported at its item's line and column in $style", (example) => {
    const text = `${example.prefix ?? ""}${definitionYaml({ services: example.services })}`;
    const file: SourceFile = { path: "incidents/a.yaml", text };
    expect(parseDefinitionFileFast(file) !== undefined, "the fast path takes the file").toBe(
      example.fast,
    );
    // Both parse paths place every item alike, whichever one the loader takes.
    const full = parseDefinitionFileFully(file).definitions[0]?.servicesAt;
    expect(full).toHaveLength(3);
    if (example.fast)
      expect(parseDefinitionFileFast(file)?.definitions[0]?.servicesAt).toEqual(full);

    const result = load({ "incidents/services.yaml": CATALOG, "incidents/a.yaml": text });
    expect(
      result.problems.map((problem) => `${problem.line}:${problem.column} ${problem.code}`),
    ).toEqual([`${example.at} unnamed-service`]);
    const [line, column] = example.at.split(":").map(Number);
    expect(text.split("\n")[line! - 1]?.slice(column! - 1)).toMatch(
      /^(&db )?(id: )?svc-db|^\{ id: svc-db/,
    );
  });

  it("says how to name it, inline or in the catalog", () => {
    const result = load({ "incidents/a.yaml": definitionYaml({ services: "[svc-api]" }) });
    expect(problemLines(result.problems)).toMatchInlineSnapshot(
      `"incidents/a.yaml:5:12 unnamed-service: service "svc-api" has no name, and the API requires one for every service: write it as { id: svc-api, name: <name> } here, or name it once in the services catalog (add "svc-api: <name>" to services.yaml in the definitions directory)"`,
    );
  });

  it("takes an id close to a service named in the catalog for a typo of it: did you mean, not add the typo to the catalog", () => {
    const result = load({
      "incidents/services.yaml": "svc-checkout: Checkout\nsvc-api: Public API\n",
      "incidents/a.yaml": definitionYaml({ services: "[svc-chekout]" }),
    });
    const [problem] = result.problems;
    expect(problem?.code).toBe("unnamed-service");
    expect(problem?.message).toMatch(/did you mean "svc-checkout"\?/);
    expect(problem?.message).not.toMatch(/add "svc-chekout: <name>"/);
  });

  it("is not named by another definition: only the catalog names a bare id", () => {
    const result = load({
      "incidents/a.yaml": definitionYaml({
        id: "inc-a",
        services: "[{ id: svc-api, name: Public API }]",
      }),
      "incidents/b.yaml": definitionYaml({ id: "inc-b", services: "[svc-api]" }),
    });
    expect(
      result.problems.map(
        (problem) => `${problem.file}:${problem.line}:${problem.column} ${problem.code}`,
      ),
    ).toEqual(["incidents/b.yaml:5:12 unnamed-service"]);
  });
});

describe("a service named two ways", () => {
  it("is a conflict when a definition's name disagrees with the catalog, pointing at both", () => {
    const result = load({
      "incidents/services.yaml": CATALOG,
      "incidents/a.yaml": definitionYaml({
        services: "\n  - { id: svc-api, name: Public API }\n  - { id: svc-web, name: Website }",
      }),
    });
    expect(problemLines(result.problems)).toMatchInlineSnapshot(
      `"incidents/a.yaml:7:5 service-name-conflict: service "svc-web" is named "Website" here but "Web app" at incidents/services.yaml:2:1; a service has one name on the status page, so make them agree (or leave the name out here and keep it in services.yaml)"`,
    );
  });

  it("is a conflict when two definitions disagree, reported at the later one", () => {
    const result = load({
      "incidents/a.yaml": definitionYaml({
        id: "inc-a",
        services: "[{ id: svc-web, name: Web app }]",
      }),
      "incidents/b.yaml": definitionYaml({
        id: "inc-b",
        services: "\n  - id: svc-web\n    name: Website",
      }),
      "incidents/c.yaml": definitionYaml({
        id: "inc-c",
        services: "[{ id: svc-web, name: Web app }]",
      }),
    });
    expect(problemLines(result.problems)).toMatchInlineSnapshot(
      `"incidents/b.yaml:6:5 service-name-conflict: service "svc-web" is named "Website" here but "Web app" at incidents/a.yaml:5:12; a service has one name on the status page, so make them agree (or leave the name out here and keep it in services.yaml)"`,
    );
  });
});

describe("plan's base, read from git", () => {
  it("marks the catalog at the top of the directory, and names the services from it", async () => {
    const repo = await tempDir();
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "commit.gpgsign=false", ...args], {
        cwd: repo,
        env: isolatedGitEnv("Names Test"),
      });
    git("init", "-q", "-b", "main");
    await mkdir(path.join(repo, "incidents", "team"), { recursive: true });
    await writeFile(path.join(repo, "incidents", "services.yaml"), CATALOG);
    await writeFile(
      path.join(repo, "incidents", "a.yaml"),
      definitionYaml({ services: "[svc-api, svc-web]" }),
    );
    await writeFile(
      path.join(repo, "incidents", "team", "b.yaml"),
      definitionYaml({ id: "inc-b", services: "\n  - svc-web" }),
    );
    git("add", "-A");
    git("commit", "-q", "-m", "base");
    // The working tree moves on: the base is what git holds.
    await rm(path.join(repo, "incidents", "services.yaml"));

    const { files } = await readDefinitionsAtRef(path.join(repo, "incidents"), "HEAD");
    expect(files.map((file) => [path.relative(repo, file.path), file.catalog]).sort()).toEqual([
      ["incidents/a.yaml", false],
      ["incidents/services.yaml", true],
      ["incidents/team/b.yaml", false],
    ]);
    const base = loadDefinitionSources(files);
    expect(base.problems).toEqual([]);
    expect(named(base)).toEqual([["svc-api=Public API", "svc-web=Web app"], ["svc-web=Web app"]]);

    const working = await loadDefinitions(path.join(repo, "incidents"));
    expect(working.problems.map((problem) => problem.code)).toEqual([
      "unnamed-service",
      "unnamed-service",
      "unnamed-service",
    ]);
  });
});
