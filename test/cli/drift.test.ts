import { execFile } from "node:child_process";
import { appendFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runDrift } from "../../src/cli/commands/drift";
import type { RunningEmulator } from "../../src/emulator";
import { DriftReport } from "../../src/reports";
import {
  ACCOUNT,
  API_KEY,
  apiEnv,
  captureIo,
  control,
  startSeededEmulator,
  tempDir,
} from "../reports/support/harness";
import { parseMarkdownTables } from "../reports/support/markdown";
import { runCli } from "./run-cli";

const git = promisify(execFile);

let running: RunningEmulator;
let repo: string;

const DEFINITIONS: Record<string, string> = {
  "services.yaml": "svc-api: Public API\n",
  "api.yaml": `id: inc-api
name: Elevated error rates on the Public API
severity: MAJOR
status: MONITORING
services: [svc-api]
`,
  "db.yaml": `# Last week's maintenance, long resolved.
id: inc-db
name: Scheduled database maintenance
severity: MINOR
status: RESOLVED
services: [svc-api]
`,
};

beforeAll(async () => {
  running = await startSeededEmulator({
    incidents: [
      {
        id: "inc-api",
        name: "Elevated error rates on the Public API",
        severity: "MAJOR",
        services: ["svc-api"],
        created_at: "-3h",
        updates: [
          { description: "Elevated 5xx on the API.", status: "INVESTIGATING", created_at: "-3h" },
          { description: "Rolled back; watching.", status: "MONITORING", created_at: "-1h" },
        ],
      },
      {
        id: "inc-quiet",
        name: "An incident nobody has posted about yet",
        severity: "MINOR",
        services: ["svc-api"],
        created_at: "-1h",
      },
      {
        id: "inc-db",
        name: "Scheduled database maintenance",
        severity: "MINOR",
        services: ["svc-api"],
        created_at: "-7d",
        updates: [{ description: "Done.", status: "RESOLVED", created_at: "-6d" }],
      },
    ],
  });
  repo = await tempDir("drift-repo");
  await mkdir(path.join(repo, "incidents"));
  for (const [name, text] of Object.entries(DEFINITIONS)) {
    await writeFile(path.join(repo, "incidents", name), text);
  }
  const inRepo = { cwd: repo };
  await git("git", ["init", "-q", "-b", "main"], inRepo);
  await git("git", ["add", "incidents"], inRepo);
  await git(
    "git",
    [
      "-c",
      "user.name=Ops",
      "-c",
      "user.email=ops@example.com",
      "commit",
      "-q",
      "-m",
      "Declare incidents",
    ],
    inRepo,
  );
});
afterAll(async () => {
  await running?.close();
});

async function drift(format: "text" | "json" | "markdown" | "github", extra: object = {}) {
  const capture = captureIo(apiEnv(running), repo);
  const code = await runDrift({ format, ...extra }, capture.io);
  return { code, ...capture };
}

