import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { OpType, OutputMap } from "@pulumi/pulumi/automation";
import { bareStackName, sameStack } from "../definitions/stack-name";
import { CLAIM_PHASE_VARIABLE, type ClaimPhase } from "../incident";
import {
  describeUnrecorded,
  excludeArgs,
  heldIncidents,
  targetArgs,
  unrecordedAfter,
  withUnrecorded,
} from "./claim-record";
import { engineEnvironment } from "./engine-environment";
import { type EngineRunEvents, readEngineEvents } from "./engine-events";
import type { EngineLocation } from "./engine-location";
import { EngineError } from "./errors";
import { readProjectName, readStackSalt, writeRunConfig, writeStackSalt } from "./project-files";
import { type PulumiRunResult, runPulumi } from "./pulumi-process";
import { resolveEngine } from "./resolve-engine";
import { makeRunFolder } from "./run-folders";
import { describeLock, removeLocks, type StackLock, stackLocks } from "./stack-locks";

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
   * A sandbox stack (the emulator's): its own `Pulumi.<stack>.yaml`, with the encryption salt
   * of its passphrase, lives in this directory, never in the project, so it cannot collide
   * with a team's stack of the same name. Runs take the project's stack file's plain settings
   * and leave its secrets and salt alone. Needs `config` for the runs.
   */
  sandboxStackDir?: string;
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

export interface UpOptions {
  message?: string;
  continueOnError?: boolean;
  /**
   * The resource names the program declares. Those the state does not hold yet are claimed
   * first: a run of the engine targeted at them records them without applying anything, so a
   * run killed while adopting them cannot forget them (`src/incident/claim.ts`). Unset: one
   * run, as the plain CLI does.
   */
  claim?: readonly string[];
  /**
   * The names each claimed resource had before (its definition's `aliases`): a resource the
   * state holds under an old name is renamed, not new, and needs no claim.
   */
  aliases?: Readonly<Record<string, readonly string[]>>;
}

/** What `cancel` did: lock files removed (and whose they were), or the backend asked. */
export type CancelResult =
  | { kind: "removed-files"; locks: StackLock[] }
  | { kind: "asked-backend" };

export type StackOperation = "up" | "preview" | "refresh" | "destroy";

/** What one engine operation did. */
export interface StackRunResult extends EngineRunEvents {
  operation: StackOperation;
  /** Whether the CLI succeeded (for a preview with `expectNoChanges`, also that nothing changes). */
  ok: boolean;
  exitCode: number;
  /** Whether any incident is (or would be, for a preview) created, updated, replaced or deleted. */
  changed: boolean;
  durationMs: number;
  /** The engine's human-readable log. */
  stdout: string;
  /** The CLI's own errors (bad flags, backend access, locks). */
  stderr: string;
}

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

/** The parts of `pulumi stack export` incident-sync reads. */
export interface StackExport {
  version: number;
  deployment: {
    resources?: {
      urn: string;
      type: string;
      inputs?: Record<string, unknown>;
      outputs?: Record<string, unknown>;
    }[];
    pending_operations?: { type: string; resource: { urn: string } }[];
  };
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

/**
 * Opens (creating when needed) a stack of the project on the real Pulumi CLI, which runs the
 * program through the Node.js language host exactly as `pulumi up` does in the project
 * directory. Before each operation a lock left by a process of this host that no longer
 * exists is cleared (with a notice), and operations left pending by a killed run are dropped:
 * every incident operation is idempotent, so the next run redoes them.
 */
export async function openProjectStack(options: ProjectStackOptions): Promise<ProjectStack> {
  const projectDir = resolve(options.projectDir);
  const project = readProjectName(projectDir);
  const engine = options.engine ?? (await resolveEngine());
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const skipCheckpoints = options.skipCheckpoints ?? true;
  const ownWorkDir = options.workDir === undefined;
  const workDir = options.workDir ?? makeRunFolder();
  mkdirSync(workDir, { recursive: true, mode: 0o700 });
  const env = engineEnvironment({
    engine,
    projectDir,
    backendUrl: options.backendUrl,
    passphrase: options.passphrase,
    pulumiHome: options.pulumiHome,
    skipCheckpoints,
    runDeadline: options.deadline,
    settingsFromCommandLine: options.settingsFromCommandLine,
  });
  if (options.pulumiHome) mkdirSync(options.pulumiHome, { recursive: true });
  // A self-managed backend in a new directory: the CLI expects the directory to exist.
  if (options.backendUrl.startsWith("file://")) {
    mkdirSync(fileURLToPath(options.backendUrl), { recursive: true });
  }
  // The stack whose lock a killed CLI may leave: given, or once resolved (below).
  let lockStack = options.stackName;
  const pulumi = async (
    args: string[],
    extra: { stdin?: string; stream?: boolean; phase?: ClaimPhase; cwd?: string } = {},
  ) => {
    const result = await runPulumi({
      pulumi: engine.pulumi,
      args,
      cwd: extra.cwd ?? projectDir,
      env: extra.phase ? { ...env, [CLAIM_PHASE_VARIABLE]: extra.phase } : env,
      outputDir: workDir,
      ...(extra.stdin === undefined ? {} : { stdin: extra.stdin }),
      ...(extra.stream && options.onOutput ? { onOutput: options.onOutput } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.graceMs === undefined ? {} : { graceMs: options.graceMs }),
    });
    if (result.killed) releaseLockOf(result.pid);
    return result;
  };
  /** A CLI killed after its grace period leaves its lock: cleared here, as it is ours. */
  const releaseLockOf = (pid: number | undefined) => {
    if (lockStack === undefined) return;
    const stackName = lockStack;
    const ours = stackLocks(options.backendUrl, project, bareStackName(stackName)).filter(
      (lock) => lock.local && lock.pid === pid && lock.stale,
    );
    removeLocks(ours);
    log(
      ours.length > 0
        ? `The engine did not stop within its grace period and was killed; its lock on stack ${stackName} (${ours.map(describeLock).join(", ")}) was cleared.`
        : options.backendUrl.startsWith("file://")
          ? `The engine did not stop within its grace period and was killed; it held no lock on stack ${stackName}.`
          : `The engine did not stop within its grace period and was killed; its lock on stack ${stackName} may remain in ${options.backendUrl}: clear it with \`incident-sync cancel --stack ${stackName}\` (or \`pulumi cancel\`) once no other run is in progress.`,
    );
  };
  const must = async (args: string[], what: string, stdin?: string) => {
    const result = await pulumi(args, stdin === undefined ? {} : { stdin });
    if (result.code !== 0) throw new EngineError(`${what} failed: ${cliError(result)}`);
    return result;
  };

  const stackName = options.stackName ?? (await selectedStack(pulumi, options.backendUrl));
  lockStack = stackName;
  // What Pulumi.<stack>.yaml, URNs and a file backend's folders hold: the name without its org.
  const bareName = bareStackName(stackName);

  // A sandbox stack is selected (and created) beside a copy of Pulumi.yaml in its own folder,
  // where the CLI writes its stack file; the runs then pass that file's copy as --config-file.
  const sandbox = options.sandboxStackDir;
  if (sandbox !== undefined) {
    mkdirSync(sandbox, { recursive: true });
    copyFileSync(join(projectDir, "Pulumi.yaml"), join(sandbox, "Pulumi.yaml"));
  }
  const selected = await pulumi(
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
  if (selected.code !== 0) {
    if (/no stack named/i.test(`${selected.stderr}\n${selected.stdout}`)) {
      const create =
        sandbox === undefined
          ? `\`incident-sync up --stack ${stackName}\` creates it (so does \`pulumi stack init ${stackName}\`)`
          : `\`incident-sync up --emulator --stack ${stackName}\` creates it in the emulator's sandbox`;
      throw new EngineError(
        `Stack ${stackName} does not exist in ${describeBackend(options.backendUrl)}: ${create}. Only up creates a stack, so that a mistyped name never makes an empty one.`,
      );
    }
    throw new EngineError(
      `Selecting stack ${stackName} in ${describeBackend(options.backendUrl)} failed: ${cliError(selected)}`,
    );
  }
  /**
   * A sandbox stack made before its stack file was kept beside it (or whose file was lost)
   * still has its passphrase's salt in its state: written back, so its secrets keep opening.
   */
  const recoverSandboxSalt = async (file: string) => {
    if (readStackSalt(file) !== undefined) return;
    const exported = await must(
      ["stack", "export", "--stack", stackName],
      `Exporting stack ${stackName}`,
    );
    const salt = (
      JSON.parse(exported.stdout) as {
        deployment?: { secrets_providers?: { type?: string; state?: { salt?: unknown } } };
      }
    ).deployment?.secrets_providers?.state?.salt;
    if (typeof salt === "string") writeStackSalt(file, salt);
  };
  let listing: Promise<StackListing> | undefined;
  const listStacks = async (): Promise<StackListing> => {
    const listed = await must(
      ["stack", "ls", "--json", "--fully-qualify-stack-names", "--non-interactive"],
      `Listing the stacks of project ${project}`,
    );
    const stacks = JSON.parse(listed.stdout) as { name: string; current?: boolean }[];
    const candidates = stacks.filter((stack) => sameStack(stack.name, stackName));
    return {
      qualifiedName:
        (candidates.find((stack) => stack.current) ?? candidates[0])?.name ?? stackName,
      backendStacks: stacks.map((stack) => stack.name),
    };
  };
  if (sandbox !== undefined) await recoverSandboxSalt(join(sandbox, `Pulumi.${bareName}.yaml`));

  let configFile: string | undefined;
  if (options.config) {
    configFile = join(workDir, `Pulumi.${bareName}.yaml`);
    const entries = Object.entries(options.config);
    writeRunConfig(
      projectDir,
      bareName,
      configFile,
      Object.fromEntries(
        entries.filter(([, entry]) => !entry.secret).map(([key, entry]) => [key, entry.value]),
      ),
      sandbox === undefined ? undefined : join(sandbox, `Pulumi.${bareName}.yaml`),
    );
    for (const [key, entry] of entries.filter(([, entry]) => entry.secret)) {
      await must(
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
  }

  const clearStaleLocks = () => {
    const locks = stackLocks(options.backendUrl, project, bareName);
    const stale = locks.filter((lock) => lock.stale);
    if (stale.length > 0) {
      removeLocks(stale);
      for (const lock of stale) {
        log(
          `Cleared a stale lock on stack ${stackName}: ${describeLock(lock)} no longer runs (a run that was killed).`,
        );
      }
    }
    const live = locks.filter((lock) => !lock.stale);
    if (live.length > 0) {
      throw new EngineError(
        `Stack ${stackName} is locked by ${live.map(describeLock).join(", ")}: another run is in progress, or one was lost on another machine. When no run is in progress, clear the lock with \`incident-sync cancel --stack ${stackName} --state ${fileURLToPath(options.backendUrl)}\` (for npm start's stack: \`npm start -- --cancel\`).`,
      );
    }
  };

  const exportState = async (): Promise<StackExport> => {
    const result = await must(
      ["stack", "export", "--stack", stackName],
      `Exporting stack ${stackName}`,
    );
    return JSON.parse(result.stdout) as StackExport;
  };

  /** The state as the run starts: without the operations a killed run left pending. */
  const dropPendingOperations = async (): Promise<StackExport> => {
    const state = await exportState();
    const pending = state.deployment.pending_operations ?? [];
    if (pending.length === 0) return state;
    log(
      `Stack ${stackName} has ${pending.length} operation(s) left pending by a run that was killed (${pending.map((op) => `${op.type} ${op.resource.urn.slice(op.resource.urn.lastIndexOf("::") + 2)}`).join(", ")}); dropping them: this run redoes them, as every incident operation is idempotent.`,
    );
    const cleaned = { ...state, deployment: { ...state.deployment, pending_operations: [] } };
    await must(
      ["stack", "import", "--stack", stackName, "--file", "-"],
      `Importing stack ${stackName}`,
      JSON.stringify(cleaned),
    );
    return cleaned;
  };

  const run = async (
    operation: StackOperation,
    args: string[],
    runOptions: { expectNoChanges?: boolean; phase?: ClaimPhase; prepared?: boolean } = {},
  ): Promise<StackRunResult> => {
    if (!runOptions.prepared) {
      clearStaleLocks();
      if (operation !== "preview") await dropPendingOperations();
    }
    const eventLog = join(workDir, `events-${operation}-${Date.now()}.jsonl`);
    const started = Date.now();
    const result = await pulumi(
      [
        ...args,
        "--stack",
        stackName,
        "--non-interactive",
        "--event-log",
        eventLog,
        "--color",
        options.color ? "always" : "never",
        ...(configFile ? ["--config-file", configFile] : []),
        ...(runOptions.expectNoChanges ? ["--expect-no-changes"] : []),
      ],
      { stream: true, ...(runOptions.phase ? { phase: runOptions.phase } : {}) },
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
  };

  const up = async (upOptions: UpOptions): Promise<StackRunResult> => {
    const args = [
      "up",
      "--yes",
      "--skip-preview",
      ...(upOptions.message ? ["--message", upOptions.message] : []),
      ...(upOptions.continueOnError ? ["--continue-on-error"] : []),
    ];
    // With a checkpoint after every step, each adoption is on record as it happens.
    if (upOptions.claim === undefined || !skipCheckpoints) return run("up", args);
    clearStaleLocks();
    const held = heldIncidents(await dropPendingOperations());
    const renamed = (name: string) =>
      (upOptions.aliases?.[name] ?? []).some((alias) => held.has(alias));
    const fresh = upOptions.claim.filter((name) => !held.has(name) && !renamed(name));
    if (fresh.length === 0) return run("up", args, { prepared: true, phase: "apply" });
    log(
      `Recording ${fresh.length} incident(s) new to stack ${stackName} in its state before applying them, so that a run killed midway cannot forget what it adopted.`,
    );
    // What was recorded is read back from the state, whatever the claim run's exit code says.
    const claim = async (names: readonly string[]) => {
      const claimed = await run("up", [...args, ...targetArgs(bareName, project, names)], {
        prepared: true,
        phase: "claim",
      });
      const state = options.signal?.aborted ? undefined : await exportState();
      return { claimed, unrecorded: state ? unrecordedAfter(claimed, names, state) : undefined };
    };
    const first = await claim(fresh);
    let claimMs = first.claimed.durationMs;
    let unrecorded = first.unrecorded;
    if (unrecorded && unrecorded.size > 0) {
      log(`Could not record ${describeUnrecorded(unrecorded)}; trying once more.`);
      const again = await claim([...unrecorded.keys()]);
      claimMs += again.claimed.durationMs;
      unrecorded = again.unrecorded;
    }
    if (unrecorded === undefined) return stoppedBeforeApply(first.claimed, claimMs);
    if (unrecorded.size > 0) {
      log(
        `Still could not record ${describeUnrecorded(unrecorded)}: this run leaves ${unrecorded.size === 1 ? "it" : "them"} out, so nothing is adopted without a record; the next up tries again.`,
      );
    }
    const applied = await run(
      "up",
      [...args, ...excludeArgs(bareName, project, unrecorded.keys())],
      {
        prepared: true,
        phase: "apply",
      },
    );
    const recorded = new Set(fresh.filter((name) => !unrecorded.has(name)));
    return withUnrecorded(adoptionsOf(applied, recorded, claimMs), unrecorded);
  };

  return {
    name: stackName,
    project,
    listStacks() {
      listing ??= listStacks();
      return listing;
    },
    engine,
    up: (upOptions = {}) => up(upOptions),
    preview: (previewOptions = {}) =>
      run("preview", ["preview", "--diff", ...(previewOptions.refresh ? ["--refresh"] : [])], {
        expectNoChanges: previewOptions.expectNoChanges === true,
      }),
    refresh: (refreshOptions = {}) =>
      run("refresh", ["refresh", "--yes", "--skip-preview"], {
        expectNoChanges: refreshOptions.expectNoChanges === true,
      }),
    destroy: () => run("destroy", ["destroy", "--yes", "--skip-preview"]),
    async outputs() {
      const result = await must(
        ["stack", "output", "--json", "--stack", stackName],
        `Reading the outputs of stack ${stackName}`,
      );
      const values = JSON.parse(result.stdout) as Record<string, unknown>;
      return Object.fromEntries(
        Object.entries(values).map(([key, value]) => [
          key,
          { value, secret: value === "[secret]" },
        ]),
      );
    },
    exportState,
    async config() {
      const result = await must(
        [
          "config",
          "--json",
          "--stack",
          stackName,
          ...(configFile ? ["--config-file", configFile] : []),
        ],
        `Reading the config of stack ${stackName}`,
      );
      const entries = JSON.parse(result.stdout) as Record<string, { value?: unknown }>;
      return Object.fromEntries(
        Object.entries(entries).map(([key, entry]) => [
          key,
          typeof entry.value === "string" ? entry.value : undefined,
        ]),
      );
    },
    async cancel(cancelOptions = {}): Promise<CancelResult> {
      if (!options.backendUrl.startsWith("file://")) {
        await must(["cancel", "--yes", "--stack", stackName], `Cancelling stack ${stackName}`);
        return { kind: "asked-backend" };
      }
      const locks = stackLocks(options.backendUrl, project, bareName);
      const running = locks.filter((lock) => lock.local && !lock.stale);
      if (running.length > 0 && cancelOptions.force !== true) {
        throw new EngineError(
          `Stack ${stackName} is locked by ${running.map(describeLock).join(", ")}, a run still going on this machine; the lock stays. Wait for it, or stop it with \`kill -INT ${running[0]?.pid}\` (it finishes the steps in flight, writes the state and releases the lock). --force clears the lock anyway, and the next run then applies alongside it.`,
        );
      }
      removeLocks(locks);
      return { kind: "removed-files", locks };
    },
    close() {
      if (ownWorkDir) rmSync(workDir, { recursive: true, force: true });
    },
  };
}

/**
 * The apply after a claim, told as one run: the update that adopts a claimed incident is its
 * create, and the claim's time is part of the run's.
 */
function adoptionsOf(
  applied: StackRunResult,
  claimed: ReadonlySet<string>,
  claimMs: number,
): StackRunResult {
  const incidents = applied.incidents.map((step) =>
    claimed.has(step.resource) && step.op === "update"
      ? { ...step, op: "create" as const, diffs: [] }
      : step,
  );
  const changes: StackRunResult["changes"] = {};
  for (const step of incidents) changes[step.op] = (changes[step.op] ?? 0) + 1;
  return { ...applied, incidents, changes, durationMs: applied.durationMs + claimMs };
}

/** The stack `pulumi stack select` chose for the project, or an error saying how to name one. */
async function selectedStack(
  pulumi: (args: string[]) => Promise<PulumiRunResult>,
  backendUrl: string,
): Promise<string> {
  const shown = await pulumi(["stack", "--show-name", "--non-interactive"]);
  const name = shown.stdout.trim();
  if (shown.code === 0 && name !== "") return name;
  throw new EngineError(
    `Which stack? No --stack was given and no stack of this project is selected in ${describeBackend(backendUrl)}: pass --stack <name> (prod, acme/prod or acme/project/prod, as Pulumi names stacks), or select one with \`pulumi stack select <name>\`.`,
  );
}

/** Where the state is, for a message: a file backend's folder, else the URL without credentials or query. */
function describeBackend(backendUrl: string): string {
  if (backendUrl.startsWith("file://")) return fileURLToPath(backendUrl);
  try {
    const url = new URL(backendUrl);
    return `${url.protocol}//${url.host}${url.pathname === "/" ? "" : url.pathname}`;
  } catch {
    return "the backend";
  }
}

/**
 * A run stopped (a signal, the deadline) after its claim and before its apply: nothing was
 * applied, whatever the claim recorded, so no incident shows as adopted.
 */
function stoppedBeforeApply(claimed: StackRunResult, claimMs: number): StackRunResult {
  return {
    ...claimed,
    ok: false,
    exitCode: claimed.exitCode || 1,
    changed: false,
    incidents: [],
    changes: {},
    durationMs: claimMs,
  };
}

/** The CLI's own error lines, without its generic advice. */
function cliError(result: PulumiRunResult): string {
  const text = `${result.stderr}\n${result.stdout}`
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
  return text.slice(-10).join("\n") || `exit ${result.code}`;
}
