import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  SCALE_ACCOUNT,
  SCALE_API_KEY,
  scaleStackConfig,
  writeScaleDefinitions,
  writeScaleProject,
} from "../../bench/support/scale-project.mjs";
import { openProjectStack, resolveEngine } from "../../src/engine";
import { runCli } from "../cli/run-cli";
import { eventually, killEverythingIn, processesIn } from "../engine/support/processes";
import { drip, startTestServer, type TestServer } from "../support/http-server";

const timeout = 180_000;

/** The engine's watchdogs now running. */
function watchdogs(): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("watchdog.js");
      } catch {
        return false;
      }
    });
}

function environ(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/environ`, "utf8");
  } catch {
    return "";
  }
}

/**
 * Issue 36: against a server that answers 200 and then sends a byte every 2 s, `up` hung in
 * its claim phase until SIGTERM at 580 s, took 30 s more to exit, and left a lock. A command
 * now ends by its deadline, stopping its engine gracefully, with no lock and no process left.
 */
describe("a command's deadline, against a server that drips its answers", () => {
  let root: string;
  let project: string;
  let state: string;
  let server: TestServer;
  const passphrase = "deadline-passphrase";
  const lockDir = () => join(state, ".pulumi", "locks", "organization", "incident-sync-scale");
  const locks = () => {
    try {
      return readdirSync(lockDir(), { recursive: true }).filter((file) =>
        String(file).endsWith(".json"),
      );
    } catch {
      return [];
    }
  };

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "incident-sync-deadline-"));
    state = join(root, "state");
    mkdirSync(state);
    project = writeScaleProject(join(root, "project"));
    writeScaleDefinitions(project, 3, { evidenceShare: 0 });
    server = await startTestServer(drip(2_000));
  });

  afterAll(async () => {
    await server?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it(
    "ends up by its deadline with exit 124, says so, and leaves no lock and no process",
    async () => {
      const started = performance.now();
      const running = runCli(
        [
          "up",
          "--project",
          project,
          "--stack",
          "drip",
          "--state",
          state,
          "--api-url",
          server.url,
          "--account-id",
          SCALE_ACCOUNT,
          "--deadline",
          "15s",
        ],
        project,
        {
          MONITORING_API_KEY: SCALE_API_KEY,
          PULUMI_CONFIG_PASSPHRASE: passphrase,
          HOME: process.env.HOME ?? tmpdir(),
        },
      );
      // The key reaches only the processes that send requests: not the watchdog of the engine.
      expect(await eventually(() => watchdogs().length > 0, 30_000)).toBe(true);
      for (const pid of watchdogs()) expect(environ(pid)).not.toContain(SCALE_API_KEY);
      const run = await running;
      const elapsed = performance.now() - started;
      expect(run.exitCode, run.stdout + run.stderr).toBe(124);
      expect(elapsed).toBeLessThan(15_000 + 3_000);
      expect(run.stderr).toContain("incident-sync up: stopped at its deadline (--deadline 15s)");
      expect(`${run.stdout}${run.stderr}`).not.toContain(SCALE_API_KEY);
      expect(locks()).toEqual([]);
      expect(await eventually(() => processesIn(project).length === 0, 10_000)).toBe(true);
    },
    timeout,
  );

  it(
    "kills an engine that does not stop within its grace period, and clears the lock it held",
    async () => {
      const abort = new AbortController();
      const notices: string[] = [];
      const stack = await openProjectStack({
        projectDir: project,
        stackName: "killed",
        backendUrl: `file://${state}`,
        passphrase,
        engine: await resolveEngine(),
        config: scaleStackConfig(server.url),
        signal: abort.signal,
        graceMs: 500,
        log: (line) => notices.push(line),
      });
      try {
        const running = stack.up({ claim: ["inc-scale-0000", "inc-scale-0001", "inc-scale-0002"] });
        // The engine holds the stack's lock while its provider waits on the dripping answers;
        // stopped (SIGSTOP), it cannot wind down when asked, as a wedged engine would not.
        expect(await eventually(() => locks().length > 0, 60_000)).toBe(true);
        const [lock] = locks();
        const holder = JSON.parse(readFileSync(join(lockDir(), String(lock)), "utf8")) as {
          pid: number;
        };
        process.kill(holder.pid, "SIGSTOP");
        abort.abort();
        const result = await running;
        expect(result.ok).toBe(false);
        expect(result.incidents).toEqual([]);
        expect(notices.join("\n")).toMatch(
          /The engine did not stop within its grace period and was killed; its lock on stack killed \(pid \d+ of .*\) was cleared\./,
        );
        expect(locks()).toEqual([]);
      } finally {
        stack.close();
        // Run from the sources, the engine has no watchdog (it is compiled) to stop its plugins.
        await killEverythingIn(project);
      }
    },
    timeout,
  );
});
