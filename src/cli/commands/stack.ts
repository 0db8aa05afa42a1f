import { resolve } from "node:path";
import { checkRuntimeFolder } from "../../api";
import { bareStackName } from "../../definitions/stack-name";
import {
  type CancelResult,
  describeLock,
  EMULATOR_STACK,
  LOCAL_DEMO_PASSPHRASE,
  mainJobState,
  type OperationOptions,
  type OperationOutcome,
  openProjectStack,
  runMainJob,
  runOperation,
} from "../../engine";
import type { ProgramConnection } from "../../engine/run-operation";
import { exitCodeOf, renderJson, renderMarkdown, renderText } from "../../engine/run-report";
import { settingEnv } from "../../settings/names";
import { commandDeadline, givenLimits, resolveApiConnection } from "../api-connection";
import { type ApiFlags, ApiOptionsError } from "../api-options";
import { ExitCode } from "../exit-codes";
import type { CommandIo } from "../io";
import { redact } from "../redact";
import { UsageError } from "../usage-error";
import type { Operation, StackCommandFlags } from "./stack-options";

/** The longest an engine asked to stop may take to finish its steps and write the state. */
const STOP_GRACE_MS = 30_000;

/** Why a run was stopped before it ended by itself. */
type StopReason = NodeJS.Signals | "deadline";

/**
 * Runs `up`, `preview` or `refresh` and prints what it did; on a signal or at the deadline the
 * engine is asked to stop gracefully (killed after its grace period, its lock cleared).
 */
