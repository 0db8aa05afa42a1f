import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  type ConfigMap,
  LocalWorkspace,
  type OpMap,
  type OutputMap,
  PulumiCommand,
  type PulumiFn,
  type Stack,
} from "@pulumi/pulumi/automation";
import { engineEnvironment } from "./engine-environment";
import { type EngineLocation, resolveEngine } from "./engine-location";
import { EngineError, EngineOperationError } from "./errors";
import { programFromModule } from "./program-module";
import { readProjectSettings, readStackDefaults } from "./project-files";
import { findRepoRoot } from "./repo-root";

/** One config value; `secret: true` stores it encrypted and hides it from every output. */
export interface ConfigEntry {
  value: string;
  secret?: boolean;
}

export interface EngineStackOptions {
  /** Stack name, e.g. `dev`. Non-secret defaults come from `Pulumi.<stack>.yaml` when it exists. */
  stackName: string;
  /**
   * A directory the harness owns: the `file://` backend, PULUMI_HOME and the workspace (with
   * the stack's config, including encrypted secrets) live under it. Never the repository root.
   * @example ".incident-sync"
   */
  stateDir: string;
  /**
   * The program: a compiled CommonJS module path (e.g. `dist/index.js`) or a function.
   * @default the `main` of Pulumi.yaml, resolved against the repository root
   */
  program?: string | PulumiFn;
  /** Config to set on the stack, keyed `namespace:key`, e.g. `incident-sync:apiKey`. */
  config?: Record<string, ConfigEntry>;
  /** Passphrase of the stack's secrets provider. Keep it stable for a given stateDir. */
  passphrase: string;
  /**
   * Receives the engine's human-readable output as it streams. `false` silences it.
   * @default writes to stdout when stdout is a terminal
   */
  onOutput?: ((text: string) => void) | false;
  /** Repository root; found from this file when omitted. */
  repoRoot?: string;
  /** A resolved engine; resolved (and built when needed) when omitted. */
  engine?: EngineLocation;
}

/** What an `up`, `refresh` or `destroy` did. */
export interface EngineRunResult {
  operation: "up" | "refresh" | "destroy";
  /** `succeeded` or `failed`, as the engine reports it. */
  result: string;
  /** Resource counts per operation, e.g. `{ create: 1 }` or `{ same: 3 }`. */
  changes: OpMap;
  /** Whether anything other than `same` (or reads) happened. */
  changed: boolean;
  durationMs: number;
  /** The engine's human-readable log of the run. */
  stdout: string;
}

export interface EngineUpResult extends EngineRunResult {
  operation: "up";
  outputs: OutputMap;
}

export interface EnginePreviewResult {
  operation: "preview";
  changes: OpMap;
  changed: boolean;
  durationMs: number;
  stdout: string;
}

export interface PreviewOptions {
  /** Fail (with EngineOperationError) when the preview would change anything. */
  expectNoChanges?: boolean;
  /** Refresh the state from the provider before previewing, so drift shows up as changes. */
  refresh?: boolean;
}

export interface RefreshOptions {
  /** Fail when the refresh finds drift. */
  expectNoChanges?: boolean;
}

/** A stack of the incident-sync project in an isolated workspace, driven by the real engine. */
export interface EngineStack {
  readonly name: string;
  readonly engine: EngineLocation;
  /** The workspace directory holding Pulumi.yaml and the stack settings (under stateDir). */
  readonly workDir: string;
  setConfig(config: Record<string, ConfigEntry>): Promise<void>;
  up(options?: { message?: string }): Promise<EngineUpResult>;
  preview(options?: PreviewOptions): Promise<EnginePreviewResult>;
  refresh(options?: RefreshOptions): Promise<EngineRunResult>;
  destroy(): Promise<EngineRunResult>;
  outputs(): Promise<OutputMap>;
}

const quietOps = new Set(["same", "read"]);

function hasChanges(changes: OpMap): boolean {
  return Object.entries(changes).some(([op, count]) => !quietOps.has(op) && (count ?? 0) > 0);
}

/**
 * Opens (creating when needed) a stack in an isolated workspace with a local `file://`
 * backend under `options.stateDir`, with its config and secrets set.
 *
 * @example
 * const stack = await openEngineStack({
 *   stackName: "dev",
 *   stateDir: ".incident-sync",
 *   passphrase: "local-demo",
 *   config: { "incident-sync:apiKey": { value: key, secret: true } },
 * });
 * const { changes, outputs } = await stack.up();
 */
