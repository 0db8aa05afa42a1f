/* What one run of the engine is asked for and gives back, as `openProjectStack`'s stacks tell it. */
import type { EngineRunEvents } from "./engine-events";

export interface UpOptions {
  message?: string;
  continueOnError?: boolean;
  /**
   * The resource names the program declares: those new to the state are claimed first
   * (`src/incident/claim.ts`). Unset: one run, as the plain CLI does.
   */
  claim?: readonly string[];
  /**
   * The names each claimed resource had before (its definition's `aliases`): a resource the
   * state holds under an old name is renamed, not new, and needs no claim.
   */
  aliases?: Readonly<Record<string, readonly string[]>>;
}

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
