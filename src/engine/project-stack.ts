import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { OpType, OutputMap } from "@pulumi/pulumi/automation";
import {
  describeBackend,
  isSelfManagedBackend,
  selfManagedNameProblem,
} from "../definitions/backend";
import { bareStackName, sameStack } from "../definitions/stack-name";
import type { ClaimPhase } from "../incident";
import { claimThenApply } from "./claimed-up";
import { type CommandOptions, cliError, EngineCli } from "./engine-cli";
import { readEngineEvents } from "./engine-events";
import type { EngineLocation } from "./engine-location";
import { EngineError } from "./errors";
import { readStackSalt, writeRunConfig, writeStackSalt } from "./project-files";
import { describeLock, removeLocks, type StackLock, stackLocks } from "./stack-locks";
import type { StackExport, StackOperation, StackRunResult, UpOptions } from "./stack-run";

export type { StackExport, StackOperation, StackRunResult, UpOptions } from "./stack-run";

/** One config value; `secret: true` stores it encrypted, handed to the CLI on stdin. */
export interface ConfigEntry {
  value: string;
  secret?: boolean;
}

export interface ProjectStackOptions {
  /** The project directory, holding Pulumi.yaml. The CLI runs the program there, as `pulumi up` does. */
  projectDir: string;
  /**
   * The stack as Pulumi names it: `prod`, `acme/prod` or `acme/incidents/prod`. Unset: the
   * stack selected for the project (`pulumi stack select`), as `pulumi up` would run.
   */
  stackName?: string | undefined;
  /** `file://…` for a self-managed backend, `s3://…`, or Pulumi Cloud's URL. */
  backendUrl: string;
  /** Passphrase of the stack's passphrase secrets provider; unset for Pulumi Cloud. */
  passphrase?: string | undefined;
  /** An isolated PULUMI_HOME; the user's own when unset. */
  pulumiHome?: string | undefined;
  /**
   * Config for this run only, keyed `namespace:key`: applied to a private copy of
   * `Pulumi.<stack>.yaml`, so the committed file is left alone. Unset: the committed file as is.
   */
  config?: Record<string, ConfigEntry>;
  /** Where the run's private files go. @default a temporary directory, removed by `close()` */
  workDir?: string;
  /** A resolved engine; resolved (and built when needed) when omitted. */
  engine?: EngineLocation;
  /** Write the state once at the end instead of after every step. @default true (see BENCHMARKS.md) */
  skipCheckpoints?: boolean;
  /** Receives the engine's human-readable output as it streams. */
  onOutput?: (text: string) => void;
  /** Notices for a person, e.g. a stale lock cleared. @default stderr */
  log?: (line: string) => void;
  /**
   * Create the stack when the backend has none of that name: only `up` does, so that a
   * mistyped name in a preview, a refresh or a cancel never makes an empty stack.
   * @default true
   */
  create?: boolean;
  /**
   * A sandbox stack's folder: its own `Pulumi.<stack>.yaml` (its salt) lives there, never in
   * the project; runs take the project's plain settings. Needs `config`.
   */
  sandboxStackDir?: string;
  /**
   * The team's stack a sandbox stands for, as named (`acme/prod`): the sandbox's own stack is
   * its bare name (`prod`), as a self-managed backend has no other organization, and the
   * program declares the definitions of the stack named (`standInStack`).
   */
  sandboxOf?: string;
  /** Aborting stops the running operation gracefully. */
  signal?: AbortSignal;
  /**
   * When the run must end, in epoch milliseconds: the program's and the provider's calls stop
   * then (the engine's environment carries it), so the engine winds down at once when
   * `signal` is aborted at that time.
   */
  deadline?: number | undefined;
  /**
   * How long an engine asked to stop may take to finish its steps in flight and write the state
   * before it is killed (its lock is then cleared).
   * @default 30_000
   */
  graceMs?: number | undefined;
  /** The connection in `config` came from the command line: messages name its flags and variables. */
  settingsFromCommandLine?: boolean | undefined;
  /** Colour in the engine's output. @default false */
  color?: boolean;
}