export async function openEngineStack(options: EngineStackOptions): Promise<EngineStack> {
  const repoRoot = options.repoRoot ?? findRepoRoot();
  const stateDir = resolve(repoRoot, options.stateDir);
  if (stateDir === repoRoot) {
    throw new EngineError(
      "The engine's stateDir must be a directory of its own, not the repository root.",
    );
  }
  const engine = options.engine ?? (await resolveEngine({ repoRoot }));
  const project = readProjectSettings(repoRoot);
  const program =
    typeof options.program === "function"
      ? options.program
      : programFromModule(resolve(repoRoot, options.program ?? project.main ?? "dist/index.js"));
  const workDir = join(stateDir, "workspace");
  for (const dir of [workDir, join(stateDir, "backend"), join(stateDir, "home")]) {
    mkdirSync(dir, { recursive: true });
  }
  const pulumiCommand = await PulumiCommand.get({ root: engine.root }).catch((error: unknown) => {
    throw new EngineError(
      `The Pulumi CLI at ${engine.pulumi} did not run: ${(error as Error).message}. Run \`npm run engine\` to rebuild it.`,
      { cause: error },
    );
  });
  const envVars = engineEnvironment({
    engine,
    repoRoot,
    stateDir,
    passphrase: options.passphrase,
  });
  // The program runs in-process, so the project settings carry no `main`: the workspace only
  // needs the project's name and runtime.
  const { main: _main, ...projectSettings } = project;
  let stack: Stack;
  try {
    stack = await LocalWorkspace.createOrSelectStack(
      { projectName: project.name, stackName: options.stackName, program },
      { workDir, pulumiCommand, envVars, projectSettings, pulumiHome: envVars.PULUMI_HOME },
    );
    await stack.setAllConfig({
      ...readStackDefaults(repoRoot, options.stackName),
      ...toConfigMap(options.config ?? {}),
    });
  } catch (error) {
    throw wrap("open", options.stackName, error);
  }

  const onOutput =
    options.onOutput === false
      ? undefined
      : (options.onOutput ??
        (process.stdout.isTTY ? (text: string) => process.stdout.write(text) : undefined));
  const colorOpts = { color: process.stdout.isTTY ? ("auto" as const) : ("never" as const) };

  return {
    name: options.stackName,
    engine,
    workDir,
    async setConfig(config) {
      await stack.setAllConfig(toConfigMap(config));
    },
    async up(upOptions = {}) {
      const started = Date.now();
      const result = await stack
        .up({
          onOutput,
          ...colorOpts,
          ...(upOptions.message ? { message: upOptions.message } : {}),
        })
        .catch((error: unknown) => {
          throw wrap("up", options.stackName, error);
        });
      const changes = result.summary.resourceChanges ?? {};
      return {
        operation: "up",
        result: result.summary.result,
        changes,
        changed: hasChanges(changes),
        durationMs: Date.now() - started,
        stdout: result.stdout,
        outputs: result.outputs,
      };
    },
    async preview(previewOptions = {}) {
      const started = Date.now();
      const result = await stack
        .preview({
          onOutput,
          ...colorOpts,
          expectNoChanges: previewOptions.expectNoChanges === true,
          refresh: previewOptions.refresh === true,
        })
        .catch((error: unknown) => {
          throw wrap("preview", options.stackName, error);
        });
      return {
        operation: "preview",
        changes: result.changeSummary,
        changed: hasChanges(result.changeSummary),
        durationMs: Date.now() - started,
        stdout: result.stdout,
      };
    },
    async refresh(refreshOptions = {}) {
      const started = Date.now();
      const result = await stack
        .refresh({
          onOutput,
          ...colorOpts,
          expectNoChanges: refreshOptions.expectNoChanges === true,
        })
        .catch((error: unknown) => {
          throw wrap("refresh", options.stackName, error);
        });
      const changes = result.summary.resourceChanges ?? {};
      return {
        operation: "refresh",
        result: result.summary.result,
        changes,
        changed: hasChanges(changes),
        durationMs: Date.now() - started,
        stdout: result.stdout,
      };
    },
    async destroy() {
      const started = Date.now();
      const result = await stack.destroy({ onOutput, ...colorOpts }).catch((error: unknown) => {
        throw wrap("destroy", options.stackName, error);
      });
      const changes = result.summary.resourceChanges ?? {};
      return {
        operation: "destroy",
        result: result.summary.result,
        changes,
        changed: hasChanges(changes),
        durationMs: Date.now() - started,
        stdout: result.stdout,
      };
    },
    async outputs() {
      return stack.outputs();
    },
  };
}

function toConfigMap(config: Record<string, ConfigEntry>): ConfigMap {
  return Object.fromEntries(
    Object.entries(config).map(([key, entry]) => [
      key,
      { value: entry.value, secret: entry.secret === true },
    ]),
  );
}

/**
 * Automation API errors carry the whole command line and output; keep the engine's own
 * diagnostics (the lines a person needs) and drop the rest.
 */
function wrap(operation: string, stackName: string, error: unknown): EngineOperationError {
  if (error instanceof EngineError) {
    return new EngineOperationError(operation, stackName, error.message, { cause: error });
  }
  const detail = engineDiagnostics(error);
  return new EngineOperationError(
    operation,
    stackName,
    `pulumi ${operation} on stack ${stackName} failed${detail ? `:\n${detail}` : "."}`,
    { cause: error },
  );
}

function engineDiagnostics(error: unknown): string {
  const result =
    typeof error === "object" && error !== null && "commandResult" in error
      ? (error.commandResult as { stdout?: string; stderr?: string })
      : undefined;
  if (!result) return error instanceof Error ? error.message : String(error);
  const stdout = result.stdout ?? "";
  const diagnostics = /\nDiagnostics:\n([\s\S]*?)(?:\n\S[^\n]*:\n|$)/.exec(stdout)?.[1];
  const lines = [diagnostics ?? "", result.stderr ?? ""]
    .join("\n")
    .split("\n")
    .map((line) => line.trimEnd())
    // The Automation API prefixes the full command line, which says nothing to a person.
    .filter((line) => line.trim() !== "" && !line.startsWith("Command failed with exit code"));
  return lines.slice(-20).join("\n");
}
