import { execFile, spawn } from "node:child_process";
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

const MAIN = path.resolve("dist/src/cli/main.js");

let running: RunningEmulator;
let dir: string;

beforeAll(async () => {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`npm run build\` first`);
  running = await startSeededEmulator({ heartbeats: HEARTBEATS });
  await control(running, `/accounts/${ACCOUNT}/checks/chk-cli/error-groups`, { count: 450 });
  dir = await tempDir("report-cli");
});
afterAll(async () => {
  await running?.close();
});

function cli(args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], {
      env: { PATH: process.env.PATH, ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("report commands, compiled and run for real", () => {
  test("report errors streams a CSV of every group to stdout and says how many on stderr", async () => {
    const result = await cli(
      ["report", "errors", "--check", "chk-cli", "--format", "csv"],
      apiEnv(running),
    );

    expect(result.code).toBe(0);
    const rows = parse(result.stdout, { columns: true }) as { id: string }[];
    expect(new Set(rows.map((r) => r.id)).size).toBe(450);
    expect(result.stderr).toBe("Wrote 450 error group(s).\n");
  });

  test("report heartbeats writes the JSON report to --out", async () => {
    const out = path.join(dir, "hb.json");
    const result = await cli(
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
      apiEnv(running),
    );

    expect(result.code).toBe(0);
    const report = HeartbeatReport.parse(JSON.parse(await readFile(out, "utf8")));
    expect(report.checks[0]?.events).toHaveLength(45);
  });

  test("an unknown format is refused with the allowed values and exit 1", async () => {
    const result = await cli(
      ["report", "errors", "--check", "x", "--format", "xlsx"],
      apiEnv(running),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatchInlineSnapshot(`
      "error: option '--format <format>' argument 'xlsx' is invalid. Allowed choices are md, csv, json, html.
      "
    `);
  });

  test("on a terminal, report errors draws a progress bar on stderr that ends at every group", async () => {
    const command = [
      process.execPath,
      MAIN,
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
