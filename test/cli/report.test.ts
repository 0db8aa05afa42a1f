import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { lstat, mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { Writable } from "node:stream";
import { promisify } from "node:util";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runReportErrors } from "../../src/cli/commands/report-errors";
import type { CommandIo } from "../../src/cli/io";
import { runCommand } from "../../src/cli/run-command";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import { ErrorReport, HeartbeatReport, IncidentReport } from "../../src/reports";
import {
  ACCOUNT,
  API_KEY,
  apiEnv,
  control,
  startSeededEmulator,
  tempDir,
} from "../reports/support/harness";
import { HEARTBEATS } from "../reports/support/heartbeat-seed";
import { CLI, runCli } from "./run-cli";

let running: RunningEmulator;
let dir: string;

beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  running = await startSeededEmulator({ heartbeats: HEARTBEATS });
  await control(running, `/accounts/${ACCOUNT}/checks/chk-cli/error-groups`, { count: 450 });
  await control(running, `/accounts/${ACCOUNT}/checks/chk-long/error-groups`, { count: 3_000 });
  dir = await tempDir("report-cli");
});
afterAll(async () => {
  await running?.close();
});

/** Runs `during` with the emulator behaving as `behaviour` says, then as it did before. */
async function withBehaviour<T>(
  behaviour: Parameters<RunningEmulator["emulator"]["control"]["setBehaviour"]>[0],
  during: () => Promise<T>,
): Promise<T> {
  const before = running.emulator.control.getBehaviour();
  running.emulator.control.setBehaviour(behaviour);
  try {
    return await during();
  } finally {
    running.emulator.control.setBehaviour(before);
  }
}

/**
 * Runs `report errors` in-process as the CLI does, and turns on `faults` for every API
 * request once the first bytes reach stdout: a failure after the export began streaming.
 */
async function exportFailingMidway(format: "csv" | "json") {
  const chunks: string[] = [];
  let failing = false;
  const stdout = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      if (!failing) {
        failing = true;
        running.emulator.control.setFaults({ latencyMs: 20, failRate: 1, retryAfterSeconds: 0 });
      }
      done();
    },
  });
  const errors: string[] = [];
  const stderr = new Writable({
    write(chunk, _encoding, done) {
      errors.push(String(chunk));
      done();
    },
  });
  const io: CommandIo = { stdout, stderr, env: apiEnv(running), cwd: process.cwd() };
  running.emulator.control.setFaults({ latencyMs: 20 });
  try {
    const exitCode = await runCommand(
      io,
      { command: "report errors", format, secrets: [API_KEY] },
      (held) => runReportErrors({ check: ["chk-long"], format, progress: false }, held),
    );
    return { exitCode, stdout: chunks.join(""), stderr: errors.join("") };
  } finally {
    running.emulator.control.setFaults({});
  }
}