/** What `cancel` did: lock files removed (and whose they were), or the backend asked. */
export type CancelResult =
  | { kind: "removed-files"; locks: StackLock[] }
  | { kind: "asked-backend" };

export interface ProjectStack {
  readonly name: string;
  readonly project: string;
  /**
   * The stack's full name, `organization/project/stack`, as the backend has it, and every
   * stack of the project there, by full name (`pulumi stack ls`, asked once, when needed).
   */
  listStacks(): Promise<StackListing>;
  readonly engine: EngineLocation;
  up(options?: UpOptions): Promise<StackRunResult>;
  preview(options?: { refresh?: boolean; expectNoChanges?: boolean }): Promise<StackRunResult>;
  refresh(options?: { expectNoChanges?: boolean }): Promise<StackRunResult>;
  destroy(): Promise<StackRunResult>;
  /** The stack outputs; secret ones come back as `[secret]` and marked secret. */
  outputs(): Promise<OutputMap>;
  /** `pulumi stack export`, parsed. */
  exportState(): Promise<StackExport>;
  /**
   * The stack's config as the engine resolves it for a run (the defaults of `Pulumi.yaml`,
   * the stack file, this run's values), by full key; a secret's value is left out.
   */
  config(): Promise<Record<string, string | undefined>>;
  /**
   * Removes every lock on the stack. A `file://` backend's locks are read first, to say whose
   * they were; any other backend is asked to clear them (`pulumi cancel`).
   */
  cancel(options?: { force?: boolean }): Promise<CancelResult>;
  /** Removes the run's private files. */
  close(): void;
}

/** A stack's full name and the stacks of its project in the backend. */
export interface StackListing {
  readonly qualifiedName: string;
  readonly backendStacks: readonly string[];
}

/**
 * Opens (creating when needed) a stack of the project on the real Pulumi CLI, as `pulumi up`
 * runs it; each operation first clears stale locks and drops a killed run's pending operations.
 */
export async function openProjectStack(options: ProjectStackOptions): Promise<ProjectStack> {
  // Said in our words before Pulumi refuses it in its own ("organization name must be …").
  const refused =
    options.stackName !== undefined && isSelfManagedBackend(options.backendUrl)
      ? selfManagedNameProblem(options.stackName, describeBackend(options.backendUrl))
      : undefined;
  if (refused !== undefined) throw new EngineError(`Stack ${refused}`);
  const cli = await EngineCli.start(options);
  const stackName = options.stackName ?? (await selectedStack(cli, options.backendUrl));
  cli.lockStack = stackName;
  await selectStack(cli, stackName, options);
  const sandboxFile = sandboxStackFile(options, stackName);
  if (sandboxFile !== undefined) await recoverSandboxSalt(cli, stackName, sandboxFile);
  const configFile = await writeConfigFile(cli, stackName, options, sandboxFile);
  return new OpenedStack(cli, stackName, configFile, options);
}

/** The stack `pulumi stack select` chose for the project, or an error saying how to name one. */
async function selectedStack(cli: EngineCli, backendUrl: string): Promise<string> {
  const shown = await cli.run(["stack", "--show-name", "--non-interactive"]);
  const name = shown.stdout.trim();
  if (shown.code === 0 && name !== "") return name;
  throw new EngineError(
    `Which stack? No --stack was given and no stack of this project is selected in ${describeBackend(backendUrl)}: pass --stack <name> (prod, acme/prod or acme/project/prod, as Pulumi names stacks), or select one with \`pulumi stack select <name>\`.`,
  );
}

/**
 * Selects the stack, creating it unless `create` is false. A sandbox stack is selected beside a
 * copy of Pulumi.yaml in its own folder, where the CLI writes its stack file.
 */
