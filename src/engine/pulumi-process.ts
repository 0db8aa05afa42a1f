import { spawn } from "node:child_process";
import { closeSync, openSync, readSync, rmSync } from "node:fs";
import { join } from "node:path";
import { StringDecoder } from "node:string_decoder";
import { EngineError } from "./errors";

export interface PulumiRunOptions {
  /** The `pulumi` binary. */
  pulumi: string;
  args: readonly string[];
  /** The project directory: the CLI finds Pulumi.yaml there. */
  cwd: string;
  env: Record<string, string>;
  /**
   * Where the CLI's output goes: files, not pipes, so a host killed alone does not take the CLI
   * with it by SIGPIPE before it writes the state and releases the lock.
   */
  outputDir: string;
  /** Written to the CLI's standard input, then closed: how a secret is handed over, never as an argument. */
  stdin?: string;
  /** Receives the CLI's standard output as it streams. */
  onOutput?: (text: string) => void;
  /** Aborting asks the CLI to stop gracefully (SIGINT), as Ctrl-C does; it is killed `graceMs` later. */
  signal?: AbortSignal;
  /**
   * How long a CLI asked to stop may take to finish its in-flight steps and write the state
   * before its process group is killed.
   * @default 30_000
   */
  graceMs?: number;
}

export interface PulumiRunResult {
  code: number;
  stdout: string;
  stderr: string;
  /** The CLI's pid, which its lock of the stack names. */
  pid: number | undefined;
  /** Whether the CLI did not stop within the grace period and was killed: its lock stays behind. */
  killed: boolean;
}

/** How long a cancelled CLI may take to finish its in-flight steps and write the state. */
const GRACE_MS = 30_000;

/**
 * Runs the CLI as its own process group, SIGINT on `signal`; a watchdog does the same if this
 * process dies, and stops any plugin left once the CLI is gone (see watchdog.ts).
 */
export function runPulumi(options: PulumiRunOptions): Promise<PulumiRunResult> {
  if (options.signal?.aborted) {
    return Promise.reject(new EngineError("Stopped before the next Pulumi command started."));
  }
  runs += 1;
  const base = join(options.outputDir, `pulumi-${runs}`);
  const out = outputFile(`${base}.out`);
  const err = outputFile(`${base}.err`);
  return new Promise((resolve, reject) => {
    const child = spawn(options.pulumi, [...options.args], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ["pipe", out.fd, err.fd],
    });
    const group = child.pid;
    const watchdog = group === undefined ? undefined : startWatchdog(group);
    let stdout = "";
    let stderr = "";
    const drain = () => {
      const text = out.read();
      if (text !== "") {
        stdout += text;
        options.onOutput?.(text);
      }
      stderr += err.read();
    };
    const tail = setInterval(drain, TAIL_MS);
    const finish = () => {
      clearInterval(tail);
      drain();
      out.remove();
      err.remove();
    };
    let killTimer: NodeJS.Timeout | undefined;
    let killed = false;
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
      killTimer = setTimeout(() => {
        killed = true;
        stopGroup("SIGKILL");
      }, options.graceMs ?? GRACE_MS);
      killTimer.unref();
    };
    options.signal?.addEventListener("abort", onAbort, { once: true });
    // stdio[0] is "pipe": Node always gives a stream for it.
    const stdin = child.stdin as NonNullable<typeof child.stdin>;
    stdin.on("error", () => {
      // The CLI may exit before reading its input; its exit code tells what happened.
    });
    stdin.end(options.stdin ?? "");
    child.on("error", (error) => {
      options.signal?.removeEventListener("abort", onAbort);
      finish();
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
      finish();
      // What is left of a CLI that was killed goes with its group; the plugins, which the CLI
      // starts in groups of their own, are stopped by the watchdog, which keeps their pids.
      stopGroup("SIGTERM");
      resolve({
        code: code ?? (signal ? 128 + signalNumber(signal) : 1),
        stdout,
        stderr,
        pid: group,
        killed,
      });
    });
  });
}

/** How often the CLI's output files are read while it runs. */
const TAIL_MS = 100;

/** Numbers the output files of this process's CLI runs. */
let runs = 0;

/** A file the CLI writes to, read as it grows. */
function outputFile(path: string) {
  const fd = openSync(path, "w+", 0o600);
  const decoder = new StringDecoder("utf8");
  const chunk = Buffer.alloc(64 * 1024);
  let position = 0;
  let closed = false;
  return {
    fd,
    /** What was written since the last read. */
    read(): string {
      if (closed) return "";
      let text = "";
      for (;;) {
        const bytes = readSync(fd, chunk, 0, chunk.length, position);
        if (bytes === 0) return text;
        position += bytes;
        text += decoder.write(chunk.subarray(0, bytes));
      }
    },
    remove(): void {
      if (closed) return;
      closed = true;
      closeSync(fd);
      rmSync(path, { force: true });
    },
  };
}

function startWatchdog(group: number) {
  const script = join(__dirname, "watchdog.js");
  const watchdog = spawn(process.execPath, [script, String(process.pid), String(group)], {
    detached: true,
    stdio: "ignore",
    // It sends no request: it gets no environment, and so never the API key.
    env: {},
  });
  watchdog.unref();
  return watchdog;
}

function signalNumber(signal: NodeJS.Signals): number {
  return signal === "SIGKILL" ? 9 : signal === "SIGTERM" ? 15 : signal === "SIGINT" ? 2 : 1;
}
