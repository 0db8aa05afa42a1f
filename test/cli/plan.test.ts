import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { runPlan } from "../../src/cli/commands/plan";
import { captureIo } from "../reports/support/harness";
import { isolatedGitEnv } from "../support/git-env";
import { runCli } from "./run-cli";

/** What `plan --format json` promises to tools. */
const PlanJson = z.strictObject({
  base: z.strictObject({ ref: z.string(), commit: z.string().regex(/^[0-9a-f]{40}$/) }),
  dir: z.string(),
  verdict: z.enum(["no-changes", "changes", "policy-violated"]),
  summary: z.strictObject({
    add: z.int(),
    update: z.int(),
    remove: z.int(),
    unchanged: z.int(),
    errors: z.int(),
    warnings: z.int(),
  }),
  changes: z.array(
    z.looseObject({
      kind: z.enum(["add", "update", "remove"]),
      resource: z.string(),
      incidentId: z.string(),
      file: z.string(),
    }),
  ),
  findings: z.array(
    z.strictObject({
      level: z.enum(["error", "warning"]),
      rule: z.string(),
      resource: z.string(),
      incidentId: z.string(),
      name: z.string().optional(),
      file: z.string(),
      line: z.int().optional(),
      column: z.int().optional(),
      message: z.string(),
    }),
  ),
  baseProblems: z.array(z.looseObject({ file: z.string(), message: z.string() })),
});

const GIT_ENV = isolatedGitEnv("Plan Test");

function definition(fields: Record<string, string> = {}): string {
  const all: Record<string, string> = {
    id: "inc-api-errors",
    name: "Elevated error rates on the Public API",
    severity: "MAJOR",
    status: "IDENTIFIED",
    services: "[{ id: svc-api, name: Public API }, { id: svc-web, name: Web app }]",
    ...fields,
  };
  return `${Object.entries(all)
    .map(([key, value]) => `${key}: ${value}`)
    .join("\n")}\n`;
}

let repo: string;
const git = (...args: string[]) =>
  execFileSync("git", ["-c", "commit.gpgsign=false", ...args], {
    cwd: repo,
    env: GIT_ENV,
    encoding: "utf8",
  }).trim();

