/**
 * A run that is killed must not forget an incident it adopted. With per-step checkpoints
 * skipped (incident-sync up's default: BENCHMARKS.md, "Scale") the engine writes the state
 * once, at the end, so an incident adopted by a killed run would be on no record: remove its
 * definition afterwards and no run would ever resolve it. So `incident-sync up` first
 * *claims* the incidents that are new to the state, in a run of the engine targeted at them
 * that records them without touching the status page, and only then applies. A claimed
 * incident is adopted by its next update, and its delete resolves it (when `onRemove` says
 * so) as it would an adopted one, since the claim may have been followed by the PUT.
 *
 * The phase reaches the program and the provider plugin through the engine's environment.
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

/** The warning a run at risk prints once. */
export const ADOPTIONS_AT_RISK_WARNING =
  "PULUMI_SKIP_CHECKPOINTS=true: the state is written at the end of this run. If the run is killed, the incidents it adopted are on no record until a run completes: run `pulumi cancel --yes` and `pulumi up` again before you remove any definition, or removing it would not resolve its incident. `incident-sync up` has no such gap: it records new incidents in the state before applying them.";
