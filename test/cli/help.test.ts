import { execFile } from "node:child_process";
import { describe, expect, test } from "vitest";
import { DEFAULTS } from "../../src/api/client/resolve-options";
import { SETTINGS } from "../../src/settings/catalog";
import { CLI, runCli } from "./run-cli";

describe("--help", () => {
  test("the commands that talk to the API state the client's own defaults and the limits' ranges", async () => {
    for (const command of [["drift"], ["report", "errors"], ["report", "heartbeats"]]) {
      const help = await runCli([...command, "--help"], process.cwd(), {});
      expect(help.exitCode).toBe(0);
      const text = help.stdout.replace(/\s+/g, " ");
      expect(text).toContain(
        `the client sends at most ${DEFAULTS.rateLimit.limit} requests per minute and has at most ${DEFAULTS.concurrency} calls in flight`,
      );
      expect(text).toContain(
        "--rate-limit <n> requests per minute, 1 to 60000 (env MONITORING_RATE_LIMIT)",
      );
      expect(text).toContain(
        "--concurrency <n> calls in flight, 1 to 64 (env MONITORING_CONCURRENCY)",
      );
    }
  });

  test("each command states the retries of whoever makes its calls: the CLI's client, or the stack's program under Pulumi", async () => {
    const drift = (await runCli(["drift", "--help"], process.cwd(), {})).stdout;
    const up = (await runCli(["up", "--help"], process.cwd(), {})).stdout;
    expect(drift.replace(/\s+/g, " ")).toContain(
      `(${SETTINGS.retries.clientDefault} retries per call)`,
    );
    expect(up.replace(/\s+/g, " ")).toContain(
      `(${SETTINGS.retries.default} retries per call, the stack config's incident-sync:retries)`,
    );
  });

  test("every command with Markdown accepts md for it", async () => {
    for (const command of [["plan"], ["drift"], ["report", "errors"], ["report", "heartbeats"]]) {
      const help = await runCli([...command, "--help"], process.cwd(), {});
      expect(help.stdout.replace(/\s+/g, " "), command.join(" ")).toMatch(/"markdown", "md"/);
    }
  });

  test("piped into a reader that stops early (| head), help ends quietly, with no stack trace", async () => {
    // `true` reads nothing and exits before Node has started, so every write finds the pipe closed.
    const run = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(
        "bash",
        ["-c", 'set -o pipefail; "$0" "$1" emulator --help | true', process.execPath, CLI],
        { encoding: "utf8" },
        (error, _stdout, stderr) =>
          resolve({ code: Number((error as { code?: unknown } | null)?.code ?? 0), stderr }),
      );
    });
    expect(run.stderr).not.toMatch(/EPIPE|Error|at /);
    expect(run.code).toBe(0);
  });
});