describe("drift", () => {
  test("with --stack, checks only what that stack declares: an incident of another stack is not drift; a tree without a project has no state to read, which exits 4", async () => {
    const file = path.join(repo, "incidents", "staging-only.yaml");
    await writeFile(
      file,
      "id: inc-staging-only\nname: Only on staging\nseverity: MINOR\nstatus: INVESTIGATING\nservices: [svc-api]\nstacks: [staging]\n",
    );
    try {
      const everywhere = await drift("json");
      expect(everywhere.code).toBe(2);
      const prod = await drift("json", { stack: "prod" });
      expect(prod.code).toBe(4);
      const report = DriftReport.parse(JSON.parse(prod.stdout()));
      expect(report.definitions.map((d) => d.id)).toEqual(["inc-api", "inc-db"]);
      expect(report.stack).toEqual({
        name: "prod",
        read: false,
        reason: "no Pulumi.yaml was found above the definitions directory",
      });
      expect(prod.stderr()).toMatchInlineSnapshot(`
        "incident-sync drift: the state of stack prod could not be read (no Pulumi.yaml was found above the definitions directory); 0 incident(s) could not be checked, and those with an id were checked by their updates alone.
        "
      `);
    } finally {
      await rm(file);
    }
  });

  test("right after the definitions are committed there is no drift and no update outside git (exit 0)", async () => {
    const { code, stdout } = await drift("json");

    expect(code).toBe(0);
    const report = DriftReport.parse(JSON.parse(stdout()));
    expect(report.drift).toBe(false);
    expect(report.definitions.map((d) => [d.id, d.state, d.liveStatus, d.baseline.source])).toEqual(
      [
        ["inc-api", "in-sync", "MONITORING", "git"],
        ["inc-db", "in-sync", "RESOLVED", "git"],
      ],
    );
    expect(report.summary).toMatchObject({ expectedUpdates: 0, driftUpdates: 0 });
  });

  test("with --applied, the status each last apply set speaks over older updates, read from pulumi stack export as from the stack output incidents", async () => {
    // The last apply set inc-api RESOLVED without an update (a service whose PUT only sets
    // the field): its updates, all older, still say MONITORING.
    const at = new Date().toISOString();
    const applied = { "inc-api": "RESOLVED", "inc-db": "RESOLVED" } as const;
    const stackExport = {
      version: 3,
      deployment: {
        resources: [
          {
            type: "pulumi:pulumi:Stack",
            urn: "urn:pulumi:prod::incident-sync::pulumi:pulumi:Stack::incident-sync-prod",
            outputs: {},
          },
          ...Object.entries(applied).map(([incidentId, status]) => ({
            type: "pulumi-nodejs:dynamic/incident-sync:Incident",
            outputs: { incidentId, status, appliedAt: at },
          })),
        ],
      },
    };
    const stackOutput = Object.fromEntries(
      Object.entries(applied).map(([id, status]) => [id, { applied: { status, at } }]),
    );
    for (const [name, content] of [
      ["state.json", stackExport],
      ["applied.json", stackOutput],
    ] as const) {
      const file = path.join(repo, name);
      await writeFile(file, JSON.stringify(content));
      try {
        const { code, stdout } = await drift("json", { applied: name });
        expect(code, name).toBe(2);
        const report = DriftReport.parse(JSON.parse(stdout()));
        expect(
          report.definitions.map((d) => [d.id, d.state, d.liveStatus]),
          name,
        ).toEqual([
          ["inc-api", "drifted", "RESOLVED"],
          ["inc-db", "in-sync", "RESOLVED"],
        ]);
      } finally {
        await rm(file);
      }
    }
  });

  test("an update posted in the UI with the declared status is expected activity, not drift (exit 0)", async () => {
    await control(running, `/accounts/${ACCOUNT}/incidents/inc-api/updates`, {
      description: "Still watching error rates.",
      status: "MONITORING",
    });
    await control(running, `/accounts/${ACCOUNT}/incidents/inc-db/updates`, {
      description: "Post-mortem published.",
    });

    const { code, stdout } = await drift("json");

    expect(code).toBe(0);
    const report = DriftReport.parse(JSON.parse(stdout()));
    expect(report.summary).toMatchObject({ inSync: 2, expectedUpdates: 2, driftUpdates: 0 });
    expect(
      report.definitions.map((d) => d.updatesOutsideGit.map((u) => [u.status, u.class])),
    ).toEqual([[["MONITORING", "expected"]], [[null, "expected"]]]);
  });

  test("an out-of-band update with another status is drift (exit 2), listed newest first beside the expected activity", async () => {
    await control(running, `/accounts/${ACCOUNT}/incidents/inc-api/updates`, {
      description: "Errors are back; reopening.",
      status: "IDENTIFIED",
      at: new Date(Date.now() + 1_000).toISOString(),
    });

    const json = await drift("json");
    expect(json.code).toBe(2);
    const report = DriftReport.parse(JSON.parse(json.stdout()));
    expect(report.drift).toBe(true);
    const api = report.definitions.find((d) => d.id === "inc-api")!;
    expect([api.state, api.declaredStatus, api.liveStatus]).toEqual([
      "drifted",
      "MONITORING",
      "IDENTIFIED",
    ]);
    expect(api.updatesOutsideGit.map((u) => [u.description, u.class])).toEqual([
      ["Errors are back; reopening.", "drift"],
      ["Still watching error rates.", "expected"],
    ]);
    expect(report.summary).toMatchObject({
      drifted: 1,
      inSync: 1,
      driftUpdates: 1,
      expectedUpdates: 2,
    });

    const text = await drift("text");
    expect(text.code).toBe(2);
    expect(text.stdout()).toContain(
      "DRIFTED  Elevated error rates on the Public API (inc-api)  declared MONITORING, live IDENTIFIED  (incidents/api.yaml:1)",
    );
    expect(text.stdout().trim().split("\n").at(-1)).toBe(
      "Drift: 1 drifted, 0 missing, 1 in sync, 0 unknown of 2 definition(s).",
    );

    const markdown = await drift("markdown");
    const [summary, apiUpdates] = parseMarkdownTables(markdown.stdout());
    expect(summary?.rows.map((r) => r.slice(0, 4))).toEqual([
      ["Elevated error rates on the Public API (inc-api)", "DRIFTED", "MONITORING", "IDENTIFIED"],
      ["Scheduled database maintenance (inc-db)", "in sync", "RESOLVED", "RESOLVED"],
    ]);
    expect(apiUpdates?.rows.map((r) => r[2])).toEqual(["drift", "expected"]);

    const github = await drift("github");
    expect(github.stdout().split("\n")[0]).toMatch(
      /^::error file=incidents\/api\.yaml,line=1,title=Drift%3A Elevated error rates on the Public API \(inc-api\)::declared MONITORING, live IDENTIFIED\. Latest out-of-band update: .+ IDENTIFIED: Errors are back; reopening\.$/,
    );
  });

  test("--since narrows the updates outside git to a window instead of the last commit", async () => {
    const { stdout } = await drift("json", { since: "2h" });
    const report = DriftReport.parse(JSON.parse(stdout()));
    const api = report.definitions.find((d) => d.id === "inc-api")!;
    expect(api.baseline.source).toBe("since");
    expect(api.updatesOutsideGit.map((u) => u.description)).toEqual([
      "Errors are back; reopening.",
      "Still watching error rates.",
      "Rolled back; watching.",
    ]);
  });

  test("a definition whose incident does not exist is drift", async () => {
    const dir = await tempDir("drift-missing");
    await writeFile(
      path.join(dir, "ghost.yaml"),
      "id: inc-ghost\nname: Never created\nseverity: MINOR\nstatus: INVESTIGATING\nservices: [{ id: svc-api, name: Public API }]\n",
    );
    const capture = captureIo(apiEnv(running), dir);
    const code = await runDrift({ format: "text", dir }, capture.io);

    expect(code).toBe(2);
    expect(capture.stdout()).toContain(
      "MISSING  Never created (inc-ghost)  declared INVESTIGATING, live (no such incident)",
    );
  });

  test("an incident without any update that has a status is unknown, which is not drift (exit 0)", async () => {
    const dir = await tempDir("drift-unknown");
    await writeFile(
      path.join(dir, "quiet.yaml"),
      "id: inc-quiet\nname: An incident nobody has posted about yet\nseverity: MINOR\nstatus: INVESTIGATING\nservices: [{ id: svc-api, name: Public API }]\n",
    );
    const capture = captureIo(apiEnv(running), dir);
    const code = await runDrift({ format: "json", dir }, capture.io);

    expect(code).toBe(0);
    const report = DriftReport.parse(JSON.parse(capture.stdout()));
    expect(report.definitions[0]).toMatchObject({ state: "unknown", liveStatus: null });
    expect(report.definitions[0]?.baseline).toEqual({ source: "none", at: null });
  });

  describe("the compiled CLI", () => {
    test("exits 2 on drift with a GitHub summary, and 1 with a wrong key that it never prints", async () => {
      const summaryFile = path.join(repo, "..", `summary-${path.basename(repo)}.md`);
      await appendFile(summaryFile, "");
      const drifted = await runCli(["drift", "--format", "github"], repo, {
        ...apiEnv(running),
        GITHUB_STEP_SUMMARY: summaryFile,
      });
      expect(drifted.exitCode).toBe(2);
      expect(drifted.stdout).toContain("::error file=incidents/api.yaml,line=1");
      expect(parseMarkdownTables(await readFile(summaryFile, "utf8"))[0]?.rows).toHaveLength(2);

      const denied = await runCli(["drift"], repo, {
        ...apiEnv(running),
        MONITORING_API_KEY: "not-the-key-9f8e7d",
      });
      expect(denied.exitCode).toBe(1);
      expect(denied.stdout).toBe("");
      expect(denied.stderr).not.toContain("not-the-key-9f8e7d");
      expect(denied.stderr).not.toContain(API_KEY);
      // The incident list is read first, once, for every incident.
      expect(denied.stderr).toMatchInlineSnapshot(`
        "incident-sync drift: GET /v1/status-pages/incidents?limit=100 failed: 401 Unauthorized: the API key is not valid. The API key was refused: check MONITORING_API_KEY or --api-key.
        "
      `);
    });

    test("exits 1 on invalid definitions, naming file and line, before calling the API", async () => {
      await writeFile(
        path.join(repo, "incidents", "broken.yaml"),
        "id: inc-broken\nname: x\nseverity: HUGE\n",
      );
      try {
        const result = await runCli(["drift", "incidents"], repo, apiEnv(running));
        expect(result.exitCode).toBe(1);
        expect(result.stderr).toMatchInlineSnapshot(`
          "incident-sync drift: the definitions in incidents are not valid (3 problems); fix them first:
            incidents/broken.yaml:1:1: missing required field "services" (a list of service ids) [missing-key]
            incidents/broken.yaml:1:1: missing required field "status" (one of INVESTIGATING, IDENTIFIED, MONITORING, RESOLVED), or "updates" whose last entry gives it [missing-key]
            incidents/broken.yaml:3:11: severity "HUGE" is not allowed; use one of CRITICAL, MAJOR, MEDIUM, MINOR [invalid-value]
          "
        `);
      } finally {
        await writeFile(path.join(repo, "incidents", "broken.yaml"), "");
        await git("git", ["clean", "-fq", "incidents"], { cwd: repo });
      }
    });

    test("with --format json a failure is a JSON error document on stdout, and the key is in neither stream", async () => {
      const denied = await runCli(["drift", "--format", "json"], repo, {
        ...apiEnv(running),
        MONITORING_API_KEY: "not-the-key-9f8e7d",
      });

      expect(denied.exitCode).toBe(1);
      const document = JSON.parse(denied.stdout) as { error: { type: string; message: string } };
      expect(document.error.type).toBe("UnauthorizedError");
      expect(document.error.message).toMatch(
        /^GET \/v1\/status-pages\/incidents\?limit=100 failed: 401 Unauthorized: /,
      );
      expect(denied.stderr).toContain(document.error.message);
      expect(`${denied.stdout}${denied.stderr}`).not.toContain("not-the-key-9f8e7d");
    });

    test("with --format markdown a failure is a short block the drift issue can show", async () => {
      const result = await runCli(["drift", "--format", "markdown"], repo, {
        MONITORING_API_KEY: API_KEY,
      });
      expect(result.exitCode).toBe(1);
      expect(result.stdout).toMatchInlineSnapshot(`
        "### incident-sync drift: failed

        ❌ Missing the API URL (--api-url or MONITORING\\_API\\_URL).
        "
      `);
    });

    test("invalid definitions with --format github become one annotation per problem", async () => {
      await writeFile(
        path.join(repo, "incidents", "broken.yaml"),
        "id: inc-broken\nname: x\nseverity: HUGE\nstatus: RESOLVED\nservices: [svc-api]\n",
      );
      try {
        const result = await runCli(["drift", "--format", "github"], repo, apiEnv(running));
        expect(result.exitCode).toBe(1);
        expect(result.stdout).toMatchInlineSnapshot(`
          "::error file=incidents/broken.yaml,line=3,col=11,title=incident-sync%3A invalid-value::severity "HUGE" is not allowed; use one of CRITICAL, MAJOR, MEDIUM, MINOR
          ::error title=incident-sync drift::the definitions in incidents are not valid (1 problem); fix them first:
          "
        `);
      } finally {
        await git("git", ["clean", "-fq", "incidents"], { cwd: repo });
      }
    });

    test("md and markdown are one format", async () => {
      const driftAs = (format: string) =>
        runCli(["drift", "--format", format], repo, apiEnv(running));
      const [md, markdown] = await Promise.all([driftAs("md"), driftAs("markdown")]);
      const withoutTime = (text: string) => text.replace(/Generated \S+/, "Generated <time>");
      expect(md.exitCode).toBe(2);
      expect(withoutTime(md.stdout)).toBe(withoutTime(markdown.stdout));
      expect(md.stdout).toContain("| Elevated error rates on the Public API (inc-api) | DRIFTED |");
    });

    test("--rate-limit and --concurrency are checked, from flags and from the environment", async () => {
      const flag = await runCli(["drift", "--rate-limit", "0"], repo, apiEnv(running));
      const variable = await runCli(["drift", "--format", "json"], repo, {
        ...apiEnv(running),
        MONITORING_CONCURRENCY: "100",
      });
      const fine = await runCli(
        ["drift", "--rate-limit", "1200", "--concurrency", "2"],
        repo,
        apiEnv(running),
      );

      expect([flag.exitCode, variable.exitCode, fine.exitCode]).toEqual([1, 1, 2]);
      expect(flag.stderr).toMatchInlineSnapshot(`
        "incident-sync drift: --rate-limit must be a whole number of requests per minute from 1 to 60000, not "0".
        "
      `);
      expect(JSON.parse(variable.stdout).error.message).toMatchInlineSnapshot(
        `"MONITORING_CONCURRENCY must be a whole number of calls in flight from 1 to 64, not "100"."`,
      );
    });

    test("exits 1 when the API URL is missing, saying which variable to set", async () => {
      const result = await runCli(["drift"], repo, { MONITORING_API_KEY: API_KEY });
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toMatchInlineSnapshot(`
        "incident-sync drift: Missing the API URL (--api-url or MONITORING_API_URL).
        "
      `);
    });
  });
});