async function selectStack(
  cli: EngineCli,
  stackName: string,
  options: ProjectStackOptions,
): Promise<void> {
  const sandbox = options.sandboxStackDir;
  if (sandbox !== undefined) {
    mkdirSync(sandbox, { recursive: true });
    copyFileSync(join(cli.projectDir, "Pulumi.yaml"), join(sandbox, "Pulumi.yaml"));
  }
  const selected = await cli.run(
    [
      "stack",
      "select",
      "--stack",
      stackName,
      ...(options.create === false ? [] : ["--create"]),
      "--non-interactive",
      ...(options.passphrase === undefined ? [] : ["--secrets-provider", "passphrase"]),
    ],
    sandbox === undefined ? {} : { cwd: sandbox },
  );
  if (selected.code === 0) return;
  const where = describeBackend(options.backendUrl);
  if (/no stack named/i.test(`${selected.stderr}\n${selected.stdout}`)) {
    const create =
      sandbox === undefined
        ? `\`incident-sync up --stack ${stackName}\` creates it (so does \`pulumi stack init ${stackName}\`)`
        : `\`incident-sync up --emulator --stack ${stackName}\` creates it in the emulator's sandbox`;
    throw new EngineError(
      `Stack ${stackName} does not exist in ${where}: ${create}. Only up creates a stack, so that a mistyped name never makes an empty one.`,
    );
  }
  throw new EngineError(`Selecting stack ${stackName} in ${where} failed: ${cliError(selected)}`);
}

/** A sandbox stack's own `Pulumi.<stack>.yaml`, in its folder. */
function sandboxStackFile(options: ProjectStackOptions, stackName: string): string | undefined {
  const sandbox = options.sandboxStackDir;
  return sandbox === undefined
    ? undefined
    : join(sandbox, `Pulumi.${bareStackName(stackName)}.yaml`);
}

/**
 * A sandbox stack made before its stack file was kept beside it (or whose file was lost) still
 * has its passphrase's salt in its state: written back, so its secrets keep opening.
 */
async function recoverSandboxSalt(cli: EngineCli, stackName: string, file: string): Promise<void> {
  if (readStackSalt(file) !== undefined) return;
  const exported = await cli.must(
    ["stack", "export", "--stack", stackName],
    `Exporting stack ${stackName}`,
  );
  const salt = (
    JSON.parse(exported.stdout) as {
      deployment?: { secrets_providers?: { type?: string; state?: { salt?: unknown } } };
    }
  ).deployment?.secrets_providers?.state?.salt;
  if (typeof salt === "string") writeStackSalt(file, salt);
}

/**
 * The run's private copy of `Pulumi.<stack>.yaml` with `config` applied (a secret through
 * `pulumi config set --secret` on stdin), which every command then reads with
 * `--config-file`; none without `config`, and the committed file is read as it is.
 */
async function writeConfigFile(
  cli: EngineCli,
  stackName: string,
  options: ProjectStackOptions,
  sandboxFile: string | undefined,
): Promise<string | undefined> {
  if (!options.config) return undefined;
  const bareName = bareStackName(stackName);
  const configFile = join(cli.workDir, `Pulumi.${bareName}.yaml`);
  const entries = Object.entries(options.config);
  const plain = entries.filter(([, entry]) => !entry.secret);
  writeRunConfig(
    cli.projectDir,
    bareName,
    configFile,
    Object.fromEntries(plain.map(([key, entry]) => [key, entry.value])),
    sandboxFile,
  );
  for (const [key, entry] of entries.filter(([, entry]) => entry.secret)) {
    await cli.must(
      [
        "config",
        "set",
        "--secret",
        "--stack",
        stackName,
        "--config-file",
        configFile,
        "--non-interactive",
        key,
      ],
      `Setting the secret ${key}`,
      entry.value,
    );
  }
  return configFile;
}

const CHANGING: readonly OpType[] = [
  "create",
  "update",
  "delete",
  "replace",
  "create-replacement",
  "delete-replaced",
  "import",
];

/** An opened stack: every operation a command of the CLI over the run's files. */
class OpenedStack implements ProjectStack {
  readonly project: string;
  readonly engine: EngineLocation;
  private readonly bareName: string;
  private listing: Promise<StackListing> | undefined;

  constructor(
    private readonly cli: EngineCli,
    readonly name: string,
    private readonly configFile: string | undefined,
    private readonly options: ProjectStackOptions,
  ) {
    this.project = cli.project;
    this.engine = cli.engine;
    this.bareName = bareStackName(name);
  }