/** Replaces the working tree's definitions with `files`. */
async function writeIncidents(files: Record<string, string>): Promise<void> {
  const dir = path.join(repo, "incidents");
  await mkdir(dir, { recursive: true });
  for (const name of await readdir(dir)) await rm(path.join(dir, name), { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
}

/** Commits `files` as the whole definitions directory and tags the commit. */
async function commit(tag: string, files: Record<string, string>): Promise<void> {
  await writeIncidents(files);
  git("add", "-A", "incidents");
  git("commit", "-q", "--allow-empty", "-m", tag);
  git("tag", tag);
}

const checkout = definition({
  id: "inc-checkout-latency",
  name: "Slow checkout",
  severity: "MEDIUM",
  status: "RESOLVED",
  services: "[{ id: svc-checkout, name: Checkout }]",
});

beforeAll(async () => {
  repo = await mkdtemp(path.join(tmpdir(), "incident-sync-plan-"));
  git("init", "-q", "-b", "main");
  await writeFile(path.join(repo, "README.md"), "# status page\n");
  git("add", "README.md");
  git("commit", "-q", "-m", "before any definitions");
  git("tag", "empty");
  await commit("v1", { "api.yaml": definition(), "checkout.yaml": checkout });
  await commit("v2-more-severe", {
    "api.yaml": definition({ severity: "CRITICAL" }),
    "checkout.yaml": checkout,
  });
});
afterAll(async () => {
  await rm(repo, { recursive: true, force: true });
});

describe("incident-sync plan against a real git repository", () => {
  it("exits 0 and says so when the working tree matches the base", async () => {
    await writeIncidents({
      "api.yaml": definition({ severity: "CRITICAL" }),
      "checkout.yaml": checkout,
    });
    const run = await runCli(["plan", "--base", "v2-more-severe"], repo);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain("no changes, 2 unchanged.");
    expect(run.stdout).toContain("Policy passed: no findings.");
  });

  it("exits 2 with the fields that changed between two commits of the history", async () => {
    const run = await runCli(["plan", "--base", "v1", "--format", "json"], repo);
    expect(run.exitCode).toBe(2);
    const plan = PlanJson.parse(JSON.parse(run.stdout));
    expect(plan.base.commit).toBe(git("rev-parse", "v1"));
    expect(plan.summary).toEqual({
      add: 0,
      update: 1,
      remove: 0,
      unchanged: 1,
      errors: 0,
      warnings: 0,
    });
    expect(plan.changes[0]).toMatchObject({
      kind: "update",
      incidentId: "inc-api-errors",
      file: "incidents/api.yaml",
      fields: [{ field: "severity", before: "MAJOR", after: "CRITICAL" }],
    });
  });

  it("treats every definition as added when the directory did not exist at the base", async () => {
    const capture = captureIo({}, repo);
    const exitCode = await runPlan({ dir: "incidents", base: "empty", format: "json" }, capture.io);
    expect(exitCode).toBe(2);
    expect(PlanJson.parse(JSON.parse(capture.stdout())).summary).toMatchObject({
      add: 2,
      update: 0,
      remove: 0,
    });
  });

  it("exits 3 with a Markdown comment when a resolved incident reopens without the flag", async () => {
    await writeIncidents({
      "api.yaml": definition({ severity: "CRITICAL" }),
      "checkout.yaml": checkout.replace("RESOLVED", "INVESTIGATING"),
    });
    const run = await runCli(["plan", "--base", "v2-more-severe", "--format", "markdown"], repo);
    expect(run.exitCode).toBe(3);
    expect(run.stdout.split("\n").slice(0, 3)).toEqual([
      "<!-- incident-sync-plan -->",
      "### incident-sync plan: 1 to update",
      "",
    ]);
    expect(run.stdout).toContain("❌ **Policy violated**: 1 error.");
    expect(run.stdout).toMatch(
      /^\| Level \| Incident \| Rule \| Finding \|\n\|---\|---\|---\|---\|$/m,
    );
    expect(run.stdout).toContain(
      "| ❌ error | Slow checkout (inc-checkout-latency) | `reopen-without-flag` |",
    );
    expect(run.stdout).toContain("| status | RESOLVED | INVESTIGATING |");
  });

  it("exits 2 once the reopen is declared with reopen: true", async () => {
    await writeIncidents({
      "api.yaml": definition({ severity: "CRITICAL" }),
      "checkout.yaml": checkout.replace("RESOLVED", "INVESTIGATING\nreopen: true"),
    });
    const run = await runCli(["plan", "--base", "v2-more-severe"], repo);
    expect(run.exitCode).toBe(2);
  });

  it("exits 3 for a severity downgrade without a reason and 2 with one", async () => {
    await writeIncidents({
      "api.yaml": definition({ severity: "MINOR" }),
      "checkout.yaml": checkout,
    });
    const without = await runCli(["plan", "--base", "v2-more-severe", "--format", "text"], repo);
    expect(without.exitCode).toBe(3);
    expect(without.stdout).toContain(
      "error   Elevated error rates on the Public API (inc-api-errors) [severity-downgrade-without-reason] severity is lowered from CRITICAL to MINOR without a reason",
    );
    await writeIncidents({
      "api.yaml": definition({ severity: "MINOR", reason: "Only the EU region is still affected" }),
      "checkout.yaml": checkout,
    });
    const withReason = await runCli(["plan", "--base", "v2-more-severe"], repo);
    expect(withReason.exitCode).toBe(2);
  });

  it("exits 2 with a warning when services are removed", async () => {
    await writeIncidents({
      "api.yaml": definition({
        severity: "CRITICAL",
        services: "[{ id: svc-api, name: Public API }]",
      }),
      "checkout.yaml": checkout,
    });
    const run = await runCli(["plan", "--base", "v2-more-severe", "--format", "json"], repo);
    expect(run.exitCode).toBe(2);
    const plan = PlanJson.parse(JSON.parse(run.stdout));
    expect(plan.findings).toEqual([
      expect.objectContaining({
        level: "warning",
        rule: "services-removed",
        incidentId: "inc-api-errors",
      }),
    ]);
    expect(plan.changes[0]).toMatchObject({
      services: { added: [], removed: [{ id: "svc-web", name: "Web app" }], renamed: [] },
    });
  });

  it("exits 3 when the incident id changes under the same resource name", async () => {
    await writeIncidents({
      "api.yaml": definition({
        severity: "CRITICAL",
        resource: "inc-api-errors",
        id: "inc-api-errors-v2",
      }),
      "checkout.yaml": checkout,
    });
    const run = await runCli(["plan", "--base", "v2-more-severe", "--format", "json"], repo);
    expect(run.exitCode).toBe(3);
    const plan = PlanJson.parse(JSON.parse(run.stdout));
    expect(plan.findings.map((finding) => finding.rule)).toEqual(["incident-id-changed"]);
  });

  it("exits 1 and lists the problems on stderr, and in the chosen format on stdout, when the working tree is invalid", async () => {
    await writeIncidents({
      "api.yaml": definition({ severity: "SEVERE" }),
      "checkout.yaml": checkout,
    });
    const text = await runCli(["plan", "--base", "v1"], repo);
    expect(text.exitCode).toBe(1);
    expect(text.stdout).toBe("");
    expect(text.stderr).toMatchInlineSnapshot(`
      "incident-sync plan: the definitions in incidents are not valid (1 problem); fix them first:
        incidents/api.yaml:3:11: severity "SEVERE" is not allowed; use one of CRITICAL, MAJOR, MEDIUM, MINOR [invalid-value]
      "
    `);

    const json = await runCli(["plan", "--base", "v1", "--format", "json"], repo);
    expect(json.exitCode).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({
      error: {
        type: "InvalidDefinitionsError",
        message: "the definitions in incidents are not valid (1 problem); fix them first:",
        problems: [
          {
            file: "incidents/api.yaml",
            line: 3,
            column: 11,
            code: "invalid-value",
            message: 'severity "SEVERE" is not allowed; use one of CRITICAL, MAJOR, MEDIUM, MINOR',
          },
        ],
      },
    });

    const markdown = await runCli(["plan", "--base", "v1", "--format", "markdown"], repo);
    expect(markdown.exitCode).toBe(1);
    expect(markdown.stdout).toMatchInlineSnapshot(`
      "<!-- incident-sync-plan -->
      ### incident-sync plan: failed

      ❌ the definitions in incidents are not valid (1 problem); fix them first:

      - \`incidents/api.yaml:3:11\` severity "SEVERE" is not allowed; use one of CRITICAL, MAJOR, MEDIUM, MINOR
      "
    `);
  });

  it("exits 1 on a maintenance window, which up would refuse, at its file and line (issue 50)", async () => {
    await writeIncidents({
      "api.yaml": definition(),
      "checkout.yaml": checkout,
      "window.yaml": [
        "kind: maintenance",
        "resource: db-upgrade",
        "name: Database upgrade",
        "startsAt: 2026-12-04T02:00:00Z",
        "endsAt: 2026-12-04T04:00:00Z",
        "",
      ].join("\n"),
    });
    const text = await runCli(["plan", "--base", "v1"], repo);
    expect(text.exitCode).toBe(1);
    expect(text.stderr).toMatchInlineSnapshot(`
      "incident-sync plan: the definitions in incidents are not valid (1 problem); fix them first:
        incidents/window.yaml:1:1: maintenance windows (kind: maintenance) are checked by validate, but up, preview, refresh and plan do not take them yet: keep this file out of the definitions directory until they do [maintenance-not-applied]
      "
    `);
  });

  it("exits 1 with advice when the base ref does not exist", async () => {
    await writeIncidents({ "api.yaml": definition(), "checkout.yaml": checkout });
    const run = await runCli(["plan", "--base", "origin/main"], repo);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr.replace(repo, "<repo>")).toMatchInlineSnapshot(`
      "incident-sync plan: the git ref "origin/main" does not name a commit in <repo>; fetch it first (for example: git fetch origin main) or pass a branch, tag or commit that exists.
      "
    `);
  });

  it("on a git error still gives the pull request a comment that says what went wrong, and tools a JSON error", async () => {
    await writeIncidents({ "api.yaml": definition(), "checkout.yaml": checkout });
    const markdown = await runCli(["plan", "--base", "origin/main", "--format", "md"], repo);
    expect(markdown.exitCode).toBe(1);
    expect(markdown.stdout.replace(repo, "<repo>")).toMatchInlineSnapshot(`
      "<!-- incident-sync-plan -->
      ### incident-sync plan: failed

      ❌ the git ref "origin/main" does not name a commit in <repo>; fetch it first (for example: git fetch origin main) or pass a branch, tag or commit that exists.
      "
    `);
    const json = await runCli(["plan", "--base", "origin/main", "--format", "json"], repo);
    expect(JSON.parse(json.stdout).error.type).toBe("GitSourceError");
  });

  it("reads md as markdown", async () => {
    await writeIncidents({ "api.yaml": definition(), "checkout.yaml": checkout });
    const planAs = (format: string) =>
      runCli(["plan", "--base", "v2-more-severe", "--format", format], repo);
    const [md, markdown] = await Promise.all([planAs("md"), planAs("markdown")]);
    expect(md.exitCode).toBe(3);
    expect(md.stdout).toBe(markdown.stdout);
    expect(md.stdout.split("\n")[0]).toBe("<!-- incident-sync-plan -->");
  });

  it("exits 1 with advice outside a git repository", async () => {
    const outside = await mkdtemp(path.join(tmpdir(), "incident-sync-nogit-"));
    try {
      await mkdir(path.join(outside, "incidents"));
      await writeFile(path.join(outside, "incidents", "api.yaml"), definition());
      const run = await runCli(["plan", "--base", "main"], outside);
      expect(run.exitCode).toBe(1);
      expect(run.stderr).toContain("incidents is not inside a git repository");
      expect(run.stderr).toContain("run it in a clone of the repository");
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it("requires --base and explains the policy and exit codes in --help", async () => {
    const missing = await runCli(["plan"], repo);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain("required option '--base <ref>' not specified");
    const help = await runCli(["plan", "--help"], repo);
    expect(help.stdout).toContain("Lifecycle policy:");
    expect(help.stdout).toContain("Examples:");
  });
});
