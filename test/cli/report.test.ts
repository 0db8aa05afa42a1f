import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { RunningEmulator } from "../../src/emulator";
import { HeartbeatReport } from "../../src/reports";
import { ACCOUNT, apiEnv, control, startSeededEmulator, tempDir } from "../reports/support/harness";
import { HEARTBEATS } from "../reports/support/heartbeat-seed";
import { CLI, runCli } from "./run-cli";

let running: RunningEmulator;
let dir: string;

beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  running = await startSeededEmulator({ heartbeats: HEARTBEATS });
  await control(running, `/accounts/${ACCOUNT}/checks/chk-cli/error-groups`, { count: 450 });
  dir = await tempDir("report-cli");
});
afterAll(async () => {
  await running?.close();
});

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

  test("an unknown format is refused with the allowed values and exit 1", async () => {
    const result = await runCli(
      ["report", "errors", "--check", "x", "--format", "xlsx"],
      process.cwd(),
      apiEnv(running),
    );
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatchInlineSnapshot(`
      "error: option '--format <format>' argument 'xlsx' is invalid. Allowed choices are md, csv, json, html.
      "
    `);
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
