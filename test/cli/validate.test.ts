import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { runValidate } from "../../src/cli/commands/validate";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import { githubAnnotation } from "../../src/github-annotation";
import { captureIo } from "../reports/support/harness";
import { runCli } from "./run-cli";

const ValidateJson = z.strictObject({
  valid: z.boolean(),
  dir: z.string(),
  stack: z.string().optional(),
  live: z.strictObject({ services: z.int() }).optional(),
  files: z.int(),
  definitions: z.array(
    z.strictObject({
      resource: z.string(),
      id: z.string().optional(),
      file: z.string(),
      line: z.int(),
      column: z.int(),
      stacks: z.array(z.string()).optional(),
      inStack: z.boolean().optional(),
    }),
  ),
  maintenance: z.array(
    z.strictObject({
      resource: z.string(),
      file: z.string(),
      line: z.int(),
      column: z.int(),
      applied: z.literal(false),
    }),
  ),
  problems: z.array(
    z.strictObject({
      file: z.string(),
      line: z.int().optional(),
      column: z.int().optional(),
      code: z.string(),
      message: z.string(),
    }),
  ),
  /** Kept for the tools that read it; a stacks entry that names no stack is a problem. */
  warnings: z.array(z.never()),
});

const VALID = `id: inc-api-errors
name: Elevated error rates on the Public API
severity: MAJOR
status: IDENTIFIED
services: [{ id: svc-api, name: Public API }]
`;
const INVALID = `id: inc-checkout-latency
name: 'Slow checkout, with "quotes", commas: and colons'
reopen: 1
severity: HIGH
status: MONITORING
services: []
`;

/** Values that would break lines or drive the terminal if printed raw. */
const HOSTILE = `id: "inc-\\u001B[2J"
name: "line one\\nline two"
"sev\\rerity": MAJOR
status: "MONI\\nTORING\\u202E"
services: [svc-api]
? [a, b]
: stringified by yaml, with a warning on stderr
`;

