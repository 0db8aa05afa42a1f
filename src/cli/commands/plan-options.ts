/*
 * What `plan-command.ts` (the options and help) and `plan.ts` (the work) both name, kept
 * apart from either so the command imports the work only when it runs.
 */

/** The formats of `plan`. */
export const PLAN_FORMATS = ["text", "markdown", "json"] as const;
export type PlanFormat = (typeof PLAN_FORMATS)[number];
