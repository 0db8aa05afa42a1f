import { spawn } from "node:child_process";
import { join } from "node:path";
import { EngineError } from "./errors";

export interface PulumiRunOptions {
  /** The `pulumi` binary. */
  pulumi: string;
  args: readonly string[];
  /** The project directory: the CLI finds Pulumi.yaml there. */
  cwd: string;
  env: Record<string, string>;
  /** Written to the CLI's standard input, then closed: how a secret is handed over, never as an argument. */
  stdin?: string;
  /** Receives the CLI's standard output as it streams. */
  onOutput?: (text: string) => void;
  /** Aborting asks the CLI to stop gracefully (SIGINT), as Ctrl-C does; it is killed 30 s later. */
  signal?: AbortSignal;
}

export interface PulumiRunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** How long a cancelled CLI may take to finish its in-flight steps and write the state. */
const GRACE_MS = 30_000;

/**
 * Runs the Pulumi CLI as its own process group, so that it and the plugins it starts can be
 * stopped together: on `signal` (the host's SIGINT or SIGTERM) the CLI gets SIGINT, which it
 * handles by finishing in-flight steps and releasing the stack's lock; and a small
 * watchdog process stops the group if this process dies without a chance to (kill -9, a lost
 * CI runner), so no engine or plugin outlives the run.
 */
export function runPulumi(options: PulumiRunOptions): Promise<PulumiRunResult> {
  if (options.signal?.aborted) {
    return Promise.reject(new EngineError("Stopped before the next Pulumi command started."));
  }
  return new Promise((resolve, reject) => {
    const child = spawn(options.pulumi, [...options.args], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const group = child.pid;
    const watchdog = group === undefined ? undefined : startWatchdog(group);
    let stdout = "";
    let stderr = "";
    let killTimer: NodeJS.Timeout | undefined;
    const stopGroup = (signal: NodeJS.Signals) => {
      if (group === undefined) return;
      try {
        process.kill(-group, signal);
      } catch {
        // The group is already gone.
      }
    };
    const onAbort = () => {
      // The CLI alone: it cancels, lets the steps in flight finish, writes the state, releases
      // the lock and stops its plugins. Interrupting the plugins too would fail those steps.
      child.kill("SIGINT");
      killTimer = setTimeout(() => stopGroup("SIGKILL"), GRACE_MS);
      killTimer.unref();
    };
    options.signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout.on("data", (chunk: Buffer) => {
      const text = chunk.toString();
      stdout += text;
      options.onOutput?.(text);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdin.on("error", () => {
      // The CLI may exit before reading its input; its exit code tells what happened.
    });
    child.stdin.end(options.stdin ?? "");
    child.on("error", (error) => {
      options.signal?.removeEventListener("abort", onAbort);
      watchdog?.kill();
      reject(
        new EngineError(`The Pulumi CLI at ${options.pulumi} did not start: ${error.message}`, {
          cause: error,
        }),
      );
    });
    child.on("close", (code, signal) => {
      options.signal?.removeEventListener("abort", onAbort);
      if (killTimer) clearTimeout(killTimer);
      // Plugins left behind by a CLI that was killed go with its group.
      stopGroup("SIGTERM");
      watchdog?.kill();
      resolve({ code: code ?? (signal ? 128 + signalNumber(signal) : 1), stdout, stderr });
    });
  });
}

function startWatchdog(group: number) {
  const script = join(__dirname, "watchdog.js");
  const watchdog = spawn(process.execPath, [script, String(process.pid), String(group)], {
    detached: true,
    stdio: "ignore",
  });
  watchdog.unref();
  return watchdog;
}

function signalNumber(signal: NodeJS.Signals): number {
  return signal === "SIGKILL" ? 9 : signal === "SIGTERM" ? 15 : signal === "SIGINT" ? 2 : 1;
}
