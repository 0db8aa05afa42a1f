/*
 * What `validate-command.ts` (the options and help) and `validate.ts` (the work) both name,
 * kept apart from either so the command imports the work only when it runs.
 */

/** The formats of `validate`. */
export const VALIDATE_FORMATS = ["text", "json", "github"] as const;
export type ValidateFormat = (typeof VALIDATE_FORMATS)[number];