  listStacks(): Promise<StackListing> {
    this.listing ??= this.readListing();
    return this.listing;
  }

  private async readListing(): Promise<StackListing> {
    const listed = await this.cli.must(
      ["stack", "ls", "--json", "--fully-qualify-stack-names", "--non-interactive"],
      `Listing the stacks of project ${this.project}`,
    );
    const stacks = JSON.parse(listed.stdout) as { name: string; current?: boolean }[];
    const candidates = stacks.filter((stack) => sameStack(stack.name, this.name));
    return {
      qualifiedName:
        (candidates.find((stack) => stack.current) ?? candidates[0])?.name ?? this.name,
      backendStacks: stacks.map((stack) => stack.name),
    };
  }

  up(upOptions: UpOptions = {}): Promise<StackRunResult> {
    const args = [
      "up",
      "--yes",
      "--skip-preview",
      ...(upOptions.message ? ["--message", upOptions.message] : []),
      ...(upOptions.continueOnError ? ["--continue-on-error"] : []),
    ];
    // With a checkpoint after every step, each adoption is on record as it happens.
    const { claim } = upOptions;
    if (claim === undefined || !this.cli.skipCheckpoints) return this.runOperation("up", args);
    return claimThenApply(
      {
        bareName: this.bareName,
        project: this.project,
        stackName: this.name,
        aborted: () => this.options.signal?.aborted === true,
        log: this.cli.log,
        prepare: () => {
          this.clearStaleLocks();
          return this.dropPendingOperations();
        },
        exportState: () => this.exportState(),
        run: (runArgs, phase) => this.runOperation("up", runArgs, { prepared: true, phase }),
      },
      args,
      { ...upOptions, claim },
    );
  }

  preview(previewOptions: { refresh?: boolean; expectNoChanges?: boolean } = {}) {
    return this.runOperation(
      "preview",
      ["preview", "--diff", ...(previewOptions.refresh ? ["--refresh"] : [])],
      { expectNoChanges: previewOptions.expectNoChanges === true },
    );
  }

  refresh(refreshOptions: { expectNoChanges?: boolean } = {}) {
    return this.runOperation("refresh", ["refresh", "--yes", "--skip-preview"], {
      expectNoChanges: refreshOptions.expectNoChanges === true,
    });
  }

  destroy() {
    return this.runOperation("destroy", ["destroy", "--yes", "--skip-preview"]);
  }

  async outputs(): Promise<OutputMap> {
    const result = await this.cli.must(
      ["stack", "output", "--json", "--stack", this.name],
      `Reading the outputs of stack ${this.name}`,
    );
    const values = JSON.parse(result.stdout) as Record<string, unknown>;
    return Object.fromEntries(
      Object.entries(values).map(([key, value]) => [key, { value, secret: value === "[secret]" }]),
    );
  }

  async exportState(): Promise<StackExport> {
    const result = await this.cli.must(
      ["stack", "export", "--stack", this.name],
      `Exporting stack ${this.name}`,
    );
    return JSON.parse(result.stdout) as StackExport;
  }

  async config(): Promise<Record<string, string | undefined>> {
    const result = await this.cli.must(
      ["config", "--json", "--stack", this.name, ...this.configArgs()],
      `Reading the config of stack ${this.name}`,
    );
    const entries = JSON.parse(result.stdout) as Record<string, { value?: unknown }>;
    return Object.fromEntries(
      Object.entries(entries).map(([key, entry]) => [
        key,
        typeof entry.value === "string" ? entry.value : undefined,
      ]),
    );
  }

