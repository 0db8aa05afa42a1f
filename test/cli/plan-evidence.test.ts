import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runPlan } from "../../src/cli/commands/plan";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import { captureIo } from "../reports/support/harness";
import { isolatedGitEnv } from "../support/git-env";
import { runCli } from "./run-cli";

const GIT_ENV = isolatedGitEnv("Plan Test");

const api = (extra: string) => `id: inc-api-errors
name: Elevated error rate on the public API
severity: MAJOR
status: MONITORING
services: [svc-api, svc-web]
${extra}`;

let repo: string;
let demo: RunningEmulator;
const git = (...args: string[]) =>
  execFileSync("git", ["-c", "commit.gpgsign=false", ...args], { cwd: repo, env: GIT_ENV });

beforeAll(async () => {
  demo = await startEmulator({ port: 0, seed: "demo" });
  // Three new kinds of error on the API check, and one seen again, in the last half hour.
  demo.emulator.control.recordCheckResults("acct-demo", [
    { checkId: "chk-api", error: "Deadlock found when trying to get lock", at: "-20m" },
    { checkId: "chk-api", error: "Connection pool exhausted after 30 s", at: "-15m" },
    { checkId: "chk-api", error: "Redis READONLY You can't write against a replica", at: "-5m" },
    {
      checkId: "chk-api",
      error:
        "502 Bad Gateway from upstream 10.0.3.99:8080 (request 1b9e8d7c-6a5f-4e3d-8c2b-1a0f9e8d7c6b)",
      at: "-10m",
    },
  ]);
  repo = await mkdtemp(path.join(tmpdir(), "incident-sync-plan-evidence-"));
  await mkdir(path.join(repo, "incidents"));
  git("init", "-q", "-b", "main");
  await writeFile(
    path.join(repo, "incidents", "services.yaml"),
    "svc-api: Public API\nsvc-web: Web app\nsvc-db: Primary database\nsvc-checkout: Checkout\n",
  );
  await writeFile(path.join(repo, "incidents", "api.yaml"), api(""));
  await writeFile(
    path.join(repo, "incidents", "gone.yaml"),
    "id: inc-db-maintenance\nname: Maintenance\nseverity: MINOR\nstatus: RESOLVED\nservices: [svc-db]\n",
  );
  git("add", "-A");
  git("commit", "-q", "-m", "base");
  // The change: a severity raise with evidence, a new incident, and one removed.
  await writeFile(
    path.join(repo, "incidents", "api.yaml"),
    api("evidence:\n  heartbeats: [hb-nightly-backup, hb-typo]\n  checks: [chk-api]\n").replace(
      "MAJOR",
      "CRITICAL",
    ),
  );
  await writeFile(
    path.join(repo, "incidents", "checkout.yaml"),
    "id: inc-checkout-latency\nname: Slow checkout\nseverity: MEDIUM\nstatus: INVESTIGATING\nservices: [svc-checkout]\n",
  );
  await rm(path.join(repo, "incidents", "gone.yaml"));
});
afterAll(async () => {
  await demo?.close();
  await rm(repo, { recursive: true, force: true });
});