export async function runStackCommand(
  operation: Operation,
  flags: StackCommandFlags,
  io: CommandIo,
): Promise<ExitCode> {
  const projectDir = resolve(io.cwd, flags.project);
  const started = Date.now();
  const deadline = commandDeadline(flags, io.env, started);
  // The engine is asked to stop a grace period before the deadline, so it ends by then.
  const graceMs = Math.min(STOP_GRACE_MS, Math.floor((deadline.at - started) / 4));
  const stopAt = deadline.at - graceMs;
  const abort = new AbortController();
  let stoppedBy: StopReason | undefined;
  const stop = (reason: StopReason) => {
    stoppedBy ??= reason;
    abort.abort();
  };
  const onSignal = (signal: NodeJS.Signals) => stop(signal);
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const timer = setTimeout(() => stop("deadline"), stopAt - started);
  let apiKey: string | undefined;
  try {
    const limits = givenLimits(flags, io.env);
    const settings = {
      ...(flags.enforce ? { enforce: flags.enforce } : {}),
      ...(flags.readBack ? { readBack: flags.readBack } : {}),
      ...(flags.outputs ? { outputs: flags.outputs } : {}),
      ...(limits.rateLimit === undefined ? {} : { rateLimit: String(limits.rateLimit) }),
      ...(limits.concurrency === undefined ? {} : { concurrency: String(limits.concurrency) }),
    };
    const common = {
      operation,
      ...(Object.keys(settings).length > 0 ? { settings } : {}),
      ...(flags.refresh ? { refresh: true } : {}),
      ...(flags.expectNoChanges ? { expectNoChanges: true } : {}),
      continueOnError: flags.continueOnError !== false,
      signal: abort.signal,
      deadline: stopAt,
      graceMs,
      color: process.stdout.isTTY === true && flags.format === "text",
      ...(flags.format === "text" && process.stdout.isTTY
        ? { onOutput: (text: string) => io.stderr.write(text) }
        : {}),
    } satisfies Partial<OperationOptions>;
    // Before any process starts: a runtime folder another user can change is said here, once.
    checkRuntimeFolder(io.env);
    const emulator = emulatorDir(flags, io.cwd);
    let outcome: OperationOutcome;
    if (emulator) {
      const result = await runMainJob({
        ...common,
        projectDir,
        stackName: flags.stack ?? EMULATOR_STACK,
        stateDir: emulator,
      });
      outcome = result.outcome;
    } else {
      const connection = connectionOf(flags, io.env);
      apiKey = connection?.apiKey;
      outcome = await runOperation({
        ...common,
        projectDir,
        stackName: flags.stack,
        ...backendOf(flags, io),
        // The program's and the provider's messages then name the flags and variables it came from.
        ...(connection ? { connection, settingsFromCommandLine: true } : {}),
      });
    }
    const text =
      flags.format === "json"
        ? renderJson(outcome, projectDir)
        : flags.format === "markdown"
          ? renderMarkdown(outcome, projectDir)
          : renderText(outcome, projectDir);
    io.stdout.write(redact(text, [apiKey]));
    if (stoppedBy) return stopped(operation, stoppedBy, deadline.shown, io, true);
    return exitCodeOf(outcome) as ExitCode;
  } catch (error) {
    if (stoppedBy) return stopped(operation, stoppedBy, deadline.shown, io, false);
    throw error;
  } finally {
    clearTimeout(timer);
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

/** The engine stopped when asked: what it finished is in the state, the rest is not done. */
function stopped(
  operation: Operation,
  reason: StopReason,
  deadline: string,
  io: CommandIo,
  reported: boolean,
): ExitCode {
  const why = reason === "deadline" ? `at its deadline (${deadline})` : `by ${reason}`;
  const done = reported
    ? "the report above says what was done, and the next run applies what is left"
    : "nothing was applied, and the next run applies it";
  io.stderr.write(`incident-sync ${operation}: stopped ${why}; ${done}.\n`);
  if (reason === "deadline") return ExitCode.DeadlinePassed;
  return reason === "SIGINT" ? ExitCode.StoppedBySigint : ExitCode.StoppedBySigterm;
}

/** `cancel`: clears every lock of the stack. Engine errors throw; the runner makes them exit 1. */
export async function runCancel(flags: StackCommandFlags, io: CommandIo): Promise<ExitCode> {
  const projectDir = resolve(io.cwd, flags.project);
  const emulator = emulatorDir(flags, io.cwd);
  const stack = await openProjectStack({
    projectDir,
    // A sandbox's own stack is the bare name of the stack it stands for (runMainJob).
    stackName: emulator ? bareStackName(flags.stack ?? EMULATOR_STACK) : flags.stack,
    create: false,
    ...(emulator
      ? { ...mainJobState(emulator), passphrase: LOCAL_DEMO_PASSPHRASE }
      : backendOf(flags, io)),
  });
  let result: CancelResult;
  try {
    result = await stack.cancel({ force: flags.force === true });
  } finally {
    stack.close();
  }
  io.stdout.write(cancelMessage(stack.name, result));
  return 0;
}

function cancelMessage(stackName: string, result: CancelResult): string {
  if (result.kind === "asked-backend") return `Cleared the locks of stack ${stackName}.\n`;
  if (result.locks.length === 0) return `Stack ${stackName} has no lock.\n`;
  return result.locks
    .map(
      (lock) =>
        `Cleared the lock of stack ${stackName} held by ${describeLock(lock)}${lock.local ? (lock.stale ? ", which no longer runs" : ", which still runs (--force)") : ", on another machine, where whether it still runs cannot be told from here"}.\n`,
    )
    .join("");
}

/** The backend: `--state DIR`, else PULUMI_BACKEND_URL, with the passphrase of the environment. */
function backendOf(flags: Pick<StackCommandFlags, "state">, io: CommandIo) {
  const backendUrl = flags.state
    ? `file://${resolve(io.cwd, flags.state)}`
    : io.env.PULUMI_BACKEND_URL;
  if (!backendUrl) {
    throw new UsageError(
      "Where is the state? Pass --state <dir> (a directory of your own) or set PULUMI_BACKEND_URL (file://…, s3://…, or https://api.pulumi.com with PULUMI_ACCESS_TOKEN).",
    );
  }
  const passphrase = io.env.PULUMI_CONFIG_PASSPHRASE;
  return { backendUrl, ...(passphrase === undefined ? {} : { passphrase }) };
}

/** The API to apply to, from flags or the environment; `undefined`: the stack config's. */
function connectionOf(flags: ApiFlags, env: NodeJS.ProcessEnv): ProgramConnection | undefined {
  const given = flags.apiUrl ?? flags.apiKey ?? flags.accountId ?? env[settingEnv("baseUrl")];
  if (given === undefined) return undefined;
  const connection = resolveApiConnection(flags, env);
  if (!connection.accountId) {
    throw new ApiOptionsError(
      "Missing the account id (--account-id or MONITORING_ACCOUNT_ID): the provider sends it with every call.",
    );
  }
  return {
    baseUrl: connection.baseUrl,
    apiKey: connection.apiKey,
    accountId: connection.accountId,
  };
}

/** The `--emulator` directory, resolved against the project; `undefined` when not asked for. */
function emulatorDir(
  flags: Pick<StackCommandFlags, "emulator" | "project">,
  cwd: string,
): string | undefined {
  if (flags.emulator === undefined || flags.emulator === false) return undefined;
  return resolve(cwd, flags.project, flags.emulator === true ? ".incident-sync" : flags.emulator);
}
