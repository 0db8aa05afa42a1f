import type { SettingsContext } from "./names";

/*
 * What `incident-sync up` (and `preview`, `refresh`) tells the program and the provider plugin
 * about its run through the engine's environment, beside the claim phase: when the run must
 * end, where the person set the connection, and the stack a sandbox stands for. A plain
 * `pulumi up` sets none of them.
 */

/** The run's deadline, an ISO 8601 time: past it, the program's and the provider's calls stop. */
export const RUN_DEADLINE_VARIABLE = "INCIDENT_SYNC_RUN_DEADLINE";

/**
 * `command-line` when the connection (the key above all) came from `incident-sync up`'s flags
 * and variables, so messages name `MONITORING_API_KEY`, not the stack config key the engine
 * received it as.
 */
export const SETTINGS_FROM_VARIABLE = "INCIDENT_SYNC_SETTINGS_FROM";

/**
 * The team's stack a sandbox run (`up --emulator --stack acme/prod`) stands for, as named: the
 * program declares that stack's definitions, whatever the sandbox's own backend calls its stack.
 */
export const SANDBOX_OF_VARIABLE = "INCIDENT_SYNC_SANDBOX_OF";

/**
 * Set on every run that incident-sync's engine harness starts (`incident-sync up`, `preview`,
 * `refresh`): its messages name incident-sync's commands, not the plain CLI's.
 */
export const RUN_BY_VARIABLE = "INCIDENT_SYNC_RUN_BY";

/** Who started the run, for the commands a message names: incident-sync's CLI, else Pulumi's. */
export function runCommandsContext(env: NodeJS.ProcessEnv = process.env): SettingsContext {
  return env[RUN_BY_VARIABLE] === "incident-sync" ? "cli" : "pulumi";
}

/** The stack a sandbox run stands for, or undefined outside a sandbox. */
export function sandboxOf(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env[SANDBOX_OF_VARIABLE] || undefined;
}

/** The run's deadline in epoch milliseconds, or undefined when the run has none. */
export function runDeadlineOf(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const value = env[RUN_DEADLINE_VARIABLE];
  const time = value ? Date.parse(value) : Number.NaN;
  return Number.isFinite(time) ? time : undefined;
}

/** The words to name settings with in the program's and the provider's messages. */
export function runSettingsContext(env: NodeJS.ProcessEnv = process.env): SettingsContext {
  return env[SETTINGS_FROM_VARIABLE] === "command-line" ? "cli" : "pulumi";
}