/** A maintenance window (issue 50), valid. */
const WINDOW = `kind: maintenance
resource: db-upgrade
name: Database upgrade
startsAt: 2026-12-04T02:00:00Z
endsAt: 2026-12-04T04:00:00Z
statusPages: [sp-acme]
allServices: true
`;

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "incident-sync-validate-"));
  await mkdir(path.join(root, "good"));
  await mkdir(path.join(root, "bad"));
  await mkdir(path.join(root, "hostile"));
  await writeFile(path.join(root, "good", "api.yaml"), VALID);
  await writeFile(path.join(root, "bad", "api.yaml"), VALID);
  await writeFile(path.join(root, "bad", "checkout.yaml"), INVALID);
  await writeFile(path.join(root, "hostile", "new\nline.yaml"), HOSTILE);
  await mkdir(path.join(root, "windows"));
  await writeFile(path.join(root, "windows", "api.yaml"), VALID);
  await writeFile(
    path.join(root, "windows", "db.yaml"),
    `${WINDOW}---\n${WINDOW.replace("db-upgrade", "db-backup")}`,
  );
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("incident-sync validate", () => {
  it("counts maintenance windows beside incidents, and says that up does not apply them yet (issue 50)", async () => {
    const text = await runCli(["validate", "windows"], root);
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toBe(
      "windows: 1 definition and 2 maintenance windows in 2 files, all valid.\nNote: maintenance windows (kind: maintenance) are checked by validate, but up, preview, refresh and plan do not take them yet: keep this file out of the definitions directory until they do.\n",
    );
    const json = ValidateJson.parse(
      JSON.parse((await runCli(["validate", "windows", "--format", "json"], root)).stdout),
    );
    expect(json.maintenance).toEqual([
      {
        resource: "db-upgrade",
        file: path.join("windows", "db.yaml"),
        line: 1,
        column: 1,
        applied: false,
      },
      {
        resource: "db-backup",
        file: path.join("windows", "db.yaml"),
        line: 9,
        column: 1,
        applied: false,
      },
    ]);
  });

  it("with --stack, says how many definitions that stack declares, and refuses a name no stack can have", async () => {
    await mkdir(path.join(root, "stacks"));
    await writeFile(
      path.join(root, "stacks", "api.yaml"),
      `${VALID}---\n${VALID.replace("inc-api-errors", "inc-staging").replace("services:", "stacks: [staging]\nservices:")}`,
    );
    expect((await runCli(["validate", "stacks", "--stack", "prod"], root)).stdout).toBe(
      "stacks: 2 definitions in 1 file, all valid; stack prod declares 1 of them.\n",
    );
    const json = ValidateJson.parse(
      JSON.parse(
        (await runCli(["validate", "stacks", "--stack", "prod", "--format", "json"], root)).stdout,
      ),
    );
    expect(json.definitions.map(({ id, stacks, inStack }) => ({ id, stacks, inStack }))).toEqual([
      { id: "inc-api-errors", stacks: undefined, inStack: true },
      { id: "inc-staging", stacks: ["staging"], inStack: false },
    ]);
    const refused = await runCli(["validate", "stacks", "--stack", "acme/incidents/prod/eu"], root);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain(
      "must be a stack name as Pulumi writes it, stack, org/stack or org/project/stack, each part 1 to 100 letters, digits, -, _ or .",
    );
  });

  it("takes a stack as Pulumi names it, and refuses at its line a stacks entry that names no stack of the project, with the stack it is likely a typo of", async () => {
    const project = path.join(root, "project");
    await mkdir(path.join(project, "incidents"), { recursive: true });
    await writeFile(path.join(project, "Pulumi.yaml"), "name: status-page\nruntime: nodejs\n");
    for (const stack of ["staging", "prod"]) {
      await writeFile(path.join(project, `Pulumi.${stack}.yaml`), "config: {}\n");
    }
    await writeFile(
      path.join(project, "incidents", "api.yaml"),
      `${VALID.replace("services:", "stacks:\n  - staging\n  - prdo\nservices:")}---\n${VALID.replace("inc-api-errors", "inc-acme").replace("services:", "stacks: [acme/prod, acme/other-project/prod]\nservices:")}`,
    );
    const text = await runCli(["validate", "--stack", "acme/prod"], project);
    // An entry that names no stack would take the incident off the stack meant: an error.
    expect(text.exitCode).toBe(1);
    expect(text.stdout).toMatch(
      /^incidents\/api\.yaml:7:5: stacks entry "prdo" is no stack of the Pulumi\.<stack>\.yaml files beside Pulumi\.yaml or --stack: did you mean "prod"\? .* \[unknown-stack\]$/m,
    );
    // acme/prod matches the file Pulumi.prod.yaml, whose organization validate cannot know.
    expect(text.stdout).not.toMatch(/"acme\/prod"/);
    const json = ValidateJson.parse(
      JSON.parse((await runCli(["validate", "--format", "json"], project)).stdout),
    );
    expect(json.valid).toBe(false);
    expect(
      json.problems.map(({ line, column, code, message }) => ({
        at: `${line}:${column}`,
        code,
        hint: /did you mean "([^"]+)"/.exec(message)?.[1],
      })),
    ).toEqual([
      { at: "7:5", code: "unknown-stack", hint: "prod" },
      { at: "14:21", code: "unknown-stack", hint: undefined },
    ]);
    expect(json.problems[1]?.message).toContain("the project's stacks are prod, staging");
    const github = await runCli(["validate", "--format", "github"], project);
    expect(github.stdout.split("\n")[0]).toMatch(
      /^::error file=incidents\/api\.yaml,line=7,col=5,title=incident-sync%3A unknown-stack::stacks entry "prdo" /,
    );
  });

  it("knows the stacks of a file backend, and says in its own words that a self-managed backend has no organization but organization", async () => {
    const project = path.join(root, "self-managed");
    const state = path.join(root, "self-managed-state");
    await mkdir(path.join(project, "incidents"), { recursive: true });
    await mkdir(path.join(state, ".pulumi", "stacks", "status-page"), { recursive: true });
    await writeFile(path.join(state, ".pulumi", "stacks", "status-page", "qa.json"), "{}\n");
    await writeFile(path.join(project, "Pulumi.yaml"), "name: status-page\nruntime: nodejs\n");
    await writeFile(path.join(project, "Pulumi.prod.yaml"), "config: {}\n");
    await writeFile(
      path.join(project, "incidents", "api.yaml"),
      VALID.replace("services:", "stacks: [qa, acme/prod]\nservices:"),
    );
    const env = { PULUMI_BACKEND_URL: `file://${state}` };
    const run = await runCli(["validate"], project, env);
    expect(run.exitCode).toBe(1);
    // qa is a stack of the backend, with no stack file: known. acme/prod can be none.
    expect(run.stdout).not.toMatch(/"qa"/);
    expect(run.stdout).toContain(
      `incidents/api.yaml:5:14: stacks entry "acme/prod" names the organization acme, but ${state} is a self-managed backend, which keeps every stack in one organization, "organization": write "prod" (or "organization/prod").`,
    );
    expect(run.stdout).not.toContain("organization name must be");
    const named = await runCli(["validate", "--stack", "acme/prod"], project, env);
    expect(named.exitCode).toBe(1);
    expect(named.stderr).toContain(
      `incident-sync validate: --stack "acme/prod" names the organization acme, but ${state} is a self-managed backend`,
    );
    // Without the backend, acme/prod may be a Pulumi Cloud stack of the file Pulumi.prod.yaml.
    const unknownBackend = await runCli(["validate"], project, {});
    expect(unknownBackend.stdout).toMatch(/stacks entry "qa" is no stack/);
    expect(unknownBackend.stdout).not.toMatch(/acme\/prod/);
  });

  it("says how many definitions are valid and exits 0", async () => {
    const run = await runCli(["validate", "good"], root);
    expect(run).toEqual({
      exitCode: 0,
      stdout: "good: 1 definition in 1 file, all valid.\n",
      stderr: "",
    });
  });

  it("counts definitions and the files that hold them, naming the services catalog apart from them", async () => {
    await mkdir(path.join(root, "catalogued"), { recursive: true });
    await writeFile(path.join(root, "catalogued", "api.yaml"), VALID);
    await writeFile(path.join(root, "catalogued", "services.yaml"), "svc-api: Public API\n");
    const run = await runCli(["validate", "catalogued"], root);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/^catalogued: 1 definition in 1 file\b/);
    expect(run.stdout).toMatch(/services catalog/);
  });

  it("reads a folder of definitions that a link leads to, and refuses one out of the directory at its path (issue 36)", async () => {
    await mkdir(path.join(root, "linked", ".store"), { recursive: true });
    await writeFile(path.join(root, "linked", "api.yaml"), VALID);
    await writeFile(
      path.join(root, "linked", ".store", "team-b.yaml"),
      VALID.replace("inc-api-errors", "inc-team-b"),
    );
    await symlink(".store", path.join(root, "linked", "team-b"));
    expect(await runCli(["validate", "linked"], root)).toEqual({
      exitCode: 0,
      stdout: "linked: 2 definitions in 2 files, all valid.\n",
      stderr: "",
    });
    await symlink(path.join(root, "good"), path.join(root, "linked", "team-c"));
    const outside = await runCli(["validate", "linked"], root);
    expect(outside.exitCode).toBe(1);
    expect(outside.stdout.replaceAll(root, "<root>")).toMatchInlineSnapshot(`
      "linked/team-c: the folder is a symbolic link to <root>/good, outside the definitions directory; only folders inside it are read: move the folder in or remove the link [link-outside-directory]

      1 problem.
      "
    `);
  });

  it("refuses one incident pasted twice, differing only in resource, at both files' lines (issue 45)", async () => {
    const opening = (resource: string) => `resource: ${resource}
name: Card payments failing
severity: MAJOR
status: IDENTIFIED
services: [{ id: svc-pay, name: Payments }]
updates:
  - status: IDENTIFIED
    message: Card payments fail at checkout.
    notify: true
`;
    await mkdir(path.join(root, "twins"));
    await writeFile(path.join(root, "twins", "payments.yaml"), opening("payments"));
    await writeFile(path.join(root, "twins", "payments-copy.yaml"), opening("payments-copy"));
    const run = await runCli(["validate", "twins", "--format", "json"], root);
    expect(run.exitCode).toBe(1);
    const report = ValidateJson.parse(JSON.parse(run.stdout));
    expect(report.valid).toBe(false);
    expect(
      report.problems.map(({ file, line, column, code }) => `${file}:${line}:${column} ${code}`),
    ).toEqual([
      "twins/payments-copy.yaml:2:7 duplicate-incident",
      "twins/payments.yaml:2:7 duplicate-incident",
    ]);
    expect(report.problems[0]?.message).toContain("is also defined at twins/payments.yaml:2:7");
  });

  it("prints every problem with file, line and column and exits 1", async () => {
    const run = await runCli(["validate", "bad"], root);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toMatchInlineSnapshot(`
      "bad/checkout.yaml:3:9: reopen must be true or false, not the number 1 [invalid-type]
      bad/checkout.yaml:4:11: severity "HIGH" is not allowed; use one of CRITICAL, MAJOR, MEDIUM, MINOR [invalid-value]
      bad/checkout.yaml:6:11: services is empty; list at least one affected service [empty-list]

      3 problems in 1 file.
      "
    `);
  });

  it("prints GitHub workflow annotations with escaped properties", async () => {
    const capture = captureIo({}, root);
    const exitCode = await runValidate(
      { dir: path.join(root, "bad"), format: "github" },
      capture.io,
    );
    expect(exitCode).toBe(1);
    expect(capture.stdout().replaceAll(root, "<root>")).toMatchInlineSnapshot(`
      "::error file=<root>/bad/checkout.yaml,line=3,col=9,title=incident-sync%3A invalid-type::reopen must be true or false, not the number 1
      ::error file=<root>/bad/checkout.yaml,line=4,col=11,title=incident-sync%3A invalid-value::severity "HIGH" is not allowed; use one of CRITICAL, MAJOR, MEDIUM, MINOR
      ::error file=<root>/bad/checkout.yaml,line=6,col=11,title=incident-sync%3A empty-list::services is empty; list at least one affected service
      3 problems in 1 file.
      "
    `);
  });

  it("escapes annotation text so newlines, percent signs and commas cannot break the command", () => {
    expect(
      githubAnnotation({
        level: "error",
        file: "incidents/a,b.yaml",
        line: 2,
        column: 3,
        title: "incident-sync: x",
        message: "100% wrong\nsecond line",
      }),
    ).toBe(
      "::error file=incidents/a%2Cb.yaml,line=2,col=3,title=incident-sync%3A x::100%25 wrong%0Asecond line",
    );
  });

  it("prints JSON that tools can read back, valid or not", async () => {
    const good = ValidateJson.parse(
      JSON.parse((await runCli(["validate", "good", "--format", "json"], root)).stdout),
    );
    expect(good).toMatchObject({ valid: true, files: 1, problems: [] });
    expect(good.definitions).toEqual([
      {
        resource: "inc-api-errors",
        id: "inc-api-errors",
        file: "good/api.yaml",
        line: 1,
        column: 1,
      },
    ]);
    const capture = captureIo({}, root);
    await runValidate({ dir: "bad", format: "json" }, capture.io);
    const bad = ValidateJson.parse(JSON.parse(capture.stdout()));
    expect(bad.problems.map((problem) => problem.file)).toEqual([
      "bad/checkout.yaml",
      "bad/checkout.yaml",
      "bad/checkout.yaml",
    ]);
    expect(bad.valid).toBe(false);
    expect(
      bad.problems.map((problem) => `${problem.line}:${problem.column} ${problem.code}`),
    ).toEqual(["3:9 invalid-type", "4:11 invalid-value", "6:11 empty-list"]);
  });

  it("prints one line per problem whatever the file holds, and nothing on stderr", async () => {
    const run = await runCli(["validate", "hostile"], root);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatchInlineSnapshot(`
      "hostile/new\\nline.yaml:1:1: missing required field "severity" (one of CRITICAL, MAJOR, MEDIUM, MINOR) [missing-key]
      hostile/new\\nline.yaml:1:10: id "inc-\\u001B[2J" must not contain U+001B ESCAPE (character 5); an id is one URL path segment of visible characters, without whitespace, /, \\, ?, # or % [invalid-character]
      hostile/new\\nline.yaml:2:16: name "line one\\nline two" must not contain U+000A LINE FEED (character 9), which cannot be seen or changes how the text around it is shown [invalid-character]
      hostile/new\\nline.yaml:3:1: unknown field "sev\\rerity"; did you mean "severity"? [unknown-key]
      hostile/new\\nline.yaml:4:9: status "MONI\\nTORING\\u202E" is not allowed; use one of INVESTIGATING, IDENTIFIED, MONITORING, RESOLVED (did you mean MONITORING?) [invalid-value]
      hostile/new\\nline.yaml:6:3: a key must be text, not a list [invalid-type]

      6 problems in 1 file.
      "
    `);
    const lines = run.stdout.trimEnd().split("\n");
    for (const line of lines.slice(0, -2)) {
      expect(line).toMatch(/^hostile\/new\\nline\.yaml:\d+:\d+: \P{Cc}+ \[[a-z-]+\]$/u);
    }
  });

  it("keeps the raw values in JSON, where escaping is JSON's own", async () => {
    const run = await runCli(["validate", "hostile", "--format", "json"], root);
    const report = ValidateJson.parse(JSON.parse(run.stdout));
    expect(report.problems.map((problem) => problem.file)).toContain("hostile/new\nline.yaml");
  });

  it("fails with a clear message for a missing directory", async () => {
    const run = await runCli(["validate", "nowhere"], root);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toMatchInlineSnapshot(`
      "nowhere: the directory nowhere does not exist; create it with incident definitions or pass the right directory [missing-directory]

      1 problem.
      "
    `);
  });

  it("rejects an unknown format and lists the allowed ones", async () => {
    const run = await runCli(["validate", "good", "--format", "yaml"], root);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain("Allowed choices are text, json, github");
  });

  it("explains itself with examples and exit codes in --help", async () => {
    const run = await runCli(["validate", "--help"], root);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain("Examples:");
    expect(run.stdout).toContain("Exit codes:");
    expect(run.stdout).toContain("Limits (each a problem with its own code):");
  });
});