describe("report commands, compiled and run for real", () => {
  test("report errors streams a CSV of every group to stdout and says how many on stderr", async () => {
    const result = await runCli(
      ["report", "errors", "--check", "chk-cli", "--format", "csv"],
      process.cwd(),
      apiEnv(running),
    );

    expect(result.exitCode).toBe(0);
    const rows = parse(result.stdout, { columns: true }) as { id: string }[];
    expect(new Set(rows.map((r) => r.id)).size).toBe(450);
    expect(result.stderr).toBe("Wrote 450 error group(s).\n");
  });

  test("report heartbeats writes the JSON report to --out", async () => {
    const out = path.join(dir, "hb.json");
    const result = await runCli(
      [
        "report",
        "heartbeats",
        "--check",
        "hb-flappy",
        "--since",
        "24h",
        "--format",
        "json",
        "--out",
        out,
      ],
      process.cwd(),
      apiEnv(running),
    );

    expect(result.exitCode).toBe(0);
    const report = HeartbeatReport.parse(JSON.parse(await readFile(out, "utf8")));
    expect(report.checks[0]?.events).toHaveLength(45);
  });

  test("report heartbeats --format json gives the same report whether the service lists events newest or oldest first", async () => {
    const report = async () => {
      const result = await runCli(
        ["report", "heartbeats", "--check", "hb-flappy", "--check", "hb-steady"].concat([
          "--since",
          "24h",
          "--format",
          "json",
        ]),
        process.cwd(),
        apiEnv(running),
      );
      expect(result.exitCode, result.stderr).toBe(0);
      return HeartbeatReport.parse(JSON.parse(result.stdout)).checks;
    };
    const newestFirst = await report();
    running.emulator.control.setBehaviour({ listOrder: "oldest-first" });
    try {
      expect(await report()).toEqual(newestFirst);
    } finally {
      running.emulator.control.setBehaviour({ listOrder: "newest-first" });
    }
    // 45 events in the day, and the state before it: the newest of the two older ones.
    const flappy = newestFirst.find((check) => check.checkId === "hb-flappy");
    expect(flappy?.events).toHaveLength(45);
    expect(flappy?.lastEventBefore?.state).toBe("FAILING");
  });

  test("report heartbeats --out replaces a link planted at its partial file instead of writing through it", async () => {
    const out = path.join(dir, "planted.json");
    const target = path.join(dir, "not-the-report.txt");
    await writeFile(target, "keep me\n");
    await symlink(target, `${out}.partial`);
    const result = await runCli(
      [
        "report",
        "heartbeats",
        "--check",
        "hb-flappy",
        "--since",
        "24h",
        "--format",
        "json",
        "--out",
        out,
      ],
      process.cwd(),
      apiEnv(running),
    );

    expect(result.exitCode, result.stderr).toBe(0);
    expect(await readFile(target, "utf8")).toBe("keep me\n");
    expect((await lstat(out)).isFile()).toBe(true);
    HeartbeatReport.parse(JSON.parse(await readFile(out, "utf8")));
  });

  test("report heartbeats --out through a linked folder, or at a link, is refused and writes nothing through it", async () => {
    const project = path.join(dir, "linked-out");
    const elsewhere = path.join(dir, "linked-out-target");
    await mkdir(project);
    await mkdir(elsewhere);
    await writeFile(path.join(elsewhere, "kept.json"), "kept\n");
    await symlink(elsewhere, path.join(project, "reports"));
    await symlink(path.join(elsewhere, "kept.json"), path.join(project, "hb.json"));
    const report = (out: string) =>
      runCli(
        [
          "report",
          "heartbeats",
          "--check",
          "hb-flappy",
          "--since",
          "24h",
          "--format",
          "json",
        ].concat(["--out", out]),
        project,
        apiEnv(running),
      );

    const throughFolder = await report("reports/hb.json");
    expect(throughFolder.exitCode).toBe(1);
    expect(throughFolder.stderr).toBe(
      `incident-sync report heartbeats: the report wrote nothing: reports is a symbolic link, and reports/hb.json would be written through it. It writes nothing through a symbolic link or outside ${project}: move it away, or replace a link with the real folder or file, and run the report again.\n`,
    );
    const atLink = await report("hb.json");
    expect(atLink.exitCode).toBe(1);
    expect(atLink.stderr).toContain("the report wrote nothing: hb.json is a symbolic link.");
    expect((await readdir(elsewhere)).sort()).toEqual(["kept.json"]);
    expect(await readFile(path.join(elsewhere, "kept.json"), "utf8")).toBe("kept\n");
    expect((await readdir(project)).sort()).toEqual(["hb.json", "reports"]);
  });

  test("report errors --format html from the compiled CLI inlines uPlot and the page script, read from the package", async () => {
    const out = path.join(dir, "errors.html");
    const result = await runCli(
      ["report", "errors", "--check", "chk-cli", "--format", "html", "--out", out],
      process.cwd(),
      apiEnv(running),
    );

    expect(result.exitCode).toBe(0);
    const html = await readFile(out, "utf8");
    expect(html).toContain("uPlot");
    expect(html).toContain("window.incidentSyncReport");
    // The locale fix, uPlot and the three page scripts, each hashed in the CSP.
    expect(html.match(/<script>/g)).toHaveLength(5);
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1];
    expect(csp).toMatch(/^default-src 'none'; script-src( 'sha256-[A-Za-z0-9+/=]+'){5}; style-src/);
  });

  test("without --check, report errors and report heartbeats cover the evidence the definitions list, and say which", async () => {
    const demo = await startEmulator({ port: 0, seed: "demo" });
    const env = { MONITORING_API_URL: demo.url, MONITORING_API_KEY: demo.demo.apiKey };
    try {
      const errors = await runCli(["report", "errors", "--format", "json"], process.cwd(), env);
      expect(errors.exitCode, errors.stderr).toBe(0);
      expect(ErrorReport.parse(JSON.parse(errors.stdout)).checks).toEqual([
        "chk-api",
        "chk-web",
        "chk-checkout",
      ]);
      expect(errors.stderr.split("\n")[0]).toBe(
        "Reporting the checks the definitions in incidents list as evidence: Public API orders (chk-api), Web login page (chk-web), Checkout payment flow (chk-checkout).",
      );
      // Read once through the checks list, and kept in the report for whoever reads it.
      expect(ErrorReport.parse(JSON.parse(errors.stdout)).checkNames).toEqual({
        "chk-api": "Public API orders",
        "chk-web": "Web login page",
        "chk-checkout": "Checkout payment flow",
      });
      const heartbeats = await runCli(
        ["report", "heartbeats", "--format", "json"],
        process.cwd(),
        env,
      );
      expect(heartbeats.exitCode, heartbeats.stderr).toBe(0);
      expect(
        HeartbeatReport.parse(JSON.parse(heartbeats.stdout)).checks.map((check) => check.checkId),
      ).toEqual(["hb-nightly-backup", "hb-billing-sync"]);
    } finally {
      await demo.close();
    }
  });

  test("without --check and with no evidence in the definitions, the report says so in the requested format", async () => {
    const project = path.join(dir, "no-evidence");
    await mkdir(path.join(project, "incidents"), { recursive: true });
    await writeFile(
      path.join(project, "incidents", "api.yaml"),
      "id: inc-api\nname: API errors\nseverity: MINOR\nstatus: RESOLVED\nservices: [{ id: svc-api, name: API }]\n",
    );
    const json = await runCli(["report", "errors", "--format", "json"], project, apiEnv(running));
    expect(json.exitCode).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({
      error: {
        type: "UsageError",
        message:
          "No --check given, and no definition in incidents lists evidence.checks: there is nothing to report. Pass --check <id>, or list the checks that belong with an incident in its definition's evidence.checks.",
      },
    });
    const csv = await runCli(
      ["report", "heartbeats", "--format", "csv", "--dir", "elsewhere"],
      project,
      apiEnv(running),
    );
    expect(csv.exitCode).toBe(1);
    expect(csv.stdout).toMatchInlineSnapshot(`
      "error
      "No --check given, and elsewhere holds no definitions whose evidence.heartbeats would say which to report: pass --check <id>, or --dir <definitions directory>."
      "
    `);
  });

  test("report incident tells inc-api-errors' story from the definitions in incidents/ and the demo emulator, as JSON", async () => {
    const demo = await startEmulator({ port: 0, seed: "demo" });
    try {
      const result = await runCli(
        ["report", "incident", "inc-api-errors", "--format", "json"],
        process.cwd(),
        {
          MONITORING_API_URL: demo.url,
          MONITORING_API_KEY: demo.demo.apiKey,
        },
      );

      expect(result.exitCode).toBe(0);
      const [incident] = IncidentReport.parse(JSON.parse(result.stdout)).incidents;
      expect(incident?.evidence.checks).toEqual(["chk-api", "chk-web"]);
      expect(incident?.timeline).toHaveLength(10);
      expect(result.stderr).toBe("Wrote 1 incident(s) with 10 timeline entries.\n");
    } finally {
      await demo.close();
    }
  });

  test("an unknown format is refused with the allowed values and exit 1", async () => {
    const result = await runCli(
      ["report", "errors", "--check", "x", "--format", "xlsx"],
      process.cwd(),
      apiEnv(running),
    );
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatchInlineSnapshot(`
      "incident-sync report errors: option '--format <format>' argument 'xlsx' is invalid. Allowed choices are markdown, md, csv, json, html. (see incident-sync report errors --help)
      "
    `);
  });

  test("a --top that is not a positive whole number or all is refused with what is allowed and exit 1", async () => {
    const result = await runCli(
      ["report", "errors", "--check", "x", "--format", "md", "--top", "0"],
      process.cwd(),
      apiEnv(running),
    );
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatchInlineSnapshot(`
      "incident-sync report errors: option '--top <n>' argument '0' is invalid. Use a positive whole number of groups, or all. (see incident-sync report errors --help)
      "
    `);
  });

  test("an unknown check prints a whole error document in the chosen format, never the start of a report", async () => {
    const exportAs = (format: string) =>
      runCli(
        ["report", "errors", "--check", "chk-nope", "--format", format],
        process.cwd(),
        apiEnv(running),
      );
    const [json, csv, markdown] = await withBehaviour({ unknownCheck: "not-found" }, () =>
      Promise.all([exportAs("json"), exportAs("csv"), exportAs("md")]),
    );

    expect([json.exitCode, csv.exitCode, markdown.exitCode]).toEqual([1, 1, 1]);
    expect(JSON.parse(json.stdout)).toMatchInlineSnapshot(`
      {
        "error": {
          "message": "GET /v1/error-groups/checks/chk-nope?limit=100&page=1 failed: 404 Not Found: check chk-nope not found",
          "type": "NotFoundError",
        },
      }
    `);
    expect(parse(csv.stdout, { columns: true })).toEqual([
      { error: JSON.parse(json.stdout).error.message },
    ]);
    expect(markdown.stdout).toMatchInlineSnapshot(`
      "### incident-sync report errors: failed

      ❌ GET /v1/error-groups/checks/chk-nope?limit=100&amp;page=1 failed: 404 Not Found: check chk-nope not found
      "
    `);
    expect(json.stderr).toMatchInlineSnapshot(`
      "incident-sync report errors: GET /v1/error-groups/checks/chk-nope?limit=100&page=1 failed: 404 Not Found: check chk-nope not found
      "
    `);
  });

  test("report incident of an incident the account does not have is an error document, not a stack trace", async () => {
    const result = await runCli(
      ["report", "incident", "inc-nope", "--format", "json"],
      process.cwd(),
      apiEnv(running),
    );
    expect(result.exitCode).toBe(1);
    expect(result.stderr).not.toMatch(/^ {4}at /m);
    expect(JSON.parse(result.stdout)).toMatchInlineSnapshot(`
      {
        "error": {
          "message": "Incident "inc-nope" does not exist in this account (its updates answer 404). Check the id, and that MONITORING_API_KEY belongs to the incident's account.",
          "type": "IncidentNotFoundError",
        },
      }
    `);
  });

  test("nothing is streamed until every check's first page has arrived, so a real check beside an unknown one still gives only the error", async () => {
    const result = await withBehaviour({ unknownCheck: "not-found" }, () =>
      runCli(
        ["report", "errors", "--check", "chk-cli", "--check", "chk-nope", "--format", "json"],
        process.cwd(),
        apiEnv(running),
      ),
    );
    expect(result.exitCode).toBe(1);
    expect(Object.keys(JSON.parse(result.stdout))).toEqual(["error"]);
  });

  test("a check a service answers with [] is written as having no group, with a warning that it may not exist", async () => {
    const result = await withBehaviour({ unknownCheck: "empty" }, () =>
      runCli(
        ["report", "errors", "--check", "chk-nope", "--format", "json"],
        process.cwd(),
        apiEnv(running),
      ),
    );
    expect(result.exitCode).toBe(0);
    expect(ErrorReport.parse(JSON.parse(result.stdout)).groups).toEqual([]);
    expect(result.stderr).toMatchInlineSnapshot(`
      "warning: check "chk-nope" may not exist: the service lists no error group for it at all ([]), as it does for a check it does not know (or one that never recorded an error).
      Wrote 0 error group(s).
      "
    `);
  });

  test("a page that fails after the JSON began streaming closes the document with an error member instead of a summary", async () => {
    const { exitCode, stdout, stderr } = await exportFailingMidway("json");

    expect(exitCode).toBe(1);
    const document = JSON.parse(stdout) as { groups: unknown[]; error: object; summary?: object };
    expect(document.summary).toBeUndefined();
    expect(document.error).toMatchObject({
      type: "ServerError",
      message: expect.stringMatching(
        /^GET \/v1\/error-groups\/checks\/chk-long\?limit=100&page=\d+ failed: 503 Service Unavailable/,
      ),
    });
    expect(document.groups.length).toBeGreaterThanOrEqual(100);
    expect(document.groups.length).toBeLessThan(3_000);
    expect(ErrorReport.safeParse(document).success).toBe(false);
    expect(stderr).toContain(
      "The output already written to stdout is incomplete (see --help on failures).",
    );
  });

  test("a page that fails after the CSV began streaming leaves only whole rows", async () => {
    const { exitCode, stdout, stderr } = await exportFailingMidway("csv");

    expect(exitCode).toBe(1);
    const rows = parse(stdout, { columns: true }) as Record<string, string>[];
    expect(rows.length).toBeGreaterThanOrEqual(100);
    expect(rows.length).toBeLessThan(3_000);
    for (const row of rows) expect(row.id).toMatch(/^eg_/);
    expect(stdout.endsWith("\n")).toBe(true);
    expect(stderr).toContain("503 Service Unavailable");
  });

  test("on a terminal, report errors draws a progress bar on stderr that ends at every group", async () => {
    const command = [
      process.execPath,
      CLI,
      "report",
      "errors",
      "--check",
      "chk-cli",
      "--format",
      "json",
      "--out",
      path.join(dir, "tty.json"),
    ]
      .map((word) => `'${word}'`)
      .join(" ");
    // `script` gives the command a real pseudo-terminal, as a person's shell would.
    const { stdout } = await promisify(execFile)("script", ["-qec", command, "/dev/null"], {
      env: { PATH: process.env.PATH, TERM: "xterm", ...apiEnv(running) },
    });

    expect(stdout).toContain("groups  |");
    expect(stdout).toMatch(/450\/450 listed/);
    expect(stdout).toContain("Wrote 450 error group(s)");
  });
});
