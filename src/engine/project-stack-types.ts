import type { OutputMap } from "@pulumi/pulumi/automation";
import type { EngineLocation } from "./engine-location";
import type { StackLock } from "./stack-locks";
import type { StackExport, StackRunResult, UpOptions } from "./stack-run";

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