describe("plan --evidence", () => {
  test("adds one evidence line per added or changed incident to the pull-request comment, none for a removed one", async () => {
    const now = new Date();
    const capture = captureIo({}, repo);
    const exitCode = await runPlan(
      {
        dir: "incidents",
        base: "main",
        format: "markdown",
        evidence: { connection: { baseUrl: demo.url, apiKey: demo.demo.apiKey }, now },
      },
      capture.io,
    );
    const output = capture.stdout();

    expect(exitCode).toBe(2);
    const section = output.slice(output.indexOf("#### Evidence"));
    const lines = section.split("\n").filter((line) => line.startsWith("- "));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^- Elevated error rate on the public API \(inc-api-errors\): Nightly database backup \(hb-nightly-backup\) LATE \(missed or failing\) since (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC, success 0% over 24 h; hb-typo: could not be read \(not found in this account, 404\); Public API orders \(chk-api\): 3 new error groups in the last hour \(4 seen\)$/,
    );
    expect(lines[1]).toBe(
      "- Slow checkout (inc-checkout-latency): no evidence listed in its definition",
    );
    expect(output).not.toContain("(inc-db-maintenance):");
    expect(output).not.toContain(demo.demo.apiKey);
  });

  test("without --evidence the comment has no evidence section and makes no API call", async () => {
    const capture = captureIo({}, repo);
    await runPlan({ dir: "incidents", base: "main", format: "markdown" }, capture.io);
    expect(capture.stdout()).not.toContain("Evidence");
  });

  test("from the compiled CLI, --evidence reads the API settings from the environment, and says what is missing", async () => {
    const env = { MONITORING_API_URL: demo.url, MONITORING_API_KEY: demo.demo.apiKey };
    const run = await runCli(["plan", "--base", "main", "--evidence"], repo, env);
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toContain(
      "Evidence (monitoring API):\n  Elevated error rate on the public API (inc-api-errors): Nightly database backup (hb-nightly-backup) LATE (missed or failing) since",
    );

    const json = await runCli(
      ["plan", "--base", "main", "--evidence", "--format", "json"],
      repo,
      env,
    );
    expect(
      JSON.parse(json.stdout).evidence.map((e: { incidentId: string }) => e.incidentId),
    ).toEqual(["inc-api-errors", "inc-checkout-latency"]);

    const missing = await runCli(["plan", "--base", "main", "--evidence"], repo, {});
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toMatchInlineSnapshot(`
      "incident-sync plan: Missing the API URL (--api-url or MONITORING_API_URL) and the API key (MONITORING_API_KEY or --api-key).
      "
    `);
  });

  test("names, as a policy error, a changed incident that the status page shows resolved and git would reopen", async () => {
    demo.emulator.control.appendIncidentUpdate("acct-demo", "inc-checkout-latency", {
      description: "Fixed by the CDN change",
      status: "RESOLVED",
    });
    try {
      const capture = captureIo({}, repo);
      const exitCode = await runPlan(
        {
          dir: "incidents",
          base: "main",
          format: "json",
          evidence: { connection: { baseUrl: demo.url, apiKey: demo.demo.apiKey } },
        },
        capture.io,
      );
      expect(exitCode).toBe(3);
      const plan = JSON.parse(capture.stdout()) as {
        verdict: string;
        findings: { rule: string; incidentId: string; message: string }[];
      };
      expect(plan.verdict).toBe("policy-violated");
      expect(plan.findings).toContainEqual(
        expect.objectContaining({
          rule: "reopen-live-resolved",
          incidentId: "inc-checkout-latency",
          message: expect.stringMatching(
            /^incident inc-checkout-latency was resolved on the status page at \S+ by update \S+ \("Fixed by the CDN change"\), but its definition says INVESTIGATING/,
          ),
        }),
      );
    } finally {
      demo.emulator.control.appendIncidentUpdate("acct-demo", "inc-checkout-latency", {
        description: "Reopened: latency is back",
        status: "INVESTIGATING",
      });
    }
  });
});

describe("plan --evidence and a change made on the status page", () => {
  test("warns of a changed incident renamed on the status page, naming what the up after the merge puts back, old → new", async () => {
    demo.emulator.control.editIncident("acct-demo", "inc-api-errors", {
      name: "API errors (seen by support)",
    });
    try {
      const capture = captureIo({}, repo);
      const exitCode = await runPlan(
        {
          dir: "incidents",
          base: "main",
          format: "json",
          evidence: { connection: { baseUrl: demo.url, apiKey: demo.demo.apiKey } },
        },
        capture.io,
      );
      expect(exitCode).toBe(2);
      const plan = JSON.parse(capture.stdout()) as {
        findings: { level: string; rule: string; incidentId: string; message: string }[];
      };
      const found = plan.findings.filter((f) => f.rule === "changed-on-status-page");
      expect(found.map((f) => [f.level, f.incidentId])).toEqual([["warning", "inc-api-errors"]]);
      // Only the name: the severity the page shows is the base's, which the change raises.
      expect(found[0]?.message.replace(/at \S+Z/, "at <time>")).toMatchInlineSnapshot(
        `"name "API errors (seen by support)" → "Elevated error rate on the public API" (changed on the status page at <time>): the up after the merge puts git's value back (onPageChange: revert), or fails the incident and leaves the page as it is (refuse); take the page's value into this change to keep it."`,
      );
    } finally {
      demo.emulator.control.editIncident("acct-demo", "inc-api-errors", {
        name: "Elevated error rate on the public API",
      });
    }
  });
});

describe("plan --evidence and the account's services", () => {
  test("names, as a policy error, a changed incident that lists a service the account does not have", async () => {
    const file = path.join(repo, "incidents", "checkout.yaml");
    await writeFile(
      file,
      "id: inc-checkout-latency\nname: Slow checkout\nseverity: MEDIUM\nstatus: INVESTIGATING\nservices: [{ id: svc-chekout, name: Checkout }]\n",
    );
    try {
      const capture = captureIo({}, repo);
      const exitCode = await runPlan(
        {
          dir: "incidents",
          base: "main",
          format: "json",
          evidence: { connection: { baseUrl: demo.url, apiKey: demo.demo.apiKey } },
        },
        capture.io,
      );
      expect(exitCode).toBe(3);
      const plan = JSON.parse(capture.stdout()) as {
        findings: { rule: string; incidentId: string; message: string }[];
      };
      expect(plan.findings.filter((finding) => finding.rule === "unknown-service")).toEqual([
        expect.objectContaining({
          incidentId: "inc-checkout-latency",
          message:
            'service "svc-chekout" is not in the account\'s services list: did you mean "svc-checkout"? A PUT naming it would be refused: correct the id (incident-sync import lists them all).',
        }),
      ]);
    } finally {
      await writeFile(
        file,
        "id: inc-checkout-latency\nname: Slow checkout\nseverity: MEDIUM\nstatus: INVESTIGATING\nservices: [svc-checkout]\n",
      );
    }
  });
});