  async cancel(cancelOptions: { force?: boolean } = {}): Promise<CancelResult> {
    const { backendUrl } = this.options;
    if (!backendUrl.startsWith("file://")) {
      await this.cli.must(
        ["cancel", "--yes", "--stack", this.name],
        `Cancelling stack ${this.name}`,
      );
      return { kind: "asked-backend" };
    }
    const locks = stackLocks(backendUrl, this.project, this.bareName);
    const running = locks.filter((lock) => lock.local && !lock.stale);
    if (running.length > 0 && cancelOptions.force !== true) {
      throw new EngineError(
        `Stack ${this.name} is locked by ${running.map(describeLock).join(", ")}, a run still going on this machine; the lock stays. Wait for it, or stop it with \`kill -INT ${running[0]?.pid}\` (it finishes the steps in flight, writes the state and releases the lock). --force clears the lock anyway, and the next run then applies alongside it.`,
      );
    }
    removeLocks(locks);
    return { kind: "removed-files", locks };
  }

  close(): void {
    if (this.options.workDir === undefined)
      rmSync(this.cli.workDir, { recursive: true, force: true });
  }

  private configArgs(): string[] {
    return this.configFile ? ["--config-file", this.configFile] : [];
  }

  /** Before an operation: stale locks cleared, and (but for a preview) pending operations dropped. */
  private async prepare(operation: StackOperation): Promise<void> {
    this.clearStaleLocks();
    if (operation !== "preview") await this.dropPendingOperations();
  }

  private clearStaleLocks(): void {
    const locks = stackLocks(this.options.backendUrl, this.project, this.bareName);
    const stale = locks.filter((lock) => lock.stale);
    removeLocks(stale);
    for (const lock of stale) {
      this.cli.log(
        `Cleared a stale lock on stack ${this.name}: ${describeLock(lock)} no longer runs (a run that was killed).`,
      );
    }
    const live = locks.filter((lock) => !lock.stale);
    if (live.length > 0) {
      throw new EngineError(
        `Stack ${this.name} is locked by ${live.map(describeLock).join(", ")}: another run is in progress, or one was lost on another machine. When no run is in progress, clear the lock with \`incident-sync cancel --stack ${this.name} --state ${fileURLToPath(this.options.backendUrl)}\` (for npm start's stack: \`npm start -- --cancel\`).`,
      );
    }
  }

  /** The state as the run starts: without the operations a killed run left pending. */
  private async dropPendingOperations(): Promise<StackExport> {
    const state = await this.exportState();
    const pending = state.deployment.pending_operations ?? [];
    if (pending.length === 0) return state;
    this.cli.log(
      `Stack ${this.name} has ${pending.length} operation(s) left pending by a run that was killed (${pending.map((op) => `${op.type} ${op.resource.urn.slice(op.resource.urn.lastIndexOf("::") + 2)}`).join(", ")}); dropping them: this run redoes them, as every incident operation is idempotent.`,
    );
    const cleaned = { ...state, deployment: { ...state.deployment, pending_operations: [] } };
    await this.cli.must(
      ["stack", "import", "--stack", this.name, "--file", "-"],
      `Importing stack ${this.name}`,
      JSON.stringify(cleaned),
    );
    return cleaned;
  }

  /** One operation of the engine, read back from its event log. */
  private async runOperation(
    operation: StackOperation,
    args: string[],
    runOptions: { expectNoChanges?: boolean; phase?: ClaimPhase; prepared?: boolean } = {},
  ): Promise<StackRunResult> {
    if (!runOptions.prepared) await this.prepare(operation);
    const eventLog = join(this.cli.workDir, `events-${operation}-${Date.now()}.jsonl`);
    const started = Date.now();
    const command: CommandOptions = {
      stream: true,
      ...(runOptions.phase ? { phase: runOptions.phase } : {}),
    };
    const result = await this.cli.run(
      [
        ...args,
        "--stack",
        this.name,
        "--non-interactive",
        "--event-log",
        eventLog,
        "--color",
        this.options.color ? "always" : "never",
        ...this.configArgs(),
        ...(runOptions.expectNoChanges ? ["--expect-no-changes"] : []),
      ],
      command,
    );
    const events = readEngineEvents(eventLog);
    rmSync(eventLog, { force: true });
    return {
      operation,
      ...events,
      ok: result.code === 0,
      exitCode: result.code,
      changed: events.incidents.some((step) => CHANGING.includes(step.op)),
      durationMs: Date.now() - started,
      stdout: result.stdout,
      stderr: result.stderr,
    };
  }
}
