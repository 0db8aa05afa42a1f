/**
 * With checkpoints skipped the state is written once, at the end, so `incident-sync up` first
 * claims (records) the incidents new to the state, in a run that sends nothing; the phase
 * reaches the program and the provider through this variable.
 */
export const CLAIM_PHASE_VARIABLE = "INCIDENT_SYNC_PHASE";

/**
 * `claim`: record the new incidents, apply nothing; `apply`: the run after a claim. Unset: a
 * run the Pulumi CLI started alone (`pulumi up`), which claims nothing.
 */
export type ClaimPhase = "claim" | "apply";

export function claimPhaseOf(env: NodeJS.ProcessEnv = process.env): ClaimPhase | undefined {
  const value = env[CLAIM_PHASE_VARIABLE];
  return value === "claim" || value === "apply" ? value : undefined;
}

/**
 * Whether a run of the plain CLI can forget adoptions if killed: it skips the checkpoints
 * that would record each one, and nothing claimed them first.
 */
export function adoptionsAtRisk(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.PULUMI_SKIP_CHECKPOINTS === "true" && claimPhaseOf(env) === undefined;
}

/**
 * The warning a run at risk prints once, naming the commands its reader runs (`commandLine` of
 * src/settings); a user of the plain CLI also learns that `incident-sync up` has no such gap.
 */
export function adoptionsAtRiskWarning(
  commands: { readonly cancel: string; readonly up: string },
  plainCli: boolean,
): string {
  const warning = `PULUMI_SKIP_CHECKPOINTS=true: the state is written at the end of this run. If the run is killed, the incidents it adopted are on no record until a run completes: run \`${commands.cancel}\` and \`${commands.up}\` again before you remove any definition, or removing it would not resolve its incident.`;
  return plainCli
    ? `${warning} \`incident-sync up\` has no such gap: it records new incidents in the state before applying them.`
    : warning;
}
