import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { bareStackName } from "../definitions/stack-name";
import { CLAIM_PHASE_VARIABLE, type ClaimPhase } from "../incident";
import { engineEnvironment } from "./engine-environment";
import type { EngineLocation } from "./engine-location";
import { EngineError } from "./errors";
import { readProjectName } from "./project-files";
import { type PulumiRunResult, runPulumi } from "./pulumi-process";
import { resolveEngine } from "./resolve-engine";
import { makeRunFolder } from "./run-folders";
import { describeLock, removeLocks, stackLocks } from "./stack-locks";

/** What the engine's commands of one opened stack share. */
export interface EngineCliOptions {
  projectDir: string;
  backendUrl: string;
  passphrase?: string | undefined;
  pulumiHome?: string | undefined;
  workDir?: string | undefined;
  engine?: EngineLocation | undefined;
  skipCheckpoints?: boolean | undefined;
  onOutput?: ((text: string) => void) | undefined;
  log?: ((line: string) => void) | undefined;
  signal?: AbortSignal | undefined;
  deadline?: number | undefined;
  graceMs?: number | undefined;
  settingsFromCommandLine?: boolean | undefined;
  sandboxOf?: string | undefined;
}

/** How one command runs: its stdin, whether its output streams, its phase, its folder. */
export interface CommandOptions {
  stdin?: string;
  stream?: boolean;
  phase?: ClaimPhase;
  cwd?: string;
}

/**
 * The Pulumi CLI as one opened stack runs it: in the project directory, with the engine's
 * environment and the run's private folder, each command stopped by the signal and its lock
 * cleared when the CLI had to be killed.
 */
export class EngineCli {
  readonly projectDir: string;
  readonly project: string;
  readonly log: (line: string) => void;
  readonly skipCheckpoints: boolean;
  /** The stack whose lock a killed CLI may leave, once it is known. */
  lockStack: string | undefined;

  private constructor(
    readonly options: EngineCliOptions,
    project: { dir: string; name: string },
    readonly engine: EngineLocation,
    readonly workDir: string,
    private readonly env: Record<string, string>,
  ) {
    this.projectDir = project.dir;
    this.project = project.name;
    this.log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
    this.skipCheckpoints = options.skipCheckpoints ?? true;
  }

  /** Reads the project, resolves the engine, makes the run's folder and the environment. */
  static async start(options: EngineCliOptions): Promise<EngineCli> {
    const dir = resolve(options.projectDir);
    const name = readProjectName(dir);
    const engine = options.engine ?? (await resolveEngine());
    const workDir = options.workDir ?? makeRunFolder();
    mkdirSync(workDir, { recursive: true, mode: 0o700 });
    const env = engineEnvironment({
      engine,
      projectDir: dir,
      backendUrl: options.backendUrl,
      passphrase: options.passphrase,
      pulumiHome: options.pulumiHome,
      skipCheckpoints: options.skipCheckpoints ?? true,
      runDeadline: options.deadline,
      settingsFromCommandLine: options.settingsFromCommandLine,
      sandboxOf: options.sandboxOf,
    });
    if (options.pulumiHome) mkdirSync(options.pulumiHome, { recursive: true });
    // A self-managed backend in a new directory: the CLI expects the directory to exist.
    if (options.backendUrl.startsWith("file://")) {
      mkdirSync(fileURLToPath(options.backendUrl), { recursive: true });
    }
    return new EngineCli(options, { dir, name }, engine, workDir, env);
  }

  /** Runs one `pulumi` command. */
  async run(args: string[], extra: CommandOptions = {}): Promise<PulumiRunResult> {
    const { options } = this;
    const result = await runPulumi({
      pulumi: this.engine.pulumi,
      args,
      cwd: extra.cwd ?? this.projectDir,
      env: extra.phase ? { ...this.env, [CLAIM_PHASE_VARIABLE]: extra.phase } : this.env,
      outputDir: this.workDir,
      ...(extra.stdin === undefined ? {} : { stdin: extra.stdin }),
      ...(extra.stream && options.onOutput ? { onOutput: options.onOutput } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.graceMs === undefined ? {} : { graceMs: options.graceMs }),
    });
    if (result.killed) this.releaseLockOf(result.pid);
    return result;
  }

  /** Runs one `pulumi` command that must succeed; `what` names it in the error. */
  async must(args: string[], what: string, stdin?: string): Promise<PulumiRunResult> {
    const result = await this.run(args, stdin === undefined ? {} : { stdin });
    if (result.code !== 0) throw new EngineError(`${what} failed: ${cliError(result)}`);
    return result;
  }

  /** A CLI killed after its grace period leaves its lock: cleared here, as it is ours. */
  private releaseLockOf(pid: number | undefined): void {
    const stackName = this.lockStack;
    if (stackName === undefined) return;
    const { backendUrl } = this.options;
    const ours = stackLocks(backendUrl, this.project, bareStackName(stackName)).filter(
      (lock) => lock.local && lock.pid === pid && lock.stale,
    );
    removeLocks(ours);
    const killed = "The engine did not stop within its grace period and was killed;";
    this.log(
      ours.length > 0
        ? `${killed} its lock on stack ${stackName} (${ours.map(describeLock).join(", ")}) was cleared.`
        : backendUrl.startsWith("file://")
          ? `${killed} it held no lock on stack ${stackName}.`
          : `${killed} its lock on stack ${stackName} may remain in ${backendUrl}: clear it with \`incident-sync cancel --stack ${stackName}\` (or \`pulumi cancel\`) once no other run is in progress.`,
    );
  }
}

/** The CLI's own error lines, without its generic advice. */
export function cliError(result: PulumiRunResult): string {
  const text = `${result.stderr}\n${result.stdout}`
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
  return text.slice(-10).join("\n") || `exit ${result.code}`;
}
