import { rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { OpType, OutputMap } from "@pulumi/pulumi/automation";
import { bareStackName, sameStack } from "../definitions/stack-name";
import type { ClaimPhase } from "../incident";
import { claimThenApply } from "./claimed-up";
import type { CommandOptions, EngineCli } from "./engine-cli";
import { readEngineEvents } from "./engine-events";
import type { EngineLocation } from "./engine-location";
import { EngineError } from "./errors";
import type {
  CancelResult,
  ProjectStack,
  ProjectStackOptions,
  StackListing,
} from "./project-stack-types";
import { describeLock, removeLocks, stackLocks } from "./stack-locks";
import type { StackExport, StackOperation, StackRunResult, UpOptions } from "./stack-run";

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
export class OpenedStack implements ProjectStack {
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