describe("incident-sync validate --live", () => {
  let demo: RunningEmulator;
  beforeAll(async () => {
    demo = await startEmulator({ port: 0, seed: "demo" });
    await mkdir(path.join(root, "live"));
    await writeFile(path.join(root, "live", "services.yaml"), "svc-chekout: Checkout\n");
    await writeFile(path.join(root, "live", "api.yaml"), VALID);
    await writeFile(
      path.join(root, "live", "checkout.yaml"),
      "id: inc-checkout-latency\nname: Slow checkout\nseverity: MEDIUM\nstatus: INVESTIGATING\nservices:\n  - svc-chekout\n  - { id: svc-payments, name: Payments }\n",
    );
  });
  afterAll(async () => {
    await demo?.close();
  });
  const env = () => ({
    MONITORING_API_URL: demo.url,
    MONITORING_API_KEY: demo.demo.apiKey,
    MONITORING_ACCOUNT_ID: demo.demo.accountId,
  });

  it("names each service the account does not have at its place, with the closest one, and exits 1", async () => {
    const run = await runCli(["validate", "live", "--live"], root, env());
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toMatchInlineSnapshot(`
      "live/checkout.yaml:6:5: service "svc-chekout" is not in the account's services list: did you mean "svc-checkout"? A PUT naming it would be refused: correct the id (incident-sync import lists them all). [unknown-service]
      live/checkout.yaml:7:5: service "svc-payments" is not in the account's services list, which has svc-api, svc-auth, svc-checkout, svc-db, svc-web. A PUT naming it would be refused: correct the id (incident-sync import lists them all). [unknown-service]

      2 problems in 1 file.
      "
    `);
    // Without --live the same definitions are valid: only the service knows its services.
    expect((await runCli(["validate", "live"], root, env())).exitCode).toBe(0);
  });

  it("says how many services the account has when every one listed is among them", async () => {
    const run = await runCli(["validate", "good", "--live", "--format", "json"], root, env());
    expect(run.exitCode).toBe(0);
    const result = ValidateJson.parse(JSON.parse(run.stdout));
    expect(result.live).toEqual({ services: 5 });
    const text = await runCli(["validate", "good", "--live"], root, env());
    expect(text.stdout).toBe(
      "good: 1 definition in 1 file, all valid, every service they list among the account's 5 services.\n",
    );
  });

  it("needs the API settings, and says which are missing", async () => {
    const run = await runCli(["validate", "good", "--live"], root, {});
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatchInlineSnapshot(`
      "incident-sync validate: Missing the API URL (--api-url or MONITORING_API_URL) and the API key (MONITORING_API_KEY or --api-key).
      "
    `);
  });
});
