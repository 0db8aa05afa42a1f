/*
 * What `incident-sync up` (and `preview`, `refresh`) tells the program and the provider plugin
 * about its run through the engine's environment, beside the claim phase: when the run must
 * end. A plain `pulumi up` sets nothing.
 */

/** The run's deadline, an ISO 8601 time: past it, the program's and the provider's calls stop. */
export const RUN_DEADLINE_VARIABLE = "INCIDENT_SYNC_RUN_DEADLINE";

/** The run's deadline in epoch milliseconds, or undefined when the run has none. */
export function runDeadlineOf(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const value = env[RUN_DEADLINE_VARIABLE];
  const time = value ? Date.parse(value) : Number.NaN;
  return Number.isFinite(time) ? time : undefined;
}
