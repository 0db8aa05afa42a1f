/*
 * What `init-command.ts` (the options and help) and `init.ts` (the work) both name, kept
 * apart from either so the command imports the work only when it runs.
 */

/** The formats of `init`. */
export const INIT_FORMATS = ["text", "json"] as const;
export type InitFormat = (typeof INIT_FORMATS)[number];

export interface InitFlags {
  readonly language?: "js" | "ts";
  readonly definitionsDir: string;
  /** Unset: `prod`. */
  readonly stack?: string[];
  readonly name?: string;
  readonly ci?: "github";
  readonly backend: string;
  readonly format: InitFormat;
}
