import type { StackOperation } from "../../engine/project-stack";
import type { OutputsMode } from "../../settings/catalog";
import type { ApiFlags } from "../api-options";

/*
 * What `stack-command.ts` (the options and help) and `stack.ts` (the work) both name, kept
 * apart from either so the command imports the work, and the engine with it, only when it
 * runs.
 */

/** Formats of `up`, `preview` and `refresh`. */
export const STACK_FORMATS = ["text", "json", "markdown"] as const;
export type StackFormat = (typeof STACK_FORMATS)[number];

export interface StackCommandFlags extends ApiFlags {
  project: string;
  /** Unset: Pulumi's selected stack, or `EMULATOR_STACK` with `--emulator`. */
  stack?: string;
  state?: string;
  emulator?: string | boolean;
  enforce?: "observed" | "always";
  readBack?: "all" | "open";
  outputs?: OutputsMode;
  format: StackFormat;
  continueOnError: boolean;
  refresh?: boolean;
  expectNoChanges?: boolean;
  /** cancel: also the lock of a run that still runs on this machine. */
  force?: boolean;
}

/** The engine operations with a command of their own (`destroy` is Pulumi's). */
export type Operation = Exclude<StackOperation, "destroy">;
