/*
 * What `import-command.ts` (the options and help) and `import.ts` (the work) both name, kept
 * apart from either so the command imports the work only when it runs.
 */

/** The formats of `import`. */
export const IMPORT_FORMATS = ["text", "json"] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];
